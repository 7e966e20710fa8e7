#!/bin/sh
# Measures the second tuning set (cases.tuning_cases, all dev) on whatever GPU the lease gives,
# and, on an H200 only, the held-out set too (the H200 has none yet).
# Usage: calibration/runs/tuning_set.sh OUT_DIR
set -eu
out=$1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in
  *H200*) tag=h200-sxm ;;
  *H100*) tag=h100-sxm ;;
  *) echo "unexpected GPU: $gpu" >&2; exit 2 ;;
esac
mkdir -p "$out/$tag"
echo "$gpu" > "$out/$tag/gpu.txt"
cd "$(dirname "$0")/../validation"
python3 suite.py --tuning-seed 20261127 --direct-backward --budget-s 200 --out "$out/$tag/kernels-tuning.json"
python3 suite.py --tuning-seed 20261128 --families gemm,conv2d,attention,attention_bwd,embedding_bwd \
  --direct-backward --budget-s 120 --out "$out/$tag/kernels-tuning2.json"
if [ "$tag" = h200-sxm ]; then
  python3 suite.py --heldout-seed 20261126 --direct-backward --budget-s 200 --out "$out/$tag/kernels-heldout.json"
fi
