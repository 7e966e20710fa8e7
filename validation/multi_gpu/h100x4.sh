#!/usr/bin/env bash
# The 4x H100 measurements (validation/runs/h100x4, made by calibration/runs/bench_multi.py and
# bench_multi_probe.py on a lent 4x H100 SXM machine, 2026-11-26; see its README) against gpucast, with
# nothing fitted on them: the 2x H200 profile (fitted on the 2x H200 machine only; the same NVLink 4
# fabric) widened to 4 GPUs, with the H100's GPU. Writes the tables docs/accuracy.md quotes:
#   h100x4_collectives_heldout.md  batched (eager) and CUDA-graph (GPU) times, every point held out
#   h100x4_collectives_fit.md      fabric-fit on this machine's even sizes, odd sizes held out (the model's
#                                  form on 4 GPUs, not a prediction)
#   tp4_layer_h100x4.txt           the TP=4 Llama-3-8B layer, the H100 box's host
set -euo pipefail
G=${GPUCAST:-build/cli/gpucast}
R=validation/runs/h100x4/results_multi.json
P=validation/runs/h100x4/probe/results_probe.json
D=validation/multi_gpu
SYS=(--system calibrated/systems/h200x2 --set gpu=h100-sxm --set gpus_per_node=4 --set fabric.domain_gpus=4)
"$G" fabric-fit --results "$R" --gpu-times "$P" "${SYS[@]}" --gpus 4 --no-fit --format markdown \
  -o "$D/h100x4_collectives_heldout.md"
sed -i "1s/.*/## Collectives on 4x H100 SXM, predicted with the 2x H200 profile widened to 4 GPUs (nothing fitted on these points)/" \
  "$D/h100x4_collectives_heldout.md"
head -5 "$D/h100x4_collectives_heldout.md"
"$G" fabric-fit --results "$R" --gpu-times "$P" "${SYS[@]}" --gpus 4 --format markdown -o "$D/h100x4_collectives_fit.md"
sed -i "1s/.*/## Collectives on 4x H100 SXM, fitted on its even sizes (odd sizes held out)/" "$D/h100x4_collectives_fit.md"
TP=4 RESULTS="$R" PROBE= SYSTEM_ARGS="${SYS[*]}" HOST_ARGS="--host h100-box" GPUCAST="$G" bash "$D/tp_layer.sh" \
  > "$D/tp4_layer_h100x4.txt"
cat "$D/tp4_layer_h100x4.txt"
