#!/usr/bin/env python3
"""Issue 14: the inference forwards (eager and CUDA graph) and the host probe's speed entries,
measured round-robin in one fresh, never-profiled process, so that every figure is a median over the
whole call instead of a fraction of a second.

Why: on the lent VMs the host's speed drifts within seconds. The earlier sets (bench_single.py B3)
timed each configuration in one ~0.2 s window, one after another, so two host-bound forwards doing
the same host work in the same process could read 2.4 and 4.0 ms (validation/runs/h200-sxm/fresh3,
GPT-2 124M b1 s1 and b16 s1), and the probe that sets the host's speed ran in another window. Here
each round visits every item (a probe entry, or one configuration's eager or graph forward) once,
in a fresh random order, and the figures are medians over all rounds: what the host does on
average over the call, which is what a host description can describe.

Items:
  - the 19 entries of calibration/host/host_profile.py's SPEED_ENTRIES, the same work as
    bench_single.py's section B1 (host time per call of a tight loop, us), plus e_sdpa_tiny_bf16_causal;
  - forwards without KV cache, bf16 weights, no_grad, all positions' logits (as B3): Llama 1B and
    GPT-2 124M and 1.5B at batch 1 and 16, sequence 1 and 512 (B3's twelve), and Llama 350M and
    GPT-2 355M at batch 1 and 16, sequence 1 (held out: sizes B3 never ran); each eager and
    replayed as a CUDA graph; per visit 3 synchronized wall-clock samples with CUDA events around each.

Output (`--out DIR`): DIR/results.json in bench_single.py's format (results.B1_host_probe with
us_per_call_median; results.B_infer with eager/graph wall and event stats and samples), so that
calibration/host/host_profile.py and validation/host-training/evaluate.py read it as they read B1/B3.

Usage (device machine): python3 calibration/runs/bench_infer_interleaved.py --out $OUT/interleaved [--seconds 150]
       host calibration only (docs/host.md): ... --probe-only --seconds 60 --out OUT
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
from common import (GPT_VOCAB, build_gpt, build_llama, capture_graph, elapsed_log,  # noqa: E402
                    round_robin_results, stats)

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--seconds", type=float, default=150.0, help="time for the rounds (setup not included)")
ap.add_argument("--smoke", action="store_true", help="two layers per model, a few rounds")
ap.add_argument("--probe-only", action="store_true",
                help="only the probe entries (a host calibration: no models, no GPU memory to speak of)")
args = ap.parse_args()

R = round_robin_results(args.out, args.seconds)
dev = torch.device("cuda")
log = elapsed_log()
LLAMA_VOCAB = 32000



def sync():
    torch.cuda.synchronize()


# ------------------------------------------------------------------------------------------------
# Probe entries: host_probe.py's tight loops (bench_single.py's section B1), calls per visit below.
# ------------------------------------------------------------------------------------------------

def probe_entries():
    return host_probe.round_robin_entries(dev)


# ------------------------------------------------------------------------------------------------
# Forwards: (key, model name, batch, seq) -> eager callable and captured graph.
# ------------------------------------------------------------------------------------------------

CONFIGS = [("1b", b, s) for b in (1, 16) for s in (1, 512)] + \
          [("gpt124m", b, s) for b in (1, 16) for s in (1, 512)] + \
          [("gpt1.5b", b, s) for b in (1, 16) for s in (1, 512)] + \
          [("350m", b, 1) for b in (1, 16)] + [("gpt355m", b, 1) for b in (1, 16)]


def key_of(name, batch, seq):
    return "%s_b%d_s%d" % (name, batch, seq)


def prepare_forwards():
    models, out = {}, {}
    for name, batch, seq in CONFIGS:
        if name not in models:
            gpt = name.startswith("gpt")
            build = build_gpt if gpt else build_llama
            m, nparams = build(name, dtype=torch.bfloat16, layers=2 if args.smoke else None)
            m.eval()
            models[name] = (m, nparams, GPT_VOCAB if gpt else LLAMA_VOCAB)
        m, nparams, vocab = models[name]
        x = torch.randint(0, vocab, (batch, seq), device=dev)

        def fwd(m=m, x=x):
            with torch.no_grad():
                return m(x)

        for _ in range(3):
            fwd()
        g, static = capture_graph(fwd)
        g.replay()
        sync()
        out[key_of(name, batch, seq)] = {"model": name, "params": nparams, "batch": batch, "seq": seq,
                                         "eager": fwd, "graph": g.replay, "keep": static}
        log("ready", key_of(name, batch, seq))
    return out


def timed_calls(fn, n):
    """n synchronized calls: (wall ms, event ms) each."""
    wall, ev = [], []
    for _ in range(n):
        sync()
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        t = time.perf_counter()
        a.record()
        fn()
        b.record()
        sync()
        wall.append((time.perf_counter() - t) * 1e3)
        ev.append(a.elapsed_time(b))
    return wall, ev


def main():
    probes = probe_entries()
    for name, (fn, n) in probes.items():  # warm every path once
        host_us(fn, max(1, n // 10))
    forwards = {} if args.probe_only else prepare_forwards()
    items = [("probe", k) for k in probes] + [(mode, k) for k in forwards for mode in ("eager", "graph")]
    samples = {it: [] for it in items}
    events = {it: [] for it in items}

    def visit(it):
        kind, key = it
        if kind == "probe":
            fn, n = probes[key]
            samples[it].append(host_us(fn, n))
        else:
            w, e = timed_calls(forwards[key][kind], 3)
            samples[it] += w
            events[it] += e

    rounds = run_rounds(items, visit, 5.0 if args.smoke else args.seconds,
                        after_round=lambda r: log("round", r, "done"))
    for key in probes:
        s = samples[("probe", key)]
        R.put("B1_host_probe", key, {"us_per_call_median": stats(s)["median"], "us_per_call_samples": s,
                                     "n_calls": probes[key][1], "rounds": rounds})
    for key, f in forwards.items():
        meta = {k: f[k] for k in ("model", "params", "batch", "seq")}
        meta.update({"what": "full-sequence forward without KV cache (seq 1 = single-token forward, decode-like)",
                     "precision": "bf16 weights, no_grad", "logits": "all positions", "rounds": rounds,
                     "method": "interleaved: 3 synchronized calls per round, medians over all rounds"})
        for mode in ("eager", "graph"):
            meta[mode + "_wall_ms_samples"] = samples[(mode, key)]
            meta[mode + "_wall_ms"] = stats(samples[(mode, key)])
            meta[mode + "_event_ms_samples"] = events[(mode, key)]
            meta[mode + "_event_ms"] = stats(events[(mode, key)])
        R.put("B_infer", key, meta)
        log("B infer", key, "eager wall %.3f ms (p10-p90 spread over rounds %.3f..%.3f) graph %.3f ms" % (
            meta["eager_wall_ms"]["median"], sorted(samples[("eager", key)])[len(samples[("eager", key)]) // 10],
            sorted(samples[("eager", key)])[9 * len(samples[("eager", key)]) // 10], meta["graph_wall_ms"]["median"]))
    for key in probes:
        log("B1", key, "%.2f us" % stats(samples[("probe", key)])["median"])
    log("DONE", rounds, "rounds")


main()
