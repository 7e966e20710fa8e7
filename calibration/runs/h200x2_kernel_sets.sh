#!/bin/bash
# On a two-H200 host (nvidia-h200-x2; the one-GPU H200 kind has not been served in eight stops): the
# H200's third run of the broad set on GPU 0 (broad_suite_run3.sh) and its held-out kernel set on GPU 1,
# side by side: each is one Python process timing one GPU with do_bench, on a host of 32 cores. The
# host-bound inference set runs alone afterwards (h200_infer_alone.sh), not beside them.
#   calibration/runs/h200x2_kernel_sets.sh OUT_DIR
set -eu
out=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
names=$(nvidia-smi --query-gpu=name --format=csv,noheader)
echo "$names"
if [ "$(echo "$names" | grep -c H200)" -lt 2 ]; then echo "not two H200s: nothing run" >&2; exit 3; fi
mkdir -p "$out/h200-sxm"
CUDA_VISIBLE_DEVICES=0 "$here/broad_suite_run3.sh" "$out" >"$out/h200-sxm/run3-stdout.txt" 2>&1 &
run3=$!
(cd "$here/../validation" && CUDA_VISIBLE_DEVICES=1 python3 suite.py --heldout-seed 20261126 --direct-backward \
  --budget-s 400 --out "$out/h200-sxm/kernels-heldout.json" >"$out/h200-sxm/heldout-stdout.txt" 2>&1) &
held=$!
wait $run3; echo "run 3 exit $?"
wait $held; echo "held-out exit $?"
tail -2 "$out/h200-sxm/run3-stdout.txt" "$out/h200-sxm/heldout-stdout.txt"
