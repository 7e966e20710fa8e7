#!/usr/bin/env python3
"""Derives the two host-side collective figures of hardware/calibrated/systems/h200x2.toml from the
rank-skew probe (validation/runs/h200x2/skew/results_skew.json, calibration/runs/bench_tp_skew.py),
using ONLY the TP=2 prefill layer at 2,048 tokens (both ranks, 100 free-running iterations): the
decode layers, which these figures serve, stay held out.

- nccl.program_host_us: host time of an eager all-reduce amid other work = the median host time of
  the layer's dist.all_reduce calls (both calls, both ranks) + the cost the call leaves on the next op:
  the host time from the second all-reduce's return to the forward's end (one residual add and the
  CUDA event record) less what the host model prices that work at (one aten op with its launch and one
  event record, priced as a launch, on hardware/catalog/hosts/h200x2-box.toml).
- nccl.rank_host_spread: the ranks' per-layer host times (medians) give the slowest rank's lag over
  the mean, (max/mean - 1), which for two ranks is spread x E[max of 2 standard normals] = 0.5642 x
  spread.

Usage: skew_figures.py [results_skew.json]
"""
import json
import statistics as st
import sys

# h200x2-box.toml: model_factor 1.60, op_dispatch_us 2.38, launch_us 3.43
MODEL_FACTOR, DISPATCH_US, LAUNCH_US = 1.60, 2.38, 3.43
E_MAX_2 = 0.5641895835


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "validation/runs/h200x2/skew/results_skew.json"
    case = json.load(open(path))["results"]["layer"]["tp2_prefill_b1_seq2048"]
    calls, tails, hosts = [], [], []
    for rank in case["per_rank"]:
        f = rank["free"]
        calls += f["ar_host_us"]
        hosts.append(st.median(f["host_us"]))
        for i, start in enumerate(f["host_start_s"]):
            end = start + f["host_us"][i] * 1e-6
            ar2_end = f["ar_start_s"][2 * i + 1] + f["ar_host_us"][2 * i + 1] * 1e-6
            tails.append((end - ar2_end) * 1e6)
    call_us = st.median(calls)
    tail_us = st.median(tails)
    tail_model_us = MODEL_FACTOR * (DISPATCH_US + LAUNCH_US) + MODEL_FACTOR * LAUNCH_US
    program_host_us = call_us + max(0.0, tail_us - tail_model_us)
    lag = max(hosts) / st.mean(hosts) - 1
    spread = lag / E_MAX_2
    print("all_reduce call, median of %d: %.1f us" % (len(calls), call_us))
    print("after the last all-reduce: %.1f us measured, %.1f us priced by the host model" % (tail_us, tail_model_us))
    print("nccl.program_host_us = %.1f" % program_host_us)
    print("per-rank host time per layer (medians): %s us; slowest over mean %+.2f%%" %
          (", ".join("%.1f" % h for h in hosts), lag * 100))
    print("nccl.rank_host_spread = %.4f" % spread)


if __name__ == "__main__":
    main()
