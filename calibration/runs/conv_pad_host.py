"""Where the time of cuDNN's channel-padded convolutions goes, beyond their kernels (dev cases only).

Some convolutions that cuDNN runs through its padding path (Memset + nhwcAddPaddingKernel around a
tensor-core kernel) take do_bench medians 10-60 us above their kernels' sum, others not. For each
case (ids from the dev split and the tuning sets, parameters from the stored measurements) this
records, on the machine it runs on:
  - the do_bench median with the 256 MB L2 flush (as suite.py) and without it;
  - the host time per call: perf_counter over back-to-back calls with no synchronization;
  - one profiled call (CPU and CUDA activities): every CUDA runtime/driver call the op made with its
    host duration, and every GPU activity with its start relative to the call and its duration.

usage: python3 calibration/runs/conv_pad_host.py OUT.json [CASE_ID ...]
"""
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "calibration", "validation"))

import torch  # noqa: E402
import triton.testing  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

import suite  # noqa: E402
from common import event_times_us  # noqa: E402  (beside this file)

# Dev split and tuning-set convolutions (never test): the padded path with small and large gaps,
# and non-padded neighbours of similar size.
DEFAULT_IDS = [
    "conv2d-1159", "conv2d-1144", "tune-conv2d-0459", "tune-conv2d-0468", "tune-conv2d-0491",
    "tune-conv2d-0492", "tune-conv2d-0450", "tune-conv2d-0471", "tune-conv2d-0455", "tune-conv2d-0499",
    "tune-conv2d-0454", "tune-conv2d-0495", "conv2d-0320", "conv2d-1104", "conv2d-1150",
]
SOURCES = ["kernels.json", "kernels-tuning.json", "kernels-tuning2.json"]


def load_cases():
    cases = {}
    for name in SOURCES:
        path = os.path.join(ROOT, "validation", "h100-sxm", name)
        for c in json.load(open(path))["cases"]:
            if c["id"] not in cases:
                cases[c["id"]] = c
    return cases


def events_ms(fn, flush, reps=200):
    cache = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    times = sorted(event_times_us(fn, cache.zero_ if flush else (lambda: None), reps))
    return times[len(times) // 2]


def host_us_per_call(fn, calls=200):
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    host = (time.perf_counter() - t) / calls * 1e6
    torch.cuda.synchronize()
    return host


def profiled_call(fn):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    host, device = [], []
    t0 = None
    for ev in prof.events():
        start = ev.time_range.start
        t0 = start if t0 is None else min(t0, start)
    for ev in prof.events():
        rec = {"name": ev.name[:120], "start_us": round(ev.time_range.start - t0, 2),
               "us": round(ev.time_range.end - ev.time_range.start, 2)}
        if ev.device_type == torch.autograd.DeviceType.CUDA:
            device.append(rec)
        elif ev.name.startswith(("cuda", "cu")) or ev.name.startswith("aten::") or "cudnn" in ev.name.lower():
            host.append(rec)
    host.sort(key=lambda r: r["start_us"])
    device.sort(key=lambda r: r["start_us"])
    return host, device


def main():
    out = sys.argv[1]
    ids = sys.argv[2:] or DEFAULT_IDS
    cases = load_cases()
    results = []
    for cid in ids:
        case = cases[cid]
        fn = suite.make_fn(case)
        fn()
        torch.cuda.synchronize()
        r = {"id": cid, "set": case["set"], "params": case["params"],
             "stored_measured_us": case.get("measured_us"),
             "stored_kernels_us": round(sum(k["us"] for k in case.get("kernels", [])), 2)}
        r["do_bench_flush_us"] = triton.testing.do_bench(fn, warmup=10, rep=60, quantiles=[0.5])
        r["do_bench_flush_us"] = (r["do_bench_flush_us"][0] if isinstance(r["do_bench_flush_us"], list)
                                  else r["do_bench_flush_us"]) * 1000
        r["events_flush_us"] = events_ms(fn, True)
        r["events_noflush_us"] = events_ms(fn, False)
        r["host_per_call_us"] = host_us_per_call(fn)
        r["api"], r["gpu"] = profiled_call(fn)
        results.append(r)
        print(cid, {k: (round(v, 1) if isinstance(v, float) else v) for k, v in r.items()
                    if k.endswith("_us")}, flush=True)
    env = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "cudnn": torch.backends.cudnn.version()}
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"environment": env, "cases": results}, f, indent=1)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
