#!/usr/bin/env python3
"""The spread of the ranks' host speeds on the lent 4x H100 machine (nccl.rank_host_spread of
calibrated/systems/h100x4), from the `concurrent` cases of calibration/runs/dp_host_share.sh: every
GPU runs the single-GPU training step at once, each in its own process, with no communication, so
the ranks' step medians differ only by their hosts. Fitted on the dev model (350m) only, on the cases
whose step gpucast predicts host-bound (their step time is the host's): the relative standard
deviation of the four ranks' medians (ddof=1), averaged over cases and the two processes. The four
host probes run at once on the same lease read 1.02-1.06x the probe alone: the ranks do not slow each
other's hosts; they differ, and a synchronous data-parallel step waits for the slowest.

usage: python3 validation/multi_gpu/rank_spread_fit.py [--gpucast build/cli/gpucast]
"""
import argparse
import json
import os
import statistics
import sys

from dp_train import ROOT, predict, require_gpucast

RUNS = ["validation/runs/h100x4/dp-share/steps/results.json", "validation/runs/h100x4/dp-share/steps2/results.json"]
HOST = "validation/multi_gpu/hosts/h100x4-share.toml"
DEV = {"350m"}


def host_bound(gpucast, case):
    """Whether gpucast predicts this case's step alone on one GPU host-bound."""
    ms, res = predict(gpucast, dict(case, mode="single"), HOST)
    if ms is None:
        sys.exit("rank_spread_fit.py: %s" % res)
    return res["host"]["host_bound"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpucast", default="build/cli/gpucast")
    a = ap.parse_args()
    require_gpucast(a.gpucast)
    spreads = []
    for path in RUNS:
        for c in json.load(open(os.path.join(ROOT, path)))["cases"]:
            if c["mode"] != "concurrent" or c["model"] not in DEV:
                continue
            meds = [m for m in c["step_ms_median_per_rank"] if m is not None]
            s = statistics.stdev(meds) / statistics.mean(meds)
            hb = host_bound(a.gpucast, c)
            print("%s %s b%d: ranks %s  relative sd %.3f  %s" % (os.path.basename(os.path.dirname(path)), c["model"],
                  c["batch_per_gpu"], ", ".join("%.1f" % m for m in meds), s, "host-bound" if hb else "GPU-bound (not used)"))
            if hb:
                spreads.append(s)
    print("nccl.rank_host_spread = %.3f (mean over %d host-bound dev cases)" % (statistics.mean(spreads), len(spreads)))


if __name__ == "__main__":
    main()
