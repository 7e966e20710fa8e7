#!/usr/bin/env python3
"""Single-GPU measurements for gpucast calibration/validation.

Sections (run in this order, bounded by --budget seconds of wall clock):
  A  profiler traces (+ un-profiled step times) of Llama-style training/prefill and ResNet-50 forward
  B1 host-overhead probe (per-category host CPU cost of PyTorch ops)
  B2 training step times (pass 1: every size at its middle batch, amp + AdamW foreach)
  B3 inference forwards of the ~1B model, eager vs CUDA graph
  B4 training step times, remaining passes (other batches; pure bf16; fused AdamW)
  C  kernel timings (reductions, softmax, SDPA backends, conv2d)

Writes $OUT/results.json incrementally and $OUT/trace-*.json.gz.
Usage: python3 calibration/runs/bench_single.py --out $OUT --budget 470 [--big]   (--big adds the 3B model)
       python3 calibration/runs/bench_single.py --family gpt --sections B2,B3,B4 --out $OUT --budget 200
       (GPT-2-style models 124M..1.5B, results_gpt.json)
"""
import argparse
import gzip
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from common import (GPT_VOCAB, Results, build_gpt, build_llama, capture_graph, env_info, free_cuda,  # noqa: E402
                    stats, train_step, wall_samples)
import host_probe  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--budget", type=float, default=470.0)
ap.add_argument("--big", action="store_true", help="also the ~3B model (H200)")
ap.add_argument("--sections", default="A,B1,B2,B3,B4,C,B5")
ap.add_argument("--smoke", action="store_true", help="tiny sizes, for a CPU-less syntax/logic check")
ap.add_argument("--family", choices=["llama", "gpt"], default="llama",
                help="gpt: GPT-2-style models (common.GPT_CFGS) in sections B2/B3/B4, written to results_gpt.json")
ap.add_argument("--no-profile", action="store_true",
                help="never start torch.profiler in this process (no kernel counts in B2/B3): keeps the timed "
                     "runs free of any state a profiler leaves (issue 14, docs/accuracy.md)")
args = ap.parse_args()
GPT = args.family == "gpt"
VOCAB = GPT_VOCAB if GPT else 32000

T0 = time.time()
os.makedirs(args.out, exist_ok=True)
SECTIONS = set(args.sections.split(","))


def elapsed():
    return time.time() - T0


def left():
    return args.budget - elapsed()


def log(*a):
    print("[%6.1fs]" % elapsed(), *a, flush=True)


torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
R = Results(os.path.join(args.out, "results_gpt.json" if GPT else "results.json"), env_info({"budget_s": args.budget, "sections": args.sections}))
R.note("torch.backends.cuda.matmul.allow_tf32=False, cudnn.allow_tf32=False for the whole run (fp32 is true fp32)")
log("env", R.data["env"]["gpus"], R.data["env"]["torch"], R.data["env"].get("cpu_model"))
dev = torch.device("cuda")


def sync():
    torch.cuda.synchronize()


def event_samples(fn, warmup, iters, flush=None):
    for _ in range(warmup):
        fn()
    sync()
    evs = []
    for _ in range(iters):
        if flush is not None:
            flush()
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        evs.append((a, b))
    sync()
    return [a.elapsed_time(b) for a, b in evs]


# ------------------------------------------------------------------------------------------------
# training step factory
# ------------------------------------------------------------------------------------------------

def make_train(name, batch, seq, precision="amp", fused=False, layers=None):
    """precision: 'amp' = fp32 weights + autocast bf16; 'bf16' = bf16 weights and AdamW states."""
    dtype = torch.float32 if precision == "amp" else torch.bfloat16
    if GPT:
        model, nparams = build_gpt(name, dtype=dtype, layers=layers, max_seq=max(seq, 1024))
    else:
        model, nparams = build_llama(name, dtype=dtype, layers=layers, max_seq=max(seq, 2048))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1,
                            fused=True if fused else None, foreach=None if fused else True)
    x = torch.randint(0, VOCAB, (batch, seq), device=dev)
    y = torch.randint(0, VOCAB, (batch, seq), device=dev)

    def step():
        return train_step(model, opt, x, y, precision == "amp")

    meta = {"model": name, "params": nparams, "batch": batch, "seq": seq, "tokens_per_step": batch * seq,
            "precision": precision, "optimizer": "AdamW fused" if fused else "AdamW foreach",
            "layers": layers if layers is not None else None}
    return step, meta, (model, opt, x, y)


