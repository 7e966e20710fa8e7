#!/usr/bin/env python3
"""Derive a host description's measured figures from a host probe (calibration/runs/bench_single.py
section B1, `results.B1_host_probe` of a results.json), by the rules hardware/catalog/hosts/h100-box.toml
states in its [sources]. Prints `key = value` lines (or --set arguments with --sets).

The probe's speed against the reference probe (`--speed`): the geometric mean, over SPEED_ENTRIES,
of this probe's entry over the reference's (the 2x H200 box's clean probe, REFERENCE). One entry
scatters up to 2x between runs; their geometric mean tracks what real model code does on the machine
(docs/accuracy.md, "Host time and training steps"). A host's framework.model_factor is
FRAMEWORK_FACTOR x its speed: the per-category figures keep the reference probe's shape, the speed
says how fast this machine's host runs them, FRAMEWORK_FACTOR how much more real model code costs
per call than the probe's tight loops (one figure for every machine, fitted on the dev split).

Usage: python3 calibration/host/host_profile.py validation/runs/<gpu>/results.json [--sets] [--speed]
"""
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(ROOT, "validation", "runs", "h200x2", "host", "results.json")
# The entries whose geometric mean is a probe's speed: every tight loop of one kind of host work
# (single ops, module calls, autograd chains, library calls, norms, foreach and optimizer steps, a
# sync, a Triton launch); not the CUDA-graph replay (a driver call) nor the profiler entry.
SPEED_ENTRIES = ["a_add_out", "a_add_alloc", "a_mul_scalar_inplace", "b_module_call_add_out",
                 "b_nested_module_identity_add_out", "c_fwd_nograd_chain100", "c_autograd_fwd_only_grad_chain100",
                 "c_autograd_fwd_bwd_chain100", "d_mm16_bf16", "d_nn_linear16_fp32", "e_sdpa_tiny_bf16",
                 "f_layer_norm_tiny", "f_rms_norm_tiny", "f_rmsnorm_module_eager_tiny(6_ops)", "g_foreach_add_100",
                 "g_adamw_step_foreach_100params", "g_adamw_step_fused_100params", "h_item_idle",
                 "j_triton_launch_tiny"]
# Fitted: see hardware/catalog/hosts/*.toml [sources] and validation/host-training/evaluate.py --fit.
FRAMEWORK_FACTOR = 1.5


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


def load_probe(path):
    with open(path) as f:
        d = json.load(f)
    return d["results"]["B1_host_probe"] if "results" in d else d


def speed(probe, reference=None):
    """Geometric mean of probe/reference over SPEED_ENTRIES (1.0 = as fast as the reference)."""
    ref = reference if reference is not None else load_probe(REFERENCE)
    logs = [math.log(med(probe, k) / med(ref, k)) for k in SPEED_ENTRIES]
    return math.exp(sum(logs) / len(logs))


if __name__ == "__main__":
    probe = load_probe(sys.argv[1])
    if "--speed" in sys.argv:
        sp = speed(probe)
        print("speed = %.3f  (framework.model_factor = %.2f x %.3f = %.2f)" % (sp, FRAMEWORK_FACTOR, sp,
                                                                             FRAMEWORK_FACTOR * sp))
        sys.exit(0)
    for k, v in derive(probe).items():
        print(("--set host.%s=%.3f" if "--sets" in sys.argv else "%s = %.3f") % (k, v))
