#!/bin/bash
# Issue 14: the host/training set of one single-GPU machine, every timed run in a FRESH process that
# never started torch.profiler (bench_single.py --no-profile), profiled work last, in its own process.
#
#   calibration/runs/fresh_host_set.sh OUT [--big]
#
# Processes, in order (each a new python3):
#   1. Llama-style training steps (B2, B4: 125m/350m/1b, 3b with --big; batch 1/4/8; amp and bf16;
#      foreach and fused AdamW) and the Llama-1B inference forwards (B3, eager and CUDA graph)
#      -> OUT/llama/results.json
#   2. the Llama-1B inference forwards again, a second fresh process (process-to-process spread)
#      -> OUT/llama2/results.json
#   3. the GPT-2 124M / 1.5B inference forwards (B3) -> OUT/gpt/results_gpt.json
#   4. the host probe (B1) -> OUT/probe/results.json
#   5. bench_host_split.py (host time by phase; it profiles kernel counts) -> OUT/split/host_split.json
#   6. bench_breakdown.py (host time of forward pieces first, then torch.profiler per kernel of the
#      graph replays and eager forwards) -> OUT/breakdown/breakdown.json
# Everything printed goes to OUT/log.txt (and stdout). At most 8 files come back from the device
# tool, hence one log.
set -u
OUT=${1:?usage: fresh_host_set.sh OUT [--big]}
BIG=${2:-}
source "$(dirname "$0")/fresh_common.sh"
run python3 "$D/bench_single.py" --no-profile --sections B2,B3,B4 $BIG --budget 300 --out "$OUT/llama"
run python3 "$D/bench_single.py" --no-profile --sections B3 --budget 60 --out "$OUT/llama2"
run python3 "$D/bench_single.py" --no-profile --family gpt --sections B3 --budget 60 --out "$OUT/gpt"
run python3 "$D/bench_single.py" --no-profile --sections B1 --budget 60 --out "$OUT/probe"
run python3 "$D/bench_host_split.py" --out "$OUT/split"
run python3 "$D/bench_breakdown.py" --out "$OUT/breakdown"
date -u >>"$LOG"