def count_kernels(fn):
    """Number of CUDA kernels (and memcpy/memset) launched by one call of fn, via the profiler."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        fn()
        sync()
    n_k = n_m = n_launch = n_aten = 0
    for e in p.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            nm = e.name.lower()
            if "memcpy" in nm or "memset" in nm:
                n_m += 1
            else:
                n_k += 1
        else:
            if e.name.startswith(("cudaLaunchKernel", "cuLaunchKernel", "cudaGraphLaunch")):
                n_launch += 1
            if e.name.startswith("aten::"):
                n_aten += 1
    return {"kernels": n_k, "memcpy_memset": n_m, "launch_api_calls": n_launch, "aten_ops_incl_nested": n_aten}


def trace(fn, path, record_shapes=True):
    from torch.profiler import ProfilerActivity, profile, schedule
    raw = path[:-3] if path.endswith(".gz") else path

    def ready(p):
        p.export_chrome_trace(raw)

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=record_shapes,
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=1), on_trace_ready=ready) as prof:
        for _ in range(4):
            fn()
            prof.step()
    sync()
    if not os.path.exists(raw):
        prof.export_chrome_trace(raw)
    with open(raw, "rb") as fi, gzip.open(raw + ".gz", "wb", compresslevel=6) as fo:
        shutil.copyfileobj(fi, fo)
    rawsize = os.path.getsize(raw)
    os.remove(raw)
    gz = os.path.getsize(raw + ".gz")
    return {"file": os.path.basename(raw) + ".gz", "json_bytes": rawsize, "gz_bytes": gz,
            "schedule": "wait=1,warmup=1,active=2", "record_shapes": record_shapes}


def safe_trace(fn, fname, record_shapes=True):
    try:
        r = trace(fn, os.path.join(args.out, fname), record_shapes=record_shapes)
        log("A trace", r)
        return r
    except Exception as e:
        R.err("trace " + fname, e)
        return {"error": repr(e)[:300]}


# ------------------------------------------------------------------------------------------------
# A: traces
# ------------------------------------------------------------------------------------------------

def section_A():
    sizes = {"125m": (8, 1024), "1b": (4, 2048)}
    if args.smoke:
        sizes = {"125m": (1, 64), "1b": (1, 64)}
    # A1 + A2: 125M training, with and without record_shapes
    try:
        b, s = sizes["125m"]
        step, meta, keep = make_train("125m", b, s, layers=2 if args.smoke else None)
        samp = wall_samples(step, 3, 10)
        meta["step_ms_samples"] = samp
        meta["step_ms"] = stats(samp)
        log("A llama125m train", meta["step_ms"])
        R.put("A_traces", "llama125m-train", meta)
        meta["trace"] = safe_trace(step, "trace-llama125m-train.json.gz")
        meta["trace_noshapes"] = safe_trace(step, "trace-llama125m-train-noshapes.json.gz", record_shapes=False)
        try:
            meta["kernels_per_step"] = count_kernels(step)
        except Exception as e:
            R.err("A kernels 125m", e)
        R.put("A_traces", "llama125m-train", meta)
        del step, keep
    except Exception as e:
        R.err("A llama125m-train", e)
    free_cuda()
    # A1: 1B training
    try:
        b, s = sizes["1b"]
        L = 2 if args.smoke else None
        step, meta, keep = make_train("1b", b, s, layers=L)
        samp = wall_samples(step, 3, 10)
        meta["step_ms_samples"] = samp
        meta["step_ms"] = stats(samp)
        log("A llama1b train", meta["step_ms"])
        R.put("A_traces", "llama1b-train", meta)
        meta["trace"] = safe_trace(step, "trace-llama1b-train.json.gz")
        try:
            meta["kernels_per_step"] = count_kernels(step)
        except Exception as e:
            R.err("A kernels 1b", e)
        R.put("A_traces", "llama1b-train", meta)
        del step, keep
    except Exception as e:
        R.err("A llama1b-train", e)
    free_cuda()
    # A3: 1B prefill, bf16 weights, no_grad, batch 1 seq 2048
    try:
        s = 64 if args.smoke else 2048
        model, nparams = build_llama("1b", dtype=torch.bfloat16, layers=2 if args.smoke else None)
        x = torch.randint(0, 32000, (1, s), device=dev)

        def fwd():
            with torch.no_grad():
                return model(x)

        samp = wall_samples(fwd, 3, 10)
        meta = {"model": "1b", "params": nparams, "batch": 1, "seq": s, "precision": "bf16 weights, no_grad",
                "step_ms_samples": samp, "step_ms": stats(samp)}
        log("A llama1b prefill", meta["step_ms"])
        R.put("A_traces", "llama1b-prefill", meta)
        meta["trace"] = safe_trace(fwd, "trace-llama1b-prefill.json.gz")
        try:
            meta["kernels_per_step"] = count_kernels(fwd)
        except Exception as e:
            R.err("kernels fwd", e)
        R.put("A_traces", "llama1b-prefill", meta)
        del model, x
    except Exception as e:
        R.err("A llama1b-prefill", e)
    free_cuda()
    # A4: ResNet-50 forward, bf16 autocast, batch 64, channels_last
    try:
        import torchvision
        bsz = 2 if args.smoke else 64
        model = torchvision.models.resnet50(weights=None).to(dev).to(memory_format=torch.channels_last).eval()
        x = torch.randn(bsz, 3, 224, 224, device=dev).to(memory_format=torch.channels_last)

        def fwd():
            with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
                return model(x)

        samp = wall_samples(fwd, 3, 10)
        meta = {"model": "resnet50", "batch": bsz, "image": 224, "precision": "fp32 weights, autocast bf16, no_grad, eval",
                "memory_format": "channels_last", "cudnn.benchmark": torch.backends.cudnn.benchmark,
                "step_ms_samples": samp, "step_ms": stats(samp)}
        log("A resnet50 fwd", meta["step_ms"])
        R.put("A_traces", "resnet50-fwd", meta)
        meta["trace"] = safe_trace(fwd, "trace-resnet50-fwd.json.gz")
        try:
            meta["kernels_per_step"] = count_kernels(fwd)
        except Exception as e:
            R.err("kernels fwd", e)
        R.put("A_traces", "resnet50-fwd", meta)
        del model, x
    except Exception as e:
        R.err("A resnet50-fwd", e)
    free_cuda()


# ------------------------------------------------------------------------------------------------
# B1: host probe
# ------------------------------------------------------------------------------------------------

def host_time(fn, n, repeats=5, sync_each_repeat=True):
    """Median over `repeats` of (host time of n calls)/n, in microseconds. Returns (median, samples, synced)."""
    fn()
    sync()
    host, synced = [], []
    for _ in range(repeats):
        sync()
        t = time.perf_counter()
        for _ in range(n):
            fn()
        t1 = time.perf_counter()
        sync()
        t2 = time.perf_counter()
        host.append((t1 - t) / n * 1e6)
        synced.append((t2 - t) / n * 1e6)
    return {"us_per_call_median": stats(host)["median"], "us_per_call_samples": host,
            "us_per_call_incl_final_sync_samples": synced, "n_calls": n, "repeats": repeats}


def section_B1():
    P = {}
    N = 200 if args.smoke else 5000

    def put(k, v):
        P[k] = v
        log("B1", k, round(v.get("us_per_call_median", float("nan")), 2) if isinstance(v, dict) else v)
        R.put("B1_host_probe", k, v)

    x = torch.ones(1, device=dev)
    y = torch.ones(1, device=dev)
    z = torch.empty(1, device=dev)
    # The tight loops (host_probe.py, shared with bench_infer_interleaved.py), in the probe's order.
    try:
        W = host_probe.workloads(dev)
    except Exception as e:
        R.err("B1 workloads", e)
        W = {}

    def timed(name, **extra):
        fn, calls = W[name]
        r = host_time(fn, max(1, calls * N // 5000))
        r.update(extra)
        put(name, r)
        return r

    def timed_groups(*groups):
        for group, names in groups:
            try:
                for name in names:
                    timed(name)
            except Exception as e:
                R.err("B1 " + group, e)

    timed_groups(("a", ["a_add_out", "a_add_alloc", "a_mul_scalar_inplace"]),
                 ("b", ["b_module_call_add_out", "b_nested_module_identity_add_out"]))
    try:
        nodes = host_probe.CHAIN_NODES
        rs = {}
        for name in ("c_autograd_fwd_bwd_chain100", "c_autograd_fwd_only_grad_chain100", "c_fwd_nograd_chain100"):
            fn, calls = W[name]
            r = host_time(fn, max(20, calls * N // 5000))
            rs[name] = r
        for name, r in rs.items():
            put(name, dict(r, nodes=nodes, us_per_node_median=r["us_per_call_median"] / nodes))
        P["c_backward_per_node_us"] = (rs["c_autograd_fwd_bwd_chain100"]["us_per_call_median"] -
                                       rs["c_autograd_fwd_only_grad_chain100"]["us_per_call_median"]) / nodes
        R.put("B1_host_probe", "c_backward_per_node_us_derived", P["c_backward_per_node_us"])
    except Exception as e:
        R.err("B1 c", e)
    timed_groups(("d", ["d_mm16_fp32", "d_mm16_fp32_out", "d_mm16_bf16", "d_nn_linear16_fp32"]),
                 ("e", ["e_sdpa_tiny_bf16", "e_sdpa_tiny_bf16_causal"]),
                 ("f", ["f_layer_norm_tiny", "f_rms_norm_tiny", "f_rmsnorm_module_eager_tiny(6_ops)"]))
    try:
        K = host_probe.LIST_TENSORS
        r = timed("g_foreach_add_100", tensors=K)
        r["us_per_tensor_median"] = r["us_per_call_median"] / K
        timed("g_foreach_add_1")
        for kind in ("foreach", "fused", "forloop"):
            name = "g_adamw_step_%s_100params" % kind
            fn, calls = W[name]
            r = host_time(fn, calls)
            r["params"] = K
            r["us_per_param_median"] = r["us_per_call_median"] / K
            put(name, r)
    except Exception as e:
        R.err("B1 g", e)
    try:
        s1 = torch.ones(1, device=dev)
        sync()
        samp = []
        for _ in range(5):
            sync()
            t = time.perf_counter()
            for _ in range(200):
                s1.item()
            samp.append((time.perf_counter() - t) / 200 * 1e6)
        put("h_item_idle", {"us_per_call_median": stats(samp)["median"], "us_per_call_samples": samp, "n_calls": 200})
        samp = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(200):
                torch.cuda.synchronize()
            samp.append((time.perf_counter() - t) / 200 * 1e6)
        put("h_synchronize_idle", {"us_per_call_median": stats(samp)["median"], "us_per_call_samples": samp})
        samp = []
        for _ in range(5):
            sync()
            t = time.perf_counter()
            for _ in range(200):
                torch.add(x, y, out=z)
                z.item()
            samp.append((time.perf_counter() - t) / 200 * 1e6)
        put("h_launch_then_item_roundtrip", {"us_per_call_median": stats(samp)["median"], "us_per_call_samples": samp})
    except Exception as e:
        R.err("B1 h", e)
    try:
        K = 100
        gx = torch.zeros(1, device=dev)
        st = torch.cuda.Stream()
        st.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(st):
            for _ in range(3):
                for _ in range(K):
                    gx.add_(1.0)
        torch.cuda.current_stream().wait_stream(st)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(K):
                gx.add_(1.0)
        g.replay()
        sync()
        r = host_time(g.replay, 200 if not args.smoke else 20)
        r["kernels_per_graph"] = K
        # GPU time per replay (back-to-back replays, events)
        ev = event_samples(g.replay, 3, 20)
        r["gpu_ms_per_replay_samples"] = ev
        r["gpu_us_per_kernel_in_graph_median"] = stats(ev)["median"] * 1e3 / K
        # same 100 kernels eager, GPU side
        def eager100():
            for _ in range(K):
                gx.add_(1.0)
        ev2 = event_samples(eager100, 3, 20)
        r["eager_gpu_ms_per_100_samples"] = ev2
        r["host_us_per_kernel_in_replay_median"] = r["us_per_call_median"] / K
        put("i_cuda_graph_replay_100_tiny", r)
    except Exception as e:
        R.err("B1 i", e)
    try:
        # j: isolate cudaLaunchKernel via the profiler's CUDA-runtime events
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
            for _ in range(2000):
                torch.add(x, y, out=z)
            sync()
        agg = {}
        for e in p.events():
            if e.device_type == torch.autograd.DeviceType.CPU:
                agg.setdefault(e.name, []).append(e.cpu_time_total if hasattr(e, "cpu_time_total") else e.cpu_time)
        out = {}
        for k in ("cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx", "aten::add"):
            if k in agg:
                out[k] = stats(agg[k])
        out["note"] = "durations (us) as seen by the profiler (CUPTI adds overhead; compare with a_add_out)"
        put("j_launch_from_profiler", out)
    except Exception as e:
        R.err("B1 j", e)
    try:
        timed("j_triton_launch_tiny")
    except Exception as e:
        R.err("B1 j triton", e)
    R.note("B1: torch.compile not measured (skipped to keep within the device budget)")


# ------------------------------------------------------------------------------------------------
# B2/B4: training step sweep
# ------------------------------------------------------------------------------------------------

def train_cfg(name, batch, seq, precision, fused, reserve, warmup=2, iters=5, suffix="", section="B_train"):
    key = "%s_b%d_s%d_%s_%s%s" % (name, batch, seq, precision, "fused" if fused else "foreach", suffix)
    if key in R.data["results"].get(section, {}):
        return
    if left() < reserve:
        R.skip("B_train " + key, "time budget")
        return
    step = keep = None
    torch.cuda.reset_peak_memory_stats()
    try:
        step, meta, keep = make_train(name, batch, seq, precision, fused, layers=2 if args.smoke else None)
        samp = wall_samples(step, warmup, iters)
        meta["warmup"], meta["iters"] = warmup, iters
        meta["step_ms_samples"] = samp
        meta["step_ms"] = stats(samp)
        meta["peak_mem_bytes"] = torch.cuda.max_memory_allocated()
        med = meta["step_ms"]["median"]
        meta["tokens_per_s"] = batch * seq / (med / 1e3)
        meta["model_tflops_6nd"] = 6.0 * meta["params"] * batch * seq / (med / 1e3) / 1e12
        if precision == "amp" and not fused and batch == MID[name][0] and not suffix and not args.no_profile:
            try:
                meta["kernels_per_step"] = count_kernels(step)
            except Exception as e:
                R.err("kernels " + key, e)
        log("B train", key, "params %.0fM" % (meta["params"] / 1e6), "med %.2f ms" % med, "samples",
            [round(v, 2) for v in samp])
        R.put(section, key, meta)
    except torch.cuda.OutOfMemoryError as e:
        R.put(section, key, {"oom": True, "error": repr(e)[:300]})
        log("B train", key, "OOM")
    except Exception as e:
        R.err("B_train " + key, e)
    step = keep = None
    free_cuda()
    torch.cuda.reset_peak_memory_stats()


SIZES = ["125m", "350m", "1b"] + (["3b"] if args.big else [])
# name -> (middle batch, seq) and the batch list
MID = {"125m": (4, 1024), "350m": (4, 1024), "1b": (4, 2048), "3b": (4, 2048)}
BATCHES = {"125m": [1, 4, 8], "350m": [1, 4, 8], "1b": [1, 4, 8], "3b": [1, 4, 8]}
if GPT:
    SIZES = ["gpt124m", "gpt355m", "gpt774m", "gpt1.5b"]
    MID = {n: (4, 1024) for n in SIZES}
    BATCHES = {n: [1, 4, 8] for n in SIZES}
if args.smoke:
    MID = {k: (1, 64) for k in MID}
    BATCHES = {k: [1, 2] for k in BATCHES}


def section_B2():
    for n in SIZES:
        b, s = MID[n]
        train_cfg(n, b, s, "amp", False, reserve=90)


def section_B4(reserve):
    for n in SIZES:
        for b in BATCHES[n]:
            train_cfg(n, b, MID[n][1], "amp", False, reserve)
    for n in SIZES:
        for b in [MID[n][0]] + [bb for bb in BATCHES[n] if bb != MID[n][0]]:
            train_cfg(n, b, MID[n][1], "bf16", False, reserve)
    for prec in ("amp", "bf16"):
        for n in SIZES:
            for b in [MID[n][0]] + [bb for bb in BATCHES[n] if bb != MID[n][0]]:
                train_cfg(n, b, MID[n][1], prec, True, reserve)


def section_B5(reserve):
    """Extra (only if time remains): longer re-runs (3 warmup + 20 timed) of amp+foreach and bf16+fused, all batches."""
    for prec, fused in (("amp", False), ("bf16", True)):
        for n in SIZES:
            for b in BATCHES[n]:
                train_cfg(n, b, MID[n][1], prec, fused, reserve, warmup=3, iters=20, suffix="_long",
                          section="B_train_long")


# ------------------------------------------------------------------------------------------------
# B3: inference forwards (1B), eager vs CUDA graph
# ------------------------------------------------------------------------------------------------

def section_B3():
    for name in (["gpt124m", "gpt1.5b"] if GPT else ["1b"]):
        infer_model(name)


def infer_model(name):
    try:
        build = build_gpt if GPT else build_llama
        model, nparams = build(name, dtype=torch.bfloat16, layers=2 if args.smoke else None)
        model.eval()
    except Exception as e:
        R.err("B3 build", e)
        return
    for batch in (1, 16):
        for seq in (1, 512):
            key = "%s_b%d_s%d" % (name, batch, seq)
            if left() < 45:
                R.skip("B_infer " + key, "time budget")
                continue
            try:
                x = torch.randint(0, VOCAB, (batch, seq), device=dev)

                def fwd():
                    with torch.no_grad():
                        return model(x)

                ev_e = event_samples(fwd, 3, 20)
                wl_e = wall_samples(fwd, 0, 10)
                g, static_out = capture_graph(fwd)
                ev_g = event_samples(g.replay, 3, 20)
                wl_g = wall_samples(g.replay, 0, 10)
                meta = {"model": name, "params": nparams, "batch": batch, "seq": seq,
                        "what": "full-sequence forward without KV cache (seq 1 = single-token forward, decode-like)",
                        "precision": "bf16 weights, no_grad", "logits": "all positions",
                        "eager_event_ms_samples": ev_e, "eager_event_ms": stats(ev_e),
                        "eager_wall_ms_samples": wl_e, "eager_wall_ms": stats(wl_e),
                        "graph_event_ms_samples": ev_g, "graph_event_ms": stats(ev_g),
                        "graph_wall_ms_samples": wl_g, "graph_wall_ms": stats(wl_g)}
                if not args.no_profile:
                    try:
                        meta["kernels_per_forward"] = count_kernels(fwd)
                    except Exception as e:
                        R.err("B3 kernels", e)
                log("B infer", key, "eager %.3f ms graph %.3f ms (event medians); wall eager %.3f graph %.3f" % (
                    meta["eager_event_ms"]["median"], meta["graph_event_ms"]["median"],
                    meta["eager_wall_ms"]["median"], meta["graph_wall_ms"]["median"]))
                R.put("B_infer", key, meta)
                del g, static_out
            except Exception as e:
                R.err("B_infer " + key, e)
    del model
    free_cuda()


# ------------------------------------------------------------------------------------------------
# C: kernel timings
# ------------------------------------------------------------------------------------------------

_flush_buf = None


def l2_flush():
    global _flush_buf
    if _flush_buf is None:
        _flush_buf = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device=dev)
    _flush_buf.zero_()


def ktime(fn, iters=20, warmup=5):
    s = event_samples(fn, warmup, iters, flush=l2_flush)
    return {"ms_samples": s, "ms": stats(s)}


def section_C():
    shapes = [(1, 131072), (8, 131072), (64, 32768), (4096, 4096), (16384, 1024), (4, 50257), (32768, 128)]
    if args.smoke:
        shapes = shapes[:2]
    for dt in (torch.bfloat16, torch.float32):
        for (r, c) in shapes:
            if left() < 15:
                R.skip("C reduce", "time budget")
                return
            try:
                t = torch.randn(r, c, device=dev, dtype=dt)
                nb = t.numel() * t.element_size()
                res = ktime(lambda: t.sum(-1))
                res.update({"rows": r, "cols": c, "dtype": str(dt), "bytes_in": nb})
                R.put("C_sum_lastdim", "%dx%d_%s" % (r, c, str(dt).split(".")[-1]), res)
                res = ktime(lambda: torch.softmax(t, -1))
                res.update({"rows": r, "cols": c, "dtype": str(dt), "bytes_in": nb, "bytes_out": nb})
                R.put("C_softmax_lastdim", "%dx%d_%s" % (r, c, str(dt).split(".")[-1]), res)
                del t
            except Exception as e:
                R.err("C reduce %dx%d" % (r, c), e)
    log("C reductions done")
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        b, h, s, d = (4, 32, 2048, 128) if not args.smoke else (1, 2, 64, 64)
        q = torch.randn(b, h, s, d, device=dev, dtype=torch.bfloat16)
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        for bk in ("FLASH_ATTENTION", "CUDNN_ATTENTION", "EFFICIENT_ATTENTION", "MATH"):
            for causal in (False, True):
                key = "%s_causal%d" % (bk, int(causal))
                if left() < 10:
                    R.skip("C sdpa " + key, "time budget")
                    continue
                try:
                    with sdpa_kernel([getattr(SDPBackend, bk)]):
                        res = ktime(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal), iters=20, warmup=3)
                    fl = 4.0 * b * h * s * s * d * (0.5 if causal else 1.0)
                    res.update({"b": b, "h": h, "s": s, "d": d, "causal": causal, "dtype": "bf16",
                                "flops_fwd": fl, "tflops": fl / (res["ms"]["median"] / 1e3) / 1e12})
                    R.put("C_sdpa_fwd", key, res)
                    log("C sdpa", key, "%.3f ms" % res["ms"]["median"])
                except Exception as e:
                    R.err("C sdpa " + key, e)
        del q, k, v
    except Exception as e:
        R.err("C sdpa", e)
    try:
        convs = {"resnet3x3_n32_c256_14_k256": (32, 256, 14, 256, 3, 1, 1),
                 "stem7x7s2_n32_c3_224_k64": (32, 3, 224, 64, 7, 2, 3)}
        for name, (n, c, hw, kk, ks, st, pd) in convs.items():
            for dt in (torch.float32, torch.bfloat16):
                for mf in ("nchw", "channels_last"):
                    key = "%s_%s_%s" % (name, str(dt).split(".")[-1], mf)
                    if left() < 5:
                        R.skip("C conv " + key, "time budget")
                        continue
                    try:
                        x = torch.randn(n, c, hw, hw, device=dev, dtype=dt)
                        w = torch.randn(kk, c, ks, ks, device=dev, dtype=dt)
                        if mf == "channels_last":
                            x = x.to(memory_format=torch.channels_last)
                            w = w.to(memory_format=torch.channels_last)
                        res = ktime(lambda: F.conv2d(x, w, stride=st, padding=pd))
                        ho = (hw + 2 * pd - ks) // st + 1
                        fl = 2.0 * n * kk * ho * ho * c * ks * ks
                        res.update({"n": n, "c": c, "hw": hw, "k": kk, "ksize": ks, "stride": st, "pad": pd,
                                    "dtype": str(dt), "memory_format": mf, "allow_tf32": False,
                                    "cudnn_benchmark": torch.backends.cudnn.benchmark,
                                    "flops": fl, "tflops": fl / (res["ms"]["median"] / 1e3) / 1e12})
                        R.put("C_conv2d_fwd", key, res)
                        log("C conv", key, "%.4f ms" % res["ms"]["median"])
                    except Exception as e:
                        R.err("C conv " + key, e)
    except Exception as e:
        R.err("C conv", e)


def run_section(name, fn, *a):
    if name not in SECTIONS:
        return
    log("=== section", name, "left %.0fs" % left())
    t = time.time()
    try:
        fn(*a)
    except Exception as e:
        R.err("section " + name, e)
    R.put("section_times_s", name, time.time() - t)


run_section("A", section_A)
run_section("B1", section_B1)
run_section("B2", section_B2)
run_section("B3", section_B3)
run_section("B4", section_B4, 40)
run_section("C", section_C)
run_section("B5", section_B5, 25)
R.put("section_times_s", "total", elapsed())
log("DONE total %.1fs" % elapsed())
# final short table
for k, v in R.data["results"].get("B_train", {}).items():
    if "step_ms" in v:
        print("%-36s %9.2f ms" % (k, v["step_ms"]["median"]))
print("errors:", len(R.data["errors"]), "skipped:", len(R.data["skipped"]))
