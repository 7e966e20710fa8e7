#!/usr/bin/env python3
"""Rewrites a generated Llama layer workload (TOML, `gpucast predict --dump-workload`) into the kernels
that calibration/runs/bench_multi.py's TPLayer runs, as its profiler traces show them
(validation/runs/h200x2/probe/traces.tar.gz):

- RMSNorm is written HF-style in fp32 (x.float(), pow, mean, + eps, rsqrt, mul, .to(bf16), weight mul):
  eight kernels, where the generator emits one fused rmsnorm kernel;
- prefill repeats K and V over the query heads (HF repeat_kv: expand + reshape, one copy kernel each)
  before SDPA, and cuDNN's attention output is already in (batch, seq, heads, dim) order, so the
  generator's attn_transpose copy is not run; decode folds the query heads of a KV group into the
  query length (no repeat) and reshapes its output without a copy: its SDPA call has heads = kv_heads
  and heads / kv_heads query rows per sequence, which cuDNN runs with its prefill kernel (one query tile
  per KV head walking the whole cache: about 57 us at 4,097 cached positions in the probe's traces,
  where the one-row decode kernel the generator's call would get takes 5-7 us).

- RoPE is written t * cos + cat(-t2, t1) * sin: five kernels per tensor (mul, neg, cat, mul, add),
  where the generator emits seven;
- every kernel carries the host work the benchmark's Python does to issue it (`host = {...}`): one aten
  call and its launch (and a library call for GEMM and attention), plus the aten calls that launch
  nothing before it (split, view, transpose, slice, unsqueeze, chunk, reshape, expand, alias: 29 per
  decode layer, 66 aten calls in all, counted in the probe's profiler traces,
  validation/runs/h200x2/probe/traces.tar.gz, TP=1 and TP=2 alike). The host model prices them as
  framework.op_dispatch_us each.

Usage: bench_layer.py IN.toml OUT.toml {prefill|decode}
"""
import re
import sys


def kernel(name, op, **kv):
    lines = ['name = "%s"' % name, 'op = "%s"' % op]
    for k, v in kv.items():
        lines.append('%s = %s' % (k, ('"%s"' % v) if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else repr(v)))
    return "\n".join(lines) + "\n"


def hf_rmsnorm(prefix, rows, hidden):
    n = rows * hidden
    return [
        kernel(prefix + ".float", "elementwise", elements=n, dtype="bf16", out_dtype="fp32", flops_per_element=0.0),
        kernel(prefix + ".pow", "elementwise", elements=n, dtype="fp32"),
        kernel(prefix + ".mean", "reduce", rows=rows, cols=hidden, dtype="fp32"),
        kernel(prefix + ".add_eps", "elementwise", elements=rows, dtype="fp32"),
        kernel(prefix + ".rsqrt", "elementwise", elements=rows, dtype="fp32", flops_per_element=4.0),
        kernel(prefix + ".mul", "elementwise", elements=n, dtype="fp32", inputs=2),
        kernel(prefix + ".to_dtype", "elementwise", elements=n, dtype="fp32", out_dtype="bf16",
               flops_per_element=0.0),
        kernel(prefix + ".weight_mul", "elementwise", elements=n, dtype="bf16", inputs=2),
    ]


def with_host(part, dispatch, library):
    """The kernel's text with the benchmark's host work: `dispatch` aten calls, one launch."""
    host = "host = { op_dispatch = %d, launch = 1%s }" % (dispatch, ", library_call = 1" if library else "")
    return part.rstrip("\n") + "\n" + host + "\n"


