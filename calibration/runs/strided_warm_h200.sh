#!/bin/sh
# Any GPU: the trace-shaped strided kernels warm and cold (bench_strided_warm.py). On an H200 also the
# sets only an H200 can give (h200_sets.sh: eager inference round-robin, held-out kernels).
# Usage: calibration/runs/strided_warm_h200.sh OUT_DIR
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in
  *H200*) dir="$out/h200-sxm" ;;
  *H100*) dir="$out/h100-sxm" ;;
  *) echo "unexpected GPU: $gpu" >&2; exit 2 ;;
esac
mkdir -p "$dir"; echo "$gpu" >"$dir/gpu.txt"
python3 "$here/bench_strided_warm.py" --out "$dir/strided-warm.json"
case "$gpu" in *H200*) "$here/h200_sets.sh" "$out" ;; esac
