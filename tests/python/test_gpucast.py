"""The Python module: same numbers as the binary's JSON, Python objects, typed exceptions."""
import json
import os
import subprocess

import pytest

import gpucast

SRC = os.environ.get("GPUCAST_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("GPUCAST_BINARY")
DATA = os.path.join(SRC, "tests", "data", "measured")


def test_predict_model_decode_step():
    p = gpucast.predict(gpu="h100-sxm", model="llama-3-8b", mode="decode", batch=16)
    assert p.total_us > 0
    assert p.gpu == "h100-sxm"
    assert sum(p.time_by_bound_us.values()) == pytest.approx(p.total_us, rel=1e-8)
    assert sum(p.time_by_op_us.values()) == pytest.approx(p.total_us, rel=1e-8)
    k = p.kernels[0]
    assert k.sol.bound_pct >= 0 and k.attributed_us >= 0


@pytest.mark.skipif(not BINARY, reason="GPUCAST_BINARY not set")
def test_same_document_as_the_binary():
    args = ["predict", "--gpu", "rtx-4090", "--model", "llama-3-8b", "--mode", "decode", "--batch", "8"]
    out = subprocess.run([BINARY] + args + ["--format", "json"], check=True, capture_output=True, text=True).stdout
    assert gpucast.predict(gpu="rtx-4090", model="llama-3-8b", mode="decode", batch=8) == json.loads(out)


def test_several_gpus_and_overrides():
    ps = gpucast.predict(gpu=["h100-sxm", "l40s"], workload=os.path.join(SRC, "workloads/examples/llama3-8b-block.toml"))
    assert [p.gpu for p in ps] == ["h100-sxm", "l40s"]
    slow = gpucast.predict(gpu="h100-sxm", workload=os.path.join(SRC, "workloads/examples/llama3-8b-block.toml"),
                           set={"memory.bandwidth_gbps": 1000})
    assert slow.total_us > ps[0].total_us
    g = gpucast.gpu("h100-sxm", set={"memory.bandwidth_gbps": 4000})
    assert "4000" in json.dumps(g)
    assert any(x.id == "h100-sxm" for x in gpucast.gpus())


def test_workload_built_in_python():
    w = gpucast.Workload("mlp", launch="graph")
    w.add("up", "gemm", m=4096, n=14336, k=4096, dtype="bf16")
    w.add("act", "elementwise", elements=4096 * 14336, dtype="bf16")
    p = gpucast.predict(gpu="h100-sxm", workload=w)
    assert [k.name for k in p.kernels] == ["up", "act"]
    assert p.launch == "graph"


def test_compare_cost_sweep_validate():
    c = gpucast.compare(gpus=["rtx-4090", "h100-sxm"], model="llama-3-8b", mode="decode", batch=16)
    assert [g.rank for g in c.gpus] == [1, 2]
    cost = gpucast.cost(gpu="rtx-4090", model="llama-3-8b", mode="decode", batch=8, utilization=0.5)
    assert cost.owned_total_usd > 0
    s = gpucast.sweep(gpu="h100-sxm", workload=os.path.join(SRC, "workloads/examples/two-streams.toml"),
                      vary={"memory.bandwidth_gbps": [2000, 4000]})
    assert len(s.points) == 2
    v = gpucast.validate(gpu="h100-sxm", measured=os.path.join(DATA, "kernels.csv"))
    assert v.cases[0].measured_us == pytest.approx(183.84)
    assert v.cases[0].measured_sol.pipe == "tensor bf16"


def test_to_pandas_when_installed():
    pd = pytest.importorskip("pandas")
    df = gpucast.predict(gpu="h100-sxm", model="llama-3-8b", mode="decode", batch=1, layers=1).to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert "duration_us" in df.columns and "sol.bound_pct" in df.columns


def test_input_errors_carry_file_line_and_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[workload]\nname = "x"\n\n[[kernel]]\nname = "g"\nop = "gemm"\nm = -4\nn = 8\nk = 8\ndtype = "bf16"\n')
    with pytest.raises(gpucast.InputError) as e:
        gpucast.predict(gpu="h100-sxm", workload=str(bad))
    assert e.value.file.endswith("bad.toml")
    assert e.value.line == 7
    assert e.value.key.endswith("m")
    csv = tmp_path / "m.csv"
    csv.write_text("op,m,n,k,measured_us\ngemm,8,8,8,soon\n")
    with pytest.raises(gpucast.InputError) as e:
        gpucast.validate(gpu="h100-sxm", measured=str(csv))
    assert (e.value.line, e.value.key) == (2, "measured_us")


def test_other_errors_are_typed():
    with pytest.raises(gpucast.InputError):
        gpucast.predict(gpu="no-such-gpu", model="llama-3-8b")
    with pytest.raises(gpucast.UsageError):
        gpucast.run("predict", "--no-such-flag")
