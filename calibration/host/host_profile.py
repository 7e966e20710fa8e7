#!/usr/bin/env python3
"""Derive a host description's measured figures from a host probe (calibration/runs/bench_single.py
section B1, `results.B1_host_probe` of a results.json), by the rules hardware/catalog/hosts/h100-box.toml
states in its [sources]. Prints `key = value` lines (or --set arguments with --sets).

Usage: python3 calibration/host/host_profile.py validation/runs/<gpu>/results.json [--sets]
"""
import json
import sys


def med(p, k):
    v = p[k]
    return v["us_per_call_median"] if isinstance(v, dict) else float(v)


def derive(probe):
    p = probe
    j = p["j_launch_from_profiler"]
    launch = med(p, "a_add_out") * j["cudaLaunchKernel"]["median"] / j["aten::add"]["median"]
    add_out, add_alloc = med(p, "a_add_out"), med(p, "a_add_alloc")
    step_us = 50.0  # assumption (see h100-box.toml)
    out = {
        "framework.module_call_us": med(p, "b_nested_module_identity_add_out") - med(p, "b_module_call_add_out"),
        "framework.op_dispatch_us": add_out - launch,
        "framework.autograd_node_us": float(p["c_backward_per_node_us_derived"]) - launch,
        "cuda.launch_us": launch,
        "library.gemm_us": med(p, "d_mm16_bf16") - add_alloc,
        "library.attention_us": 0.5 * (med(p, "e_sdpa_tiny_bf16") + med(p, "e_sdpa_tiny_bf16_causal")) - add_alloc,
        "library.norm_us": med(p, "f_layer_norm_tiny") - add_alloc,
        "library.call_us": (med(p, "d_mm16_bf16") + med(p, "e_sdpa_tiny_bf16") + med(p, "f_rms_norm_tiny")
                            + med(p, "f_layer_norm_tiny")) / 4 - add_alloc,
        "optimizer.param_us": (med(p, "g_adamw_step_foreach_100params") - step_us - 30 * add_out) / 100,
        "optimizer.foreach_tensor_us": (med(p, "g_foreach_add_100") - med(p, "g_foreach_add_1")) / 99,
        "optimizer.fused_tensor_us": (med(p, "g_adamw_step_fused_100params") - step_us - 3 * add_out) / 100,
        "sync.item_us": med(p, "h_item_idle"),
        "graph.per_kernel_us": max(0.0, (med(p, "i_cuda_graph_replay_100_tiny") - 5.0) / 100),
        "compile.launch_us": med(p, "j_triton_launch_tiny"),
        # composite probes (real-code-like): the 6-op eager RMSNorm module per op, the no-grad mul chain per op
        "probe.rmsnorm_module_per_op_us": med(p, "f_rmsnorm_module_eager_tiny(6_ops)") / 6,
        "probe.chain_nograd_per_op_us": med(p, "c_fwd_nograd_chain100") / 100,
        "probe.chain_grad_per_op_us": med(p, "c_autograd_fwd_only_grad_chain100") / 100,
    }
    return {k: max(0.0, v) for k, v in out.items()}


if __name__ == "__main__":
    d = json.load(open(sys.argv[1]))
    probe = d["results"]["B1_host_probe"] if "results" in d else d
    for k, v in derive(probe).items():
        print(("--set host.%s=%.3f" if "--sets" in sys.argv else "%s = %.3f") % (k, v))
