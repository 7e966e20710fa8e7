#!/usr/bin/env python3
"""Per-collective error summary of a `gpucast fabric-fit --no-fit --format json` comparison, over
every point (with --no-fit nothing was fitted on these points, so all of them are held out).

usage: gpucast fabric-fit ... --no-fit --format json | python3 summarize_points.py [--markdown]
"""
import json
import sys

pts = json.load(sys.stdin)["points"]
rows = {}
for p in pts:
    e = p["predicted_us"] / p["measured_us"] - 1
    big = p["bytes"] >= 1e6
    rows.setdefault(p["collective"], {True: [], False: []})[big].append(e)
rows["all"] = {b: [e for r in list(rows.values()) for e in r[b]] for b in (True, False)}
md = "--markdown" in sys.argv
if md:
    print("| collective | >= 1 MB: mean abs. error | worst | within 10% | < 1 MB: mean abs. error | worst | within 25% |")
    print("|---|---:|---:|---:|---:|---:|---:|")
for c, r in rows.items():
    cells = []
    for big, tol in ((True, 0.10), (False, 0.25)):
        es = r[big]
        worst = max(es, key=abs)
        cells += ["%.1f%%" % (100 * sum(map(abs, es)) / len(es)), "%+.1f%%" % (100 * worst),
                  "%d of %d" % (sum(abs(e) <= tol for e in es), len(es))]
    print(("| %s | " % c + " | ".join(cells) + " |") if md else "%-15s " % c + "  ".join("%12s" % x for x in cells))
