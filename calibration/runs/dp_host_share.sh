#!/bin/bash
# Issue 15, data-parallel steps: what sharing one host costs each rank. On a 4-GPU machine:
# the host probe alone, then one probe per GPU at once; the training steps alone on one GPU
# (`single`), the same step on every GPU at once with no communication (`concurrent`), and DDP;
# the main set twice (two processes) and the GPT-2 set once; the probe alone again at the end.
# Split, fixed before the call: the 350m model is dev (it may tune the model), the 1b model and
# the GPT-2 models are test (reported, never tuned on).
#   calibration/runs/dp_host_share.sh OUT
set -u
OUT=${1:?usage: dp_host_share.sh OUT}
source "$(dirname "$0")/fresh_common.sh"
run python3 "$D/bench_infer_interleaved.py" --probe-only --seconds 30 --out "$OUT/probe_alone"
echo "=== $(date -u +%T) four probes at once" | tee -a "$LOG"
for i in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$i python3 "$D/bench_infer_interleaved.py" --probe-only --seconds 30 \
    --out "$OUT/probe_four/gpu$i" >"$OUT/probe_four_gpu$i.log" 2>&1 &
done
wait
export GPUCAST_DP_MODES=single,concurrent,ddp
run python3 "$D/bench_dp_train.py" --out "$OUT/steps" --budget 150
run python3 "$D/bench_dp_train.py" --out "$OUT/steps2" --budget 150
GPUCAST_DP_SET=gpt run python3 "$D/bench_dp_train.py" --out "$OUT/steps_gpt" --budget 150
run python3 "$D/bench_infer_interleaved.py" --probe-only --seconds 30 --out "$OUT/probe_after"
date -u >>"$LOG"
