"""gpucast: an analytical GPU performance simulator, from Python.

Every function runs the same computation as the ``gpucast`` command of the same name and returns
its JSON report as a :class:`Result`: a ``dict`` whose keys are the fields documented in
docs/report-formats.md (and docs/schemas/), also readable as attributes::

    >>> import gpucast
    >>> p = gpucast.predict(gpu="h100-sxm", model="llama-3-8b", mode="decode", batch=16)
    >>> p.total_us                      # one decode step, microseconds
    >>> p.time_by_bound_us              # sums to total_us
    >>> p.to_pandas()                   # the kernels as a DataFrame (when pandas is installed)

Bad input raises :class:`InputError` with ``file``, ``line``, ``column`` and ``key``; a request the
model cannot answer raises :class:`UnsupportedError`; bad arguments raise :class:`UsageError`.
"""
from __future__ import annotations

import json as _json
import os as _os
import tempfile as _tempfile
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _gpucast

__version__ = _gpucast.__version__
__all__ = [
    "Error", "InputError", "UnsupportedError", "UsageError", "Result", "Workload",
    "gpus", "gpu", "predict", "compare", "cost", "sweep", "validate", "explain", "run", "data_dir",
]


class Error(Exception):
    """Any error gpucast reports."""


class InputError(Error, ValueError):
    """Bad input in a file or an argument: ``file``, ``line``, ``column`` and ``key`` say where."""

    def __init__(self, message: str, file: str = "", line: int = 0, column: int = 0, key: str = "",
                 detail: str = ""):
        super().__init__(message)
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.detail = detail


class UnsupportedError(Error):
    """A request the model cannot answer (e.g. fp8 on a GPU without fp8 tensor cores)."""


class UsageError(Error, ValueError):
    """Arguments that do not make a command (unknown option, bad combination)."""


class Result(dict):
    """A report as a dict with attribute access; nested objects are Results too."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"no field {name!r}; fields: {', '.join(self.keys())}") from None

    def __dir__(self) -> List[str]:
        return list(self.keys()) + list(super().__dir__())

    # The list a report is about: kernels (predict), gpus (compare), points (sweep), cases (validate).
    _TABLES = ("kernels", "gpus", "points", "cases", "options", "results")

    def rows(self) -> List["Result"]:
        """The report's main list of rows (kernels, gpus, points or cases)."""
        for key in self._TABLES:
            if isinstance(self.get(key), list):
                return self[key]
        return [self]

    def to_pandas(self):
        """The main rows as a pandas DataFrame (nested objects flattened with '.'); needs pandas."""
        try:
            import pandas as pd
        except ImportError as e:  # pandas is optional
            raise ImportError("to_pandas() needs pandas (apt-get install python3-pandas)") from e
        return pd.json_normalize([dict(r) for r in self.rows()])


class Results(list):
    """Several reports (predict with several GPUs); ``to_pandas()`` stacks their rows."""

    def to_pandas(self):
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("to_pandas() needs pandas (apt-get install python3-pandas)") from e
        frames = []
        for r in self:
            f = r.to_pandas()
            if "gpu" not in f.columns and "gpu" in r:
                f.insert(0, "gpu", r["gpu"])
            frames.append(f)
        return pd.concat(frames, ignore_index=True)


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return Result((k, _wrap(v)) for k, v in value.items())
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


def run(*args: str) -> str:
    """Runs ``gpucast ARGS...`` in-process and returns what it printed (raises gpucast errors)."""
    kind, text, details = _gpucast.run([str(a) for a in args])
    if kind == "ok":
        return text
    if kind == "input":
        raise InputError(text, **details)
    if kind == "unsupported":
        raise UnsupportedError(text)
    if kind == "usage":
        raise UsageError(text)
    raise Error(text)


def data_dir() -> str:
    """Where gpucast reads its catalog, examples and chart libraries."""
    return _gpucast.data_dir()


def _json_command(args: Sequence[str]) -> Union[Result, Results]:
    doc = _json.loads(run(*args, "--format", "json"))
    if isinstance(doc, list):
        return Results(_wrap(d) for d in doc)
    return _wrap(doc)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _options(options: Mapping[str, Any]) -> List[str]:
    """keyword=value -> --keyword value; True -> --keyword; lists -> comma-joined; set={k: v} -> --set k=v."""
    out: List[str] = []
    for name, value in options.items():
        if value is None or value is False:
            continue
        if name in ("set", "sets"):
            items = value.items() if isinstance(value, Mapping) else (s.split("=", 1) for s in value)
            for k, v in items:
                out += ["--set", f"{k}={v}"]
        elif name == "vary":
            items = value.items() if isinstance(value, Mapping) else (s.split("=", 1) for s in value)
            for k, v in items:
                v = ",".join(str(x) for x in v) if isinstance(v, (list, tuple)) else v
                out += ["--vary", f"{k}={v}"]
        elif value is True:
            out.append(_flag(name))
        elif isinstance(value, (list, tuple)):
            out += [_flag(name), ",".join(str(v) for v in value)]
        elif isinstance(value, Workload):
            out += [_flag(name), value._file()]
        else:
            out += [_flag(name), str(value)]
    return out


