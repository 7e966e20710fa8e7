#!/bin/bash
# Nsight Compute counts of the row kernels of profile_row_kernels.py.   calibration/runs/profile_row_kernels.sh OUT_DIR
set -u
out=$1/h100-sxm
mkdir -p "$out"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
"$ncu" --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio \
  --csv python3 "$here/profile_row_kernels.py" >"$out/ncu-row-kernels.csv" 2>"$out/ncu-row-kernels-log.txt"
wc -l "$out/ncu-row-kernels.csv"; tail -3 "$out/ncu-row-kernels-log.txt"
