#!/usr/bin/env python3
"""Rank skew, the eager collective's host cost and the decode attention kernel (issue 15, 2 GPUs).

One process per GPU (spawn), NCCL, NVLink multicast OFF (NCCL_NVLS_ENABLE=0,
TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1 forced into every process). No NCCL logging,
no profiler while timing. Sections:

A. `layer`: bench_multi.py's TPLayer (Llama-3-8B layer), TP=world on all ranks and TP=1 on rank 0
   (rank 1 waits in a barrier), cases prefill s2048/s4096 and decode b1/b8/b32 at kv 4096. Per rank:
   100 back-to-back iterations with CUDA events per iteration (as bench_multi.py's median), the host's
   perf_counter at each forward's start and end, and the host time of each dist.all_reduce call with
   its entry stamp (one clock for both processes: CLOCK_MONOTONIC), so the ranks' arrival skew at
   every collective is measured directly. Then 30 iterations with torch.cuda.synchronize() after
   each (ranks realigned every iteration).
B. `graph`: the CUDA-graph-captured decode b1 kv4096, TP=world and TP=1.
C. `ar_host`: dist.all_reduce back to back, 8 KiB and 256 KiB, 200 calls: the host's issue time per
   call (perf_counter) and the GPU-event time per call.
D. `sdpa` (rank 0): F.scaled_dot_product_attention as the layer's decode calls it (GQA folded into
   the query length: q (b, kv_heads, 4, 128), k/v (b, kv_heads, L, 128)) and as the generator writes
   it (q (b, 4 * kv_heads, 1, 128), enable_gqa=True), kv_heads 8 and 4, batch 1/8/32, L = 1025, 2049,
   8193, 16385 (4097, the layer's, left out: held out for the layer). GPU time per call from a CUDA
   graph of 10 calls rotating over KV copies that together exceed L2; the kernels launched, by name,
   from one profiled call.

Usage: python3 calibration/runs/bench_tp_skew.py --out $OUT --budget 240
"""
import datetime
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multi_rank  # noqa: E402,F401  (first: it turns NVLink multicast off before torch loads)
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from bench_multi import TPLayer  # noqa: E402
from common import Results, env_info, stats  # noqa: E402
from multi_rank import log, spawn_ranks  # noqa: E402


