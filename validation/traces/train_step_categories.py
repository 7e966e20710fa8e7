#!/usr/bin/env python3
"""A Llama-style training step, generated (`gpucast predict --model ... --mode train`) against its
PyTorch profiler trace, per kernel category (GEMM fwd/dgrad/wgrad, attention, norms, casts,
optimizer, loss, RoPE, layout copies, activation, residual adds, gradient-accumulation adds,
memsets, embedding): count and GPU time of the traced step (measured), of its same-GPU replay
(`gpucast predict --trace`, the same kernel models on what really ran) and of the generated step.
generated - replay is what the generator gets wrong; replay - traced is the kernel models'.
Run from the repository root after building:
    python3 validation/traces/train_step_categories.py [build/cli/gpucast] [--gpu h100-sxm]
The traces (bench_single.py section A): llama125m-train b8 s1024 and llama1b-train b4 s2048 (amp, foreach
AdamW), llama1b-prefill b1 s2048 (bf16 weights, no_grad, every position's logits)."""
import argparse
import bisect
import collections
import difflib
import gzip
import json
import re
import subprocess

# trace: (model, batch, seq, gpucast's arguments for the same run)
TRAIN = ["--mode", "train", "--precision", "amp", "--optimizer", "adamw"]
TRACES = {"llama125m-train": ("llama-125m", 8, 1024, TRAIN), "llama1b-train": ("llama-1b", 4, 2048, TRAIN),
          "llama1b-prefill": ("llama-1b", 1, 2048, ["--mode", "prefill", "--precision", "bf16"])}
VOCAB = 32000
ap = argparse.ArgumentParser()
ap.add_argument("gpucast", nargs="?", default="build/cli/gpucast")
ap.add_argument("--gpu", default="h100-sxm")
ap.add_argument("--trace", action="append")
args = ap.parse_args()
GEMM = re.compile(r"nvjet|gemm|xmma|cutlass", re.I)
ATTN = re.compile(r"cudnn|flash|fmha|attention", re.I)


