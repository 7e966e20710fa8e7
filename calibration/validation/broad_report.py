"""Accuracy on the broad validation set (issue 17), as docs/accuracy.md reports it.

For each measured GPU: `gpucast validate --offline validation/<gpu>/kernels.json` with the calibrated
profile, the catalog entry, and (for the H200) the H100's calibrated profile with the H200's memory and
SM counts (`--set` overrides are not needed: the catalog H200 is predicted with the Hopper defaults,
which are the H100's calibrated efficiencies). Prints markdown tables: per family MAPE by split, the
noise floor (two do_bench medians of the same callable in one process, `repeat_us`, measured the same
way: mean absolute difference over the first median, test split), and the worst kernels.

usage: python3 calibration/validation/broad_report.py build/cli/gpucast [--split test] [--worst 20]
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNS = [  # (title, measured GPU, description predicted with)
    ("H100, calibrated", "h100-sxm", "calibrated/h100-sxm"),
    ("H100, catalog only", "h100-sxm", "h100-sxm"),
    ("H200, calibrated", "h200-sxm", "calibrated/h200-sxm"),
    ("H200, catalog only (Hopper defaults = the H100's calibration)", "h200-sxm", "h200-sxm"),
]


def validate(gpucast, gpu_dir, description, measurements="kernels.json"):
    path = os.path.join(ROOT, "validation", gpu_dir, measurements)
    out = subprocess.run([gpucast, "validate", "--gpu", description, "--offline", path, "--format", "json", "--cases"],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    return json.loads(out)


def mape(values):
    return 100 * statistics.mean(values) if values else float("nan")


def noise(gpu_dir, split):
    cases = json.load(open(os.path.join(ROOT, "validation", gpu_dir, "kernels.json")))["cases"]
    by_family = collections.defaultdict(list)
    for c in cases:
        if "repeat_us" in c and "measured_us" in c and (not split or c["set"] == split):
            d = abs(c["repeat_us"] - c["measured_us"]) / c["measured_us"]
            by_family[c["family"]].append(d)
            by_family["overall"].append(d)
    return by_family


def between_runs(gpu_dir, split):
    """The second measurement (kernels-run2.json: a new process on a new lease, calibration/runs/
    broad_suite_run2.sh) against the first, per case of the split: |run 2 - run 1| / run 1."""
    def load(name):
        path = os.path.join(ROOT, "validation", gpu_dir, name)
        return {c["id"]: c for c in json.load(open(path))["cases"] if "measured_us" in c}
    first, second = load("kernels.json"), load("kernels-run2.json")
    return [abs(second[i]["measured_us"] - c["measured_us"]) / c["measured_us"]
            for i, c in first.items() if i in second and (not split or c["set"] == split)]


RUN_FILES = ("kernels.json", "kernels-run2.json", "kernels-run3.json")  # broad_suite*.sh, one lease each


def median_of_runs(gpu_dir):
    """The broad set with each case's measured time the median of every run the GPU has (cases every
    run measured), written to a temporary file for `validate --offline`; None with fewer than three
    runs (a median of two is their mean, which one run's host artifact still moves)."""
    paths = [os.path.join(ROOT, "validation", gpu_dir, n) for n in RUN_FILES]
    paths = [p for p in paths if os.path.exists(p)]
    if len(paths) < 3:
        return None, 0
    first = json.load(open(paths[0]))
    others = [{c["id"]: c["measured_us"] for c in json.load(open(p))["cases"] if "measured_us" in c}
              for p in paths[1:]]
    kept = []
    for c in first["cases"]:
        if "measured_us" in c and all(c["id"] in o for o in others):
            c = dict(c, measured_us=statistics.median([c["measured_us"]] + [o[c["id"]] for o in others]))
            kept.append(c)
    first["cases"] = kept
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(first, f)
    f.close()
    return f.name, len(paths)


def against_median(gpucast, split):
    """Every description of a GPU with three runs against the per-case median of its runs."""
    for gpu_dir in sorted({g for _, g, _ in RUNS}):
        path, runs = median_of_runs(gpu_dir)
        if not path:
            continue
        try:
            print(f"\n**Against the median of {runs} runs** (`validation/{gpu_dir}/kernels{{,-run2,-run3}}.json`, "
                  f"{split} split: each case's median over {runs} leases; never used to tune anything)\n")
            docs = [(title, validate(gpucast, gpu_dir, d, path)) for title, g, d in RUNS if g == gpu_dir]
            fams = sorted({c["family"] for _, doc in docs for c in doc["cases"]})
            print("| family | cases | " + " | ".join(f"{t}: MAPE, bias" for t, _ in docs) + " |")
            print("| --- | ---: |" + " ---: |" * len(docs))
            for f in fams + ["overall"]:
                cells, n = [], 0
                for _, doc in docs:
                    errs = [c["error"] for c in doc["cases"] if c["split"] == split and f in ("overall", c["family"])]
                    n = len(errs)
                    cells.append(f"{mape([abs(e) for e in errs]):.1f}%, {100 * statistics.mean(errs):+.1f}%")
                name = f"**{f}**" if f == "overall" else f
                print(f"| {name} | {n} | " + " | ".join(cells) + " |")
        finally:
            os.unlink(path)


def second_run(gpucast, split):
    """Every description against the second, unseen measurement, and the run-to-run noise between
    processes and leases (the same-process noise floor is `repeat_us`)."""
    print(f"\n**Second run** (`validation/<gpu>/kernels-run2.json`, {split} split: a new process on "
          "a new lease, 2026-11-23; never used to tune anything)\n")
    print(f"| description | MAPE against run 1 | MAPE against run 2 | bias, run 2 |")
    print("| --- | ---: | ---: | ---: |")
    for title, gpu_dir, description in RUNS:
        row = []
        for name in ("kernels.json", "kernels-run2.json"):
            cases = [c for c in validate(gpucast, gpu_dir, description, name)["cases"] if c["split"] == split]
            row.append((mape([abs(c["error"]) for c in cases]), 100 * statistics.mean(c["error"] for c in cases)))
        print(f"| {title} | {row[0][0]:.1f}% | {row[1][0]:.1f}% | {row[1][1]:+.1f}% |")
    print("\n| description | cases whose runs agree within 10%: MAPE against their mean | MAPE against the faster run |")
    print("| --- | ---: | ---: |")
    for title, gpu_dir, description in RUNS:
        def load(name):
            path = os.path.join(ROOT, "validation", gpu_dir, name)
            return {c["id"]: c["measured_us"] for c in json.load(open(path))["cases"] if "measured_us" in c}
        first, second = load("kernels.json"), load("kernels-run2.json")
        stable, faster = [], []
        for c in validate(gpucast, gpu_dir, description)["cases"]:
            if c["split"] != split or c["id"] not in second:
                continue
            a, b = first[c["id"]], second[c["id"]]
            faster.append(abs(c["predicted_us"] - min(a, b)) / min(a, b))
            if abs(a - b) / min(a, b) <= 0.1:
                stable.append(abs(c["predicted_us"] - (a + b) / 2) / ((a + b) / 2))
        print(f"| {title} | {mape(stable):.1f}% ({len(stable)}) | {mape(faster):.1f}% |")
    print("\n| GPU | run 2 against run 1: mean abs. difference | median | cases over 10% |")
    print("| --- | ---: | ---: | ---: |")
    for gpu_dir in sorted({g for _, g, _ in RUNS}):
        d = between_runs(gpu_dir, split)
        print(f"| {gpu_dir} | {mape(d):.1f}% | {100 * statistics.median(d):.1f}% | {sum(x > 0.1 for x in d)} of {len(d)} |")
    against_median(gpucast, split)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpucast")
    ap.add_argument("--split", default="test")
    ap.add_argument("--worst", type=int, default=20)
    ap.add_argument("--json", help="also write every figure here")
    ap.add_argument("--second-run", action="store_true",
                    help="only the figures against the second measurement (kernels-run2.json) and the noise between runs")
    args = ap.parse_args()
    if args.second_run:
        second_run(args.gpucast, args.split)
        return 0
    everything = {}
    for title, gpu_dir, description in RUNS:
        doc = validate(args.gpucast, gpu_dir, description)
        cases = [c for c in doc["cases"] if c["split"] == args.split]
        fam = collections.defaultdict(list)
        fam_dev = collections.defaultdict(list)
        for c in doc["cases"]:
            if c["split"] == args.split:
                fam[c["family"]].append(abs(c["error"]))
            elif c["split"] == "dev":
                fam_dev[c["family"]].append(abs(c["error"]))
        nz = noise(gpu_dir, args.split)
        print(f"\n**{title}** (`{description}` on `validation/{gpu_dir}/kernels.json`, {args.split} split)\n")
        print(f"| family | cases | MAPE {args.split} | median APE | bias | within 10% | MAPE dev | noise floor |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        fams = sorted(fam)
        rows = {}
        for f in fams + ["overall"]:
            errs = [c["error"] for c in cases if f == "overall" or c["family"] == f]
            ab = [abs(e) for e in errs]
            dev = [a for ff, lst in fam_dev.items() for a in lst if f == "overall" or ff == f]
            row = {"cases": len(errs), "mape": mape(ab), "median": 100 * statistics.median(ab),
                   "bias": 100 * statistics.mean(errs), "within10": 100 * sum(a <= 0.1 for a in ab) / len(ab),
                   "mape_dev": mape(dev), "noise": mape(nz.get(f, [])), "noise_n": len(nz.get(f, []))}
            rows[f] = row
            name = f"**{f}**" if f == "overall" else f
            print(f"| {name} | {row['cases']} | {row['mape']:.1f}% | {row['median']:.1f}% | {row['bias']:+.1f}% | "
                  f"{row['within10']:.0f}% | {row['mape_dev']:.1f}% | {row['noise']:.1f}% (n={row['noise_n']}) |")
        worst = sorted(cases, key=lambda c: -abs(c["error"]))[: args.worst]
        everything[title] = {"families": rows, "worst": worst}
        if description.startswith("calibrated"):
            print(f"\nWorst {args.worst} ({title}, {args.split} split):\n")
            print("| case | op | shape | measured | predicted | error | predicted kernel | measured kernels |")
            print("| --- | --- | --- | ---: | ---: | ---: | --- | --- |")
            for c in worst:
                print(f"| {c['id']} | {c['op']} | {c['shape']} | {c['measured_us']:.1f} us | {c['predicted_us']:.1f} us | "
                      f"{100 * c['error']:+.0f}% | {c['predicted_kernel'][:40]} | {c['measured_kernels'][:70]} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(everything, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