def rope(prefix, n):
    """t * cos + cat(-t2, t1) * sin over n elements (t a transposed view; cos and sin broadcast)."""
    return [
        kernel(prefix + "_mul_cos", "elementwise", elements=n, dtype="bf16", inputs=2, contiguous=False),
        kernel(prefix + "_neg", "elementwise", elements=n // 2, dtype="bf16", contiguous=False),
        kernel(prefix + "_cat", "elementwise", elements=n, dtype="bf16", flops_per_element=0.0, contiguous=False),
        kernel(prefix + "_mul_sin", "elementwise", elements=n, dtype="bf16", inputs=2),
        kernel(prefix + "_add", "elementwise", elements=n, dtype="bf16", inputs=2),
    ]


# Aten calls that launch nothing, issued right before the kernel named (per layer; TPLayer.forward):
# split + 3 x (view, transpose) of q, k, v and the rope's cos/sin slicing (2 x (slice, 2 unsqueeze)) and
# chunk before q's rope; the same 7 before k's; a slice before each cache write; before decode SDPA the
# query reshape and the two cache slices (aliases); before o_proj the output reshape and unsqueeze
# (prefill: transpose, reshape); chunk before silu; prefill repeat_kv: unsqueeze, expand before each copy.
VIEWS = {"decode": {"rope_q_mul_cos": 14, "rope_k_mul_cos": 7, "kv_cache_k": 1, "kv_cache_v": 1, "attention": 3,
                    "o_proj": 2, "silu": 1},
         "prefill": {"rope_q_mul_cos": 14, "rope_k_mul_cos": 7, "repeat_kv_k": 2, "repeat_kv_v": 2, "o_proj": 2,
                     "silu": 1}}
LIBRARY_OPS = ("gemm", "attention")


def field(part, key):
    m = re.search(r'^%s = (.+)$' % key, part, re.M)
    return None if m is None else m.group(1).strip().strip('"')


def main():
    src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    parts = open(src).read().split("\n[[kernel]]\n")
    out = [parts[0]]
    for p in parts[1:]:
        name, op = field(p, "name"), field(p, "op")
        if re.search(r"\.rope_[qk]_mul1$", name):
            out += rope(name[:-len("_mul1")], 2 * int(float(field(p, "elements"))))
        elif re.search(r"\.rope_[qk]_", name):
            continue
        elif op == "rmsnorm":
            out += hf_rmsnorm(name, int(float(field(p, "rows"))), int(float(field(p, "hidden"))))
        elif name.endswith(".attn_transpose"):
            continue
        elif op == "attention" and mode == "prefill":
            b, hq, hkv = int(field(p, "batch")), int(field(p, "heads")), int(field(p, "kv_heads"))
            s, d = int(field(p, "seq_kv")), int(field(p, "head_dim"))
            if hkv < hq:  # repeat_kv: K and V expanded to the query heads and copied
                for which in ("k", "v"):
                    out.append(kernel(name.rsplit(".", 1)[0] + ".repeat_kv_" + which, "elementwise",
                                      elements=b * hq * s * d, dtype="bf16", flops_per_element=0.0,
                                      contiguous=False))
            out.append(p)
        elif op == "attention" and mode == "decode":
            # The benchmark's decode SDPA call: q (b, kv_heads, heads / kv_heads, d) against the cache
            # (b, kv_heads, L, d), not causal: heads = kv_heads and the group's query heads as query
            # rows. cuDNN runs its prefill kernel for more than one query row (models/attention_model.cpp).
            hq, hkv = int(field(p, "heads")), int(field(p, "kv_heads"))
            sq = int(field(p, "seq_q"))
            p = re.sub(r'^heads = .+$', 'heads = %d' % hkv, p, flags=re.M)
            p = re.sub(r'^seq_q = .+$', 'seq_q = %d' % (sq * hq // hkv), p, flags=re.M)
            p = re.sub(r'^causal = .+\n', '', p, flags=re.M)
            out.append(p)
        else:
            out.append(p)
    views = VIEWS[mode]
    for i in range(1, len(out)):
        name, op = field(out[i], "name"), field(out[i], "op")
        out[i] = with_host(out[i], 1 + views.get(name.split(".", 1)[-1], 0), op in LIBRARY_OPS)
    open(dst, "w").write("\n[[kernel]]\n".join(out))


if __name__ == "__main__":
    main()
