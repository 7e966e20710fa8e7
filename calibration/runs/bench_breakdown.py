#!/usr/bin/env python3
"""Where the inference forwards' time goes, on ONE machine (issue 14).

Two parts, in this order, in one process (run it after the timed runs, in its own process):

  pieces   host time of the pieces of the eager forwards (bf16 weights, no_grad, batch 1, seq 1, so
           the GPU is never the bottleneck): the whole forward, one block, its norm / attention / MLP
           modules, RoPE, and each pointwise op of RMSNorm and RoPE at the forward's shapes (allocating
           ops, as model code calls them). perf_counter around N calls, no synchronization inside;
           median of 5 repeats, us per call. No profiler has run in the process yet.
  kernels  torch.profiler (CPU and CUDA activity) over 3 CUDA-graph replays and 3 eager forwards of the
           inference forwards of B3 (Llama 1B, GPT-2 124M and 1.5B; batch 1 and 16, seq 1 and 512):
           per kernel of the last replay / forward its name, duration and the gap since the previous
           kernel ended (us), and per forward the span from the first kernel's start to the last's end.

Writes $OUT/breakdown.json. Usage: python3 calibration/runs/bench_breakdown.py --out $OUT [--smoke]
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from common import GPT_VOCAB, apply_rope, build_gpt, build_llama, env_info, free_cuda, stats  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--smoke", action="store_true", help="2 layers, fewer calls")
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)
dev = torch.device("cuda")
T0 = time.time()
OUT = {"env": env_info({"script": "bench_breakdown.py"}), "pieces": {}, "kernels": {}, "errors": []}
LAYERS = 2 if args.smoke else None


def log(*a):
    print("[%6.1fs]" % (time.time() - T0), *a, flush=True)


def save():
    with open(os.path.join(args.out, "breakdown.json"), "w") as f:
        json.dump(OUT, f)


def host_us(fn, n, repeats=5):
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


def piece(key, fn, n):
    try:
        s = host_us(fn, n)
        OUT["pieces"][key] = {"us_per_call_median": stats(s)["median"], "us_per_call_samples": s, "n_calls": n}
        log("piece", key, round(OUT["pieces"][key]["us_per_call_median"], 2))
    except Exception as e:
        OUT["errors"].append("%s: %r" % (key, e))
        log("ERROR", key, repr(e))


# ---- pieces: host time ---------------------------------------------------------------------------
N = 50 if args.smoke else 400
with torch.no_grad():
    m, _ = build_llama("1b", dtype=torch.bfloat16, layers=LAYERS)
    m.eval()
    x = torch.randint(0, 32000, (1, 1), device=dev)
    h = m.embed_tokens(x)
    blk = m.layers[0]
    cos, sin = m.rope_cos[:1], m.rope_sin[:1]
    at = blk.self_attn
    q = at.q_proj(h).view(1, 1, at.nh, at.hd).transpose(1, 2)
    k = at.k_proj(h).view(1, 1, at.nkv, at.hd).transpose(1, 2)
    hf = h.float()
    var = hf.pow(2).mean(-1, keepdim=True)
    piece("llama1b_forward", lambda: m(x), 20)
    piece("llama1b_block", lambda: blk(h, m.rope_cos, m.rope_sin), N // 4)
    piece("llama1b_rmsnorm_module", lambda: blk.input_layernorm(h), N)
    piece("llama1b_attention_module", lambda: at(h, m.rope_cos, m.rope_sin), N // 4)
    piece("llama1b_mlp_module", lambda: blk.mlp(h), N)
    piece("llama1b_rope", lambda: apply_rope(q, k, cos, sin), N)
    piece("llama1b_lm_head", lambda: m.lm_head(h), N)
    piece("llama1b_embedding", lambda: m.embed_tokens(x), N)
    piece("op_float", lambda: h.float(), N)
    piece("op_pow2", lambda: hf.pow(2), N)
    piece("op_mean_keepdim", lambda: hf.mean(-1, keepdim=True), N)
    piece("op_add_scalar", lambda: var + 1e-5, N)
    piece("op_rsqrt", lambda: torch.rsqrt(var), N)
    piece("op_mul_bcast", lambda: hf * var, N)
    piece("op_to_bf16", lambda: hf.to(torch.bfloat16), N)
    piece("op_mul_weight", lambda: blk.input_layernorm.weight * h, N)
    piece("op_add_resid", lambda: h + h, N)
    piece("op_cat", lambda: torch.cat((q, q), dim=-1), N)
    piece("op_neg", lambda: -q, N)
    piece("op_chunk", lambda: q.chunk(2, dim=-1), N)
    piece("op_silu", lambda: F.silu(h), N)
    piece("op_view_transpose", lambda: h.view(1, 1, at.nh, at.hd).transpose(1, 2), N)
    piece("op_expand_reshape", lambda: k[:, :, None].expand(1, at.nkv, 2, 1, at.hd).reshape(1, at.nh, 1, at.hd), N)
    piece("op_cos_to", lambda: cos.to(torch.bfloat16)[None, None], N)
    piece("op_slice", lambda: m.rope_cos[:1], N)
    piece("op_sdpa", lambda: F.scaled_dot_product_attention(q, q, q, is_causal=True), N)
    del m, blk, at
    free_cuda()
    g, _ = build_gpt("gpt124m", dtype=torch.bfloat16, layers=LAYERS)
    g.eval()
    xg = torch.randint(0, GPT_VOCAB, (1, 1), device=dev)
    hg = g.wte(xg)
    gb = g.h[0]
    piece("gpt124m_forward", lambda: g(xg), 40)
    piece("gpt124m_block", lambda: gb(hg), N // 4)
    piece("gpt124m_layernorm_module", lambda: gb.ln_1(hg), N)
    piece("gpt124m_attention_module", lambda: gb.attn(hg), N // 4)
    piece("gpt124m_mlp", lambda: gb.c_proj(gb.act(gb.c_fc(hg))), N)
    del g, gb
    free_cuda()
save()

# ---- kernels: torch.profiler over graph replays and eager forwards -------------------------------


def kernel_rows(prof, n_calls):
    evs = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    evs.sort(key=lambda e: e.time_range.start)
    per = len(evs) // n_calls if n_calls else 0
    last = evs[len(evs) - per:] if per else []
    rows, prev_end = [], None
    for e in last:
        gap = (e.time_range.start - prev_end) if prev_end is not None else 0.0
        rows.append([e.name[:90], round(e.time_range.elapsed_us(), 3), round(gap, 3)])
        prev_end = e.time_range.end
    span = (last[-1].time_range.end - last[0].time_range.start) if last else 0.0
    return {"kernels_total": len(evs), "kernels_per_call": per, "span_us": span,
            "kernel_sum_us": sum(r[1] for r in rows), "rows": rows}


def profile_calls(fn, n=3):
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        for _ in range(n):
            fn()
            torch.cuda.synchronize()
    return kernel_rows(p, n)


for name in ("1b", "gpt124m", "gpt1.5b"):
    try:
        is_gpt = name.startswith("gpt")
        model, _ = (build_gpt if is_gpt else build_llama)(name, dtype=torch.bfloat16, layers=LAYERS)
        model.eval()
        vocab = GPT_VOCAB if is_gpt else 32000
        for batch in (1, 16):
            for seq in (1, 512):
                key = "%s_b%d_s%d" % (name, batch, seq)
                xx = torch.randint(0, vocab, (batch, seq), device=dev)

                def fwd():
                    with torch.no_grad():
                        return model(xx)
                st = torch.cuda.Stream()
                st.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(st):
                    for _ in range(3):
                        fwd()
                torch.cuda.current_stream().wait_stream(st)
                gr = torch.cuda.CUDAGraph()
                with torch.cuda.graph(gr):
                    out = fwd()  # noqa: F841
                OUT["kernels"][key] = {"graph": profile_calls(gr.replay), "eager": profile_calls(fwd)}
                kg, ke = OUT["kernels"][key]["graph"], OUT["kernels"][key]["eager"]
                log("kernels", key, "graph: %d kernels, sum %.1f us, span %.1f us; eager: %d kernels, sum %.1f us, span %.1f us" % (
                    kg["kernels_per_call"], kg["kernel_sum_us"], kg["span_us"],
                    ke["kernels_per_call"], ke["kernel_sum_us"], ke["span_us"]))
                del gr, out
                save()
        del model
        free_cuda()
    except Exception as e:
        OUT["errors"].append("kernels %s: %r" % (name, e))
        log("ERROR", name, repr(e))
    save()
log("done")
save()
