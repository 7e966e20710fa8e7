#!/usr/bin/env python3
"""Print markdown headline tables from validation/runs/*/results*.json (no torch needed)."""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "validation", "runs")
single = {k: json.load(open(os.path.join(root, k, "results.json"))) for k in ("h100-sxm", "h200-sxm")
          if os.path.exists(os.path.join(root, k, "results.json"))}
K = list(single)


def med(d, *path):
    for p in path:
        if d is None or p not in d:
            return None
        d = d[p]
    return d


def f(v, fmt="%.2f"):
    return "-" if v is None else fmt % v


print("### Environment\n")
for k, d in single.items():
    e = d["env"]
    g = e["gpus"][0]
    print("- %s: %s, %d SMs, %.1f GiB, driver %s, torch %s (CUDA %s, cuDNN %s), CPU %s x%s, %s" % (
        k, g["name"], g["sm_count"], g["total_memory_bytes"] / 2**30, e["driver"], e["torch"], e["torch_cuda"],
        e["cudnn"], e.get("cpu_model"), e.get("cpu_cores_lscpu"), e["date_utc"]))
print("\n### A: workloads traced (un-profiled step time, median of 10, ms)\n")
print("| workload | " + " | ".join(K) + " | kernels/step |")
print("|---|" + "---|" * (len(K) + 1))
for w in ("llama125m-train", "llama1b-train", "llama1b-prefill", "resnet50-fwd"):
    ks = med(single[K[0]], "results", "A_traces", w, "kernels_per_step", "kernels")
    print("| %s | %s | %s |" % (w, " | ".join(f(med(single[k], "results", "A_traces", w, "step_ms", "median")) for k in K), ks))
print("\n### B1: host probe (us per call, median of 5 repeats)\n")
print("| probe | " + " | ".join(K) + " |")
print("|---|" + "---|" * len(K))
hp = single[K[0]]["results"]["B1_host_probe"]
for p, v in hp.items():
    if isinstance(v, dict) and "us_per_call_median" in v:
        extra = ""
        print("| %s | %s |" % (p, " | ".join(f(med(single[k], "results", "B1_host_probe", p, "us_per_call_median")) for k in K)))
for p, sub in (("c_autograd_fwd_bwd_chain100", "us_per_node_median"), ("c_fwd_nograd_chain100", "us_per_node_median"),
               ("g_foreach_add_100", "us_per_tensor_median"), ("g_adamw_step_foreach_100params", "us_per_param_median"),
               ("g_adamw_step_fused_100params", "us_per_param_median"),
               ("i_cuda_graph_replay_100_tiny", "host_us_per_kernel_in_replay_median"),
               ("i_cuda_graph_replay_100_tiny", "gpu_us_per_kernel_in_graph_median")):
    print("| %s.%s | %s |" % (p, sub, " | ".join(f(med(single[k], "results", "B1_host_probe", p, sub)) for k in K)))
print("| c_backward_per_node_us_derived | %s |" % " | ".join(
    f(med(single[k], "results", "B1_host_probe", "c_backward_per_node_us_derived")) for k in K))
print("| j cudaLaunchKernel (profiler, median) | %s |" % " | ".join(
    f(med(single[k], "results", "B1_host_probe", "j_launch_from_profiler", "cudaLaunchKernel", "median")) for k in K))
print("\n### B: training step (median ms; 2 warmup + 5 timed; `_long` = 3 warmup + 20 timed)\n")
print("| config | params | " + " | ".join(K) + " | " + " | ".join(k + " long" for k in K) + " |")
print("|---|---|" + "---|" * (2 * len(K)))
keys = []
for k in K:
    for c in single[k]["results"].get("B_train", {}):
        if c not in keys:
            keys.append(c)
