"""What the multi-GPU probes share: one process per GPU (spawn) under a time budget, rank 0's log,
and CUDA-event timing. bench_multi.py, bench_multi_probe.py and bench_tp_skew.py import it.

NVLink multicast stays OFF in every process (NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1,
NVSHMEM_DISABLE_NVLS=1: the lent machines' rule); importing this module sets them before torch
starts NCCL.
"""
import argparse
import os
import time

for _k, _v in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"), ("NVSHMEM_DISABLE_NVLS", "1")):
    os.environ[_k] = _v

import torch  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402


def log(rank, t0, *a):
    """Rank 0 prints, with the seconds since the run started."""
    if rank == 0:
        print("[%6.1fs]" % (time.time() - t0), *a, flush=True)


def time_events(fn, warmup=10, iters=30):
    """GPU time of each of `iters` calls of fn (ms), from CUDA events, after `warmup` calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    evs = []
    for _ in range(iters):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        evs.append((a, b))
    torch.cuda.synchronize()
    return [a.elapsed_time(b) for a, b in evs]


def spawn_ranks(worker, default_budget, default_port):
    """The probes' main(): parses --out/--budget/--world/--port, runs worker(rank, world, out,
    budget, t0, port) in one spawned process per GPU, and kills any still running at the budget."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=default_budget)
    ap.add_argument("--world", type=int, default=0)
    ap.add_argument("--port", type=int, default=default_port)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    world = args.world or torch.cuda.device_count()
    t0 = time.time()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=worker, args=(r, world, args.out, args.budget, t0, args.port)) for r in range(world)]
    for p in procs:
        p.start()
    deadline = t0 + args.budget
    for p in procs:
        p.join(max(1.0, deadline - time.time()))
    for p in procs:
        if p.is_alive():
            print("killing rank process pid", p.pid, "(over budget)", flush=True)
            p.kill()
            p.join(5)
    print("exit codes", [p.exitcode for p in procs], "total %.1fs" % (time.time() - t0), flush=True)
