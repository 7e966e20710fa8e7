#!/usr/bin/env python3
"""Multi-GPU (one host) measurements: nccl-tests-style collectives and a TP=2 Llama-3-8B layer.

One process per GPU (torch.multiprocessing, spawn), NCCL backend. NVLink multicast (NVLS) is kept OFF:
NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1 are forced into the
environment of every process.

Usage: NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 \
       python3 calibration/runs/bench_multi.py --out $OUT --budget 330
Writes $OUT/results_multi.json (rank 0, incrementally).
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

from common import Results, env_info, rope_cache, sh, stats  # noqa: E402
from multi_rank import log, spawn_ranks, time_events  # noqa: E402

KiB = 1024
SIZES = [KiB * 4 ** i for i in range(11)]  # 1K .. 1G


# ------------------------------------------------------------------------------------------------
def coll_bench(rank, world, R, t0, budget):
    n = world
    dev = torch.device("cuda", rank)
    ops = ["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "sendrecv"]
    busfac = {"all_reduce": 2.0 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n,
              "all_to_all": (n - 1) / n, "broadcast": 1.0, "sendrecv": 1.0}
    for op in ops:
        sizes = SIZES + ([2 * 1024 ** 3] if op == "all_reduce" else [])
        rows = []
        for S in sizes:
            # decide collectively whether there is time left (rank 0 decides)
            flag = torch.tensor([1 if (time.time() - t0) < budget - 150 else 0], device=dev)
            dist.broadcast(flag, 0)
            if int(flag.item()) == 0:
                if rank == 0:
                    R.skip("coll %s %d" % (op, S), "time budget")
                continue
            try:
                elems = S // 2  # bf16
                if op == "all_reduce":
                    buf = torch.ones(elems, dtype=torch.bfloat16, device=dev)
                    fn = lambda: dist.all_reduce(buf)  # noqa: E731
                elif op == "all_gather":
                    inp = torch.ones(elems // n, dtype=torch.bfloat16, device=dev)
                    out = torch.empty(elems, dtype=torch.bfloat16, device=dev)
                    fn = lambda: dist.all_gather_into_tensor(out, inp)  # noqa: E731
                elif op == "reduce_scatter":
                    inp = torch.ones(elems, dtype=torch.bfloat16, device=dev)
                    out = torch.empty(elems // n, dtype=torch.bfloat16, device=dev)
                    fn = lambda: dist.reduce_scatter_tensor(out, inp)  # noqa: E731
                elif op == "all_to_all":
                    inp = torch.ones(elems, dtype=torch.bfloat16, device=dev)
                    out = torch.empty(elems, dtype=torch.bfloat16, device=dev)
                    fn = lambda: dist.all_to_all_single(out, inp)  # noqa: E731
                elif op == "broadcast":
                    buf = torch.ones(elems, dtype=torch.bfloat16, device=dev)
                    fn = lambda: dist.broadcast(buf, 0)  # noqa: E731
                else:
                    sb = torch.ones(elems, dtype=torch.bfloat16, device=dev)
                    rb = torch.empty(elems, dtype=torch.bfloat16, device=dev)

                    def fn():
                        ops_ = [dist.P2POp(dist.isend, sb, (rank + 1) % n), dist.P2POp(dist.irecv, rb, (rank - 1) % n)]
                        for w in dist.batch_isend_irecv(ops_):
                            w.wait()
                for _ in range(5):
                    fn()
                torch.cuda.synchronize()
                dist.barrier()
                torch.cuda.synchronize()
                evs = []
                for _ in range(20):
                    a = torch.cuda.Event(enable_timing=True)
                    b = torch.cuda.Event(enable_timing=True)
                    a.record()
                    fn()
                    b.record()
                    evs.append((a, b))
                torch.cuda.synchronize()
                samples_us = [a.elapsed_time(b) * 1e3 for a, b in evs]
                # nccl-tests style: 20 back-to-back ops between two events, averaged
                dist.barrier()
                torch.cuda.synchronize()
                a = torch.cuda.Event(enable_timing=True)
                b = torch.cuda.Event(enable_timing=True)
                a.record()
                for _ in range(20):
                    fn()
                b.record()
                torch.cuda.synchronize()
                batched_us = a.elapsed_time(b) * 1e3 / 20
                st = stats(samples_us)
                # gather both ranks' medians
                t = torch.tensor([st["median"], batched_us], dtype=torch.float64, device=dev)
                allt = [torch.zeros_like(t) for _ in range(n)]
                dist.all_gather(allt, t)
                per_rank = [x.tolist() for x in allt]
                tmax = max(p[0] for p in per_rank)
                algbw = S / (tmax * 1e-6) / 1e9
                row = {"bytes": S, "dtype": "bf16", "count_elems": elems,
                       "time_us_median": tmax, "time_us_median_rank0": st["median"],
                       "time_us_min": st["min"], "time_us_max": st["max"], "samples_us_rank0": samples_us,
                       "per_rank_median_and_batched_us": per_rank,
                       "batched_avg_us_max_rank": max(p[1] for p in per_rank),
                       "algbw_GBps": algbw, "busbw_GBps": algbw * busfac[op],
                       "busbw_batched_GBps": S / (max(p[1] for p in per_rank) * 1e-6) / 1e9 * busfac[op]}
                rows.append(row)
                if rank == 0:
                    R.put("collectives", op, {"bus_factor": busfac[op], "world": n,
                                              "bytes_convention": "nccl-tests: all_reduce/broadcast/sendrecv buffer size; "
                                              "all_gather output size; reduce_scatter input size; all_to_all per-rank send size",
                                              "timing": "time_us_* = per-op CUDA events on the current (default) stream, "
                                              "20 samples after 5 warmup + barrier; median taken as the max over ranks of "
                                              "per-rank medians; busbw_batched from 20 back-to-back ops / 20",
                                              "rows": rows})
                if S in (KiB, 1024 * KiB, 64 * 1024 * KiB, 1024 ** 3, 2 * 1024 ** 3):
                    log(rank, t0, "coll %-14s %11d B  %9.1f us  busbw %7.1f GB/s (batched %7.1f)" % (
                        op, S, tmax, row["busbw_GBps"], row["busbw_batched_GBps"]))
            except Exception as e:
                if rank == 0:
                    R.err("coll %s %d" % (op, S), e)
            buf = inp = out = sb = rb = fn = None  # noqa: F841  (free before the next size)
            torch.cuda.empty_cache()


# ------------------------------------------------------------------------------------------------
# TP Llama-3-8B layer
# ------------------------------------------------------------------------------------------------

class TPLayer:
    def __init__(self, tp, rank, dev, d=4096, nh=32, nkv=8, ffn=14336, max_seq=8192):
        assert nh % tp == 0 and nkv % tp == 0 and ffn % tp == 0
        self.tp, self.d, self.hd = tp, d, d // nh
        self.nh, self.nkv, self.ffn = nh // tp, nkv // tp, ffn // tp
        g = torch.Generator(device=dev)
        g.manual_seed(1234 + rank)
        mk = lambda *s: (torch.randn(*s, device=dev, generator=g, dtype=torch.bfloat16) * 0.02)  # noqa: E731
        self.wn1 = torch.ones(d, device=dev, dtype=torch.bfloat16)
        self.wn2 = torch.ones(d, device=dev, dtype=torch.bfloat16)
        self.wqkv = mk((self.nh + 2 * self.nkv) * self.hd, d)  # column parallel
        self.wo = mk(d, self.nh * self.hd)  # row parallel
        self.wgu = mk(2 * self.ffn, d)  # column parallel (gate|up)
        self.wd = mk(d, self.ffn)  # row parallel
        cos, sin = rope_cache(max_seq, self.hd, dev, base=500000.0)
        self.cos, self.sin = cos.to(torch.bfloat16), sin.to(torch.bfloat16)

    def rms(self, x, w):
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-5)
        return w * h.to(x.dtype)

    def rope(self, t, pos0):
        s = t.shape[2]
        cos = self.cos[pos0:pos0 + s][None, None]
        sin = self.sin[pos0:pos0 + s][None, None]
        t1, t2 = t.chunk(2, dim=-1)
        return t * cos + torch.cat((-t2, t1), dim=-1) * sin

    def allreduce(self, t):
        if self.tp > 1:
            dist.all_reduce(t)
        return t

    def forward(self, x, kcache=None, vcache=None, pos=0):
        b, s, _ = x.shape
        hd, nh, nkv = self.hd, self.nh, self.nkv
        h = self.rms(x, self.wn1)
        qkv = F.linear(h, self.wqkv)
        q, k, v = qkv.split([nh * hd, nkv * hd, nkv * hd], dim=-1)
        q = q.view(b, s, nh, hd).transpose(1, 2)
        k = k.view(b, s, nkv, hd).transpose(1, 2)
        v = v.view(b, s, nkv, hd).transpose(1, 2)
        q = self.rope(q, pos)
        k = self.rope(k, pos)
        rep = nh // nkv
        if kcache is None:  # prefill, causal, HF-style repeat_kv
            k = k[:, :, None].expand(b, nkv, rep, s, hd).reshape(b, nh, s, hd)
            v = v[:, :, None].expand(b, nkv, rep, s, hd).reshape(b, nh, s, hd)
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            o = o.transpose(1, 2).reshape(b, s, nh * hd)
        else:  # decode, s == 1: write the new K/V at `pos`, attend to [0, pos]
            kcache[:, :, pos:pos + 1].copy_(k)
            vcache[:, :, pos:pos + 1].copy_(v)
            # GQA without copying the cache: fold the query heads of one KV group into the query length
            qg = q.reshape(b, nkv, rep, hd)
            o = F.scaled_dot_product_attention(qg, kcache[:, :, :pos + 1], vcache[:, :, :pos + 1])
            o = o.reshape(b, nh * hd)[:, None, :]
        a = self.allreduce(F.linear(o, self.wo))
        x = x + a
        h = self.rms(x, self.wn2)
        gu = F.linear(h, self.wgu)
        gt, up = gu.chunk(2, dim=-1)
        m = self.allreduce(F.linear(F.silu(gt) * up, self.wd))
        return x + m


def tp_cases(layer, rank, dev, R, t0, budget, tag, collective_ok):
    """Run all cases; every rank in the group must call this identically (when tp>1)."""
    cases = [("prefill", 1, 2048), ("prefill", 1, 4096), ("decode", 1, 4096), ("decode", 8, 4096), ("decode", 32, 4096)]
    for kind, b, s in cases:
        key = "%s_%s_b%d_%s%d" % (tag, kind, b, "seq" if kind == "prefill" else "kv", s)
        ok = (time.time() - t0) < budget - 40
        if collective_ok:
            flag = torch.tensor([1 if ok else 0], device=dev)
            dist.broadcast(flag, 0)
            ok = bool(flag.item())
        if not ok:
            if rank == 0:
                R.skip("tp " + key, "time budget")
            continue
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
                if collective_ok:
                    dist.barrier()
                samp = time_events(fn)
            st = stats(samp)
            if rank == 0:
                d = {"tp": layer.tp, "kind": kind, "batch": b, "seq_or_kv": s, "dtype": "bf16",
                     "ms_samples_rank0": samp, "ms": st,
                     "what": ("prefill: causal self-attention over seq tokens" if kind == "prefill" else
                              "decode: 1 query token per sequence attending to a KV cache of %d cached + 1 new" % s)}
                R.put("tp_layer", key, d)
                log(rank, t0, "tp", key, "median %.3f ms (min %.3f max %.3f)" % (st["median"], st["min"], st["max"]))
        except Exception as e:
            if rank == 0:
                R.err("tp " + key, e)
        x = kc = vc = fn = None
        torch.cuda.empty_cache()


def tp_graph_decode(layer, rank, dev, R, t0, tag):
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
            out = layer.forward(x, kc, vc, pos=4096)  # noqa: F841
        torch.cuda.synchronize()
        if layer.tp > 1:
            dist.barrier()
        samp = time_events(g.replay)
    if rank == 0:
        R.put("tp_layer", key, {"tp": layer.tp, "kind": "decode", "batch": 1, "seq_or_kv": 4096, "cuda_graph": True,
                                "ms_samples_rank0": samp, "ms": stats(samp)})
        log(rank, t0, "tp", key, "median %.3f ms" % stats(samp)["median"])


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
        info["nvidia_smi_topo"] = sh("nvidia-smi topo -m")
        info["nvidia_smi_nvlink_s"] = sh("nvidia-smi nvlink -s")
        info["nvidia_smi_nvlink_status_head"] = sh("nvidia-smi nvlink --status | head -60")
        R = Results(os.path.join(out, "results_multi.json"), info)
        log(rank, t0, "env", info["gpus"], "nccl", info["nccl"])
    # warm the communicator
    w = torch.ones(1024, device=dev)
    dist.all_reduce(w)
    torch.cuda.synchronize()
    t = time.time()
    coll_bench(rank, world, R, t0, budget)
    if rank == 0:
        R.put("section_times_s", "collectives", time.time() - t)
    torch.cuda.empty_cache()
    # TP=world layer
    t = time.time()
    try:
        layer = TPLayer(world, rank, dev)
        tp_cases(layer, rank, dev, R, t0, budget, "tp%d" % world, True)
    except Exception as e:
        if rank == 0:
            R.err("tp%d" % world, e)
    # TP=1 reference on rank 0 only
    dist.barrier()
    if rank == 0:
        try:
            layer1 = TPLayer(1, 0, dev)
            tp_cases(layer1, 0, dev, R, t0, budget, "tp1", False)
            try:
                tp_graph_decode(layer1, 0, dev, R, t0, "tp1")
            except Exception as e:
                R.err("tp1 graph", e)
            del layer1
        except Exception as e:
            R.err("tp1", e)
        torch.cuda.empty_cache()
    dist.barrier()
    if rank == 0:
        R.put("section_times_s", "tp", time.time() - t)
    # last: CUDA-graph-captured TP decode (all_reduce inside the graph)
    ok = (time.time() - t0) < budget - 30
    flag = torch.tensor([1 if ok else 0], device=dev)
    dist.broadcast(flag, 0)
    if bool(flag.item()):
        try:
            tp_graph_decode(layer, rank, dev, R, t0, "tp%d" % world)
        except Exception as e:
            if rank == 0:
                R.err("tp graph", e)
    if rank == 0:
        R.put("section_times_s", "total", time.time() - t0)
        log(rank, t0, "DONE")
    try:
        dist.destroy_process_group()
    except Exception:
        pass


if __name__ == "__main__":
    spawn_ranks(worker, default_budget=330.0, default_port=29517)
