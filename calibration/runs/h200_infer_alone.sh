#!/bin/bash
# On an H200 (any host; GPU 0, nothing else running): issue 14's inference forwards, eager and CUDA
# graph, round-robin (fresh_interleaved_set.sh), the H200 counterpart of the H100's interleaved sets.
#   calibration/runs/h200_infer_alone.sh OUT_DIR [SECONDS]
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) ;; *) echo "not an H200: $name" >&2; exit 3 ;; esac
mkdir -p "$1/h200-sxm"
CUDA_VISIBLE_DEVICES=0 "$here/fresh_interleaved_set.sh" "$1/h200-sxm/infer" "${2:-100}"
