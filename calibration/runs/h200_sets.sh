#!/bin/sh
# On an H200 (issues 14 and 17 have no round-robin inference set and no held-out kernels there):
# the eager inference forwards round-robin and the held-out kernel set. On an H100: the tuning sets
# a second time, in a fresh process (their run-to-run noise).
# Usage: calibration/runs/h200_sets.sh OUT_DIR
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in
  *H200*)
    mkdir -p "$out/h200-sxm"; echo "$gpu" >"$out/h200-sxm/gpu.txt"
    "$here/fresh_interleaved_set.sh" "$out/h200-sxm/infer" 140
    cd "$here/../validation"
    python3 suite.py --heldout-seed 20261126 --direct-backward --budget-s 200 --out "$out/h200-sxm/kernels-heldout.json" ;;
  *H100*)
    mkdir -p "$out/h100-sxm"; echo "$gpu" >"$out/h100-sxm/gpu.txt"
    cd "$here/../validation"
    python3 suite.py --tuning-seed 20261127 --direct-backward --budget-s 200 --out "$out/h100-sxm/kernels-tuning-run2.json"
    python3 suite.py --tuning-seed 20261128 --families gemm,conv2d,attention,attention_bwd,embedding_bwd \
      --direct-backward --budget-s 120 --out "$out/h100-sxm/kernels-tuning2-run2.json" ;;
  *) echo "unexpected GPU: $gpu" >&2; exit 2 ;;
esac
