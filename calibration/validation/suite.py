"""Runs the validation suite on a real GPU and writes the measurements as JSON.

Every case is timed the way gpucast's predictions are defined: triton.testing.do_bench semantics
(warm-up, the 256 MB L2 flush before each run, CUDA events around the op, median of many runs).
The CUDA kernels each op launched are recorded once with torch.profiler, so that the report can
say which library kernel ran. Nothing here feeds calibration: these are the validation kernels.

usage: python3 suite.py --out measurements.json [--families gemm,attention] [--limit N] [--quick]
"""
import argparse
import datetime
import json
import math
import zlib
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_gen  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import triton.testing  # noqa: E402

DTYPES = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def rand(shape, dtype, device="cuda"):
    return torch.randn(shape, device=device, dtype=torch.float32).to(dtype)


def operand(rows, cols, t, transposed, batch=1):
    """A (rows, cols) operand, stored transposed (a view of a contiguous (cols, rows) tensor) when asked."""
    lead = (batch,) if batch > 1 else ()
    if not transposed:
        return rand(lead + (rows, cols), t)
    return rand(lead + (cols, rows), t).transpose(-1, -2)


def make_gemm(p, variant=None):
    m, n, k, batch, dtype = p["m"], p["n"], p["k"], p.get("batch", 1), p["dtype"]
    torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
    if dtype == "fp8":
        a = rand((m, k), torch.float32).to(torch.float8_e4m3fn)
        b = rand((n, k), torch.float32).to(torch.float8_e4m3fn).t()  # column-major B, as _scaled_mm requires
        one = torch.tensor(1.0, device="cuda")
        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    t = DTYPES[dtype]
    layout = (variant or "layout=nn").split("=", 1)[1]
    a = operand(m, k, t, layout[0] == "t", batch)
    b = operand(k, n, t, layout[1] == "t", batch)
    if batch > 1:
        return lambda: torch.bmm(a, b)
    return lambda: torch.matmul(a, b)


BACKENDS = {"flash2": "FLASH_ATTENTION", "cudnn": "CUDNN_ATTENTION", "efficient": "EFFICIENT_ATTENTION",
            "math": "MATH"}


def with_backend(fn, backend):
    """Runs fn under torch.nn.attention.sdpa_kernel(backend); "auto" leaves PyTorch's choice alone."""
    if backend == "auto":
        return fn
    from torch.nn.attention import SDPBackend, sdpa_kernel
    which = getattr(SDPBackend, BACKENDS[backend])

    def run():
        with sdpa_kernel([which]):
            return fn()
    return run


def set_backend_flags(backend):
    """Enables only `backend` in PyTorch's SDPA dispatch ("auto": all, PyTorch's default). Set once per
    case, not per call: sdpa_kernel's context manager costs host time that outlasts the L2 flush."""
    import torch.backends.cuda as cb
    for name, flag in (("flash2", cb.enable_flash_sdp), ("efficient", cb.enable_mem_efficient_sdp),
                       ("math", cb.enable_math_sdp), ("cudnn", getattr(cb, "enable_cudnn_sdp", None))):
        if flag is not None:
            flag(backend == "auto" or backend == name)


