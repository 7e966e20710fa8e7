#!/bin/bash
# Issue 14, does a host probe taken right before a run track the host's drift? Three rounds, each a
# fresh, never-profiled host probe process followed at once by the inference forwards (B3: Llama 1B,
# GPT-2 124M and 1.5B, eager and CUDA graph), each in its own fresh process. Predicting round i with
# round i's probe speed, against the lease's first probe, says how much of the eager-inference error
# on the H100 leases is drift between the probe and the run (docs/accuracy.md, host section).
#
#   calibration/runs/fresh_probe_each.sh OUT
#
#   OUT/probe_<i>/results.json, OUT/llama_<i>/results.json, OUT/gpt_<i>/results_gpt.json (i = 1..3), OUT/log.txt
set -u
OUT=${1:?usage: fresh_probe_each.sh OUT}
source "$(dirname "$0")/fresh_common.sh"
for i in 1 2 3; do
  run python3 "$D/bench_single.py" --no-profile --sections B1 --budget 60 --out "$OUT/probe_$i"
  run python3 "$D/bench_single.py" --no-profile --sections B3 --budget 60 --out "$OUT/llama_$i"
  run python3 "$D/bench_single.py" --no-profile --family gpt --sections B3 --budget 60 --out "$OUT/gpt_$i"
done
date -u >>"$LOG"
