#!/usr/bin/env python3
"""Host time of real model code by phase and op kind, on ONE machine (issue 14).

The host probe (bench_single.py B1) times tight loops of single ops; eager model code costs more per
op, and by how much depends on what the code does. This script measures, on the machine it runs on
and in one process, the host time (perf_counter around the call, no synchronization inside; the GPU
is never the bottleneck: batch 1, seq 1 or tiny tensors) of:

  fwd_*   one forward of the Llama-style 125m/1b and GPT-2 124m models of common.py, seq 1:
          nograd_bf16 (bf16 weights, no_grad: the inference forwards of B3),
          grad_bf16   (bf16 weights, grad enabled: the training forward without autocast),
          amp_nograd  (fp32 weights under bf16 autocast, no_grad),
          amp_grad    (fp32 weights under bf16 autocast, grad enabled: the amp training forward),
  bwd_*   loss.backward() of the same forward (host time of the backward call),
  step_*  a whole training step at batch 1, seq 64 (forward, backward, AdamW foreach / fused, zero_grad),
  op_*    single ops from Python on tiny CUDA tensors: views that launch nothing (view, transpose,
          split, chunk, unsqueeze, slice), F.linear on a 3-D input with and without bias (the addmm /
          mm paths of nn.Linear), F.layer_norm, F.embedding, F.gelu, SDPA, an nn.Module call around an add.

Each entry: median over 7 repeats of (host time of N calls)/N in us, the samples, and the kernels
and aten ops one call launches (torch.profiler). Writes $OUT/host_split.json.
Usage: python3 calibration/runs/bench_host_split.py --out $OUT
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from common import GPT_VOCAB, build_gpt, build_llama, env_info, free_cuda, stats  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--smoke", action="store_true")
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)
dev = torch.device("cuda")
T0 = time.time()
OUT = {"env": env_info({"script": "bench_host_split.py"}), "results": {}, "errors": []}


def log(*a):
    print("[%6.1fs]" % (time.time() - T0), *a, flush=True)


def save():
    with open(os.path.join(args.out, "host_split.json"), "w") as f:
        json.dump(OUT, f, indent=1)


def host_us(fn, n, repeats=7):
    fn()
    torch.cuda.synchronize()
    s = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(n):
            fn()
        s.append((time.perf_counter() - t) / n * 1e6)
    torch.cuda.synchronize()
    return s


def counts(fn):
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        fn()
        torch.cuda.synchronize()
    k = a = 0
    for e in p.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            k += 1
        elif e.name.startswith("aten::"):
            a += 1
    return {"kernels": k, "aten_ops_incl_nested": a}


def put(key, fn, n, count=True):
    try:
        s = host_us(fn, n)
        v = {"us_per_call_median": stats(s)["median"], "us_per_call_samples": s, "n_calls": n}
        if count:
            v.update(counts(fn))
        OUT["results"][key] = v
        log(key, round(v["us_per_call_median"], 2), v.get("kernels"), v.get("aten_ops_incl_nested"))
    except Exception as e:  # keep going
        OUT["errors"].append("%s: %r" % (key, e))
        log("ERROR", key, repr(e))
    save()


# ---- single ops ---------------------------------------------------------------------------------
N = 300 if args.smoke else 3000
x3 = torch.randn(1, 4, 64, device=dev, dtype=torch.bfloat16)
w = torch.randn(64, 64, device=dev, dtype=torch.bfloat16)
b = torch.randn(64, device=dev, dtype=torch.bfloat16)
y = torch.empty(1, 4, 64, device=dev, dtype=torch.bfloat16)
q4 = torch.randn(1, 4, 4, 16, device=dev, dtype=torch.bfloat16)
idx = torch.randint(0, 64, (1, 4), device=dev)
emb = torch.randn(64, 64, device=dev, dtype=torch.bfloat16)
with torch.no_grad():
    put("op_add_out", lambda: torch.add(x3, x3, out=y), N)
    put("op_add_alloc", lambda: x3 + x3, N)
    put("op_view", lambda: x3.view(1, 4, 4, 16), N, False)
    put("op_transpose", lambda: x3.transpose(1, 2), N, False)
    put("op_unsqueeze", lambda: x3[:, None], N, False)
    put("op_split3", lambda: x3.split(16, dim=2), N, False)
    put("op_chunk2", lambda: x3.chunk(2, dim=-1), N, False)
    put("op_slice", lambda: x3[:, :2], N, False)
    put("op_linear3d", lambda: F.linear(x3, w), N)
    put("op_linear3d_bias", lambda: F.linear(x3, w, b), N)
    put("op_layer_norm", lambda: F.layer_norm(x3, (64,), b, b), N)
    put("op_embedding", lambda: F.embedding(idx, emb), N)
    put("op_gelu_tanh", lambda: F.gelu(x3, approximate="tanh"), N)
    put("op_sdpa_causal", lambda: F.scaled_dot_product_attention(q4, q4, q4, is_causal=True), N)
    put("op_arange", lambda: torch.arange(4, device=dev), N)
    lin = nn.Linear(64, 64, device=dev, dtype=torch.bfloat16)
    put("op_nn_linear_module", lambda: lin(x3), N)

    class AddMod(nn.Module):
        def forward(self, a):
            return torch.add(a, a, out=y)
    am = AddMod()
    put("op_module_add_out", lambda: am(x3), N)

# ---- model forwards, backwards, steps -----------------------------------------------------------
MODELS = [("llama125m", "125m"), ("gpt124m", "gpt124m"), ("llama1b", "1b")]
for tag, name in MODELS:
    if args.smoke and tag == "llama1b":
        continue
    try:
        is_gpt = name.startswith("gpt")
        build = build_gpt if is_gpt else build_llama
        vocab = GPT_VOCAB if is_gpt else 32000
        layers = 2 if args.smoke else None
        x = torch.randint(0, vocab, (1, 1), device=dev)
        tgt = torch.randint(0, vocab, (1, 1), device=dev)
        reps = 20 if not args.smoke else 3
        for wdt, label in ((torch.bfloat16, "bf16"), (torch.float32, "amp")):
            model, _ = build(name, dtype=wdt, layers=layers)
            amp = label == "amp"

            def fwd(grad, m=model, amp=amp):
                with torch.set_grad_enabled(grad), torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                    return m(x)

            put("fwd_%s_%s_nograd" % (tag, label), lambda: fwd(False), reps)
            put("fwd_%s_%s_grad" % (tag, label), lambda: fwd(True), reps)
            if tag != "llama1b":
                # backward alone: host time of loss.backward() after a forward done outside the timing
                def bwd_only(m=model, amp=amp):
                    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                        loss = m(x, tgt)
                    torch.cuda.synchronize()
                    t = time.perf_counter()
                    loss.backward()
                    dt = time.perf_counter() - t
                    m.zero_grad(set_to_none=True)
                    torch.cuda.synchronize()
                    return dt
                bwd_only()
                s = [bwd_only() * 1e6 for _ in range(reps)]
                OUT["results"]["bwd_%s_%s" % (tag, label)] = {"us_per_call_median": stats(s)["median"],
                                                            "us_per_call_samples": s}
                log("bwd_%s_%s" % (tag, label), round(stats(s)["median"], 1))
                # whole training steps at batch 1, seq 64 (host-bound), foreach and fused AdamW
                xs = torch.randint(0, vocab, (1, 64), device=dev)
                ys = torch.randint(0, vocab, (1, 64), device=dev)
                for fused in (False, True):
                    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1,
                                            fused=True if fused else None, foreach=None if fused else True)

                    def step(m=model, amp=amp, opt=opt):
                        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                            loss = m(xs, ys)
                        loss.backward()
                        opt.step()
                        opt.zero_grad(set_to_none=True)

                    put("step_%s_%s_%s_b1_s64" % (tag, label, "fused" if fused else "foreach"), step, 5 if not args.smoke else 2)
                    del opt
            del model
            free_cuda()
    except Exception as e:
        OUT["errors"].append("%s: %r" % (tag, e))
        log("ERROR", tag, repr(e))
    save()
log("done")
save()
