#!/usr/bin/env python3
"""Issue 14: eager training steps and the host probe's entries measured round-robin in one fresh,
never-profiled process (as bench_infer_interleaved.py does for the forwards): every round visits
every item once in a random order, one synchronized step per configuration, one tight loop per probe
entry; the figures are medians over all rounds, not one ~0.5 s window per configuration.

Configurations (the steps of bench_single.py's B2/B4, make_train's recipe: AdamW lr 1e-4, weight
decay 0.1, zero_grad(set_to_none=True); amp = fp32 weights under bf16 autocast, bf16 = bf16 weights
and states): Llama-style 125M and 350M and GPT-2-style 124M and 355M at sequence 1024, batch 1, 4
and 8, amp and bf16, foreach and fused AdamW (48). One model per (size, precision) with one
optimizer per kind, all alive at once (about 40 GB).

Output (`--out DIR`): DIR/results.json in bench_single.py's format (results.B1_host_probe,
results.B_train with step_ms stats and samples), read by validation/host-training/evaluate.py.

Usage (device machine): python3 calibration/runs/bench_train_interleaved.py --out $OUT/train [--seconds 150]
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch  # noqa: E402

import host_probe  # noqa: E402
from host_probe import host_us, run_rounds  # noqa: E402
from common import (GPT_VOCAB, build_gpt, build_llama, elapsed_log, round_robin_results, stats,  # noqa: E402
                    train_step)

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--seconds", type=float, default=150.0)
ap.add_argument("--smoke", action="store_true", help="two layers per model, sequence 64, a few rounds")
args = ap.parse_args()
R = round_robin_results(args.out, args.seconds)
dev = torch.device("cuda")
log = elapsed_log()
SEQ = 64 if args.smoke else 1024
LLAMA_VOCAB = 32000



def configs():
    """key -> (step callable, meta)."""
    out = {}
    for name in ("125m", "350m", "gpt124m", "gpt355m"):
        gpt = name.startswith("gpt")
        for precision in ("amp", "bf16"):
            dtype = torch.float32 if precision == "amp" else torch.bfloat16
            build = build_gpt if gpt else build_llama
            model, nparams = build(name, dtype=dtype, layers=2 if args.smoke else None,
                                   max_seq=1024 if gpt else 2048)
            vocab = GPT_VOCAB if gpt else LLAMA_VOCAB
            for fused in (False, True):
                opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1,
                                        fused=True if fused else None, foreach=None if fused else True)
                for batch in (1, 4, 8):
                    x = torch.randint(0, vocab, (batch, SEQ), device=dev)
                    y = torch.randint(0, vocab, (batch, SEQ), device=dev)

                    def step(model=model, opt=opt, x=x, y=y, amp=precision == "amp"):
                        train_step(model, opt, x, y, amp)

                    key = "%s_b%d_s%d_%s_%s" % (name, batch, SEQ, precision, "fused" if fused else "foreach")
                    out[key] = (step, {"model": name, "params": nparams, "batch": batch, "seq": SEQ,
                                       "tokens_per_step": batch * SEQ, "precision": precision,
                                       "optimizer": "AdamW fused" if fused else "AdamW foreach"})
    return out


def main():
    probes = host_probe.round_robin_entries(dev)
    for fn, n in probes.values():
        host_us(fn, max(1, n // 10))
    steps = configs()
    for key, (step, _) in steps.items():
        for _ in range(2):
            step()
        torch.cuda.synchronize()
    log("ready: %d configurations, %.1f GB allocated" % (len(steps), torch.cuda.memory_allocated() / 1e9))
    items = [("probe", k) for k in probes] + [("step", k) for k in steps]
    samples = {it: [] for it in items}

    def visit(it):
        kind, key = it
        if kind == "probe":
            fn, n = probes[key]
            samples[it].append(host_us(fn, n))
        else:
            torch.cuda.synchronize()
            t = time.perf_counter()
            steps[key][0]()
            torch.cuda.synchronize()
            samples[it].append((time.perf_counter() - t) * 1e3)

    rounds = run_rounds(items, visit, 10.0 if args.smoke else args.seconds)
    for key in probes:
        s = samples[("probe", key)]
        R.put("B1_host_probe", key, {"us_per_call_median": stats(s)["median"], "us_per_call_samples": s,
                                     "n_calls": probes[key][1], "rounds": rounds})
    for key, (_, meta) in steps.items():
        s = samples[("step", key)]
        meta = dict(meta, step_ms_samples=s, step_ms=stats(s), rounds=rounds,
                    method="interleaved: one synchronized step per round, median over all rounds")
        R.put("B_train", key, meta)
        log("B train", key, "med %.2f ms (p10-p90 %.2f..%.2f)" % (
            stats(s)["median"], sorted(s)[len(s) // 10], sorted(s)[9 * len(s) // 10]))
    log("DONE", rounds, "rounds")


main()
