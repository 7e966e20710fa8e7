#!/bin/bash
# Nsight Compute on the short-row sums (profile_short_rows.py): warp stall reasons per kernel and the
# SASS of reduce_kernel with its per-instruction stall samples.   calibration/runs/profile_short_rows.sh OUT_DIR
set -u
out=$1/h100-sxm
mkdir -p "$out"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $ncu" >"$out/ncu-log.txt"
[ -n "$ncu" ] || { echo "no ncu" >&2; exit 3; }
"$ncu" --kernel-name regex:reduce_kernel --section WarpStateStats --section SchedulerStats --section Occupancy \
  --section LaunchStats --section MemoryWorkloadAnalysis --section SpeedOfLight --csv --page details \
  python3 "$here/profile_short_rows.py" >"$out/ncu-details.csv" 2>>"$out/ncu-log.txt"
"$ncu" --kernel-name regex:reduce_kernel --launch-count 2 --section SourceCounters --csv --page source --print-source sass \
  python3 "$here/profile_short_rows.py" >"$out/ncu-sass.csv" 2>>"$out/ncu-log.txt"
ls -la "$out"; tail -5 "$out/ncu-log.txt"
# Instructions and time per kernel at 24 row lengths and types (131072 rows each).
"$ncu" --kernel-name regex:reduce_kernel --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,gpu__time_duration.sum,launch__grid_size,launch__block_size \
  --csv python3 "$here/profile_short_rows.py" --counts >"$out/ncu-counts.csv" 2>>"$out/ncu-log.txt"
wc -l "$out/ncu-counts.csv"