def attention_backward_direct(q, k, v, causal, backend):
    """The backend's ATen backward op called directly (the kernels autograd runs, without the engine's
    host time). None where the op or its signature is not there (the caller falls back to autograd)."""
    from torch.nn.attention import SDPBackend
    aten = torch.ops.aten
    try:
        if backend == "auto":
            choice = int(torch._fused_sdp_choice(q, k, v, None, 0.0, causal))
            backend = {int(SDPBackend.FLASH_ATTENTION): "flash2", int(SDPBackend.EFFICIENT_ATTENTION): "efficient",
                       int(SDPBackend.CUDNN_ATTENTION): "cudnn"}.get(choice, "math")
        if backend == "flash2":
            out, lse, cq, ck, mq, mk, seed, off, _ = aten._scaled_dot_product_flash_attention(q, k, v, 0.0, causal, False)
            g = torch.randn_like(out)
            fn = lambda: aten._scaled_dot_product_flash_attention_backward(  # noqa: E731
                g, q, k, v, out, lse, cq, ck, mq, mk, 0.0, causal, seed, off)
        elif backend == "efficient":
            out, lse, seed, off = aten._scaled_dot_product_efficient_attention(q, k, v, None, True, 0.0, causal)
            g = torch.randn_like(out)
            fn = lambda: aten._scaled_dot_product_efficient_attention_backward(  # noqa: E731
                g, q, k, v, None, out, lse, seed, off, 0.0, [True, True, True, False], causal)
        elif backend == "cudnn":
            out, lse, cq, ck, mq, mk, seed, off, _ = aten._scaled_dot_product_cudnn_attention(
                q, k, v, None, True, 0.0, causal, False)
            g = torch.randn_like(out)
            fn = lambda: aten._scaled_dot_product_cudnn_attention_backward(  # noqa: E731
                g, q, k, v, out, lse, seed, off, None, cq, ck, mq, mk, 0.0, causal)
        else:
            return None
        fn()
        torch.cuda.synchronize()
        BACKWARD_METHOD["last"] = "aten backward op (" + backend + ")"
        return fn
    except Exception as exc:
        BACKWARD_METHOD["last"] = f"autograd (direct op failed: {type(exc).__name__}: {str(exc)[:80]})"
        return None


def make_attention(p):
    b, h, hkv = p["batch"], p["heads"], p.get("kv_heads", p["heads"])
    sq, skv, d, causal = p["seq_q"], p["seq_kv"], p["head_dim"], p.get("causal", False)
    t = DTYPES[p["dtype"]]
    backward = p.get("backward", False)
    backend = p.get("backend", "auto")
    q, k, v = rand((b, h, sq, d), t), rand((b, hkv, skv, d), t), rand((b, hkv, skv, d), t)
    gqa = hkv != h
    kw = {"is_causal": causal}
    if gqa:
        kw["enable_gqa"] = True
    if DIRECT_BACKWARD:
        set_backend_flags(backend)  # reset to "auto" after the case by main()
        fwd = lambda: F.scaled_dot_product_attention(q, k, v, **kw)  # noqa: E731
    else:
        fwd = with_backend(lambda: F.scaled_dot_product_attention(q, k, v, **kw), backend)
    if not backward:
        return fwd
    if DIRECT_BACKWARD and not gqa:
        direct = attention_backward_direct(q, k, v, causal, backend)
        if direct is not None:
            return direct
    for x in (q, k, v):
        x.requires_grad_(True)
    out = fwd()
    grad = torch.randn_like(out)
    # dQ, dK, dV through autograd (the backend's own backward kernels); nothing accumulates into .grad.
    return lambda: torch.autograd.grad(out, (q, k, v), grad, retain_graph=True)


def make_conv(p):
    dtype = p["dtype"]
    # fp32: cuDNN's FP32 (FMA) kernels, TF32 off; tf32: fp32 tensors with TF32 allowed (PyTorch's default).
    torch.backends.cudnn.allow_tf32 = dtype == "tf32"
    t = DTYPES[dtype]
    x = rand((p["n"], p["c"], p["h"], p["w"]), t).contiguous(memory_format=torch.channels_last)
    w = rand((p["k"], p["c"], p["r"], p["s"]), t).contiguous(memory_format=torch.channels_last)
    stride, pad = p.get("stride", 1), p.get("pad", 0)
    return lambda: F.conv2d(x, w, stride=stride, padding=pad)


