#!/bin/bash
# Issue 14, second call per machine: GPT-2 training steps in a fresh, never-profiled process, the
# Llama batch-4 steps again in another (process-to-process spread within one lease), and the host
# probe before and after (drift of the lease's host during the call).
#
#   calibration/runs/fresh_host_set2.sh OUT
#
#   1. host probe (B1)                                   -> OUT/probe_a/results.json
#   2. GPT-2 training steps (B2, B4), --no-profile        -> OUT/gpt_train/results_gpt.json
#   3. Llama batch-4 amp/foreach steps (B2), --no-profile -> OUT/llama_b4/results.json
#   4. host probe (B1) again                             -> OUT/probe_b/results.json
# Everything printed goes to OUT/log.txt.
set -u
OUT=${1:?usage: fresh_host_set2.sh OUT}
source "$(dirname "$0")/fresh_common.sh"
run python3 "$D/bench_single.py" --no-profile --sections B1 --budget 60 --out "$OUT/probe_a"
run python3 "$D/bench_single.py" --no-profile --family gpt --sections B2,B4 --budget 200 --out "$OUT/gpt_train"
run python3 "$D/bench_single.py" --no-profile --sections B2 --budget 150 --out "$OUT/llama_b4"
run python3 "$D/bench_single.py" --no-profile --sections B1 --budget 60 --out "$OUT/probe_b"
date -u >>"$LOG"