for c in sorted(keys, key=lambda s: (["125m", "350m", "1b", "3b"].index(s.split("_")[0]), s)):
    pr = None
    for k in K:
        pr = pr or med(single[k], "results", "B_train", c, "params")
    print("| %s | %s | %s | %s |" % (c, f(pr / 1e6 if pr else None, "%.0fM"),
                                    " | ".join(f(med(single[k], "results", "B_train", c, "step_ms", "median")) for k in K),
                                    " | ".join(f(med(single[k], "results", "B_train_long", c + "_long", "step_ms", "median")) for k in K)))
print("\n### B: 1B inference forward (CUDA-event median ms; no KV cache)\n")
print("| config | " + " | ".join("%s eager | %s graph" % (k, k) for k in K) + " |")
print("|---|" + "---|" * (2 * len(K)))
for c in ("1b_b1_s1", "1b_b16_s1", "1b_b1_s512", "1b_b16_s512"):
    print("| %s | %s |" % (c, " | ".join("%s | %s" % (f(med(single[k], "results", "B_infer", c, "eager_event_ms", "median"), "%.3f"),
                                                     f(med(single[k], "results", "B_infer", c, "graph_event_ms", "median"), "%.3f")) for k in K)))
print("\n### C: SDPA fwd b4 h32 s2048 d128 bf16 (ms)\n")
print("| backend | " + " | ".join(K) + " |")
print("|---|" + "---|" * len(K))
for c in single[K[0]]["results"].get("C_sdpa_fwd", {}):
    print("| %s | %s |" % (c, " | ".join(f(med(single[k], "results", "C_sdpa_fwd", c, "ms", "median"), "%.3f") for k in K)))
print("\n### C: sum / softmax over last dim (us, L2 flushed)\n")
print("| shape | " + " | ".join("%s sum | %s softmax" % (k, k) for k in K) + " |")
print("|---|" + "---|" * (2 * len(K)))
for c in single[K[0]]["results"].get("C_sum_lastdim", {}):
    print("| %s | %s |" % (c, " | ".join("%s | %s" % (f(1e3 * med(single[k], "results", "C_sum_lastdim", c, "ms", "median"), "%.1f"),
                                                     f(1e3 * med(single[k], "results", "C_softmax_lastdim", c, "ms", "median"), "%.1f")) for k in K)))
print("\n### C: conv2d fwd (ms, allow_tf32=False)\n")
print("| conv | " + " | ".join(K) + " |")
print("|---|" + "---|" * len(K))
for c in single[K[0]]["results"].get("C_conv2d_fwd", {}):
    print("| %s | %s |" % (c, " | ".join(f(med(single[k], "results", "C_conv2d_fwd", c, "ms", "median"), "%.4f") for k in K)))

mp = os.path.join(root, "h200x2", "results_multi.json")
if os.path.exists(mp):
    d = json.load(open(mp))
    e = d["env"]
    print("\n### D: 2x H200 collectives (NCCL %s, busbw GB/s, per-op CUDA-event median; batched in parentheses)\n" % e["nccl"])
    sizes = [1024, 1 << 20, 64 << 20, 1 << 30, 2 << 30]
    print("| op | " + " | ".join(["1 KiB (us)"] + ["%s" % n for n in ("1 MiB", "64 MiB", "1 GiB", "2 GiB")]) + " |")
    print("|---|" + "---|" * len(sizes))
    for op, v in d["results"]["collectives"].items():
        rows = {r["bytes"]: r for r in v["rows"]}
        cells = []
        for s in sizes:
            r = rows.get(s)
            if r is None:
                cells.append("-")
            elif s == 1024:
                cells.append("%.1f us" % r["time_us_median"])
            else:
                cells.append("%.1f (%.1f)" % (r["busbw_GBps"], r["busbw_batched_GBps"]))
        print("| %s | %s |" % (op, " | ".join(cells)))
    print("\n### D: Llama-3-8B layer forward, bf16, eager unless noted (ms, CUDA-event median of 30)\n")
    print("| case | ms (min-max) |")
    print("|---|---|")
    for c, v in d["results"]["tp_layer"].items():
        print("| %s | %.3f (%.3f-%.3f) |" % (c, v["ms"]["median"], v["ms"]["min"], v["ms"]["max"]))
