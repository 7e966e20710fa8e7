#!/usr/bin/env python3
"""Break each mechanism rule in the code, one at a time, and check that its mechanism test fails.

A mechanism test that still passes with its rule broken pins nothing. For every rule below this
script edits the one line that implements it, rebuilds the test binary, runs the rule's test
scenarios and expects them to FAIL, then restores the file (also on Ctrl-C or a build error).
Not part of ctest (each case rebuilds); run it after changing a rule or its test:

    python3 tests/mechanisms/break_each_rule.py [--build build] [--only NAME]

It prints one line per rule and exits non-zero when a broken rule went unnoticed or a mutation no
longer applies (the code moved: update the `old` text here).
"""
import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

# name, file, the rule's code, the broken code, scenarios that must fail (Catch2 names)
RULES = [
    ("threads are whole warps", "device/occupancy.cpp",
     "limit(sm.max_threads / (warps * sm.warp_size), OccupancyLimit::threads);",
     "limit(sm.max_threads / threads, OccupancyLimit::threads);",
     ["Scenario: threads are scheduled as whole warps: a 33-thread block takes two warps"]),
    ("thread limit per SM", "device/occupancy.cpp",
     "limit(sm.max_threads / (warps * sm.warp_size), OccupancyLimit::threads);",
     "limit(sm.max_threads / (warps * sm.warp_size) + 1, OccupancyLimit::threads);",
     ["Scenario: threads: 2048 per SM hold eight 256-thread blocks, not nine"]),
    ("register allocation unit", "device/occupancy.cpp",
     "((std::max(1, block.registers_per_thread) * sm.warp_size + unit - 1) / unit) * unit;",
     "std::max(1, block.registers_per_thread) * sm.warp_size;",
     ["Scenario: registers are allocated per warp in units of 256"]),
    ("shared-memory reserve", "device/occupancy.cpp",
     "sm.shared_bytes / (block.shared_bytes + sm.shared_reserved_per_block_bytes)",
     "sm.shared_bytes / (block.shared_bytes)",
     ["Scenario: shared memory counts the driver's 1 KB reserve per block"]),
    ("block limit per SM", "device/occupancy.cpp",
     "Occupancy o{sm.max_blocks, OccupancyLimit::blocks};",
     "Occupancy o{1 << 20, OccupancyLimit::blocks};",
     ["Scenario: the SM's block limit binds small blocks"]),
    ("GEMM L2 reuse", "models/gemm_model.cpp",
     "if (a + b <= l2_reuse_bytes) return g.batch * (a + b + c);",
     "if (a + b <= 0.5 * l2_reuse_bytes) return g.batch * (a + b + c);",
     ["Scenario: GEMM operands that fit in the reusable L2 are read once"]),
    ("Little's-law DRAM curve", "sim/kernel_timer.cpp",
     "return dram * (1 - std::exp(-in_flight / (dram * gpu.latency().dram)));",
     "return dram * std::min(1.0, in_flight / (dram * gpu.latency().dram));",
     ["Scenario: bytes in flight equal to bandwidth x latency reach 1 - 1/e of the bandwidth"]),
    ("eager cold launch", "sim/timeline.cpp",
     ": (s.waited_for_host ? costs.cold_kernel_us : costs.queued_kernel_us) +",
     ": costs.queued_kernel_us +",
     ["Scenario: eager: ten tiny kernels take ten host issues plus the last kernel's cold launch"]),
    ("graph launch cost", "sim/timeline.cpp",
     "Microseconds overhead = graph ? costs.graph_kernel_us * (1 + internal_gaps)",
     "Microseconds overhead = graph ? costs.queued_kernel_us * (1 + internal_gaps)",
     ["Scenario: graph: one replay issues all ten; each kernel pays the graph cost, not the host's"]),
    ("split-K choice", "models/gemm_model.cpp",
     "for (double split : kSplitKFactors) {",
     "for (double split : {1.0}) {",
     ["Scenario: a 128x128 output with K = 65536 splits K to fill 100 SMs"]),
    ("attention backward SIMT", "models/attention_model.cpp",
     "k.simt_instructions *= kBackwardSimtPerForward;",
     "k.simt_instructions *= 1;",
     ["Scenario: backward: 2.5x the forward's tensor work and 2x its SIMT instructions per block"]),
    ("decode KV split", "models/attention_model.cpp",
     "std::clamp(std::ceil(kDecodeWavesTarget * gpu.sms() / tiles), 1.0, kv_chunks);",
     "std::clamp(std::ceil(gpu.sms() / tiles), 1.0, kv_chunks);",
     ["Scenario: decode: 8 KV heads on 100 SMs split the KV sequence 25 ways (twice the SMs over the tiles)"]),
    ("FlashAttention-2 single key block", "models/attention_single_block.h",
     "double(a.seq_kv) <= kFlash2SingleBlockKeys;",
     "double(a.seq_kv) < kFlash2SingleBlockKeys;",
     ["Scenario: FlashAttention-2: one row over 128 keys runs the forward kernel, over 129 the split-KV decode"]),
    ("1x1 convolution is a GEMM", "models/conv_algorithm.cpp",
     "const bool pointwise = op.r == 1 && op.s == 1 && op.stride == 1 && op.pad == 0;",
     "const bool pointwise = false;",
     ["Scenario: a 1x1 stride-1 convolution is a GEMM; at stride 2 it is an implicit GEMM"]),
    ("warm dependent loads: one partition's share", "sim/warm_l2.cpp",
     "if (read_hit >= reads && written <= gpu.l2_reuse_bytes() / kL2Partitions)",
     "if (read_hit >= reads && written <= gpu.l2_reuse_bytes())",
     ["Scenario: a latency-bound reduction is warm up to one L2 partition's share of the reuse set, not one byte over"]),
    ("warm dependent loads: only what the producer wrote", "sim/warm_l2.cpp",
     "if (read_hit >= reads && written <= gpu.l2_reuse_bytes() / kL2Partitions)",
     "if (written <= gpu.l2_reuse_bytes() / kL2Partitions)",
     ["Scenario: a consumer with a second input the producer did not write keeps its DRAM round trips"]),
    ("transposed reads: a sector per element", "models/elementwise_model.cpp",
     "k.l2_bytes += transposed * (n * kTransposedL2BytesPerElement - per_input) / k.blocks;",
     "k.l2_bytes += 0 * transposed;",
     ["Scenario: a transposed input costs sector traffic in the L2; a strided view without a transpose does not"]),
    ("cat's index division", "workloads/trace/op_recognition.cpp",
     "return pointwise(total, t, t, 1, 1, kCatDivisionFlopsPerDim * double(dims), \"elementwise_kernel\");",
     "return pointwise(total, t, t, 1, 1, kCatDivisionFlopsPerDim, \"elementwise_kernel\");",
     ["Scenario: cat pays a 32-bit division per dimension of its tensors in its index math"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    tests = ROOT / args.build / "tests" / "gpucast_tests"
    unnoticed = 0
    for name, rel, old, new, scenarios in RULES:
        if args.only and args.only not in name:
            continue
        path = ROOT / rel
        original = path.read_text()
        if original.count(old) != 1:
            print(f"STALE      {name}: the rule's code is not found once in {rel}; update this script")
            unnoticed += 1
            continue
        try:
            path.write_text(original.replace(old, new))
            b = run(["cmake", "--build", args.build, "--target", "gpucast_tests"])
            if b.returncode != 0:
                print(f"NO BUILD   {name}: the broken code does not compile\n{b.stdout[-2000:]}")
                unnoticed += 1
                continue
            # Catch2 splits test specs at commas: escape the ones inside scenario names.
            t = run([str(tests), ",".join(n.replace(",", "\\,") for n in scenarios)])
            if "No test cases matched" in t.stdout + t.stderr or "No tests ran" in t.stdout + t.stderr:
                print(f"NO TEST    {name}: {', '.join(scenarios)} not found in the test binary")
                unnoticed += 1
            elif t.returncode == 0:
                print(f"UNNOTICED  {name}: {', '.join(scenarios)} passed with the rule broken")
                unnoticed += 1
            else:
                print(f"caught     {name}")
        finally:
            path.write_text(original)
    run(["cmake", "--build", args.build, "--target", "gpucast_tests"])  # back to the real code
    sys.exit(1 if unnoticed else 0)


if __name__ == "__main__":
    main()