class Workload:
    """A workload built in Python: kernels as dicts of workload-file keys (docs/workload-format.md).

    >>> w = gpucast.Workload("mlp", launch="graph")
    >>> w.add("up", "gemm", m=4096, n=14336, k=4096, dtype="bf16")
    >>> w.add("act", "elementwise", elements=4096 * 14336, dtype="bf16")
    >>> gpucast.predict(gpu="h100-sxm", workload=w).total_us
    """

    def __init__(self, name: str, launch: str = "eager", kernels: Optional[Iterable[Mapping[str, Any]]] = None):
        self.name = name
        self.launch = launch
        self.kernels: List[Dict[str, Any]] = [dict(k) for k in (kernels or [])]
        self._path: Optional[str] = None

    def add(self, name: str, op: str, **params: Any) -> "Workload":
        """Appends a kernel (params as in a [[kernel]] entry: m, n, k, dtype, stream, after...)."""
        self.kernels.append({"name": name, "op": op, **params})
        self._path = None
        return self

    def to_toml(self) -> str:
        """The workload file text."""
        def value(v: Any) -> str:
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, (int, float)):
                return repr(v)
            if isinstance(v, (list, tuple)):
                return "[" + ", ".join(value(x) for x in v) + "]"
            return _json.dumps(str(v))
        lines = ["[workload]", f"name = {value(self.name)}", f"launch = {value(self.launch)}", ""]
        for k in self.kernels:
            lines.append("[[kernel]]")
            lines += [f"{key} = {value(v)}" for key, v in k.items()]
            lines.append("")
        return "\n".join(lines)

    def _file(self) -> str:
        if self._path is None or not _os.path.exists(self._path):
            fd, path = _tempfile.mkstemp(prefix=f"gpucast-{self.name}-", suffix=".toml")
            with _os.fdopen(fd, "w") as f:
                f.write(self.to_toml())
            self._path = path
        return self._path

    def __del__(self) -> None:
        if getattr(self, "_path", None) and _os.path.exists(self._path):
            try:
                _os.unlink(self._path)
            except OSError:
                pass


def _gpu_arg(gpu: Union[str, Sequence[str]]) -> str:
    return gpu if isinstance(gpu, str) else ",".join(gpu)


def gpus() -> "Results":
    """The catalog (``gpucast hw list``): one Result per GPU (``id``, ``name``, key figures)."""
    return _json_command(["hw", "list"])


def gpu(name: str, set: Optional[Mapping[str, Any]] = None) -> Result:
    """One GPU description (``gpucast hw show``), catalog id or .toml path, with ``set`` overrides."""
    return _json_command(["hw", "show", name] + _options({"set": set}))


def predict(gpu: Union[str, Sequence[str]], workload: Union[str, Workload, None] = None, *,
            model: Optional[str] = None, mode: Optional[str] = None, batch: Optional[int] = None,
            set: Optional[Mapping[str, Any]] = None, **options: Any) -> Union[Result, Results]:
    """Predicts a workload file, a :class:`Workload` or a model (preset name or model file).

    Other keywords are ``gpucast predict`` options (``context=4096``, ``layers=2``, ``launch="graph"``,
    ``html="report.html"``...). One GPU gives a :class:`Result` (``total_us``, ``kernels``,
    ``time_by_op_us``, ``time_by_bound_us``...), several (``gpu=["h100-sxm", "l40s"]``) a list.
    """
    args = ["predict", "--gpu", _gpu_arg(gpu)]
    args += _options({"workload": workload, "model": model, "mode": mode, "batch": batch, "set": set, **options})
    return _json_command(args)


def compare(gpus: Union[str, Sequence[str]], workload: Union[str, Workload, None] = None, *,
            model: Optional[str] = None, mode: Optional[str] = None, batch: Optional[int] = None,
            rank: Optional[str] = None, **options: Any) -> Result:
    """GPUs side by side (``gpucast compare``); ``gpus="all"`` for the whole catalog. ``.gpus`` in rank order."""
    args = ["compare", "--gpus", _gpu_arg(gpus)]
    args += _options({"workload": workload, "model": model, "mode": mode, "batch": batch, "rank": rank, **options})
    return _json_command(args)


def cost(gpu: Optional[str] = None, workload: Union[str, Workload, None] = None, *, model: Optional[str] = None,
         mode: Optional[str] = None, batch: Optional[int] = None, **options: Any) -> Result:
    """Owning against renting (``gpucast cost``): ``utilization=0.4``, ``years=3``, ``power_limit_w=350``..."""
    args = ["cost"] + (["--gpu", gpu] if gpu else [])
    args += _options({"workload": workload, "model": model, "mode": mode, "batch": batch, **options})
    return _json_command(args)


def sweep(gpu: str, vary: Union[Mapping[str, Any], Sequence[str]], workload: Union[str, Workload, None] = None, *,
          model: Optional[str] = None, mode: Optional[str] = None, **options: Any) -> Result:
    """A grid of what-ifs (``gpucast sweep``): ``vary={"memory.bandwidth_gbps": "2000:6000:1000", "batch": [1, 8]}``."""
    args = ["sweep", "--gpu", gpu]
    args += _options({"workload": workload, "model": model, "mode": mode, "vary": vary, **options})
    return _json_command(args)


def validate(gpu: str, measured: Optional[str] = None, *, workload: Optional[str] = None,
             offline: Optional[str] = None, **options: Any) -> Result:
    """Measured against predicted (``gpucast validate``): ``measured=`` a gpucast CSV/JSON or an Nsight Compute export."""
    args = ["validate", "--gpu", gpu]
    args += _options({"measured": measured, "workload": workload, "offline": offline, **options})
    return _json_command(args)


def explain(gpu: str, op: str, **params: Any) -> Result:
    """Every option the model weighed for one op (``gpucast explain``): ``explain("h100-sxm", "gemm", m=1, n=4096, k=4096)``."""
    return _json_command(["explain", "--gpu", gpu, op] + [f"{k}={v}" for k, v in params.items()])
