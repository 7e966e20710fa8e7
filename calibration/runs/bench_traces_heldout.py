#!/usr/bin/env python3
"""Held-out PyTorch profiler traces: workloads no gpucast rule was developed on (issue 13).

The trace importer's recognition rules and the kernel models were developed on the Llama-style
training/prefill traces and the ResNet-50 forward of `bench_single.py` section A. These are other
workloads, recorded once, only reported (docs/accuracy.md, "Traces: held-out workloads"):

  gpt124m-train     GPT-2-style 124M, amp (fp32 weights, autocast bf16), foreach AdamW, batch 8 x 1024
  gpt355m-train-bf16  GPT-2-style 355M, pure bf16, fused AdamW, batch 4 x 1024
  resnet50-train    ResNet-50 training step (channels_last, autocast bf16, SGD momentum), batch 64
  vit-b16-fwd       torchvision ViT-B/16 forward (eval, autocast fp16), batch 64
  encoder-fwd       nn.TransformerEncoder (BERT-base shape, eval, fp16 weights: PyTorch's fused
                    fast path), batch 32 x 512
  llama350m-compile Llama-style 350M training step under torch.compile (Triton kernels), amp, batch 4 x 1024

Phase 1 times every workload's step without any profiler in the process (wall clock, median of 10
after warm-up); phase 2 records each trace (`schedule(wait=1, warmup=1, active=2)`,
record_shapes=True). The torch.compile workload runs in its own process (--only llama350m-compile)
so that its compile does not share state with the others.

Usage (device machine): python3 calibration/runs/bench_traces_heldout.py --out $OUT [--only NAME,...]
Writes $OUT/results_heldout.json and $OUT/trace-<name>.json.gz.
"""
import argparse
import gzip
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import common  # noqa: E402
from common import GPT_VOCAB, Results, build_gpt, build_llama, env_info, free_cuda, stats, wall_samples  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--only", default="gpt124m-train,gpt355m-train-bf16,resnet50-train,vit-b16-fwd,encoder-fwd")
ap.add_argument("--budget", type=float, default=400.0)
args = ap.parse_args()
T0 = time.time()
os.makedirs(args.out, exist_ok=True)
dev = torch.device("cuda")
name_suffix = "_compile" if args.only == "llama350m-compile" else ""
R = Results(os.path.join(args.out, "results_heldout%s.json" % name_suffix), env_info({"only": args.only}))


def log(*a):
    print("[%6.1fs]" % (time.time() - T0), *a, flush=True)


def sync():
    torch.cuda.synchronize()


def train_step(model, opt, batch_fn, autocast_dtype):
    """A step callable: common.train_step on the batch batch_fn gives, under autocast_dtype (None: none)."""
    def step():
        x, y = batch_fn()
        common.train_step(model, opt, x, y, autocast_dtype is not None, autocast_dtype or torch.bfloat16)
    return step


def make_gpt124m():
    model, n = build_gpt("gpt124m", dtype=torch.float32)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1, foreach=True)
    x = torch.randint(0, GPT_VOCAB, (8, 1024), device=dev)
    y = torch.randint(0, GPT_VOCAB, (8, 1024), device=dev)
    return train_step(model, opt, lambda: (x, y), torch.bfloat16), {
        "model": "gpt124m", "params": n, "batch": 8, "seq": 1024, "precision": "amp", "optimizer": "AdamW foreach"}


def make_gpt355m_bf16():
    model, n = build_gpt("gpt355m", dtype=torch.bfloat16)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1, fused=True)
    x = torch.randint(0, GPT_VOCAB, (4, 1024), device=dev)
    y = torch.randint(0, GPT_VOCAB, (4, 1024), device=dev)
    return train_step(model, opt, lambda: (x, y), None), {
        "model": "gpt355m", "params": n, "batch": 4, "seq": 1024, "precision": "bf16", "optimizer": "AdamW fused"}


def make_resnet50_train():
    import torchvision
    model = torchvision.models.resnet50(weights=None).to(dev).to(memory_format=torch.channels_last).train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4, foreach=True)
    x = torch.randn(64, 3, 224, 224, device=dev).to(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (64,), device=dev)

    class WithLoss(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, a, b):
            return F.cross_entropy(self.m(a), b)

    return train_step(WithLoss(model), opt, lambda: (x, y), torch.bfloat16), {
        "model": "resnet50", "batch": 64, "image": 224, "precision": "amp bf16", "optimizer": "SGD momentum foreach",
        "memory_format": "channels_last"}


