#!/usr/bin/env bash
# Renders gpucast's HTML reports in headless Chromium, as a person would open them, and checks that
# every chart drew marks, that the page logged no errors, and saves a screenshot of each.
#   report_browser_test.sh GPUCAST SOURCE_DIR OUT_DIR
# Exit 77 (skipped) when Chromium is missing on a developer machine; under CI a missing browser
# is a failure, because the test set-up installs it.
set -uo pipefail
gpucast=$1
src=$2
out=$3
mkdir -p "$out" "$out/calibrated"
export GPUCAST_HOME=$src

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium not found (apt-get install chromium)"
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi

failures=0
case_failed=0
fail() { echo "FAIL $1: $2"; case_failed=1; }

# name | expected charts | gpucast arguments
cases=(
  "predict|4|predict --gpu h100-sxm --workload $src/workloads/examples/llama3-8b-block.toml"
  "predict-model|4|predict --gpu rtx-4090 --model llama-3-8b --mode decode --batch 8 --context 2048"
  "compare|3|compare --gpus rtx-4090,l40s,h100-sxm --model llama-3-8b --mode decode --batch 16"
  "sweep|2|sweep --gpu h100-sxm --model llama-3-8b --layers 1 --vary batch=1:16:*2 --vary dtype=bf16,fp8"
  "cost|1|cost --gpu rtx-4090 --model llama-3-8b --mode decode --batch 8 --utilization 0.5"
  "compare-all|3|compare --gpus all --model llama-3-8b --mode decode --rank usd-per-result"
  "calibrate|1|calibrate --gpu h200-sxm --from $src/calibration/results/h200-sxm/microbench-run1.json --framework $src/calibration/results/h200-sxm/framework-run1.json --out $out/calibrated/h200-sxm.toml"
  "validate|2|validate --gpu calibrated/h100-sxm --offline $src/validation/h100-sxm/kernels.json"
  "hw-list|1|hw list"
  "hw-show|1|hw show h200-sxm"
  "explain|1|explain --gpu h100-sxm gemm m=4096 n=4096 k=4096 dtype=bf16"
)

for entry in "${cases[@]}"; do
  IFS='|' read -r name expected args <<< "$entry"
  case_failed=0
  html="$out/$name.html"
  # shellcheck disable=SC2086
  if ! "$gpucast" $args --html "$html" > "$out/$name.txt" 2> "$out/$name.err"; then
    fail "$name" "gpucast failed: $(cat "$out/$name.err")"
    failures=$((failures + 1))
    continue
  fi
  dom="$out/$name.dom.html"
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --enable-logging=stderr --v=0 \
    --virtual-time-budget=15000 --window-size=1280,2400 --screenshot="$out/$name.png" --dump-dom \
    "file://$html" > "$dom" 2> "$out/$name.browser.log"
  charts=$(grep -o 'data-chart="[^"]*"' "$dom" | wc -l)
  drawn=$(grep -o 'data-rendered="true"' "$dom" | wc -l)
  [ "$charts" -eq "$expected" ] || fail "$name" "expected $expected charts in the page, found $charts"
  [ "$drawn" -eq "$charts" ] || fail "$name" "$drawn of $charts charts drew marks ($(grep -o 'data-rendered="[a-z]*"' "$dom" | sort | uniq -c | tr '\n' ' '))"
  grep -q 'data-charts-done="true"' "$dom" || fail "$name" "the page did not finish drawing its charts"
  if grep -q 'data-errors=' "$dom"; then
    fail "$name" "the page recorded errors: $(grep -o '<pre id="gpucast-errors">[^<]*' "$dom" | head -c 400)"
  fi
  if grep 'CONSOLE' "$out/$name.browser.log" | grep -qiE 'uncaught|error'; then
    fail "$name" "console errors: $(grep 'CONSOLE' "$out/$name.browser.log" | grep -iE 'uncaught|error' | head -3)"
  fi
  if [ ! -s "$out/$name.png" ] || [ "$(stat -c %s "$out/$name.png")" -lt 20000 ]; then
    fail "$name" "no usable screenshot at $out/$name.png"
  fi
  if [ "$case_failed" -eq 0 ]; then
    echo "ok $name: $drawn/$charts charts drawn, screenshot $out/$name.png"
  else
    failures=$((failures + 1))
  fi
done

total=${#cases[@]}
echo "$((total - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
