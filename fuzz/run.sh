#!/usr/bin/env bash
# Runs every libFuzzer harness for SECONDS each, one at a time on one core at the lowest priority,
# and prints the executions each made. Builds build-fuzz (clang, ASan+UBSan, libFuzzer) first.
#   fuzz/run.sh 1800          # the issue's 30 minutes per harness
#   fuzz/run.sh 60 model_file # one harness
# New crashes land in fuzz/findings/<harness>/; once fixed, copy each into
# fuzz/regressions/<harness>/ so the regression test replays it under every build.
set -euo pipefail
seconds=${1:?usage: fuzz/run.sh SECONDS [HARNESS...]}
shift || true
cd "$(dirname "$0")/.."
harnesses=${*:-"gpu_file workload_file model_file set_vary trace_import system_file host_file"}
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGPUCAST_FUZZ=ON -DGPUCAST_BUILD_TESTS=OFF -DGPUCAST_BUILD_CUDA=OFF > /dev/null
cmake --build build-fuzz --parallel 2 --target $(for h in $harnesses; do printf 'fuzz_%s ' "$h"; done)
for h in $harnesses; do
  work=build-fuzz/corpus/$h
  mkdir -p "$work" "fuzz/findings/$h"
  dict=()
  [ -f "fuzz/$h.dict" ] && dict=(-dict="fuzz/$h.dict")
  seeds=("fuzz/corpus/$h")
  [ -d "fuzz/regressions/$h" ] && seeds+=("fuzz/regressions/$h")
  echo "== $h: ${seconds}s"
  # New inputs go to the scratch corpus; the repository's seeds and regressions are read only.
  nice -n 19 "build-fuzz/fuzz/fuzz_$h" "$work" "${seeds[@]}" "${dict[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="fuzz/findings/$h/" -print_final_stats=1 2>&1 |
    tee "build-fuzz/$h.log" | grep -E "^(#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" || true
done
