"""What the L2's dirty lines cost a kernel that streams after do_bench's flush (dev data, issue 17).

do_bench zeroes a 256 MB buffer before each timed call, so the L2 the kernel finds is full of dirty
lines; every line its reads allocate evicts one, written back to DRAM while it streams. gpucast
charges that (models/l2_writeback.h): reading R bytes evicts share * (1 - exp(-R / share)) of them
(share = 0.7 x the L2), and a kernel that writes as much as it reads evicts no more than its own
writes would. This measures it directly: each op is timed (CUDA events around the op alone, median)
after three preparations of the L2:
  - dirty: `cache.zero_()` of 256 MB, as do_bench does;
  - clean: a sum over another 256 MB buffer, which leaves the L2 full of clean lines;
  - warm: nothing (the op's own operands from the run before, where they fit).
dirty - clean is the write-back cost. With --state, two more preparations check how the dirty lines
along a step follow what the kernels before wrote (sim/l2_dirty_state.h):
  - write128: after an add writing 128 MB (the rule: a full dirty share, as after the flush);
  - clean_write8: after the clean read and then an add writing 8 MB (the rule: 8 MB of dirty lines).
With --writes, the ops are write-heavy instead (2-256 MB written): a fill (writes only), a copy
(reads as much as it writes), a three-operand add (reads twice), batched bf16 GEMMs with K = 64 (reads
an eighth of what they write) and 1x1 bf16 convolutions over 64 channels (cuBLAS GEMMs that read as
much as they write): what the writes themselves cost after a dirty, a clean and a warm L2.
The ops span 4-470 MB of reads:
  - weight-streaming bf16 GEMMs (8 rows x 4096 x N, cuBLAS's nvjet kernels, TMA loads);
  - row sums over the last dimension (ordinary loads, one output per row);
  - an elementwise add that writes as much as it reads (the control: no write-back cost expected).

usage: python3 calibration/runs/bench_dirty_flush.py OUT.json [--reps 40] [--state | --writes]
"""
import argparse
import json
import statistics
import time

import torch

from common import event_times_us

GEMM_N = [512, 1024, 2048, 3072, 4096, 5120, 6144, 8192, 12288, 16384, 28672, 57344]
K = 4096
ROWS = 8


def op_cases():
    for n in GEMM_N:
        w = torch.randn(K, n, device="cuda", dtype=torch.bfloat16)
        x = torch.randn(ROWS, K, device="cuda", dtype=torch.bfloat16)
        yield {"op": "gemm", "m": ROWS, "n": n, "k": K, "dtype": "bf16", "read_bytes": (K * n + ROWS * K) * 2,
               "write_bytes": ROWS * n * 2}, (lambda x=x, w=w: torch.matmul(x, w))
    for n in GEMM_N:
        t = torch.randn(n, K, device="cuda", dtype=torch.bfloat16)
        yield {"op": "reduce", "rows": n, "cols": K, "dtype": "bf16", "read_bytes": n * K * 2,
               "write_bytes": n * 2}, (lambda t=t: t.sum(dim=-1))
    for n in GEMM_N[:10]:
        a = torch.randn(n, K, device="cuda", dtype=torch.bfloat16)
        yield {"op": "add", "elements": n * K, "dtype": "bf16", "read_bytes": n * K * 2,
               "write_bytes": n * K * 2}, (lambda a=a: torch.add(a, 1.0))


WRITE_MB = [2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256]


