#!/usr/bin/env bash
# The 2x H100 measurements (validation/runs/h100x2, made by calibration/runs/bench_multi.py and
# bench_multi_probe.py on a lent 2x H100 SXM machine, 2026-11-25) against gpucast, with nothing fitted
# on them: the 2x H200 profile (fitted on the 2x H200 machine only; the fabric is the same NVLink 4)
# with the H100's GPU. Writes the table docs/accuracy.md quotes:
#   h100x2_collectives_heldout.md  batched (eager) times and CUDA-graph (GPU) times, every point held out
set -euo pipefail
G=${GPUCAST:-build/cli/gpucast}
R=validation/runs/h100x2/results_multi.json
P=validation/runs/h100x2/probe/results_probe.json
D=validation/multi_gpu
"$G" fabric-fit --results "$R" --gpu-times "$P" --system calibrated/systems/h200x2 --set gpu=h100-sxm --gpus 2 \
  --no-fit --format markdown -o "$D/h100x2_collectives_heldout.md"
sed -i "1s/.*/## Collectives on 2x H100 SXM, predicted with the 2x H200 profile (nothing fitted on these points)/" "$D/h100x2_collectives_heldout.md"
head -5 "$D/h100x2_collectives_heldout.md"
# The TP=1 and TP=2 Llama-3-8B layer of bench_multi.py on this machine, with the H100 box's host
# description (the skew_run columns compare against the 2x H200 skew run and do not apply here).
TP=2 RESULTS="$R" PROBE= SYSTEM_ARGS="--system calibrated/systems/h200x2 --set gpu=h100-sxm" HOST_ARGS="--host h100-box" \
  GPUCAST="$G" bash "$D/tp_layer.sh" > "$D/tp_layer_h100x2.txt"
cat "$D/tp_layer_h100x2.txt"