class TimedTPLayer(TPLayer):
    """TPLayer whose all-reduces record (entry stamp, host time) in self.ar."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.ar = []

    def allreduce(self, t):
        if self.tp > 1:
            t0 = time.perf_counter()
            dist.all_reduce(t)
            self.ar.append((t0, time.perf_counter() - t0))
        return t


def run_case(layer, fn, iters, sync_each):
    evs, host = [], []
    layer.ar = []
    for _ in range(iters):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        h0 = time.perf_counter()
        a.record()
        fn()
        b.record()
        h1 = time.perf_counter()
        if sync_each:
            torch.cuda.synchronize()
        evs.append((a, b))
        host.append((h0, h1 - h0))
    torch.cuda.synchronize()
    return {"ms": [a.elapsed_time(b) for a, b in evs], "host_start_s": [h[0] for h in host],
            "host_us": [h[1] * 1e6 for h in host], "ar_start_s": [x[0] for x in layer.ar],
            "ar_host_us": [x[1] * 1e6 for x in layer.ar]}


def layer_cases(layer, rank, dev, R, t0, tag, group):
    cases = [("prefill", 1, 2048), ("prefill", 1, 4096), ("decode", 1, 4096), ("decode", 8, 4096),
             ("decode", 32, 4096)]
    for kind, b, s in cases:
        key = "%s_%s_b%d_%s%d" % (tag, kind, b, "seq" if kind == "prefill" else "kv", s)
        try:
            with torch.no_grad():
                if kind == "prefill":
                    x = torch.randn(b, s, layer.d, device=dev, dtype=torch.bfloat16)
                    fn = lambda: layer.forward(x)  # noqa: E731
                else:
                    x = torch.randn(b, 1, layer.d, device=dev, dtype=torch.bfloat16)
                    kc = torch.randn(b, layer.nkv, s + 1, layer.hd, device=dev, dtype=torch.bfloat16)
                    vc = torch.randn_like(kc)
                    fn = lambda: layer.forward(x, kc, vc, pos=s)  # noqa: E731
                for _ in range(10):
                    fn()
                torch.cuda.synchronize()
                if group:
                    dist.barrier()
                torch.cuda.synchronize()
                free = run_case(layer, fn, 100, False)
                if group:
                    dist.barrier()
                torch.cuda.synchronize()
                synced = run_case(layer, fn, 30, True) if kind == "decode" else None
            mine = {"free": free, "synced": synced}
            if group:
                allr = [None] * dist.get_world_size()
                dist.all_gather_object(allr, mine)
            else:
                allr = [mine]
            if rank == 0:
                R.put("layer", key, {"tp": layer.tp, "kind": kind, "batch": b, "seq_or_kv": s, "per_rank": allr})
                meds = ["%.3f" % stats(r["free"]["ms"])["median"] for r in allr]
                hosts = ["%.1f" % stats(r["free"]["host_us"])["median"] for r in allr]
                log(rank, t0, "layer", key, "median ms per rank", meds, "host us per rank", hosts)
        except Exception as e:
            if rank == 0:
                R.err("layer " + key, e)
        x = kc = vc = fn = None
        torch.cuda.empty_cache()


def graph_decode(layer, rank, dev, R, t0, tag, group):
    key = "%s_decode_b1_kv4096_cudagraph" % tag
    with torch.no_grad():
        x = torch.randn(1, 1, layer.d, device=dev, dtype=torch.bfloat16)
        kc = torch.randn(1, layer.nkv, 4097, layer.hd, device=dev, dtype=torch.bfloat16)
        vc = torch.randn_like(kc)
        st = torch.cuda.Stream()
        st.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(st):
            for _ in range(3):
                layer.forward(x, kc, vc, pos=4096)
        torch.cuda.current_stream().wait_stream(st)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            layer.forward(x, kc, vc, pos=4096)
        torch.cuda.synchronize()
        for _ in range(5):
            g.replay()
        torch.cuda.synchronize()
        if group:
            dist.barrier()
        evs = []
        for _ in range(30):
            a = torch.cuda.Event(enable_timing=True)
            b = torch.cuda.Event(enable_timing=True)
            a.record()
            g.replay()
            b.record()
            evs.append((a, b))
        torch.cuda.synchronize()
        samp = [a.elapsed_time(b) for a, b in evs]
    if group:
        allr = [None] * dist.get_world_size()
        dist.all_gather_object(allr, samp)
    else:
        allr = [samp]
    if rank == 0:
        R.put("graph", key, {"tp": layer.tp, "per_rank_ms": allr})
        log(rank, t0, "graph", key, ["%.3f" % stats(s)["median"] for s in allr])


def ar_host(rank, dev, R, t0):
    out = {}
    for nbytes in (8192, 262144):
        buf = torch.ones(nbytes // 2, dtype=torch.bfloat16, device=dev)
        for _ in range(20):
            dist.all_reduce(buf)
        torch.cuda.synchronize()
        dist.barrier()
        torch.cuda.synchronize()
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        host = []
        a.record()
        for _ in range(200):
            h = time.perf_counter()
            dist.all_reduce(buf)
            host.append((time.perf_counter() - h) * 1e6)
        b.record()
        torch.cuda.synchronize()
        out[str(nbytes)] = {"host_us": host, "gpu_us_per_call": a.elapsed_time(b) * 1e3 / 200}
    allr = [None] * dist.get_world_size()
    dist.all_gather_object(allr, out)
    if rank == 0:
        R.put("ar_host", "back_to_back", allr)
        for nb in ("8192", "262144"):
            log(rank, t0, "ar_host", nb, ["host %.1f us, gpu %.1f us/call" % (stats(r[nb]["host_us"])["median"],
                                                                            r[nb]["gpu_us_per_call"]) for r in allr])


def sdpa_sweep(dev, R, t0, budget):
    from torch.profiler import ProfilerActivity, profile
    hd, rep = 128, 4
    for nkv in (8, 4):
        for b in (1, 8, 32):
            for L in (1025, 2049, 8193, 16385):
                for form in ("folded", "gqa"):
                    if time.time() - t0 > budget - 25:
                        R.skip("sdpa", "time budget")
                        return
                    key = "%s_kv%d_b%d_L%d" % (form, nkv, b, L)
                    try:
                        set_bytes = 2 * b * nkv * L * hd * 2
                        copies = max(1, min(8, -(-256 * 2 ** 20 // set_bytes)))
                        kvs = [(torch.randn(b, nkv, L, hd, device=dev, dtype=torch.bfloat16),
                                torch.randn(b, nkv, L, hd, device=dev, dtype=torch.bfloat16)) for _ in range(copies)]
                        if form == "folded":
                            q = torch.randn(b, nkv, rep, hd, device=dev, dtype=torch.bfloat16)
                            call = lambda k, v: F.scaled_dot_product_attention(q, k, v)  # noqa: E731
                        else:
                            q = torch.randn(b, nkv * rep, 1, hd, device=dev, dtype=torch.bfloat16)
                            call = lambda k, v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True)  # noqa: E731
                        for k, v in kvs:
                            call(k, v)
                        torch.cuda.synchronize()
                        with profile(activities=[ProfilerActivity.CUDA]) as prof:
                            call(*kvs[0])
                            torch.cuda.synchronize()
                        try:
                            names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
                        except Exception as ex:  # noqa: BLE001
                            names = ["(names unavailable: %r)" % ex]
                        st = torch.cuda.Stream()
                        st.wait_stream(torch.cuda.current_stream())
                        with torch.cuda.stream(st):
                            call(*kvs[0])
                        torch.cuda.current_stream().wait_stream(st)
                        torch.cuda.synchronize()
                        g = torch.cuda.CUDAGraph()
                        with torch.cuda.graph(g):
                            for i in range(10):
                                call(*kvs[i % copies])
                        g.replay()
                        torch.cuda.synchronize()
                        samp = []
                        for _ in range(7):
                            a = torch.cuda.Event(enable_timing=True)
                            e = torch.cuda.Event(enable_timing=True)
                            a.record()
                            g.replay()
                            e.record()
                            torch.cuda.synchronize()
                            samp.append(a.elapsed_time(e) * 1e3 / 10)
                        R.put("sdpa", key, {"form": form, "kv_heads": nkv, "batch": b, "seq_kv": L, "rep": rep,
                                            "head_dim": hd, "kv_copies": copies, "us_per_call": samp,
                                            "us_median": stats(samp)["median"], "kernels": names})
                        print("sdpa %-24s %8.1f us  %s" % (key, stats(samp)["median"], names[:3]), flush=True)
                        del g, kvs, q
                    except Exception as e:
                        R.err("sdpa " + key, e)
                    torch.cuda.empty_cache()


def worker(rank, world, out, budget, t0, port):
    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=180), device_id=dev)
    R = None
    if rank == 0:
        info = env_info({"world_size": world, "budget_s": budget,
                         "env_multicast": {k: os.environ.get(k) for k in
                                           ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST",
                                            "NVSHMEM_DISABLE_NVLS")}})
        R = Results(os.path.join(out, "results_skew.json"), info)
        log(rank, t0, "env", info.get("gpus"), "nccl", info.get("nccl"))
    w = torch.ones(1024, device=dev)
    dist.all_reduce(w)
    torch.cuda.synchronize()
    try:
        ar_host(rank, dev, R, t0)
    except Exception as e:
        if rank == 0:
            R.err("ar_host", e)
    layer = TimedTPLayer(world, rank, dev)
    layer_cases(layer, rank, dev, R, t0, "tp%d" % world, True)
    try:
        graph_decode(layer, rank, dev, R, t0, "tp%d" % world, True)
    except Exception as e:
        if rank == 0:
            R.err("graph tp", e)
    del layer
    torch.cuda.empty_cache()
    dist.barrier()
    if rank == 0:
        layer1 = TimedTPLayer(1, 0, dev)
        layer_cases(layer1, 0, dev, R, t0, "tp1", False)
        try:
            graph_decode(layer1, 0, dev, R, t0, "tp1", False)
        except Exception as e:
            R.err("graph tp1", e)
        del layer1
        torch.cuda.empty_cache()
        sdpa_sweep(dev, R, t0, budget)
        R.put("section_times_s", "total", time.time() - t0)
        log(rank, t0, "DONE")
    dist.barrier()
    try:
        dist.destroy_process_group()
    except Exception:
        pass


if __name__ == "__main__":
    spawn_ranks(worker, default_budget=240.0, default_port=29527)
