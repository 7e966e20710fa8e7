#!/usr/bin/env python3
"""Compare gpucast predictions with published end-to-end measurements.

Reads validation/published/references.toml, runs `gpucast predict` for each entry and writes the
table (Markdown) and the raw numbers (JSON). No published number feeds any model constant.

usage: published_compare.py [--gpucast build/cli/gpucast] [--out validation/published/comparison] [--only ID_PREFIX]

A reference's `gpu` is a catalog id, NxGPU for one node of a multi-GPU system (`8xh100-sxm`), or
`system:ID` for a catalog system or file (`system:dgx-h100`, with `--set nodes=8` in its args).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def predict(gpucast, gpu, args):
    # `gpu` is a catalog GPU id, or a multi-GPU system: NxGPU (one node) or a system id / file given
    # as "system:ID" (the workload is then one rank's; the layout flags are in `args`).
    if gpu.startswith("system:"):
        where = ["--system", gpu[len("system:"):]]
    elif "x" in gpu.split("-")[0] and gpu.split("x")[0].isdigit():
        where = ["--gpus", gpu]
    else:
        where = ["--gpu", gpu]
    cmd = [gpucast, "predict", *where, *args, "--format", "json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def arg_value(args, flag, default):
    return type(default)(args[args.index(flag) + 1]) if flag in args else default


def predicted(gpucast, ref):
    value, fits = predicted_whole(gpucast, ref)
    # `per_gpu = N`: the publication divides a throughput by the N GPUs of the job
    return value / ref.get("per_gpu", 1), fits


def predicted_whole(gpucast, ref):
    args = list(ref["args"])
    metric = ref["metric"]
    if metric == "first_token_ms":
        # Time to the first token: the prefill of `input_tokens` (batch from args)
        prefill = predict(gpucast, ref["gpu"], args + ["--mode", "prefill", "--seq", str(ref["input_tokens"])])
        return prefill["total_us"] / 1e3, prefill["memory"]["fits"]
    if metric == "generate_ms":
        n_in, n_out = ref["input_tokens"], ref["output_tokens"]
        prefill = predict(gpucast, ref["gpu"], args + ["--mode", "prefill", "--seq", str(n_in)])
        # The first output token comes from the prefill; each further one is a decode step.
        mean_context = n_in + n_out // 2
        decode = predict(gpucast, ref["gpu"], args + ["--mode", "decode", "--context", str(mean_context)])
        return (prefill["total_us"] + (n_out - 1) * decode["total_us"]) / 1e3, prefill["memory"]["fits"]
    if metric == "batch_tokens_per_s":
        # Offline serving of `--batch` requests at once: one prefill of `input_tokens` each, then a
        # decode step per further output token at the mean context; output tokens per second.
        n_in, n_out = ref["input_tokens"], ref["output_tokens"]
        batch = arg_value(args, "--batch", 1)
        prefill = predict(gpucast, ref["gpu"], args + ["--mode", "prefill", "--seq", str(n_in)])
        decode = predict(gpucast, ref["gpu"], args + ["--mode", "decode", "--context", str(n_in + n_out // 2)])
        seconds = (prefill["total_us"] + (n_out - 1) * decode["total_us"]) * 1e-6
        return batch * n_out / seconds, prefill["memory"]["fits"] and decode["memory"]["fits"]
    p = predict(gpucast, ref["gpu"], args)
    if metric == "tflops":  # a single-kernel workload file doing `flops` FLOP
        return ref["flops"] / p["total_us"] / 1e6, p.get("memory", {}).get("fits", True)
    if metric == "gbps":  # a single-kernel workload file moving `bytes` bytes
        return ref["bytes"] / p["total_us"] / 1e3, p.get("memory", {}).get("fits", True)
    seconds = p["total_us"] * 1e-6
    batch = arg_value(args, "--batch", 1)
    if metric == "samples_per_s":
        return batch / seconds, p["memory"]["fits"]
    if metric == "tokens_per_s":
        return p["throughput"]["tokens_per_s"], p["memory"]["fits"]
    sys.exit(f"{ref['id']}: unknown metric {metric}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpucast", default=str(ROOT / "build/cli/gpucast"))
    ap.add_argument("--references", default=str(ROOT / "validation/published/references.toml"))
    ap.add_argument("--out", default=str(ROOT / "validation/published/comparison"))
    ap.add_argument("--only", default="", help="only the references whose id starts with this (no files written)")
    a = ap.parse_args()
    refs = tomllib.loads(pathlib.Path(a.references).read_text())["reference"]
    if a.only:
        refs = [r for r in refs if r["id"].startswith(a.only)]
    rows = []
    for ref in refs:
        value, fits = predicted(a.gpucast, ref)
        # Error as prediction over measurement, in the direction of time: a throughput predicted
        # too high is a time predicted too low.
        if ref["metric"] in ("generate_ms", "first_token_ms"):
            err = value / ref["published"] - 1
        else:
            err = ref["published"] / value - 1
        rows.append({**ref, "predicted": value, "fits": fits, "time_error": err})
        print(f"{ref['id']:40s} published {ref['published']:9.1f} predicted {value:9.1f}  time error {err:+.1%}")
    unit = {"samples_per_s": "samples/s", "tokens_per_s": "tokens/s", "generate_ms": "ms", "tflops": "TFLOP/s",
            "gbps": "GB/s", "batch_tokens_per_s": "tokens/s", "first_token_ms": "ms"}
    lines = ["| Setting | GPU | Published | gpucast | Time error |", "|---|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['setting']} | {r['gpu']} | {r['published']:.1f} {unit[r['metric']]} | "
                     f"{r['predicted']:.1f} {unit[r['metric']]} | {r['time_error']:+.0%} |")
    abs_errs = sorted(abs(r["time_error"]) for r in rows)
    lines.append("")
    lines.append(f"Median absolute time error {abs_errs[len(abs_errs) // 2]:.0%} over {len(rows)} settings; "
                 f"{sum(e <= 0.15 for e in abs_errs)} of {len(rows)} within 15%.")
    if a.only:
        print("\n".join(lines))
        return
    out = pathlib.Path(a.out)
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
