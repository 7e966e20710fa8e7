"""Compares gpucast's model-level predictions with the end-to-end PyTorch runs of e2e.py.

usage: python3 e2e_compare.py GPCAST_BINARY GPU_PROFILE E2E_JSON   (prints a Markdown table)
The prefill run measured one Llama-3-8B layer: its prediction is (2 layers) - (1 layer).
"""
import json
import subprocess
import sys

gpucast, gpu, e2e_path = sys.argv[1:4]


def predict(*args):
    out = subprocess.run([gpucast, "predict", "--gpu", gpu, "--format", "json", *args], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout)["total_us"]


def layer_prefill(launch):
    base = ["--model", "llama-3-8b", "--mode", "prefill", "--batch", "4", "--seq", "2048", "--launch", launch]
    return predict(*base, "--layers", "2") - predict(*base, "--layers", "1")


cases = {
    "llama3-8b-layer-prefill-b4-s2048": lambda launch: layer_prefill(launch),
    "llama3-8b-decode-b16-c4096": lambda launch: predict("--model", "llama-3-8b", "--mode", "decode", "--batch", "16",
                                                         "--context", "4095", "--launch", launch),
    "resnet50-inference-b1": lambda launch: predict("--model", "resnet50", "--batch", "1", "--launch", launch),
    "resnet50-inference-b64": lambda launch: predict("--model", "resnet50", "--batch", "64", "--launch", launch),
    "bert-base-inference-b32-s128": lambda launch: predict("--model", "bert-base", "--batch", "32", "--seq", "128",
                                                           "--launch", launch),
}
runs = json.load(open(e2e_path))["runs"]
print("| run | launch | measured | predicted | error |")
print("|---|---|---:|---:|---:|")
for r in runs:
    if "measured_us" not in r or r["name"] not in cases:
        continue
    p = cases[r["name"]](r["mode"])
    m = r["measured_us"]
    print(f"| {r['name']} | {r['mode']} | {m / 1e3:.2f} ms | {p / 1e3:.2f} ms | {(p - m) / m * 100:+.0f}% |")
