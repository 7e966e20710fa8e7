# Sourced by the fresh_*.sh device scripts: OUT's log with the machine's GPU and CPU at the start,
# and run(), which logs each step's command, output and wall time. Expects OUT to be set.
D=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PYTHONUNBUFFERED=1
mkdir -p "$OUT"
LOG=$OUT/log.txt
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
  lscpu | grep -E 'Model name|^CPU\(s\)|Model:'
} >>"$LOG" 2>&1
run() {
  echo "=== $(date -u +%T) $*" | tee -a "$LOG"
  local t=$(date +%s)
  "$@" 2>&1 | tee -a "$LOG"
  echo "=== wall $(($(date +%s) - t)) s" | tee -a "$LOG"
}
# The GPU this call got: $GPU_NAME, and OUT/gpu.txt beside the results.
GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$GPU_NAME" >"$OUT/gpu.txt"
# A probe call's last step: on an H200, issue 14's H200 inference set (h200_infer_alone.sh), which only an
# H200 can measure; then the GPU's clocks, temperature and power into the log.
finish_probe_call() {
  case "$GPU_NAME" in *H200*) run "$D/h200_infer_alone.sh" "$OUT" 100 ;; esac
  nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$LOG" 2>&1
}
