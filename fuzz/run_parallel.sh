#!/usr/bin/env bash
# Runs every fuzz harness at once, PROCS processes each, for SECONDS: 7 x PROCS cores. On a
# 16-core machine, `fuzz/run_parallel.sh 560 2 DIR` gives each harness 18 CPU-minutes in one
# 10-minute call. DIR is build-fuzz/fuzz (binaries built here) or an unpacked fuzz/pack.sh archive
# (bin/, lib/ with its own loader, corpus/). The processes of one harness share its scratch corpus
# (libFuzzer reloads it every second). Logs, CPU times and any findings go to $OUT (or
# build-fuzz/parallel); the summary prints executions and CPU seconds per harness.
#   mkdir -p /tmp/fz && python3 -c "import tarfile; tarfile.open('PACK').extractall('/tmp/fz')"
#   fuzz/run_parallel.sh 560 3 /tmp/fz
set -uo pipefail
seconds=${1:?usage: fuzz/run_parallel.sh SECONDS PROCS DIR [HARNESS...]}
procs=${2:?usage: fuzz/run_parallel.sh SECONDS PROCS DIR [HARNESS...]}
dir=$(cd "${3:?usage: fuzz/run_parallel.sh SECONDS PROCS DIR [HARNESS...]}" && pwd)
shift 3
cd "$(dirname "$0")/.."
harnesses=${*:-"gpu_file workload_file model_file set_vary trace_import system_file host_file"}
out=${OUT:-build-fuzz/parallel}
mkdir -p "$out"
if [ -d "$dir/bin" ]; then
  run=("$dir/lib/ld-linux-x86-64.so.2" --library-path "$dir/lib")
  bin=$dir/bin
  corpus=$dir/corpus
else
  run=()
  bin=$dir
  corpus=build-fuzz/corpus
fi
for h in $harnesses; do
  mkdir -p "$corpus/$h" "$out/findings/$h"
  dict=()
  [ -f "fuzz/$h.dict" ] && dict=(-dict="fuzz/$h.dict")
  seeds=("fuzz/corpus/$h")
  [ -d "fuzz/regressions/$h" ] && seeds+=("fuzz/regressions/$h")
  for p in $(seq 1 "$procs"); do
    (
      TIMEFORMAT="$h $p cpu_user_s=%U cpu_sys_s=%S wall_s=%R"
      time "${run[@]}" "$bin/fuzz_$h" "$corpus/$h" "${seeds[@]}" "${dict[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -seed="$p" \
        -artifact_prefix="$out/findings/$h/" -print_final_stats=1 > "$out/$h.$p.log" 2>&1
      echo "$h $p rc=$?"
    ) 2>> "$out/times.txt" >> "$out/rc.txt" &
  done
done
wait
for h in $harnesses; do
  execs=$(grep -h "stat::number_of_executed_units" "$out/$h".*.log | awk '{s += $2} END {print s + 0}')
  cpu=$(grep "^$h " "$out/times.txt" | sed 's/.*cpu_user_s=\([0-9.]*\) cpu_sys_s=\([0-9.]*\).*/\1 \2/' |
    awk '{s += $1 + $2} END {printf "%.0f", s}')
  errors=$(grep -l -E "==[0-9]+==ERROR|SUMMARY: |deadly signal|Timeout" "$out/$h".*.log 2>/dev/null | wc -l)
  echo "$h: executions $execs, CPU $cpu s, logs with a finding: $errors, findings: $(ls "$out/findings/$h" | wc -l)"
done | tee "$out/summary.txt"
cat "$out/rc.txt"
