#!/usr/bin/env python3
"""2x H200 probe (issue 15): where the collective ramp and the TP=2 layer's missing time come from.

One process per GPU (torch.multiprocessing, spawn), NCCL backend, NVLink multicast OFF (the three variables
below are forced into every rank's environment, as in bench_multi.py). Sections:

  P1 collectives at dense sizes (8 KiB, 64 KiB, 256 KiB .. 256 MiB by factors of sqrt(2), 1 GiB), all six collectives, three
     timings each: per-call CUDA events (20 samples), nccl-tests-style batched (20 back-to-back calls between one
     event pair, repeated 3 times), and CUDA-graph replay (20 calls captured in one graph, 5 replays: the GPU time
     without the host's issue time). Host issue time per call (perf_counter around 20 calls, no sync) too.
     Run with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING to log NCCL's algorithm/protocol/channels per call.
  P2 the TP=2 and TP=1 Llama-3-8B layer of bench_multi.py (prefill s2048/s4096, eager decode b1/b8/b32 at kv 4096,
     CUDA-graph decode b1): CUDA-event samples on BOTH ranks, then torch.profiler (CPU+CUDA) over 3 iterations per
     rank, chrome traces written gzipped (per-kernel times, rank skew at the all-reduces).
  P3 overlap: a bf16 GEMM (4096 x 4096 x 14336) alone and while a 256 MiB all-reduce loops on a side stream, and the
     all-reduce alone and beside the GEMM loop (the SM and DRAM share a collective takes from compute).

Usage (device): NCCL_NVLS_ENABLE=0 ... python3 bench_multi_probe.py --out $OUT --budget 300
Writes $OUT/results_probe.json (rank 0, incrementally) and $OUT/traces/*.json.gz.
"""
import datetime
import gzip
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multi_rank  # noqa: E402,F401  (first: it turns NVLink multicast off before torch loads)
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

from common import Results, env_info, sh, stats  # noqa: E402
from multi_rank import log, spawn_ranks, time_events  # noqa: E402
from bench_multi import TPLayer  # noqa: E402

KiB = 1024
MiB = 1024 * KiB
# 8 KiB, 64 KiB, then 256 KiB .. 256 MiB by sqrt(2) (rounded to 1 KiB), then 1 GiB
SIZES = sorted({int(round(256 * KiB * 2 ** (i / 2) / KiB)) * KiB for i in range(21)} | {1024 * MiB, 8 * KiB, 64 * KiB})


