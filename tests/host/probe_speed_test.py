#!/usr/bin/env python3
"""A host probe's speed (calibration/host/host_profile.py) and the hosts that use it.

Rules pinned: the speed is the geometric mean of the entries' ratios to the reference probe (the
reference itself is 1, every entry k times slower is k, one entry alone moves it by its ratio to the
1/len(SPEED_ENTRIES) power); entries outside SPEED_ENTRIES do not count; and every host description
whose framework.model_factor source cites a probe speed carries framework factor x that probe's
speed (so a catalog figure cannot drift from the measurement it names).
Run: python3 tests/host/probe_speed_test.py [SOURCE_DIR]
"""
import os
import re
import sys
import unittest

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(SRC, "calibration", "host"))
import host_profile  # noqa: E402


def probe(value_of):
    return {k: {"us_per_call_median": value_of(k)} for k in host_profile.SPEED_ENTRIES}


class ProbeSpeed(unittest.TestCase):
    def setUp(self):
        self.ref = probe(lambda k: 10.0 + len(k))

    def test_reference_is_one(self):
        self.assertAlmostEqual(host_profile.speed(self.ref, self.ref), 1.0, places=12)

    def test_uniformly_slower_probe_is_that_factor(self):
        slow = probe(lambda k: 1.3 * (10.0 + len(k)))
        self.assertAlmostEqual(host_profile.speed(slow, self.ref), 1.3, places=12)

    def test_one_entry_moves_it_by_its_root(self):
        k0 = host_profile.SPEED_ENTRIES[0]
        one = probe(lambda k: (4.0 if k == k0 else 1.0) * (10.0 + len(k)))
        n = len(host_profile.SPEED_ENTRIES)
        self.assertAlmostEqual(host_profile.speed(one, self.ref), 4.0 ** (1.0 / n), places=12)

    def test_other_entries_do_not_count(self):
        extra = probe(lambda k: 10.0 + len(k))
        extra["i_cuda_graph_replay_100_tiny"] = {"us_per_call_median": 1000.0}
        self.assertAlmostEqual(host_profile.speed(extra, self.ref), 1.0, places=12)


class HostsCiteTheirSpeed(unittest.TestCase):
    def test_model_factor_is_framework_factor_times_cited_speed(self):
        files = [os.path.join(SRC, "hardware", "catalog", "hosts", f) for f in ("h100-box.toml", "h200-box.toml")]
        vdir = os.path.join(SRC, "validation", "host-training", "hosts")
        files += [os.path.join(vdir, f) for f in sorted(os.listdir(vdir)) if f.endswith(".toml")]
        checked = 0
        for path in files:
            with open(path) as f:
                text = f.read()
            factor = float(re.search(r"^model_factor\s*=\s*([0-9.]+)", text, re.M).group(1))
            src = re.search(r'"framework.model_factor"\s*=\s*"([^"]*)"', text).group(1)
            m = re.search(r"probe speed ([0-9.]+) \(calibration/host/host_profile.py --speed (\S+)\)", src)
            self.assertIsNotNone(m, path)
            measured = host_profile.speed(host_profile.load_probe(os.path.join(SRC, m.group(2))))
            self.assertAlmostEqual(float(m.group(1)), measured, delta=0.0006, msg=path)
            self.assertAlmostEqual(factor, host_profile.FRAMEWORK_FACTOR * measured, delta=0.002, msg=path)
            checked += 1
        self.assertGreaterEqual(checked, 4)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
