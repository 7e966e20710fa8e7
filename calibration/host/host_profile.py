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
       python3 calibration/host/host_profile.py RESULTS --write-host OUT.toml --extends h100-box \
           --name "H100 SXM box, ninth lease" [--comment "where the probe ran"]
--write-host writes a host description that extends a catalog box with this probe's speed
(framework.model_factor = FRAMEWORK_FACTOR x speed), its source naming the probe file.
"""
import argparse
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


def host_toml(probe_path, extends, name, comment=""):
    """A host description extending the catalog box `extends` with the probe's speed."""
    sp = speed(load_probe(probe_path))
    factor = FRAMEWORK_FACTOR * sp
    rel = os.path.relpath(os.path.abspath(probe_path), ROOT)
    lines = ["# " + c for c in comment.splitlines()] if comment else []
    lines += ["# Written by calibration/host/host_profile.py --write-host: the catalog's %s with the speed of" % extends,
              "# the probe in %s." % rel,
              'extends = "%s"' % extends, 'name = "%s"' % name.replace('"', "'"), "",
              "[framework]", "model_factor = %.3f   # framework factor x speed, written below" % factor, "",
              "[sources]",
              '"framework.model_factor" = "fit x measurement: the framework factor %.1f (fitted on the dev split, see '
              'hardware/catalog/hosts/h100-box.toml) x the probe speed %.3f (calibration/host/host_profile.py --speed %s)"'
              % (FRAMEWORK_FACTOR, sp, rel)]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="a results.json holding results.B1_host_probe (or the probe itself)")
    ap.add_argument("--sets", action="store_true", help="print --set arguments instead of key = value")
    ap.add_argument("--speed", action="store_true", help="print the probe's speed against the reference")
    ap.add_argument("--write-host", metavar="OUT.toml", help="write a host description with this probe's speed")
    ap.add_argument("--extends", default="h100-box", help="catalog host the written description extends")
    ap.add_argument("--name", default=None, help="the written description's name")
    ap.add_argument("--comment", default="", help="comment lines at the top of the written description")
    a = ap.parse_args()
    try:
        probe = load_probe(a.results)
    except (OSError, KeyError, ValueError) as e:
        sys.exit("host_profile.py: %s: %s" % (a.results, e))
    if a.write_host:
        text = host_toml(a.results, a.extends, a.name or "%s, probe %s" % (a.extends, a.results), a.comment)
        tmp = a.write_host + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, a.write_host)  # nothing half-written
        print("wrote %s (speed %.3f)" % (a.write_host, speed(probe)))
        return
    if a.speed:
        sp = speed(probe)
        print("speed = %.3f  (framework.model_factor = %.2f x %.3f = %.2f)" % (sp, FRAMEWORK_FACTOR, sp,
                                                                             FRAMEWORK_FACTOR * sp))
        return
    for k, v in derive(probe).items():
        print(("--set host.%s=%.3f" if a.sets else "%s = %.3f") % (k, v))


if __name__ == "__main__":
    main()
