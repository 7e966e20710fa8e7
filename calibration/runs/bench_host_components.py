#!/usr/bin/env python3
"""Issue 14: where an eager forward's host time goes, piece by piece. The host time per call of the
Llama-1B and GPT-2 1.5B layers' pieces at batch 1, sequence 1 (bf16, no_grad: the decode-like
forward, host-bound on the lent machines), and of the single aten ops they are made of, measured
round-robin in one fresh, never-profiled process (medians over all rounds, as
bench_infer_interleaved.py), beside the tight-loop entries that set a host description's speed.

Compare each piece with what gpucast charges it (validation/host-training/host_components.py): a
piece the model charges short names the host work it misses (the eager Llama forwards were
predicted 12-19% short on the fifth H100 lease while GPT-2's were within 0-10%).

Usage (device machine): python3 calibration/runs/bench_host_components.py --out $OUT/components [--seconds 60]
Output: OUT/results.json, results.host_components: {piece: {us_per_call_median, us_per_call_samples, what}}.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

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



def pieces():
    """name -> (callable, calls per visit, what)."""
    P = {}
    with torch.device("cuda"):
        lblk = common.Block(2048, 16, 8, 5632).to(bf).eval()  # Llama 1B layer
        gblk = common.GPTBlock(1600, 25).to(bf).eval()  # GPT-2 1.5B layer
    cos, sin = common.rope_cache(4096, 128, dev)
    x = torch.randn(1, 1, 2048, device=dev, dtype=bf)
    att, mlp, norm = lblk.self_attn, lblk.mlp, lblk.input_layernorm
    q = att.q_proj(x).view(1, 1, 16, 128).transpose(1, 2)
    k = att.k_proj(x).view(1, 1, 8, 128).transpose(1, 2)
    h32 = x.float()
    flat = torch.randn(1, device=dev)
    q1, q2 = q.chunk(2, dim=-1)

    def ng(f):
        def g():
            with torch.no_grad():
                f()
        return g

    P["llama_block"] = (ng(lambda: lblk(x, cos, sin)), 20, "Llama 1B Block forward, b1 s1")
    P["llama_attention"] = (ng(lambda: att(x, cos, sin)), 30, "its Attention (q/k/v/o, RoPE, repeat_kv, SDPA)")
    P["llama_mlp"] = (ng(lambda: mlp(x)), 50, "its MLP (gate, up, silu, mul, down)")
    P["llama_rmsnorm"] = (ng(lambda: norm(x)), 50, "its RMSNorm module (8 eager ops)")
    P["llama_linear"] = (ng(lambda: att.q_proj(x)), 200, "nn.Linear 2048x2048 bf16, no bias")
    P["rope"] = (ng(lambda: common.apply_rope(q, k, cos[:1], sin[:1])), 50, "apply_rope with the slices (cos[:s], sin[:s])")
    P["repeat_kv"] = (ng(lambda: k[:, :, None].expand(1, 8, 2, 1, 128).reshape(1, 16, 1, 128)), 200,
                      "k[:, :, None].expand(...).reshape(...): one copy kernel")
    P["view_transpose"] = (ng(lambda: x.view(1, 1, 16, 128).transpose(1, 2)), 500, "two views, no kernel")
    P["chunk"] = (ng(lambda: q.chunk(2, dim=-1)), 500, "chunk: views, no kernel")
    P["op_add_1d"] = (ng(lambda: torch.add(flat, flat)), 500, "torch.add of 1-element tensors (the probe's a_add_alloc)")
    P["op_mul_4d_bcast"] = (ng(lambda: q * cos[:1][None, None].to(bf)), 200, "q * cos[None, None] incl. the slice, index and cast")
    P["op_mul_4d_same"] = (ng(lambda: q * q), 500, "q * q (4-D transposed view)")
    P["op_neg_half"] = (ng(lambda: -q2), 500, "-x2 (half of a chunk)")
    P["op_cat_halves"] = (ng(lambda: torch.cat((q2, q1), dim=-1)), 500, "torch.cat of the two halves")
    P["op_float"] = (ng(lambda: x.float()), 500, "x.float() bf16 -> fp32 [1,1,2048]")
    P["op_pow2"] = (ng(lambda: h32.pow(2)), 500, "h.pow(2)")
    P["op_mean_keepdim"] = (ng(lambda: h32.mean(-1, keepdim=True)), 500, "h.mean(-1, keepdim=True)")
    P["op_add_scalar"] = (ng(lambda: h32 + 1e-5), 500, "h + eps (a Python float)")
    P["op_rsqrt"] = (ng(lambda: torch.rsqrt(h32)), 500, "torch.rsqrt")
    P["op_silu"] = (ng(lambda: F.silu(x)), 500, "F.silu")
    # The Block's composition: the same work as llama_block, called without the Block module (the
    # pieces chained in a plain function), and with Python's cyclic garbage collector off.
    post = lblk.post_attention_layernorm

    def unrolled():
        h = x + att(norm(x), cos, sin)
        return h + mlp(post(h))

    def without_gc(f):
        f.without_gc = True  # host_us turns the collector off around the visit's calls
        return f

    P["llama_block_unrolled"] = (ng(unrolled), 20, "the Block's pieces chained in a function (no Block module)")
    P["llama_block_no_gc"] = (without_gc(ng(lambda: lblk(x, cos, sin))), 20, "llama_block with gc disabled")
    P["llama_attention_no_gc"] = (without_gc(ng(lambda: att(x, cos, sin))), 30, "llama_attention with gc disabled")
    P["llama_two_norms_chained"] = (ng(lambda: post(norm(x))), 30, "two RMSNorm modules, the second on the first's output")
    xg = torch.randn(1, 1, 1600, device=dev, dtype=bf)
    P["gpt_block"] = (ng(lambda: gblk(xg)), 20, "GPT-2 1.5B Block forward, b1 s1")
    P["gpt_attention"] = (ng(lambda: gblk.attn(xg)), 50, "its attention (c_attn, split, views, SDPA, c_proj)")
    P["gpt_block_no_gc"] = (without_gc(ng(lambda: gblk(xg))), 20, "gpt_block with gc disabled")
    P["gpt_layernorm"] = (ng(lambda: gblk.ln_1(xg)), 200, "its nn.LayerNorm module")
    P["gpt_linear_bias"] = (ng(lambda: gblk.c_fc(xg)), 200, "nn.Linear 1600x6400 bf16 with bias")
    return P


def main():
    P = pieces()
    for name, (fn, n, _) in P.items():
        host_us(fn, max(1, n // 5))
    items = list(P)
    samples = {k: [] for k in items}

    def visit(k):
        fn, n, _ = P[k]
        samples[k].append(host_us(fn, n))

    rounds = run_rounds(items, visit, args.seconds)
    for k in P:
        R.put("host_components", k, {"us_per_call_median": stats(samples[k])["median"], "us_per_call_samples": samples[k],
                                     "calls_per_visit": P[k][1], "what": P[k][2], "rounds": rounds})
        log("%-20s %9.2f us  (%s)" % (k, stats(samples[k])["median"], P[k][2]))
    log("DONE", rounds, "rounds")


main()
