#!/usr/bin/env python3
"""Accuracy on a held-out kernel set (issue 17): shapes measured after the models were built.

`suite.py --heldout-seed SEED` measures cases.heldout_cases(SEED): the broad set's builders with another
seed, every call the suite already had dropped. This script predicts those measurements with the
calibrated profile and the catalog entry of the GPU they were taken on and prints, per family, the
MAPE, median error, bias and share within 10%; with a second run of the same set (`--second`), the
noise between the two processes (mean absolute difference over the first run) and the MAPE against
the cases whose runs agree within 10%; with a third (`-run3.json` beside the first), the MAPE against
each case's median over the three.

usage: python3 calibration/validation/heldout_report.py build/cli/gpucast \
           [--gpu h100-sxm] [--measured validation/h100-sxm/kernels-heldout.json] \
           [--second validation/h100-sxm/kernels-heldout-run2.json] [--worst 10]
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def validate(gpucast, description, path):
    out = subprocess.run([gpucast, "validate", "--gpu", description, "--offline", path, "--format", "json", "--cases"],
                         capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        sys.exit("heldout_report.py: gpucast validate failed on %s: %s" % (path, out.stderr.strip()[:500]))
    return json.loads(out.stdout)["cases"]


def measured(path):
    with open(os.path.join(ROOT, path)) as f:
        return {c["id"]: c["measured_us"] for c in json.load(f)["cases"] if "measured_us" in c}


def row(name, errs):
    ab = [abs(e) for e in errs]
    return "| %s | %d | %.1f%% | %.1f%% | %+.1f%% | %.0f%% |" % (
        name, len(errs), 100 * statistics.mean(ab), 100 * statistics.median(ab), 100 * statistics.mean(errs),
        100 * sum(a <= 0.1 for a in ab) / len(ab))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpucast")
    ap.add_argument("--gpu", default="h100-sxm")
    ap.add_argument("--measured", default=None, help="default validation/<gpu>/kernels-heldout.json")
    ap.add_argument("--second", default=None, help="a second run of the same cases (default: ...-run2.json if present)")
    ap.add_argument("--worst", type=int, default=10)
    a = ap.parse_args()
    path = a.measured or "validation/%s/kernels-heldout.json" % a.gpu
    second = a.second or path.replace(".json", "-run2.json")
    second_us = measured(second) if os.path.exists(os.path.join(ROOT, second)) else {}
    third = path.replace(".json", "-run3.json")  # a third process on a third lease, when measured
    third_us = measured(third) if os.path.exists(os.path.join(ROOT, third)) else {}
    for title, description in (("calibrated", "calibrated/" + a.gpu), ("catalog only", a.gpu)):
        cases = validate(a.gpucast, description, path)
        print("\n**%s, %s** (`%s` on `%s`, %d cases)\n" % (a.gpu, title, description, path, len(cases)))
        print("| family | cases | MAPE | median APE | bias | within 10% |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        fam = collections.defaultdict(list)
        for c in cases:
            fam[c["family"]].append(c["error"])
        for f in sorted(fam):
            print(row(f, fam[f]))
        print(row("**overall**", [c["error"] for c in cases]))
        if second_us:
            agree = [c for c in cases if c["id"] in second_us
                     and abs(second_us[c["id"]] / c["measured_us"] - 1) <= 0.1]
            errs = [(c["predicted_us"] - 0.5 * (c["measured_us"] + second_us[c["id"]]))
                    / (0.5 * (c["measured_us"] + second_us[c["id"]])) for c in agree]
            print("\nAgainst the mean of the two runs, cases whose runs agree within 10%% (%d of %d): MAPE %.1f%%"
                  % (len(agree), len(cases), 100 * statistics.mean(abs(e) for e in errs)))
        if second_us and third_us:
            both = [c for c in cases if c["id"] in second_us and c["id"] in third_us]
            errs = []
            for c in both:
                m = statistics.median([c["measured_us"], second_us[c["id"]], third_us[c["id"]]])
                errs.append((c["predicted_us"] - m) / m)
            print("\nAgainst each case's median over three runs (%d of %d cases): MAPE %.1f%%, bias %+.1f%%"
                  % (len(both), len(cases), 100 * statistics.mean(abs(e) for e in errs),
                     100 * statistics.mean(errs)))
        if title == "calibrated" and a.worst:
            print("\nWorst %d:\n" % a.worst)
            print("| case | shape | measured | predicted | error | predicted kernel | measured kernels |")
            print("| --- | --- | ---: | ---: | ---: | --- | --- |")
            for c in sorted(cases, key=lambda c: -abs(c["error"]))[: a.worst]:
                print("| %s | %s | %.1f us | %.1f us | %+.0f%% | %s | %s |" % (
                    c["id"], c["shape"], c["measured_us"], c["predicted_us"], 100 * c["error"],
                    c["predicted_kernel"][:40], c["measured_kernels"][:60]))
    if second_us:
        first = measured(path)
        diffs = [abs(second_us[i] / first[i] - 1) for i in first if i in second_us]
        print("\nBetween the two runs (%s, %s): mean absolute difference %.1f%%, median %.1f%%, over 10%%: %d of %d"
              % (path, second, 100 * statistics.mean(diffs), 100 * statistics.median(diffs),
                 sum(d > 0.1 for d in diffs), len(diffs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
