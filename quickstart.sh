#!/usr/bin/env bash
# gpucast quick start on Debian: installs what is missing, builds, then either runs the demo or
# the tests.
#   ./quickstart.sh run    predict a Llama-3-8B block on an H100 and an RTX 4090 (bundled example)
#   ./quickstart.sh test   build and pass every test (what CI runs), then the same tests built
#                          with AddressSanitizer and UBSan in build-asan (GPUCAST_SKIP_ASAN=1 skips)
set -euo pipefail
mode=${1:-run}
case "$mode" in run | test) ;; *) echo "usage: $0 run|test" >&2; exit 2 ;; esac
cd "$(dirname "$0")"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Debian packages the build needs (pybind11 and Python's headers for the Python module), npm for
# the chart libraries of --html reports, and for the tests pytest and the browser the report test
# drives (dpkg-dev for the .deb test's cpack).
packages="build-essential cmake ninja-build libboost-graph-dev libtomlplusplus-dev libeigen3-dev libcli11-dev nlohmann-json3-dev libsimdjson-dev zlib1g-dev pybind11-dev python3-dev catch2 nodejs npm"
[ "$mode" = test ] && packages="$packages chromium python3-pytest dpkg-dev"
missing=""
for p in $packages; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"; done
# A Node.js from another source counts as installed.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=$(echo "$missing" | sed 's/ nodejs//; s/ npm//')
fi
if [ -n "${missing// /}" ]; then
  echo "Installing:$missing"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends $missing
fi

# Chart libraries for HTML reports (Vega, Vega-Lite and vega-embed, pinned in package-lock.json);
# gpucast reads them at run time and inlines them into each report.
if [ ! -f reports/web/node_modules/vega-embed/build/vega-embed.min.js ]; then
  if [ "$mode" = test ]; then
    (cd reports/web && npm ci --no-audit --no-fund --loglevel=error)
  else
    (cd reports/web && npm ci --no-audit --no-fund --loglevel=error) || echo "note: chart libraries not installed; --html will say how"
  fi
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build --parallel

# The Python module lands in build/python/gpucast; a gpucast.pth in the user site-packages (as
# `pip install -e` would) makes `import gpucast` work from anywhere (docs/python.md).
if [ -e build/python/gpucast/__init__.py ]; then
  site=$(python3 -m site --user-site 2>/dev/null || true)
  if [ -n "$site" ] && mkdir -p "$site" 2>/dev/null && echo "$PWD/build/python" > "$site/gpucast.pth" 2>/dev/null; then
    echo "Python: import gpucast works ($site/gpucast.pth -> $PWD/build/python)"
  else
    echo "Python: PYTHONPATH=$PWD/build/python python3 -c 'import gpucast'"
  fi
fi

if [ "$mode" = run ]; then
  build/cli/gpucast predict --gpu h100-sxm,rtx-4090 --workload workloads/examples/llama3-8b-block.toml
else
  ctest --test-dir build --output-on-failure --parallel "$(nproc)"
  if [ "${GPUCAST_SKIP_ASAN:-0}" != 1 ]; then
    # The whole suite again under AddressSanitizer + UBSan (-O1): any memory error, overflow or
    # other undefined behaviour fails the run. The browser, Python-module and package tests are left
    # to the build above (an instrumented library cannot load into a plain python3).
    start=$(date +%s)
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g" \
      -DGPUCAST_SANITIZE=ON -DGPUCAST_BUILD_CUDA=OFF -DGPUCAST_BUILD_PYTHON=OFF > /dev/null
    cmake --build build-asan --parallel
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" -E "browser|simulation time|install.deb"
    echo "sanitizer build and tests: $(( $(date +%s) - start )) s"
  fi
fi
