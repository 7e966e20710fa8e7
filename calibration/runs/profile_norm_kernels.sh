#!/bin/bash
# Nsight Compute counts of the block softmax and norm kernels of profile_norm_kernels.py, in launch
# order (the script's case lists say which call each belongs to).
#   calibration/runs/profile_norm_kernels.sh OUT_DIR
set -u
out=$1/h100-sxm
mkdir -p "$out"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >"$out/gpu.txt"
"$ncu" --kernel-name regex:'[Ss]oft[Mm]ax|layer_norm|LayerNorm|GammaBeta|Rowwise|rms|norm' \
  --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,lts__t_sector_hit_rate.pct,sm__cycles_elapsed.avg \
  --csv python3 "$here/profile_norm_kernels.py" >"$out/ncu-norm-kernels.csv" 2>"$out/ncu-norm-kernels-log.txt"
wc -l "$out/ncu-norm-kernels.csv"; tail -3 "$out/ncu-norm-kernels-log.txt"
