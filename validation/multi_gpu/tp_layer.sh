#!/usr/bin/env bash
# Predicts the Llama-3-8B layer of calibration/runs/bench_multi.py (TP=1 and TP=N, prefill and
# decode) on a multi-GPU system profile and prints predicted vs measured (median of 30 samples).
# The layer is the generator's layer 0 (--layers 1), without embedding, final norm and LM head,
# predicted twice: as the generator emits it ("generator"), and rewritten into the kernels the
# benchmark's layer runs per its profiler traces ("bench kernels": HF-style fp32 RMSNorm as eight
# kernels, repeat_kv copies in prefill, no output transpose; validation/multi_gpu/bench_layer.py).
# Measured: the first run (results_multi.json) and, where given, the probe run (PROBE, a second
# machine of the same kind; its eager TP=N decodes ran with NCCL_DEBUG=INFO logging every call).
# gpu_busy: the bench-kernel prediction's GPU busy time (what the layer costs with the host out of
# the way), to tell the GPU model's error from the host model's.
# Per iteration: the benchmark times each of 30 (100) back-to-back iterations of a free-running loop,
# so a prediction is the time one more layer adds to the loop, T(two layers) - T(one layer): no cold
# start, no GPU tail after the host's last issue, and the ranks' host drift carries on (ITERATION=cold
# predicts one cold layer instead, as this script did before).
#
#   validation/multi_gpu/tp_layer.sh                 # 2x H200: TP=1 and TP=2 on the fitted 2-GPU profile
#   TP=4 RESULTS=validation/runs/h200x4/results_multi.json PROBE= \
#     SYSTEM_ARGS="--system calibrated/systems/h200x2 --set gpus_per_node=4 --set fabric.domain_gpus=4" \
#     validation/multi_gpu/tp_layer.sh               # 4x H200, predicted with the 2-GPU profile (held out)
set -euo pipefail
G=${GPUCAST:-build/cli/gpucast}
TP=${TP:-2}
RESULTS=${RESULTS:-validation/runs/h200x2/results_multi.json}
PROBE=${PROBE-validation/runs/h200x2/probe/results_probe.json}
# The third run (calibration/runs/bench_tp_skew.py, no NCCL logging, 100 free-running iterations per
# rank): the larger of the ranks' medians. Its TP=2 prefill s2048 host stamps set the system's
# nccl.program_host_us and nccl.rank_host_spread (validation/multi_gpu/skew_figures.py).
SKEW=${SKEW-validation/runs/h200x2/skew/results_skew.json}
SYSTEM_ARGS=${SYSTEM_ARGS:---system calibrated/systems/h200x2}
# The host that issues the work: the measured host of the lent 2x H200 machine the layers ran on
# (hardware/catalog/hosts/h200x2-box.toml); the layers run eager PyTorch, and the default generic host
# is a faster machine than the lent VMs. (Until this stop the default was h200-box, the single-H200
# VM's host.)
HOST_ARGS=${HOST_ARGS:---host h200x2-box}
PY=${PYTHON:-python3}
ITERATION=${ITERATION:-steady}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf "%-32s %9s %9s %9s %10s %7s %10s %7s %7s %9s\n" case measured probe skew_run generator error bench_krn error err_skw gpu_busy
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
    "$PY" - "$TMP/full.toml" "$TMP/layer.toml" <<'PY'
import re, sys
parts = open(sys.argv[1]).read().split('\n[[kernel]]\n')
keep = [parts[0]] + [p for p in parts[1:] if re.search(r'^name = "l0\.', p, re.M)]
open(sys.argv[2], 'w').write('\n[[kernel]]\n'.join(keep))
PY
    "$PY" "$HERE/bench_layer.py" "$TMP/layer.toml" "$TMP/bench.toml" "$mode"
    # Two iterations back to back: the kernels twice, in order.
    for f in layer bench; do
      "$PY" - "$TMP/$f.toml" "$TMP/${f}2.toml" <<'PY'
import sys
parts = open(sys.argv[1]).read().split('\n[[kernel]]\n')
second = [p.replace('name = "l0.', 'name = "l0i2.', 1) for p in parts[1:]]
open(sys.argv[2], 'w').write('\n[[kernel]]\n'.join(parts + second))
PY
    done
    total() {  # total_us of a workload file, in ms
      # shellcheck disable=SC2086
      "$G" predict $SYSTEM_ARGS $HOST_ARGS --workload "$1" --format json |
        "$PY" -c 'import json,sys; print(json.load(sys.stdin)["total_us"]/1e3)'
    }
    pred=$(total "$TMP/layer.toml")
    bench=$(total "$TMP/bench.toml")
    # shellcheck disable=SC2086
    busy=$("$G" predict $SYSTEM_ARGS $HOST_ARGS --workload "$TMP/bench.toml" --format json |
      "$PY" -c 'import json,sys; print(json.load(sys.stdin)["gpu_busy_us"]/1e3)')
    if [ "$ITERATION" = steady ]; then
      pred=$("$PY" -c "print($(total "$TMP/layer2.toml") - $pred)")
      bench=$("$PY" -c "print($(total "$TMP/bench2.toml") - $bench)")
    fi
    meas=$("$PY" -c "import json; print(json.load(open('$RESULTS'))['results']['tp_layer']['$key']['ms']['median'])")
    probe="float('nan')"
    if [ -n "$PROBE" ]; then
      probe=$("$PY" -c "
import json
d = json.load(open('$PROBE'))['results']['layer'].get('$key')
print(max(r['ms']['median'] for r in d['per_rank']) if d else \"float('nan')\")")
    fi
    skew="float('nan')"
    if [ -n "$SKEW" ]; then
      skew=$("$PY" -c "
import json, statistics
r = json.load(open('$SKEW'))['results']
d = r['graph'].get('$key') if '$key'.endswith('cudagraph') else r['layer'].get('$key')
if d is None: print(\"float('nan')\")
elif 'per_rank_ms' in d: print(max(statistics.median(x) for x in d['per_rank_ms']))
else: print(max(statistics.median(x['free']['ms']) for x in d['per_rank']))")
    fi
    "$PY" -c "print('%-32s %9.3f %9.3f %9.3f %10.3f %6.1f%% %10.3f %6.1f%% %6.1f%% %9.3f' % ('$key', $meas, $probe, $skew, $pred, ($pred/$meas-1)*100, $bench, ($bench/$meas-1)*100, ($bench/$skew-1)*100, $busy))"
  done
done
