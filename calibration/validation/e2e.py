"""End-to-end model runs in PyTorch, eager and as CUDA graphs, for checking gpucast's workload
generators (a Llama-style decoder block forward, a decode step, ResNet-50 and BERT-base
inference). Random weights: timings do not depend on values. Validation only; never fitted.

usage: python3 e2e.py --out e2e.json
"""
import argparse
import datetime
import json
import os
import sys

import torch
import torch.nn.functional as F
import triton.testing

BF16 = torch.bfloat16


def rand(*shape):
    return (torch.randn(*shape, device="cuda") * 0.02).to(BF16)


class LlamaLayer:
    """One Llama decoder layer: RMSNorm, QKV, rotary, SDPA, O, residual, RMSNorm, SwiGLU MLP, residual."""

    def __init__(self, d, heads, kv_heads, ffn):
        self.d, self.h, self.hkv, self.hd = d, heads, kv_heads, d // heads
        self.wqkv = rand(d, (heads + 2 * kv_heads) * self.hd)
        self.wo = rand(d, d)
        self.wgu = rand(d, 2 * ffn)
        self.wdown = rand(ffn, d)
        self.n1 = torch.ones(d, device="cuda", dtype=BF16)
        self.n2 = torch.ones(d, device="cuda", dtype=BF16)
        self.ffn = ffn

    def rope(self, x, cos, sin):
        x1, x2 = x[..., : self.hd // 2], x[..., self.hd // 2:]
        return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)

    def forward(self, x, cos, sin, cache=None, pos=None):
        b, s, d = x.shape
        h = F.rms_norm(x, (d,), self.n1)
        qkv = h @ self.wqkv
        q, k, v = qkv.split([self.h * self.hd, self.hkv * self.hd, self.hkv * self.hd], dim=-1)
        q = q.view(b, s, self.h, self.hd).transpose(1, 2)
        k = k.view(b, s, self.hkv, self.hd).transpose(1, 2)
        v = v.view(b, s, self.hkv, self.hd).transpose(1, 2)
        q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
        if cache is not None:
            kc, vc = cache
            kc[:, :, pos:pos + s] = k
            vc[:, :, pos:pos + s] = v
            k, v = kc, vc
            a = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
        else:
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        a = a.transpose(1, 2).reshape(b, s, d)
        x = x + a @ self.wo
        h = F.rms_norm(x, (d,), self.n2)
        gu = h @ self.wgu
        g, u = gu.split(self.ffn, dim=-1)
        return x + (F.silu(g) * u) @ self.wdown


def timed(fn, label, config, mode, results, profile=True):
    ms = triton.testing.do_bench(fn, warmup=20, rep=200, return_mode="median")
    rec = {"name": label, "mode": mode, "config": config, "measured_us": ms * 1e3}
    if profile and mode == "eager":
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        rec["kernels"] = [{"name": e.name[:160], "us": float(getattr(e, "device_time", getattr(e, "cuda_time", 0.0)))}
                          for e in prof.events() if "CUDA" in str(getattr(e, "device_type", ""))]
    results.append(rec)
    print(f"[e2e] {label} {mode}: {ms * 1e3:.1f} us", file=sys.stderr, flush=True)


def as_graph(fn):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g.replay


def llama_runs(results):
    d, heads, kv_heads, ffn, vocab, layers = 4096, 32, 8, 14336, 128256, 32
    cfg = {"model": "llama-3-8b", "d_model": d, "heads": heads, "kv_heads": kv_heads, "ffn": ffn}
    layer = LlamaLayer(d, heads, kv_heads, ffn)
    with torch.no_grad():
        b, s = 4, 2048
        x = rand(b, s, d)
        cos, sin = rand(s, layer.hd // 2), rand(s, layer.hd // 2)
        fn = lambda: layer.forward(x, cos, sin)
        c = dict(cfg, batch=b, seq=s, mode="prefill", layers=1)
        timed(fn, "llama3-8b-layer-prefill-b4-s2048", c, "eager", results)
        timed(as_graph(fn), "llama3-8b-layer-prefill-b4-s2048", c, "graph", results)

        # A full decode step: 32 layers + final norm + LM head, batch 16 against a 4096-token cache.
        b, ctx = 16, 4096
        all_layers = [layer] + [LlamaLayer(d, heads, kv_heads, ffn) for _ in range(layers - 1)]
        caches = [(rand(b, kv_heads, ctx, layer.hd), rand(b, kv_heads, ctx, layer.hd)) for _ in range(layers)]
        emb = rand(vocab, d)
        head = rand(d, vocab)
        nf = torch.ones(d, device="cuda", dtype=BF16)
        tok = torch.randint(0, vocab, (b, 1), device="cuda")
        cos1, sin1 = rand(1, layer.hd // 2), rand(1, layer.hd // 2)

        def step():
            h = F.embedding(tok, emb)
            for lyr, cache in zip(all_layers, caches):
                h = lyr.forward(h, cos1, sin1, cache=cache, pos=ctx - 1)
            return F.rms_norm(h, (d,), nf) @ head

        c = dict(cfg, batch=b, context=ctx, mode="decode", layers=layers, vocab=vocab)
        timed(step, "llama3-8b-decode-b16-c4096", c, "eager", results)
        timed(as_graph(step), "llama3-8b-decode-b16-c4096", c, "graph", results)
        del all_layers, caches
        torch.cuda.empty_cache()


def resnet_bert_runs(results):
    try:
        import torchvision
        model = torchvision.models.resnet50(weights=None).cuda().to(BF16).eval().to(memory_format=torch.channels_last)
        with torch.no_grad():
            for b in (1, 64):
                x = rand(b, 3, 224, 224).contiguous(memory_format=torch.channels_last)
                fn = lambda: model(x)
                c = {"model": "resnet50", "batch": b, "mode": "inference", "dtype": "bf16"}
                timed(fn, f"resnet50-inference-b{b}", c, "eager", results, profile=(b == 64))
                timed(as_graph(fn), f"resnet50-inference-b{b}", c, "graph", results)
    except Exception as exc:
        results.append({"name": "resnet50", "error": str(exc)[:300]})
    try:
        from transformers import BertConfig, BertModel
        model = BertModel(BertConfig()).cuda().to(BF16).eval()
        with torch.no_grad():
            b, s = 32, 128
            ids = torch.randint(0, 30522, (b, s), device="cuda")
            fn = lambda: model(input_ids=ids)
            c = {"model": "bert-base", "batch": b, "seq": s, "mode": "inference", "dtype": "bf16"}
            timed(fn, "bert-base-inference-b32-s128", c, "eager", results, profile=True)
    except Exception as exc:
        results.append({"name": "bert-base", "error": str(exc)[:300]})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    torch.manual_seed(0)
    results = []
    llama_runs(results)
    resnet_bert_runs(results)
    doc = {"format": "gpucast-e2e/1", "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
           "method": "triton.testing.do_bench(warmup=20, rep=200, return_mode='median'); graph = torch.cuda.CUDAGraph replay",
           "runs": results}
    with open(args.out + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()
