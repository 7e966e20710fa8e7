#!/usr/bin/env bash
# Predicts the Llama-3-8B layer of calibration/runs/bench_multi.py (TP=1 and TP=N, prefill and
# decode) on a multi-GPU system profile and prints predicted vs measured (median of 30 samples).
# The layer is the generator's layer 0 (--layers 1), without embedding, final norm and LM head.
#
#   validation/multi_gpu/tp_layer.sh                 # 2x H200: TP=1 and TP=2 on the fitted 2-GPU profile
#   TP=4 RESULTS=validation/runs/h200x4/results_multi.json \
#     SYSTEM_ARGS="--system calibrated/systems/h200x2 --set gpus_per_node=4 --set fabric.domain_gpus=4" \
#     validation/multi_gpu/tp_layer.sh               # 4x H200, predicted with the 2-GPU profile (held out)
set -euo pipefail
G=${GPUCAST:-build/cli/gpucast}
TP=${TP:-2}
RESULTS=${RESULTS:-validation/runs/h200x2/results_multi.json}
SYSTEM_ARGS=${SYSTEM_ARGS:---system calibrated/systems/h200x2}
# The host that issues the work: the measured H200 box (hardware/catalog/hosts/h200-box.toml); the
# layers run eager PyTorch, and the default generic host is a faster machine than the lent VMs.
HOST_ARGS=${HOST_ARGS:---host h200-box}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf "%-28s %10s %10s %8s\n" case measured_ms predicted_ms error
for tp in 1 "$TP"; do
  for cfg in "prefill 1 2048" "prefill 1 4096" "decode 1 4096" "decode 8 4096" "decode 32 4096" "graph 1 4096"; do
    set -- $cfg
    mode=$1 batch=$2 n=$3 launch=eager
    if [ "$mode" = prefill ]; then len="--seq $n"; key="tp${tp}_prefill_b${batch}_seq${n}"; else len="--context $n"; key="tp${tp}_decode_b${batch}_kv${n}"; fi
    # the CUDA-graph-captured decode (all-reduces inside the graph)
    if [ "$mode" = graph ]; then mode=decode launch=graph key="${key}_cudagraph"; fi
    par=""; [ "$tp" != 1 ] && par="--tp $tp"
    "$G" predict --gpus "${TP}xh200-sxm" --model llama-3-8b --layers 1 --mode "$mode" --batch "$batch" $len $par \
      --launch "$launch" --dump-workload "$TMP/full.toml" >/dev/null
    python3 - "$TMP/full.toml" "$TMP/layer.toml" <<'PY'
import re, sys
parts = open(sys.argv[1]).read().split('\n[[kernel]]\n')
keep = [parts[0]] + [p for p in parts[1:] if re.search(r'^name = "l0\.', p, re.M)]
open(sys.argv[2], 'w').write('\n[[kernel]]\n'.join(keep))
PY
    # shellcheck disable=SC2086
    pred=$("$G" predict $SYSTEM_ARGS $HOST_ARGS --workload "$TMP/layer.toml" --format json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["total_us"]/1e3)')
    meas=$(python3 -c "import json; print(json.load(open('$RESULTS'))['results']['tp_layer']['$key']['ms']['median'])")
    python3 -c "print('%-28s %10.3f %10.3f %7.1f%%' % ('$key', $meas, $pred, ($pred/$meas-1)*100))"
  done
done