def write_cases():
    mb = 1024 * 1024
    for w in WRITE_MB:
        n = w * mb // 2  # bf16 elements written
        t = torch.empty(n, device="cuda", dtype=torch.bfloat16)
        yield {"op": "fill", "elements": n, "dtype": "bf16", "read_bytes": 0, "write_bytes": 2 * n}, t.zero_
        src = torch.randn(n, device="cuda", dtype=torch.bfloat16)
        dst = torch.empty_like(src)
        yield ({"op": "copy", "elements": n, "dtype": "bf16", "read_bytes": 2 * n, "write_bytes": 2 * n},
               (lambda d=dst, s=src: d.copy_(s)))
        a, b = torch.randn(n, device="cuda", dtype=torch.bfloat16), torch.randn(n, device="cuda", dtype=torch.bfloat16)
        c = torch.empty_like(a)
        yield ({"op": "add", "elements": n, "dtype": "bf16", "read_bytes": 4 * n, "write_bytes": 2 * n},
               (lambda a=a, b=b, c=c: torch.add(a, b, out=c)))
        batch = max(1, n // (512 * 512))
        x = torch.randn(batch, 512, 64, device="cuda", dtype=torch.bfloat16)
        y = torch.randn(batch, 64, 512, device="cuda", dtype=torch.bfloat16)
        yield ({"op": "gemm", "batch": batch, "m": 512, "n": 512, "k": 64, "dtype": "bf16",
                "read_bytes": 2 * batch * 2 * 512 * 64, "write_bytes": 2 * batch * 512 * 512},
               (lambda x=x, y=y: torch.bmm(x, y)))
        pixels = max(1, n // 64)
        side = 56
        images = max(1, pixels // (side * side))
        img = torch.randn(images, 64, side, side, device="cuda", dtype=torch.bfloat16).to(
            memory_format=torch.channels_last)
        wt = torch.randn(64, 64, 1, 1, device="cuda", dtype=torch.bfloat16).to(memory_format=torch.channels_last)
        yield ({"op": "conv2d", "n": images, "c": 64, "h": side, "w": side, "k": 64, "r": 1, "s": 1, "dtype": "bf16",
                "read_bytes": 2 * images * side * side * 64, "write_bytes": 2 * images * side * side * 64},
               (lambda img=img, wt=wt: torch.nn.functional.conv2d(img, wt)))


def timed(fn, prepare, reps):
    times = event_times_us(fn, prepare, reps)
    return statistics.median(times), times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--reps", type=int, default=40)
    ap.add_argument("--state", action="store_true", help="also the write128 and clean_write8 preparations")
    ap.add_argument("--writes", action="store_true", help="write-heavy ops instead of the streaming reads")
    args = ap.parse_args()
    cache = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    clean = torch.ones(64 * 1024 * 1024, dtype=torch.float32, device="cuda")
    preps = {
        "dirty": lambda: cache.zero_(),
        "clean": lambda: clean.sum(),
        "warm": lambda: None,
    }
    if args.state:
        src128 = torch.ones(64 * 1024 * 1024, dtype=torch.bfloat16, device="cuda")
        dst128 = torch.empty_like(src128)
        src8 = torch.ones(4 * 1024 * 1024, dtype=torch.bfloat16, device="cuda")
        dst8 = torch.empty_like(src8)
        preps["write128"] = lambda: torch.add(src128, 1.0, out=dst128)
        preps["clean_write8"] = lambda: (clean.sum(), torch.add(src8, 1.0, out=dst8))
    t0 = time.time()
    cases = []
    for params, fn in (write_cases() if args.writes else op_cases()):
        if args.state and params["op"] == "add":
            continue
        fn()
        torch.cuda.synchronize()
        row = dict(params)
        for name, prep in preps.items():
            prep()
            fn()
            med, times = timed(fn, prep, args.reps)
            row[name + "_us"] = med
            row[name + "_p20_us"] = sorted(times)[len(times) // 5]
            row[name + "_p80_us"] = sorted(times)[4 * len(times) // 5]
        # A second dirty pass after the others: the drift between passes.
        row["dirty_repeat_us"] = timed(fn, preps["dirty"], args.reps)[0]
        cases.append(row)
        print(json.dumps(row), flush=True)
    out = {
        "format": "gpucast-dirty-flush-1",
        "split": "dev",
        "gpu": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "method": "CUDA events around the op alone after each preparation; median of --reps",
        "ops": "writes" if args.writes else "reads",
        "reps": args.reps,
        "seconds": time.time() - t0,
        "cases": cases,
    }
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
