#!/bin/bash
# Issue 14, a third call per machine: the inference forwards (B3: Llama 1B, GPT-2 124M and 1.5B,
# eager and CUDA graph) twice each, every run in its own fresh, never-profiled process, between two
# host probes (how much the lease's host drifts during the call).
#
#   calibration/runs/fresh_infer_set.sh OUT
#
#   OUT/probe_a/results.json, OUT/llama_a/results.json, OUT/gpt_a/results_gpt.json,
#   OUT/llama_b/results.json, OUT/gpt_b/results_gpt.json, OUT/probe_b/results.json, OUT/log.txt
set -u
OUT=${1:?usage: fresh_infer_set.sh OUT}
source "$(dirname "$0")/fresh_common.sh"
run python3 "$D/bench_single.py" --no-profile --sections B1 --budget 60 --out "$OUT/probe_a"
run python3 "$D/bench_single.py" --no-profile --sections B3 --budget 60 --out "$OUT/llama_a"
run python3 "$D/bench_single.py" --no-profile --family gpt --sections B3 --budget 60 --out "$OUT/gpt_a"
run python3 "$D/bench_single.py" --no-profile --sections B3 --budget 60 --out "$OUT/llama_b"
run python3 "$D/bench_single.py" --no-profile --family gpt --sections B3 --budget 60 --out "$OUT/gpt_b"
run python3 "$D/bench_single.py" --no-profile --sections B1 --budget 60 --out "$OUT/probe_b"
date -u >>"$LOG"
