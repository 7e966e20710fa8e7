#!/bin/bash
# Issue 17, seventh stop (2026-11-27): the block dispatch rate by block width (microbench
# dispatch_width beside the calibrated dispatch slope) and the short-row sum sweep
# (bench_short_rows.py), on one GPU.
#   calibration/runs/short_rows_dispatch.sh OUT_DIR
set -eu
out=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) g=h200-sxm ;; *H100*) g=h100-sxm ;; *) echo "unexpected GPU: $gpu" >&2; exit 2 ;; esac
mkdir -p "$out/$g"
{ echo "$gpu"; nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv; nproc; } >"$out/$g/log.txt"
"$here/../build_microbench.sh" /tmp/mb >>"$out/$g/log.txt" 2>&1
/tmp/mb/gpucast-microbench --only dispatch,dispatch_width --out "$out/$g/dispatch-width.json" 2>>"$out/$g/log.txt"
python3 "$here/bench_short_rows.py" --out "$out/$g/short-rows.json" 2>>"$out/$g/log.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$out/$g/log.txt"
tail -3 "$out/$g/log.txt"
