#!/usr/bin/env bash
# Packs the fuzz harnesses built in build-fuzz (fuzz/run.sh builds them), the shared libraries they
# load (the loader and libc included, so they run on a machine with another distribution), and the
# scratch corpora, into one archive for fuzz/run_parallel.sh on a machine with more cores.
#   fuzz/pack.sh .fuzzpack/pack.tar.xz
set -euo pipefail
out=${1:?usage: fuzz/pack.sh OUT.tar.xz}
cd "$(dirname "$0")/.."
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/corpus"
cp build-fuzz/fuzz/fuzz_* "$stage/bin/"
for lib in $(ldd build-fuzz/fuzz/fuzz_workload_file | awk '/=>/ {print $3} /ld-linux/ {print $1}'); do
  cp -L "$lib" "$stage/lib/"
done
[ -d build-fuzz/corpus ] && cp -r build-fuzz/corpus/. "$stage/corpus/"
mkdir -p "$(dirname "$out")"
tar -C "$stage" -cf - bin lib corpus | xz -6 -T2 > "$out.part"
mv "$out.part" "$out"
ls -l "$out"