def make_elementwise(p, expr):
    t = DTYPES[p["dtype"]]
    n = p["elements"]
    a = rand((n,), t)
    if expr == "a + b":
        b = rand((n,), t)
        return lambda: a + b
    if expr == "a * 1.5":
        return lambda: a * 1.5
    if expr == "F.gelu(a)":
        return lambda: F.gelu(a)
    if expr == "a.to(torch.float32)":
        return lambda: a.to(torch.float32)
    if expr == "torch.addcmul(a, b, c)":
        b, c = rand((n,), t), rand((n,), t)
        return lambda: torch.addcmul(a, b, c)
    if expr == "F.silu(a)":
        return lambda: F.silu(a)
    if expr == "a.zero_()":
        return lambda: a.zero_()
    if expr == "a.fill_(1.5)":
        return lambda: a.fill_(1.5)
    if expr == "a2d.t().contiguous()":
        rows = 2 ** max(1, int(math.log2(max(4, n)) // 2))
        while n % rows:
            rows //= 2
        a2d = a.view(rows, n // rows)
        return lambda: a2d.t().contiguous()
    raise ValueError(expr)


def make_rows(op, p):
    t = DTYPES[p["dtype"]]
    rows = p["rows"]
    cols = p.get("cols", p.get("hidden"))
    x = rand((rows, cols), t)
    if op == "reduce":
        return lambda: x.sum(dim=-1)
    if op == "softmax":
        return lambda: F.softmax(x, dim=-1)
    w = rand((cols,), t)
    bias = rand((cols,), t) if op == "layernorm" else None
    if op == "layernorm":
        fwd = lambda: F.layer_norm(x, (cols,), w, bias)  # noqa: E731
    else:
        fwd = lambda: F.rms_norm(x, (cols,), w)  # noqa: E731
    if not p.get("backward", False):
        return fwd
    if DIRECT_BACKWARD:
        direct = norm_backward_direct(op, x, w, bias, cols)
        if direct is not None:
            return direct
    inputs = [x, w] + ([bias] if bias is not None else [])
    for z in inputs:
        z.requires_grad_(True)
    out = fwd()
    grad = torch.randn_like(out)
    return lambda: torch.autograd.grad(out, inputs, grad, retain_graph=True)


# Backward cases of norms and embeddings: with DIRECT_BACKWARD the ATen backward op is called
# directly (the kernels autograd runs, without the autograd engine's host time, which exceeds the L2
# flush and sets the time of small cases); otherwise through torch.autograd.grad.
DIRECT_BACKWARD = False
BACKWARD_METHOD = {}


def norm_backward_direct(op, x, w, bias, cols):
    try:
        if op == "layernorm":
            _, mean, rstd = torch.ops.aten.native_layer_norm(x, [cols], w, bias, 1e-5)
            dy = torch.randn_like(x)
            fn = lambda: torch.ops.aten.native_layer_norm_backward(dy, x, [cols], mean, rstd, w, bias,  # noqa: E731
                                                                   [True, True, True])
            name = "aten.native_layer_norm_backward"
        else:
            _, rstd = torch.ops.aten._fused_rms_norm(x, [cols], w, None)
            dy = torch.randn_like(x)
            fn = lambda: torch.ops.aten._fused_rms_norm_backward(dy, x, [cols], rstd, w, [True, True])  # noqa: E731
            name = "aten._fused_rms_norm_backward"
        fn()
        torch.cuda.synchronize()
        BACKWARD_METHOD["last"] = name
        return fn
    except Exception as exc:  # an op this PyTorch lacks: fall back to autograd
        BACKWARD_METHOD["last"] = f"autograd (direct op failed: {type(exc).__name__})"
        return None


def make_embedding(p):
    t = DTYPES[p["dtype"]]
    table = rand((p["vocab"], p["dim"]), t)
    idx = torch.randint(0, p["vocab"], (p["tokens"],), device="cuda")
    if not p.get("backward", False):
        return lambda: F.embedding(idx, table)
    if DIRECT_BACKWARD:
        grad = rand((p["tokens"], p["dim"]), t)
        BACKWARD_METHOD["last"] = "aten.embedding_dense_backward"
        return lambda: torch.ops.aten.embedding_dense_backward(grad, idx, p["vocab"], -1, False)
    table.requires_grad_(True)
    out = F.embedding(idx, table)
    grad = torch.randn_like(out)
    return lambda: torch.autograd.grad(out, table, grad, retain_graph=True)  # embedding_dense_backward


def make_copy(p):
    n = int(p["bytes"])
    kind = p.get("kind", "d2d")
    gpu = torch.empty(n, dtype=torch.uint8, device="cuda").random_(1, 255)
    if kind == "d2d":
        dst = torch.empty_like(gpu)
        return lambda: dst.copy_(gpu)
    pinned = torch.empty(n, dtype=torch.uint8, pin_memory=True).random_(1, 255)
    if kind == "h2d":
        return lambda: gpu.copy_(pinned, non_blocking=True)
    return lambda: pinned.copy_(gpu, non_blocking=True)


def make_fn(case):
    op, p = case["op"], case["params"]
    if op == "gemm":
        return make_gemm(p, case.get("variant"))
    if op == "attention":
        return make_attention(p)
    if op == "conv2d":
        return make_conv(p)
    if op == "elementwise":
        return make_elementwise(p, case["torch"])
    if op in ("reduce", "softmax", "layernorm", "rmsnorm"):
        return make_rows(op, p)
    if op == "embedding":
        return make_embedding(p)
    if op == "copy":
        return make_copy(p)
    raise ValueError(op)


def device_activities(prof):
    """(name, GPU duration in us) of each device activity a finished torch.profiler session recorded."""
    out = []
    for e in prof.events():
        dt = getattr(e, "device_type", None)
        if dt is None or "CUDA" not in str(dt):
            continue
        us = getattr(e, "device_time", None)
        if us is None:
            us = getattr(e, "cuda_time", 0.0)
        out.append((e.name[:200], float(us)))
    return out


def kernels_of(fn):
    """Names and GPU durations (us) of the device activities one call of fn launches."""
    fn()
    torch.cuda.synchronize()
    try:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        return [{"name": name, "us": round(us, 3)} for name, us in device_activities(prof)]
    except Exception as exc:  # the profiler is a convenience, never a reason to lose a measurement
        return [{"name": f"profiler failed: {exc}", "us": 0.0}]


def environment():
    props = torch.cuda.get_device_properties(0)
    env = {
        "gpu": torch.cuda.get_device_name(0),
        "sm_count": props.multi_processor_count,
        "l2_bytes": getattr(props, "L2_cache_size", None),
        "memory_bytes": props.total_memory,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "triton": getattr(triton, "__version__", None) if "triton" in sys.modules else None,
        "python": platform.python_version(),
        "host": platform.node(),
    }
    try:
        env["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                       capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:
        env["driver"] = None
    return env


def save(path, results, warmup, rep, t_start):
    doc = {
        "format": "gpucast-validation/1",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "environment": environment(),
        "method": ("triton.testing.do_bench(warmup=%d ms, rep=%d ms, quantiles=[0.5, 0.2, 0.8]): 256 MB L2 flush "
                   "before each run, CUDA events around one call, median reported; kernels from one profiled call; "
                   "repeat_us: a second do_bench median of the same callable right after the first (noise floor); "
                   "backward cases: torch.autograd.grad of a retained graph (no .grad accumulation); attention "
                   "backends through torch.nn.attention.sdpa_kernel; GEMM variant layout=XY: X/Y = t for an "
                   "operand stored transposed; conv2d fp32 with cudnn.allow_tf32 off, tf32 with it on"
                   % (warmup, rep)),
        "seconds": round(time.time() - t_start, 1),
        "cases": results,
    }
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, path)


def repeated(case_id, every):
    """The noise subset: cases timed twice in the same process (a hash independent of the split's)."""
    return every > 0 and zlib.adler32(case_id.encode()) % every == 0


def smoke_subset(cases):
    """One case of each kind (family, variant, dtype, backend): a short run that exercises every builder."""
    seen, out = set(), []
    for c in cases:
        p = c["params"]
        key = (c["family"], c.get("variant"), p.get("dtype"), p.get("backend"), p.get("kind"), c["torch"])
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--families", default="")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="shorter timing windows")
    ap.add_argument("--no-profile", action="store_true")
    ap.add_argument("--first-suite", action="store_true", help="only the first suite's 680 cases")
    ap.add_argument("--smoke", action="store_true", help="one case of each kind")
    ap.add_argument("--repeat-every", type=int, default=4,
                    help="time one case in N a second time right after the first (noise floor); 0: none")
    ap.add_argument("--budget-s", type=float, default=0, help="stop starting new cases after this many seconds")
    ap.add_argument("--heldout-seed", type=int, default=0,
                    help="measure a held-out set instead: the broad builders with this seed, shapes the suite "
                         "already has dropped (cases.heldout_cases); every case in the test split")
    ap.add_argument("--tuning-seed", type=int, default=0,
                    help="measure a second tuning set instead: the broad builders with this seed, shapes the "
                         "suite and the held-out set already have dropped (cases.tuning_cases); every case dev")
    ap.add_argument("--probe", default="",
                    help="measure one probe set instead (cases.PROBES: a small dev set for one mechanism)")
    ap.add_argument("--direct-backward", action="store_true",
                    help="backward cases through their ATen ops, not torch.autograd.grad; attention backends "
                         "chosen by PyTorch's global SDPA flags set once per case, not sdpa_kernel per call")
    args = ap.parse_args()
    global DIRECT_BACKWARD
    DIRECT_BACKWARD = args.direct_backward

    families = [f for f in args.families.split(",") if f]
    if args.probe:
        all_cases = case_gen.probe_cases(args.probe)
    elif args.tuning_seed:
        all_cases = case_gen.tuning_cases(args.tuning_seed, families=families or None)
    elif args.heldout_seed:
        all_cases = case_gen.heldout_cases(args.heldout_seed, families=families or None)
    else:
        all_cases = case_gen.all_cases(families=families or None, broad=not args.first_suite)
    if args.smoke:
        all_cases = smoke_subset(all_cases)
    if args.limit:
        all_cases = all_cases[: args.limit]
    warmup, rep = (5, 20) if args.quick else (10, 60)
    torch.manual_seed(0)
    results = []
    t_start = time.time()
    for i, case in enumerate(all_cases):
        if args.budget_s and time.time() - t_start > args.budget_s:
            print(f"[suite] time budget reached: {len(all_cases) - i} cases not started", file=sys.stderr)
            break
        record = dict(case)
        fn = None
        try:
            BACKWARD_METHOD.pop("last", None)
            fn = make_fn(case)
            if "last" in BACKWARD_METHOD:
                record["backward_method"] = BACKWARD_METHOD["last"]
            med, p20, p80 = triton.testing.do_bench(fn, warmup=warmup, rep=rep, quantiles=[0.5, 0.2, 0.8])
            record.update({"measured_us": med * 1e3, "p20_us": p20 * 1e3, "p80_us": p80 * 1e3})
            if repeated(case["id"], args.repeat_every):
                med2 = triton.testing.do_bench(fn, warmup=warmup, rep=rep, quantiles=[0.5])
                med2 = med2[0] if isinstance(med2, (list, tuple)) else med2
                record["repeat_us"] = med2 * 1e3
            if not args.no_profile:
                record["kernels"] = kernels_of(fn)
        except Exception as exc:
            record["error"] = f"{type(exc).__name__}: {exc}"[:300]
            torch.cuda.empty_cache()
        results.append(record)
        fn = None
        if DIRECT_BACKWARD and case["op"] == "attention":
            set_backend_flags("auto")
        if i % 100 == 99:
            save(args.out, results, warmup, rep, t_start)  # partial results survive a timeout
        if i % 25 == 0 or "error" in record:
            torch.cuda.empty_cache()
            print(f"[suite] {i + 1}/{len(all_cases)} {time.time() - t_start:.0f}s {case['id']} "
                  f"{record.get('measured_us', record.get('error'))}", file=sys.stderr, flush=True)
    save(args.out, results, warmup, rep, t_start)
    ok = sum(1 for r in results if "measured_us" in r)
    print(f"[suite] {ok}/{len(results)} cases measured in {time.time() - t_start:.0f} s -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
