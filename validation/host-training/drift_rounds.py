#!/usr/bin/env python3
"""Does a host probe taken right before a run track the H100 hosts' drift? (issue 14)

Reads the fourth H100 lease (calibration/runs/fresh_probe_each.sh: three rounds of a fresh probe
process, then the Llama 1B and GPT-2 inference forwards, each in a fresh process) and prints, for the
eager forwards: each configuration's three measured times, the MAPE when every round is predicted with
the lease's first probe (the rule of evaluate.py) and with its own round's probe, how far the rounds
scatter, and the first-probe prediction's error against the three-round mean, per model family.

usage: python3 validation/host-training/drift_rounds.py [build/cli/gpucast] [--h200]
  (--h200: the third H200 lease, validation/runs/h200-sxm/fresh3/, the same script)
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evaluate as ev  # noqa: E402

LEASES = {"h100-sxm": ("validation/runs/h100-sxm/fresh4/", "validation/host-training/hosts/h100-lease4.toml"),
          "h200-sxm": ("validation/runs/h200-sxm/fresh3/", "validation/host-training/hosts/h200-lease3.toml")}
ROUNDS = (1, 2, 3)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    gpucast = args[0] if args else os.path.join(ev.ROOT, "build", "cli", "gpucast")
    gpu = "h200-sxm" if "--h200" in sys.argv else "h100-sxm"
    RUNS, HOST = LEASES[gpu]
    meas, first_pred, own_pred = {}, {}, {}
    for rnd in ROUNDS:
        speed = ev.lease_speed(RUNS + "probe_%d/results.json" % rnd)
        print("round %d: probe speed %.3f" % (rnd, speed))
        for f in ("llama_%d/results.json" % rnd, "gpt_%d/results_gpt.json" % rnd):
            for kind, key, args, measured, _, _ in ev.runs([(RUNS + f, "fresh")]):
                if kind != "infer-eager":
                    continue
                meas.setdefault(key, {})[rnd] = measured
                first_pred[key] = ev.predict(gpucast, gpu, HOST, args)["total_us"] / 1e3
                own = ["host.framework.model_factor=%.4f" % (host_factor() * speed)]
                own_pred.setdefault(key, {})[rnd] = ev.predict(gpucast, gpu, HOST, args, own)["total_us"] / 1e3
    e_first, e_own, spread, scatter = [], [], [], []
    for key, m in meas.items():
        times = [m[r] for r in ROUNDS]
        mean = statistics.mean(times)
        print("%-20s measured %s ms, predicted %.2f" % (key, " ".join("%.2f" % t for t in times), first_pred[key]))
        spread.append((max(times) - min(times)) / min(times))
        scatter += [abs(t - mean) / mean for t in times]
        for r in ROUNDS:
            e_first.append(abs(first_pred[key] - m[r]) / m[r])
            e_own.append(abs(own_pred[key][r] - m[r]) / m[r])
    pct = lambda v: 100 * statistics.mean(v)  # noqa: E731
    print("MAPE, every round with the first probe: %.1f%%; each round with its own probe: %.1f%%" % (pct(e_first), pct(e_own)))
    print("rounds of one configuration: (max - min) / min mean %.1f%%, median %.1f%%; mean abs. deviation "
          "from their mean %.1f%%" % (pct(spread), 100 * statistics.median(spread), pct(scatter)))
    for fam in ("1b", "gpt124m", "gpt1.5b"):
        errs = [(first_pred[k] - statistics.mean(m.values())) / statistics.mean(m.values())
                for k, m in meas.items() if k.startswith(fam)]
        print("%-8s first-probe prediction against the three-round mean: %+.1f%%" % (fam, 100 * statistics.mean(errs)))


def host_factor():
    sys.path.insert(0, os.path.join(ev.ROOT, "calibration", "host"))
    import host_profile
    return host_profile.FRAMEWORK_FACTOR


if __name__ == "__main__":
    main()
