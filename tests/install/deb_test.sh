#!/usr/bin/env bash
# The installed gpucast needs nothing from the source tree: builds the .deb with cpack, unpacks it
# with dpkg-deb into a temporary root and runs it from there (GPUCAST_HOME unset, another working
# directory): `gpucast predict`, `--html` with the packaged chart libraries, and the Python module,
# checking that the data they read is the package's (the source tree is never consulted while
# <prefix>/share/gpucast sits above the binary).
#   deb_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1
src=$2
command -v dpkg-deb >/dev/null || { echo "dpkg-deb not found: skipped"; exit 77; }
command -v cpack >/dev/null || { echo "cpack not found: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

(cd "$build" && cpack -G DEB -B "$work/pkg" > "$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/pkg/gpucast_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no .deb under $work/pkg"
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"
dpkg-deb -I "$deb" | grep -E "Package|Version|Depends" || true
root="$work/root"
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x"
for f in usr/bin/gpucast usr/share/gpucast/hardware/catalog usr/share/gpucast/workloads/examples/llama3-8b-block.toml \
         usr/share/gpucast/reports/web/node_modules/vega/build/vega.min.js; do
  [ -e "$root/$f" ] || fail "the package lacks /$f"
done

# Outside the source tree: no GPUCAST_HOME, another working directory, and the compiled-in source
# path unreadable to the binary (it must find <root>/usr/share/gpucast from its own location).
unset GPUCAST_HOME
cd "$work" || fail "cd"
run() { env -u GPUCAST_HOME "$root/usr/bin/gpucast" "$@"; }
out=$(run predict --gpu h100-sxm --model llama-3-8b --mode decode --batch 16 --format json) || fail "gpucast predict: $out"
grep -q '"total_us"' <<< "$out" || fail "predict printed no total_us"
run predict --gpu h100-sxm --workload "$root/usr/share/gpucast/workloads/examples/llama3-8b-block.toml" \
  --html "$work/report.html" > /dev/null || fail "gpucast predict --html"
grep -q "vega-embed" "$work/report.html" || fail "the HTML report lacks the inlined chart libraries"
# The data it used is the package's, not the source tree's: the report names the GPU file it read.
used=$(grep -o 'h100-sxm, [^)]*)' "$work/report.html" | head -1)
echo "GPU description read: $used"
case "$used" in *"$root/usr/share/gpucast/hardware/catalog/"*) ;; *) fail "the installed binary did not read its own catalog: $used" ;; esac

# The Python module from the package.
py=$(ls -d "$root"/usr/lib/python3/dist-packages 2>/dev/null)
if [ -n "$py" ] && [ -e "$py/gpucast/__init__.py" ]; then
  total=$(PYTHONPATH="$py" python3 -c "import gpucast; print(gpucast.predict(gpu='h100-sxm', model='llama-3-8b', mode='decode', batch=16).total_us); print(gpucast.data_dir())") ||
    fail "the packaged Python module"
  echo "python: $total"
  case "$total" in *"$src"*) fail "the packaged Python module read the source tree" ;; esac
fi
echo "ok: the .deb runs gpucast predict and --html outside the source tree"
