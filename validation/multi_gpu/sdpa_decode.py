#!/usr/bin/env python3
"""The decode SDPA calls of the rank-skew probe (validation/runs/h200x2/skew/results_skew.json, section
`sdpa`) against gpucast's attention model on the calibrated H200, nothing fitted: the layer's call (GQA
folded into the query length: heads = kv_heads, 4 query rows, which cuDNN runs with its sm90 prefill
kernel) and the generator's (32 or 16 query heads over 8 or 4 KV heads, one query row: cuDNN's decode
kernel with lean_reduction_kernel). Measured: GPU time per call, CUDA graph of 10 calls over KV copies
larger than L2. Prints one row per call and a summary per form.

Usage: sdpa_decode.py [results_skew.json]   (from the repository root, after building build/cli/gpucast)
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "validation/runs/h200x2/skew/results_skew.json"
    d = json.load(open(path))["results"]["sdpa"]
    lines = ['[workload]', 'name = "sdpa-decode"', '']
    for k, v in d.items():
        heads, sq = (v["kv_heads"], v["rep"]) if v["form"] == "folded" else (v["kv_heads"] * v["rep"], 1)
        lines += ['[[kernel]]', 'name = "%s"' % k, 'op = "attention"', 'batch = %d' % v["batch"], 'heads = %d' % heads,
                  'kv_heads = %d' % v["kv_heads"], 'seq_q = %d' % sq, 'seq_kv = %d' % v["seq_kv"],
                  'head_dim = %d' % v["head_dim"], 'dtype = "bf16"', '']
    with tempfile.TemporaryDirectory() as tmp:
        wl = os.path.join(tmp, "sdpa.toml")
        open(wl, "w").write("\n".join(lines))
        gpucast = os.environ.get("GPUCAST", "build/cli/gpucast")
        p = json.loads(subprocess.run([gpucast, "predict", "--gpu", "h200-sxm", "--workload", wl, "--format", "json"],
                                      check=True, capture_output=True, text=True).stdout)
    errs = {}
    print("%-26s %9s %9s %7s" % ("call", "measured", "gpucast", "error"))
    for k in p["kernels"]:
        v = d[k["name"]]
        e = k["duration_us"] / v["us_median"] - 1
        errs.setdefault(v["form"], []).append(abs(e))
        print("%-26s %7.1f us %7.1f us %+6.1f%%" % (k["name"], v["us_median"], k["duration_us"], 100 * e))
    for form, a in errs.items():
        print("%-6s mean |error| %.1f%%, worst %.1f%%, within 10%%: %d of %d, within 25%%: %d of %d" % (
            form, 100 * sum(a) / len(a), 100 * max(a), sum(x <= 0.1 for x in a), len(a), sum(x <= 0.25 for x in a), len(a)))


if __name__ == "__main__":
    main()
