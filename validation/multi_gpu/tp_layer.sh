#!/usr/bin/env bash
# Predicts the Llama-3-8B layer of calibration/runs/bench_multi.py (TP=1 and TP=2, prefill and
# decode) on the measured 2x H200 profile and prints predicted vs measured (median of 30 samples).
# The layer is the generator's layer 0 (--layers 1), without embedding, final norm and LM head.
set -euo pipefail
G=${GPUCAST:-build/cli/gpucast}
RESULTS=validation/runs/h200x2/results_multi.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf "%-28s %10s %10s %8s\n" case measured_ms predicted_ms error
for tp in 1 2; do
  for cfg in "prefill 1 2048" "prefill 1 4096" "decode 1 4096" "decode 8 4096" "decode 32 4096"; do
    set -- $cfg
    mode=$1 batch=$2 n=$3
    if [ "$mode" = prefill ]; then len="--seq $n"; key="tp${tp}_prefill_b${batch}_seq${n}"; else len="--context $n"; key="tp${tp}_decode_b${batch}_kv${n}"; fi
    par=""; [ "$tp" = 2 ] && par="--tp 2"
    "$G" predict --gpus 2xh200-sxm --model llama-3-8b --layers 1 --mode "$mode" --batch "$batch" $len $par \
      --dump-workload "$TMP/full.toml" >/dev/null
    python3 - "$TMP/full.toml" "$TMP/layer.toml" <<'PY'
import re, sys
parts = open(sys.argv[1]).read().split('\n[[kernel]]\n')
keep = [parts[0]] + [p for p in parts[1:] if re.search(r'^name = "l0\.', p, re.M)]
open(sys.argv[2], 'w').write('\n[[kernel]]\n'.join(keep))
PY
    pred=$("$G" predict --system calibrated/systems/h200x2 --workload "$TMP/layer.toml" --format json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["total_us"]/1e3)')
    meas=$(python3 -c "import json; print(json.load(open('$RESULTS'))['results']['tp_layer']['$key']['ms']['median'])")
    python3 -c "print('%-28s %10.3f %10.3f %7.1f%%' % ('$key', $meas, $pred, ($pred/$meas-1)*100))"
  done
done