def trace_rows(path):
    """(kernel name, category of event, duration, stack [(name, types, dims)], phase) per GPU event of
    the last ProfilerStep, in launch order."""
    ev = json.load(gzip.open(path))["traceEvents"]
    step = max((e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")),
               key=lambda e: e["ts"])
    t0, t1 = step["ts"], step["ts"] + step["dur"]
    opt = ([e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("Optimizer.step")
            and t0 <= e["ts"] <= t1] or [{"ts": t1 + 1, "dur": 0}])[0]
    rt = {e["args"]["correlation"]: e for e in ev
          if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
    ops = collections.defaultdict(list)
    for e in ev:
        if e.get("cat") == "cpu_op":
            ops[e["tid"]].append(e)
    starts = {}
    for t in ops:
        ops[t].sort(key=lambda e: e["ts"])
        starts[t] = [e["ts"] for e in ops[t]]
    out = []
    for e in ev:
        if e.get("cat") not in ("kernel", "gpu_memset", "gpu_memcpy"):
            continue
        r = rt.get(e["args"].get("correlation"))
        if r is None or not (t0 <= r["ts"] <= t1):
            continue
        L, s = ops[r["tid"]], starts[r["tid"]]
        i = bisect.bisect_right(s, r["ts"])
        stk = [L[j] for j in range(max(0, i - 4000), i) if L[j]["ts"] + L[j]["dur"] >= r["ts"]]
        stk = [(x["name"], x["args"].get("Input type") or [], x["args"].get("Input Dims") or []) for x in stk
               if not x["name"].startswith("autograd::engine")]
        phase = "opt" if opt["ts"] <= r["ts"] <= opt["ts"] + opt["dur"] else (
            "fwd" if r["tid"] == step["tid"] else "bwd")
        out.append((r["ts"], e["name"], e["cat"], e["dur"], stk, phase))
    out.sort()
    return [o[1:] for o in out]


def trace_category(name, cat, stk, phase, tokens):
    names = " > ".join(s[0] for s in stk)
    inner = stk[-1] if stk else ("", [], [])
    dims = [d for d in inner[2] if d]
    if cat == "gpu_memset":
        return "memset"
    if phase == "opt":
        return "optimizer"
    if re.search(r"cross_entropy|log_softmax|nll_loss|NllLoss|LogSoftmax|ones_like", names) or \
            ("_to_copy" in names and [tokens, VOCAB] in dims):  # the log-probabilities' casts
        return "loss"
    if "mbedding" in names:
        return "embedding"
    if GEMM.search(name):
        if phase == "fwd":
            return "gemm_fwd"
        a = dims[0] if dims else []
        return "gemm_wgrad" if len(a) == 2 and a[1] == tokens else "gemm_dgrad"
    if ATTN.search(name) or "scaled_dot_product" in names:
        return "attention_" + phase
    if "_to_copy" in names or "ToCopyBackward" in names:
        # autocast's casts; the RoPE tables' casts ([seq, head_dim]) are RoPE's
        return "rope" if dims and len(dims[0]) == 2 and phase == "fwd" and "linear" not in names else "cast"
    if "ExpandBackward" in names or "reshape > aten::clone" in names:
        return "attn_layout"  # repeat_kv's copies and their gradient sums, the attention output's copy
    if re.search(r"silu|Silu", names) or (dims and dims[0] and dims[0][-1] != dims[-1][-1] and False):
        return "activation"
    d0 = dims[0] if dims else []
    if len(d0) == 4 or re.search(r"aten::neg|aten::cat|NegBackward|SplitBackward", names):
        return "rope"
    if inner[0] in ("aten::mul",) and "c10::BFloat16" in inner[1] and len(d0) == 3:
        return "activation"  # silu(gate) * up and its gradients
    if inner[0] == "aten::add" and phase == "fwd" and d0 and d0[-1] != 1:
        return "residual"  # (RMSNorm's + eps is over [tokens, 1])
    if inner[0] == "aten::add_" and phase == "bwd":
        return "grad_accum_add"
    return "norm"


def gen_category(k):
    n, op = k["name"], k["op"]
    if n.startswith("opt.") or n.startswith("clip_grad."):
        return "optimizer"
    if re.search(r"logits|log_probs|log_softmax|nll_loss|loss_", n):
        return "loss"
    if "embed" in n:
        return "embedding"
    if op == "attention":
        return "attention_bwd" if "grad" in n else "attention_fwd"
    if op == "gemm":
        return "gemm_wgrad" if n.endswith("wgrad") else "gemm_dgrad" if n.endswith("dgrad") else "gemm_fwd"
    if "memset" in n:
        return "memset"
    if re.search(r"cast_in|cast_w|_to_fp32|dgrad_to_input|_grad_to_bf16", n):
        return "cast"
    if "rope" in n:
        return "rope"
    if re.search(r"repeat_kv|attn_out|grad_view_copy", n):
        return "attn_layout"
    if "silu" in n:
        return "activation"
    if re.search(r"grad_accumulate\d?(_[a-z])?$", n):
        return "grad_accum_add"
    if re.search(r"residual\d$", n):
        return "residual"
    return "norm"


def main():
    for trace in args.trace or list(TRACES):
        model, batch, seq, run = TRACES[trace]
        path = "validation/runs/%s/trace-%s.json.gz" % (args.gpu, trace)
        rows = trace_rows(path)
        tcat = [trace_category(n, c, s, p, batch * seq) for n, c, d, s, p in rows]
        rep = json.loads(subprocess.run([args.gpucast, "predict", "--gpu", args.gpu, "--trace", path, "--format", "json"],
                                        check=True, capture_output=True, text=True).stdout)["kernels"]
        gen = json.loads(subprocess.run(
            [args.gpucast, "predict", "--gpu", args.gpu, "--model", "validation/host-training/models/%s.toml" % model,
             "--batch", str(batch), "--seq", str(seq), "--format", "json"] + run, check=True, capture_output=True, text=True).stdout)["kernels"]
        # The replay's kernels follow the trace's launches (foreach launches merged into one op, some
        # memsets dropped): align them by aten op name.
        tn = [[s[0] for s in r[3] if s[0].startswith("aten::")][-1][6:] if any(s[0].startswith("aten::") for s in r[3])
              else "?" for r in rows]
        # (a kernel the replay scales from its measurement is named by its class: traced_reduce is a sum)
        rn = [re.sub(r"_\d+$", "", k["name"]).replace("traced_reduce", "sum") for k in rep]
        rcat = ["?"] * len(rep)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, tn, rn, autojunk=False).get_opcodes():
            for j in range(j1, j2):
                i = min(i1 + (j - j1), max(i1, i2 - 1)) if i2 > i1 else max(0, i1 - 1)
                rcat[j] = tcat[i]
        agg = collections.defaultdict(lambda: [0, 0.0, 0, 0.0, 0, 0.0])
        for (n, c, d, s, p), cat in zip(rows, tcat):
            agg[cat][0] += 1
            agg[cat][1] += d
        for k, cat in zip(rep, rcat):
            agg[cat][2] += 1
            agg[cat][3] += k["duration_us"]
        for k in gen:
            cat = gen_category(k)
            agg[cat][4] += 1
            agg[cat][5] += k["duration_us"]
        print("\n## %s (%s b%d s%d %s) on %s" % (trace, model, batch, seq, " ".join(run), args.gpu))
        print("| category | traced kernels | traced us | replay kernels | replay us | generated kernels | generated us | generated vs replay |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        tot = [0, 0.0, 0, 0.0, 0, 0.0]
        for cat, v in sorted(agg.items(), key=lambda kv: -kv[1][1]):
            tot = [a + b for a, b in zip(tot, v)]
            print("| %s | %d | %.0f | %d | %.0f | %d | %.0f | %s |" % (
                cat, v[0], v[1], v[2], v[3], v[4], v[5], "%+.0f us" % (v[5] - v[3])))
        print("| **total** | %d | %.0f | %d | %.0f | %d | %.0f | %+.1f%% |" % (
            tot[0], tot[1], tot[2], tot[3], tot[4], tot[5], 100 * (tot[5] - tot[3]) / tot[3]))


main()
