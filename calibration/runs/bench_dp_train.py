#!/usr/bin/env python3
"""Data-parallel training steps on one multi-GPU host (issue 15's DP/FSDP layouts with issue 14's
PyTorch training step): the Llama-style models of common.py, amp (fp32 weights, bf16 autocast) and
foreach AdamW, run three ways at the same per-GPU batch:

  single  one GPU alone (rank 0; the others wait), the baseline on this machine
  ddp     torch.nn.parallel.DistributedDataParallel, PyTorch's defaults (25 MB buckets, 1 MB first)
  concurrent  every GPU runs the single-GPU step at once, each in its own process, with no
          communication: what sharing the host with the other ranks costs each one
  fsdp    FSDP2 (torch.distributed.fsdp.fully_shard) on every decoder block and on the root, no
          mixed-precision policy: fp32 parameters gathered, autocast casts them, fp32 gradients
          reduce-scattered; parameters resharded after forward (the default)

One process per GPU (multi_rank.spawn_ranks). Each case: 3 warm-up steps, then `--iters` steps,
each timed on the host between two synchronizations of the rank's GPU (the step's collectives keep
the ranks in step). Rank 0 writes OUT/results.json after every case, with every rank's median.
With GPUCAST_PROFILE=1, rank 0 also records one step of the middle 1b cases as a PyTorch profiler trace.

Which cases are dev and which test was fixed before the run: the 350m model is dev (its cases may
tune the model), the 1b model is test (never tuned on).

NVLink multicast stays off (multi_rank sets NCCL_NVLS_ENABLE=0 and the rest before torch starts).
GPUCAST_DP_MODES (comma-separated, default single,ddp,fsdp) and GPUCAST_DP_MODELS (default every
model of the set) narrow a call.
usage: [GPUCAST_PROFILE=1] [GPUCAST_DP_SET=gpt] [GPUCAST_DP_MODES=...] [GPUCAST_DP_MODELS=...] python3 calibration/runs/bench_dp_train.py --out OUT [--budget 420]
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multi_rank  # noqa: E402  (sets the NCCL environment first)
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

from common import (GPT_VOCAB, build_gpt, build_llama, env_info, free_cuda, stats, train_step,  # noqa: E402
                    wall_samples)

# GPUCAST_DP_SET=gpt: the held-out set, GPT-2-style models (tied embeddings, LayerNorm, GELU, biases),
# committed with the model rules final, before the call that measured it; every case test.
GPT = os.environ.get("GPUCAST_DP_SET") == "gpt"
VOCAB = GPT_VOCAB if GPT else 32000
# (model, seq, per-GPU batches): the middle batch of each is profiled.
CASES = ([("gpt355m", 1024, [2, 4, 8]), ("gpt774m", 1024, [1, 2, 4])] if GPT else
         [("350m", 1024, [2, 4, 8]), ("1b", 2048, [1, 2, 4])])
MODES = os.environ.get("GPUCAST_DP_MODES", "single,ddp,fsdp").split(",")
if os.environ.get("GPUCAST_DP_MODELS"):
    CASES = [c for c in CASES if c[0] in os.environ["GPUCAST_DP_MODELS"].split(",")]
PROFILE = {("1b", 2, "single"), ("1b", 2, "ddp"), ("1b", 2, "fsdp")}
# GPUCAST_PROFILE_CASES=model:batch:mode,... profiles those cases instead; GPUCAST_PROFILE_ALL_RANKS=1
# records the step on every rank (trace-...-rankN.json.gz), to see each rank's host.
if os.environ.get("GPUCAST_PROFILE_CASES"):
    PROFILE = set()
    for item in os.environ["GPUCAST_PROFILE_CASES"].split(","):
        parts = item.split(":")
        if len(parts) != 3 or not parts[1].isdigit():
            sys.exit("GPUCAST_PROFILE_CASES: %r is not model:batch:mode (e.g. 350m:2:ddp)" % item)
        PROFILE.add((parts[0], int(parts[1]), parts[2]))
ALL_RANKS = os.environ.get("GPUCAST_PROFILE_ALL_RANKS") == "1"


def build(name, batch, seq, mode, rank):
    if GPT:
        model, nparams = build_gpt(name, dtype=torch.float32, max_seq=1024)
    else:
        model, nparams = build_llama(name, dtype=torch.float32, max_seq=max(seq, 2048))
    if mode == "ddp":
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[rank])
    elif mode == "fsdp":
        from torch.distributed.fsdp import fully_shard
        for blk in (model.h if GPT else model.layers):
            fully_shard(blk)
        fully_shard(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1, foreach=True)
    g = torch.Generator(device="cuda").manual_seed(1234 + rank)
    x = torch.randint(0, VOCAB, (batch, seq), device="cuda", generator=g)
    y = torch.randint(0, VOCAB, (batch, seq), device="cuda", generator=g)

    def step():
        return train_step(model, opt, x, y, amp=True)

    return step, nparams, (model, opt, x, y)


def worker(rank, world, out, budget, t0, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.cuda.set_device(rank)
    torch.backends.cuda.matmul.allow_tf32 = False
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    profile = os.environ.get("GPUCAST_PROFILE") == "1"
    iters = 8
    results = {"environment": env_info({"world": world, "method": "host wall time per step, GPU synchronized "
                                        "before and after each; 3 warm-up steps"}) if rank == 0 else None,
               "split_rule": "all test (held out)" if GPT else "350m dev, 1b test (fixed before the run)",
               "cases": []}
    for name, seq, batches in CASES:
        for batch in batches:
            for mode in MODES:
                # Stop while a case still fits in the budget (the slowest takes about 25 s).
                left = budget - (time.time() - t0)
                go = torch.tensor([1 if left > 40 else 0], device="cuda")
                dist.broadcast(go, 0)
                if not go.item():
                    multi_rank.log(rank, t0, "budget: stopping before", name, batch, mode)
                    dist.destroy_process_group()
                    return
                case = {"model": name, "seq": seq, "batch_per_gpu": batch, "mode": mode, "world": world}
                keep = None
                try:
                    if mode == "single" and rank != 0:
                        samples = []
                    else:
                        torch.cuda.reset_peak_memory_stats()
                        group_world = 1 if mode in ("single", "concurrent") else world
                        step, nparams, keep = build(name, batch, seq, mode, rank)
                        samples = wall_samples(step, 3, iters)
                        case.update(params=nparams, gpus=group_world, peak_mem_bytes=torch.cuda.max_memory_allocated())
                        if profile and (name, batch, mode) in PROFILE:
                            # Every rank takes the step (its collectives need all); rank 0 records it.
                            if rank == 0 or ALL_RANKS:
                                from torch.profiler import ProfilerActivity, profile as prof
                                with prof(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
                                    step()
                                    torch.cuda.synchronize()
                                suffix = "-rank%d" % rank if ALL_RANKS else ""
                                path = os.path.join(out, "trace-%s-b%d-%s%s.json" % (name, batch, mode, suffix))
                                p.export_chrome_trace(path)
                                os.system("gzip -f '%s'" % path)
                                if rank == 0:
                                    case["trace"] = os.path.basename(path) + ".gz"
                            else:
                                step()
                                torch.cuda.synchronize()
                    med = stats(samples)["median"] if samples else None
                    meds = [None] * world
                    dist.all_gather_object(meds, med)
                    case["step_ms_samples_rank0"] = samples if rank == 0 else None
                    case["step_ms_median_per_rank"] = meds
                    valid = [m for m in meds if m is not None]
                    case["step_ms"] = max(valid) if valid else None
                    multi_rank.log(rank, t0, name, "b%d" % batch, mode, "step ms per rank",
                                   [round(m, 2) if m else None for m in meds])
                except torch.cuda.OutOfMemoryError as e:
                    case["oom"] = repr(e)[:200]
                    multi_rank.log(rank, t0, name, batch, mode, "OOM")
                except Exception as e:  # a failed case is recorded; the run goes on
                    case["error"] = repr(e)[:400]
                    multi_rank.log(rank, t0, name, batch, mode, "error", repr(e)[:200])
                keep = step = None
                free_cuda()
                dist.barrier()
                if rank == 0:
                    results["cases"].append(case)
                    tmp = os.path.join(out, "results.json.tmp")
                    with open(tmp, "w") as f:
                        json.dump(results, f, indent=1)
                    os.replace(tmp, os.path.join(out, "results.json"))
    dist.destroy_process_group()


if __name__ == "__main__":
    multi_rank.spawn_ranks(worker, default_budget=420, default_port=29533)