def make_fn(op, S, rank, n, dev):
    elems = S // 2  # bf16
    elems -= elems % n
    if op == "all_reduce":
        buf = torch.ones(elems, dtype=torch.bfloat16, device=dev)
        return lambda: dist.all_reduce(buf)
    if op == "all_gather":
        inp = torch.ones(elems // n, dtype=torch.bfloat16, device=dev)
        out = torch.empty(elems, dtype=torch.bfloat16, device=dev)
        return lambda: dist.all_gather_into_tensor(out, inp)
    if op == "reduce_scatter":
        inp = torch.ones(elems, dtype=torch.bfloat16, device=dev)
        out = torch.empty(elems // n, dtype=torch.bfloat16, device=dev)
        return lambda: dist.reduce_scatter_tensor(out, inp)
    if op == "all_to_all":
        inp = torch.ones(elems, dtype=torch.bfloat16, device=dev)
        out = torch.empty(elems, dtype=torch.bfloat16, device=dev)
        return lambda: dist.all_to_all_single(out, inp)
    if op == "broadcast":
        buf = torch.ones(elems, dtype=torch.bfloat16, device=dev)
        return lambda: dist.broadcast(buf, 0)
    sb = torch.ones(elems, dtype=torch.bfloat16, device=dev)
    rb = torch.empty(elems, dtype=torch.bfloat16, device=dev)

    def fn():
        ops_ = [dist.P2POp(dist.isend, sb, (rank + 1) % n), dist.P2POp(dist.irecv, rb, (rank - 1) % n)]
        for w in dist.batch_isend_irecv(ops_):
            w.wait()
    return fn


def ev_pair():
    return torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)


def gather_obj(obj, n):
    out = [None] * n
    dist.all_gather_object(out, obj)
    return out


def collectives(rank, n, dev, R, t0, budget):
    ops = ["broadcast", "all_to_all", "all_reduce", "all_gather", "reduce_scatter", "sendrecv"]
    for op in ops:
        rows = []
        graph_ok = True  # decided from both ranks' rows: after a failed capture, no more captures for this op
        for S in SIZES:
            flag = torch.tensor([1 if (time.time() - t0) < budget - 20 else 0], device=dev)
            dist.broadcast(flag, 0)
            if int(flag.item()) == 0:
                if rank == 0:
                    R.skip("coll %s %d" % (op, S), "time budget")
                continue
            row = {"bytes": S}
            try:
                fn = make_fn(op, S, rank, n, dev)
                for _ in range(5):
                    fn()
                torch.cuda.synchronize()
                dist.barrier()
                torch.cuda.synchronize()
                # per-call events
                evs = []
                for _ in range(20):
                    a, b = ev_pair()
                    a.record()
                    fn()
                    b.record()
                    evs.append((a, b))
                torch.cuda.synchronize()
                row["per_call_us"] = [a.elapsed_time(b) * 1e3 for a, b in evs]
                # batched, 3 repeats; host issue time of the 20 calls (no sync inside)
                row["batched_avg_us"] = []
                row["host_issue_us_per_call"] = []
                for _ in range(3):
                    dist.barrier()
                    torch.cuda.synchronize()
                    a, b = ev_pair()
                    h0 = time.perf_counter()
                    a.record()
                    for _ in range(20):
                        fn()
                    b.record()
                    h1 = time.perf_counter()
                    torch.cuda.synchronize()
                    row["batched_avg_us"].append(a.elapsed_time(b) * 1e3 / 20)
                    row["host_issue_us_per_call"].append((h1 - h0) * 1e6 / 20)
                # CUDA graph: 20 calls in one graph
                try:
                    if not graph_ok:
                        raise RuntimeError("graph capture skipped after an earlier failure")
                    s = torch.cuda.Stream()
                    s.wait_stream(torch.cuda.current_stream())
                    with torch.cuda.stream(s):
                        fn()
                    torch.cuda.current_stream().wait_stream(s)
                    torch.cuda.synchronize()
                    g = torch.cuda.CUDAGraph()
                    with torch.cuda.graph(g):
                        for _ in range(20):
                            fn()
                    torch.cuda.synchronize()
                    dist.barrier()
                    g.replay()
                    torch.cuda.synchronize()
                    dist.barrier()
                    reps = []
                    for _ in range(5):
                        a, b = ev_pair()
                        a.record()
                        g.replay()
                        b.record()
                        torch.cuda.synchronize()
                        reps.append(a.elapsed_time(b) * 1e3 / 20)
                    row["graph_avg_us"] = reps
                    del g
                except Exception as e:  # noqa: BLE001
                    row["graph_error"] = repr(e)[:300]
                    torch.cuda.synchronize()
            except Exception as e:  # noqa: BLE001
                row["error"] = repr(e)[:300]
            allrows = gather_obj(row, n)
            graph_ok = graph_ok and all("graph_avg_us" in r for r in allrows)
            if rank == 0:
                rows.append({"bytes": S, "per_rank": allrows})
                R.put("collectives", op, {"world": n, "dtype": "bf16", "rows": rows,
                                          "bytes_convention": "as bench_multi.py (nccl-tests)"})
                try:
                    ba = min(max(r["batched_avg_us"][i] for r in allrows) for i in range(3))
                    gr = min(max(r["graph_avg_us"][i] for r in allrows) for i in range(5)) if graph_ok else -1
                    log(rank, t0, "coll %-14s %11d B batched %8.1f us graph %8.1f us host %5.1f us" % (
                        op, S, ba, gr, min(allrows[0]["host_issue_us_per_call"])))
                except Exception as e:  # noqa: BLE001
                    log(rank, t0, "coll", op, S, "incomplete", repr(e)[:200], allrows[0].get("error", ""))
            fn = None  # noqa: F841
            torch.cuda.empty_cache()


def profile_to(fn, path, iters=3):
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(iters):
            fn()
        torch.cuda.synchronize()
    tmp = path + ".tmp.json"
    prof.export_chrome_trace(tmp)
    with open(tmp, "rb") as f, gzip.open(path, "wb") as g:
        g.write(f.read())
    os.remove(tmp)


def layer_cases(layer, rank, n_group, dev, R, t0, budget, tag, out):
    """Every rank of the group calls this identically; n_group = 1 runs on rank 0 alone."""
    collective = n_group > 1
    cases = [("prefill", 1, 2048), ("prefill", 1, 4096), ("decode", 1, 4096), ("decode", 8, 4096),
             ("decode", 32, 4096), ("graph", 1, 4096)]
    for kind, b, s in cases:
        key = "%s_%s_b%d_%s%d" % (tag, "prefill" if kind == "prefill" else "decode", b,
                                  "seq" if kind == "prefill" else "kv", s) + ("_cudagraph" if kind == "graph" else "")
        ok = (time.time() - t0) < budget * 0.5
        if collective:
            flag = torch.tensor([1 if ok else 0], device=dev)
            dist.broadcast(flag, 0)
            ok = bool(flag.item())
        if not ok:
            if rank == 0:
                R.skip("layer " + key, "time budget")
            continue
        d = {}
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
                    if kind == "graph":
                        st = torch.cuda.Stream()
                        st.wait_stream(torch.cuda.current_stream())
                        with torch.cuda.stream(st):
                            for _ in range(3):
                                fn()
                        torch.cuda.current_stream().wait_stream(st)
                        torch.cuda.synchronize()
                        g = torch.cuda.CUDAGraph()
                        with torch.cuda.graph(g):
                            fn()
                        torch.cuda.synchronize()
                        fn = g.replay
                if collective:
                    dist.barrier()
                samp = time_events(fn)
                d = {"ms_samples": samp, "ms": stats(samp)}
                if collective:
                    dist.barrier()
                path = os.path.join(out, "traces", "%s_rank%d.json.gz" % (key, rank))
                profile_to(fn, path)
                d["trace"] = os.path.basename(path)
        except Exception as e:  # noqa: BLE001
            d["error"] = repr(e)[:300]
        allr = gather_obj(d, n_group) if collective else [d]
        if rank == 0:
            R.put("layer", key, {"tp": layer.tp, "kind": kind, "batch": b, "seq_or_kv": s, "per_rank": allr})
            log(rank, t0, "layer", key, " ".join("r%d %.3f ms" % (i, r["ms"]["median"]) for i, r in enumerate(allr)
                                                if "ms" in r), allr[0].get("error", ""))
        x = kc = vc = fn = g = None  # noqa: F841
        torch.cuda.empty_cache()


def overlap(rank, n, dev, R, t0):
    """GEMM alone / beside a looping all-reduce on a side stream, and the all-reduce alone / beside GEMMs."""
    res = {}
    A = torch.randn(4096, 14336, device=dev, dtype=torch.bfloat16)
    B = torch.randn(14336, 4096, device=dev, dtype=torch.bfloat16)
    C = torch.empty(4096, 4096, device=dev, dtype=torch.bfloat16)
    buf = torch.ones(128 * MiB, device=dev, dtype=torch.bfloat16)  # 256 MiB
    side = torch.cuda.Stream()

    def gemms(k):
        for _ in range(k):
            torch.matmul(A, B, out=C)

    def ars(k):
        for _ in range(k):
            dist.all_reduce(buf)
    gemms(5)
    ars(2)
    torch.cuda.synchronize()
    dist.barrier()
    # alone
    a, b = ev_pair()
    a.record()
    gemms(20)
    b.record()
    torch.cuda.synchronize()
    res["gemm_alone_us"] = a.elapsed_time(b) * 1e3 / 20
    dist.barrier()
    a, b = ev_pair()
    a.record()
    ars(10)
    b.record()
    torch.cuda.synchronize()
    res["allreduce_256MiB_alone_us"] = a.elapsed_time(b) * 1e3 / 10
    # together: all-reduces on the side stream, GEMMs on the current one
    dist.barrier()
    torch.cuda.synchronize()
    a, b = ev_pair()
    c, d = ev_pair()
    with torch.cuda.stream(side):
        c.record()
        ars(10)
        d.record()
    a.record()
    gemms(40)
    b.record()
    torch.cuda.synchronize()
    res["together_gemm_avg_us"] = a.elapsed_time(b) * 1e3 / 40
    res["together_allreduce_avg_us"] = c.elapsed_time(d) * 1e3 / 10
    res["note"] = ("GEMM 4096x4096x14336 bf16 (matmul out=) on the current stream; 10 all-reduces of 256 MiB bf16 "
                   "issued first on a side stream; averages over the loops (the loops overlap for most of their span)")
    allr = gather_obj(res, n)
    if rank == 0:
        R.put("overlap", "gemm_vs_allreduce", allr)
        log(rank, t0, "overlap", allr)


def worker(rank, world, out, budget, t0, port):
    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=120), device_id=dev)
    os.makedirs(os.path.join(out, "traces"), exist_ok=True)
    R = None
    if rank == 0:
        info = env_info({"world_size": world, "budget_s": budget,
                         "env": {k: os.environ.get(k) for k in
                                 ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS",
                                  "NCCL_DEBUG", "NCCL_DEBUG_SUBSYS")}})
        info["nvidia_smi_topo"] = sh("nvidia-smi topo -m")
        R = Results(os.path.join(out, "results_probe.json"), info)
        log(rank, t0, "env", info.get("gpus"), "nccl", info.get("nccl"))
    w = torch.ones(1024, device=dev)
    dist.all_reduce(w)
    torch.cuda.synchronize()
    # P2: the layers first (the TP=2 layer on both ranks, then TP=1 on rank 0 while rank 1 waits)
    t = time.time()
    try:
        layer = TPLayer(world, rank, dev)
        layer_cases(layer, rank, world, dev, R, t0, budget, "tp%d" % world, out)
        del layer
    except Exception as e:  # noqa: BLE001
        if rank == 0:
            R.err("tp%d" % world, e)
    torch.cuda.empty_cache()
    dist.barrier()
    if rank == 0:
        try:
            layer1 = TPLayer(1, 0, dev)
            layer_cases(layer1, 0, 1, dev, R, t0, budget, "tp1", out)
            del layer1
        except Exception as e:  # noqa: BLE001
            R.err("tp1", e)
        torch.cuda.empty_cache()
        R.put("section_times_s", "layers", time.time() - t)
    dist.barrier()
    # P3: overlap
    try:
        overlap(rank, world, dev, R, t0)
    except Exception as e:  # noqa: BLE001
        if rank == 0:
            R.err("overlap", e)
    torch.cuda.empty_cache()
    dist.barrier()
    # P1: collectives (CUDA-graph capture last within each size)
    t = time.time()
    collectives(rank, world, dev, R, t0, budget)
    if rank == 0:
        R.put("section_times_s", "collectives", time.time() - t)
    if rank == 0:
        R.put("section_times_s", "total", time.time() - t0)
        log(rank, t0, "DONE")
    try:
        dist.destroy_process_group()
    except Exception:  # noqa: BLE001
        pass


if __name__ == "__main__":
    spawn_ranks(worker, default_budget=300.0, default_port=29519)