def make_vit_fwd():
    import torchvision
    model = torchvision.models.vit_b_16(weights=None).to(dev).eval()
    x = torch.randn(64, 3, 224, 224, device=dev)

    def fwd():
        with torch.no_grad(), torch.autocast("cuda", dtype=torch.float16):
            return model(x)
    return fwd, {"model": "vit_b_16", "batch": 64, "image": 224, "precision": "fp32 weights, autocast fp16, eval"}


def make_encoder_fwd():
    layer = nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0, activation="gelu", batch_first=True)
    enc = nn.TransformerEncoder(layer, 12, enable_nested_tensor=False).to(dev).half().eval()
    x = torch.randn(32, 512, 768, device=dev, dtype=torch.float16)

    def fwd():
        with torch.no_grad():
            return enc(x)
    return fwd, {"model": "nn.TransformerEncoder 12 x (768, 12 heads, 3072)", "batch": 32, "seq": 512,
                 "precision": "fp16 weights, eval, no_grad (fast path)"}


def make_llama350m_compile():
    model, n = build_llama("350m", dtype=torch.float32, max_seq=1024)
    cmodel = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1, foreach=True)
    x = torch.randint(0, 32000, (4, 1024), device=dev)
    y = torch.randint(0, 32000, (4, 1024), device=dev)
    return train_step(cmodel, opt, lambda: (x, y), torch.bfloat16), {
        "model": "llama350m", "params": n, "batch": 4, "seq": 1024, "precision": "amp",
        "optimizer": "AdamW foreach (eager)", "compile": "torch.compile default mode (model only)"}


MAKERS = {
    "gpt124m-train": make_gpt124m,
    "gpt355m-train-bf16": make_gpt355m_bf16,
    "resnet50-train": make_resnet50_train,
    "vit-b16-fwd": make_vit_fwd,
    "encoder-fwd": make_encoder_fwd,
    "llama350m-compile": make_llama350m_compile,
}


def trace(fn, path):
    from torch.profiler import ProfilerActivity, profile, schedule
    raw = path[:-3]

    def ready(p):
        p.export_chrome_trace(raw)

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=1), on_trace_ready=ready) as prof:
        for _ in range(4):
            fn()
            prof.step()
    sync()
    with open(raw, "rb") as fi, gzip.open(path, "wb", compresslevel=6) as fo:
        shutil.copyfileobj(fi, fo)
    size = os.path.getsize(raw)
    os.remove(raw)
    return {"file": os.path.basename(path), "json_bytes": size, "gz_bytes": os.path.getsize(path),
            "schedule": "wait=1,warmup=1,active=2", "record_shapes": True}


names = [n for n in args.only.split(",") if n]
torch.backends.cudnn.benchmark = False
# Phase 1: step times, no profiler has run in this process yet.
for name in names:
    if time.time() - T0 > args.budget:
        R.skip(name, "budget")
        continue
    try:
        t = time.time()
        fn, meta = MAKERS[name]()
        samp = wall_samples(fn, 5 if name.endswith("compile") else 3, 10)
        meta["step_ms_samples"] = samp
        meta["step_ms"] = stats(samp)
        meta["setup_and_timing_s"] = time.time() - t
        R.put("heldout", name, meta)
        log(name, meta["step_ms"])
        del fn
    except Exception as e:  # noqa
        R.err(name, e)
        log(name, "failed", repr(e)[:200])
    free_cuda()
# Phase 2: traces.
for name in names:
    if time.time() - T0 > args.budget:
        R.skip(name + " trace", "budget")
        continue
    meta = R.data["results"].get("heldout", {}).get(name)
    if meta is None:
        continue
    try:
        fn, _ = MAKERS[name]()
        meta["trace"] = trace(fn, os.path.join(args.out, "trace-%s.json.gz" % name))
        R.put("heldout", name, meta)
        log(name, "trace", meta["trace"])
        del fn
    except Exception as e:  # noqa
        R.err(name + " trace", e)
        log(name, "trace failed", repr(e)[:200])
    free_cuda()
log("done")
