#!/bin/bash
# Issue 14, the inference forwards measured round-robin (bench_infer_interleaved.py) beside the
# earlier method on the same lease: a fresh host probe process (B1) and fresh B3 processes (Llama 1B,
# GPT-2 124M and 1.5B, each configuration timed in one short window), then the interleaved process,
# whose probe entries and forwards share every round. Every process is fresh and never profiled.
#
#   calibration/runs/fresh_interleaved_set.sh OUT [SECONDS]
#
#   OUT/probe/results.json, OUT/llama/results.json, OUT/gpt/results_gpt.json (earlier method),
#   OUT/interleaved/results.json (round-robin, SECONDS of rounds, default 150), OUT/log.txt
set -u
OUT=${1:?usage: fresh_interleaved_set.sh OUT [SECONDS]}
SECONDS_OF_ROUNDS=${2:-150}
source "$(dirname "$0")/fresh_common.sh"
run python3 "$D/bench_single.py" --no-profile --sections B1 --budget 60 --out "$OUT/probe"
run python3 "$D/bench_single.py" --no-profile --sections B3 --budget 60 --out "$OUT/llama"
run python3 "$D/bench_single.py" --no-profile --family gpt --sections B3 --budget 60 --out "$OUT/gpt"
run python3 "$D/bench_infer_interleaved.py" --seconds "$SECONDS_OF_ROUNDS" --out "$OUT/interleaved"
date -u >>"$LOG"
