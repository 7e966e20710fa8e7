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
