#!/usr/bin/env bash
# The 4x H200 measurements (validation/runs/h200x4, made by calibration/runs/bench_multi.py; see its
# README) against gpucast. Writes the tables docs/accuracy.md quotes:
#   h200x4_collectives_heldout.md  the 2-GPU profile (fitted on the 2x H200 machine only) widened to
#                                  4 GPUs: every 4-GPU point held out
#   h200x4_collectives_catalog.md  the catalog hgx-h200 with NVLS off, 4 GPUs: nothing fitted on H200 rings
#   h200x4_collectives_fit.md      fabric-fit on this machine's even sizes, odd sizes held out (as for 2 GPUs)
#   tp4_layer.txt                  the TP=4 Llama-3-8B layer on the 2-GPU profile widened to 4 GPUs
set -euo pipefail
G=${GPUCAST:-build/cli/gpucast}
R=validation/runs/h200x4/results_multi.json
D=validation/multi_gpu
"$G" fabric-fit --results "$R" --system calibrated/systems/h200x2 --set gpus_per_node=4 --set fabric.domain_gpus=4 \
  --gpus 4 --no-fit --format markdown -o "$D/h200x4_collectives_heldout.md"
"$G" fabric-fit --results "$R" --system hgx-h200 --set fabric.nvls=0 --gpus 4 --no-fit --format markdown \
  -o "$D/h200x4_collectives_catalog.md"
"$G" fabric-fit --results "$R" --system hgx-h200 --set fabric.nvls=0 --gpus 4 --ramp-exponent 0.5 \
  --format markdown -o "$D/h200x4_collectives_fit.md"
TP=4 RESULTS="$R" PROBE= SYSTEM_ARGS="--system calibrated/systems/h200x2 --set gpus_per_node=4 --set fabric.domain_gpus=4" \
  GPUCAST="$G" bash "$D/tp_layer.sh" > "$D/tp4_layer.txt"
head -4 "$D"/h200x4_collectives_*.md
cat "$D/tp4_layer.txt"
