#!/usr/bin/env python3
"""Issue 14: does an eager op's host time depend on how many different ops run between two calls of
it? A Llama-1B layer at b1 s1 costs 9.5% more host time than its pieces timed alone, GPT-2 1.5B's 5.5%
(bench_host_components.py); the Llama layer calls about 19 kinds of op, GPT-2's about 9. Here, in one
fresh, never-profiled process, round-robin (medians over all rounds):

  variety_K: a loop body of K different pointwise ops on the same 2,048-element bf16 tensor (K = 1, 2,
             4, 8, 16, 32; every op one kernel, the same Python call shape), host time per op call;
  llama_block_pieces: the Llama-1B layer with a timestamp between its pieces (input norm, attention,
             residual add, post norm, MLP, residual add), each piece's host time inside the layer,
             beside each piece timed alone;
  attention_between_mlp: the Llama attention timed alone and with the MLP run between its calls.

Usage (device machine): python3 calibration/runs/bench_host_variety.py --out $OUT/variety [--seconds 60]
Output: OUT/results.json, results.host_variety: {item: {us_per_call_median, us_per_call_samples, what}}.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch  # noqa: E402

import common  # noqa: E402
from host_probe import host_us, run_rounds  # noqa: E402
from common import Results, elapsed_log, env_info, stats  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--seconds", type=float, default=60.0)
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)
R = Results(os.path.join(args.out, "results.json"), env_info({"seconds": args.seconds}))
dev = torch.device("cuda")
bf = torch.bfloat16
log = elapsed_log()



x = torch.rand(2048, device=dev, dtype=bf) + 0.5
OPS = [torch.neg, torch.abs, torch.exp, torch.log, torch.sin, torch.cos, torch.tanh, torch.sigmoid,
       torch.relu, torch.sqrt, torch.rsqrt, torch.reciprocal, torch.square, torch.floor, torch.ceil, torch.round,
       torch.trunc, torch.sign, torch.erf, torch.expm1, torch.log1p, torch.log2, torch.exp2, torch.frac,
       torch.sinh, torch.cosh, torch.asinh, torch.atan, torch.sgn, torch.nn.functional.silu,
       torch.nn.functional.gelu, torch.nn.functional.softsign, torch.atanh, torch.asin, torch.acos, torch.tan,
       torch.nn.functional.mish, torch.nn.functional.hardswish, torch.nn.functional.elu]


def works(op):
    try:
        op(x)
        return True
    except Exception:
        return False


OPS = [op for op in OPS if works(op)][:32]


def variety(k):
    ops = OPS[:k]
    reps = max(1, 32 // k)

    def body():
        with torch.no_grad():
            for _ in range(reps):
                for op in ops:
                    op(x)
    return body, reps * k


with torch.device("cuda"):
    blk = common.Block(2048, 16, 8, 5632).to(bf).eval()
cos, sin = common.rope_cache(4096, 128, dev)
h = torch.randn(1, 1, 2048, device=dev, dtype=bf)
att, mlp, n1, n2 = blk.self_attn, blk.mlp, blk.input_layernorm, blk.post_attention_layernorm
PIECES = ["input_norm", "attention", "residual1", "post_norm", "mlp", "residual2"]
inside = {p: [] for p in PIECES}


def block_with_stamps():
    with torch.no_grad():
        t = [time.perf_counter()]
        a = n1(h)
        t.append(time.perf_counter())
        a = att(a, cos, sin)
        t.append(time.perf_counter())
        y = h + a
        t.append(time.perf_counter())
        b = n2(y)
        t.append(time.perf_counter())
        b = mlp(b)
        t.append(time.perf_counter())
        y = y + b
        t.append(time.perf_counter())
    return [(t[i + 1] - t[i]) * 1e6 for i in range(len(PIECES))]


def ng(f):
    def g():
        with torch.no_grad():
            f()
    return g


att_alone_samples, att_between_samples = [], []


def attention_between_mlp():
    with torch.no_grad():
        mlp(h)
        t = time.perf_counter()
        att(h, cos, sin)
        att_between_samples.append((time.perf_counter() - t) * 1e6)


def attention_alone():
    with torch.no_grad():
        t = time.perf_counter()
        att(h, cos, sin)
        att_alone_samples.append((time.perf_counter() - t) * 1e6)


def main():
    items = {}
    for k in (1, 2, 4, 8, 16, len(OPS)):
        body, calls = variety(k)
        items["variety_%d" % k] = (body, 10, calls, "%d different pointwise ops in the loop body, per op call" % k)
    items["norm1_alone"] = (ng(lambda: n1(h)), 50, 1, "the input RMSNorm alone")
    items["attention_alone_loop"] = (ng(lambda: att(h, cos, sin)), 20, 1, "the attention alone")
    items["mlp_alone"] = (ng(lambda: mlp(h)), 30, 1, "the MLP alone")
    items["add_alone"] = (ng(lambda: h + h), 200, 1, "a residual add alone")
    for name, (fn, n, c, _) in items.items():
        host_us(fn, 2, c)
    keys = list(items) + ["block_stamps", "attention_pair"]
    samples = {k: [] for k in keys}

    def visit(k):
        if k == "block_stamps":
            for _ in range(10):
                for p, v in zip(PIECES, block_with_stamps()):
                    inside[p].append(v)
            torch.cuda.synchronize()
        elif k == "attention_pair":
            for _ in range(10):
                attention_alone()
                attention_alone()
                attention_between_mlp()
            torch.cuda.synchronize()
        else:
            fn, n, c, _ = items[k]
            samples[k].append(host_us(fn, n, c))

    rounds = run_rounds(keys, visit, args.seconds)
    for k, (fn, n, c, what) in items.items():
        R.put("host_variety", k, {"us_per_call_median": stats(samples[k])["median"], "us_per_call_samples": samples[k],
                                  "what": what, "rounds": rounds})
        log("%-24s %8.2f us  (%s)" % (k, stats(samples[k])["median"], what))
    for p in PIECES:
        R.put("host_variety", "inside_block_" + p, {"us_per_call_median": stats(inside[p])["median"],
                                                    "what": "host time of the piece inside the Llama layer (timestamps)"})
        log("%-24s %8.2f us  (inside the layer)" % ("inside_block_" + p, stats(inside[p])["median"]))
    for name, s in (("attention_alone_stamped", att_alone_samples), ("attention_after_mlp", att_between_samples)):
        R.put("host_variety", name, {"us_per_call_median": stats(s)["median"], "n": len(s)})
        log("%-24s %8.2f us" % (name, stats(s)["median"]))
    log("DONE", rounds, "rounds")


main()
