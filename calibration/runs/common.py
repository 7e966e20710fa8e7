"""Shared helpers for the gpucast calibration measurement scripts (run on the device machine).

Everything here must work on a bare device machine: torch only, no downloads.
"""
import datetime
import json
import os
import platform
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def sh(cmd, timeout=30):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=timeout).stdout
    except Exception as e:  # noqa
        return "ERR %r" % (e,)


def env_info(extra=None):
    info = {
        "date_utc": datetime.datetime.utcnow().isoformat() + "Z",
        "argv": sys.argv,
        "command_line": " ".join([sys.executable] + sys.argv),
        "python": sys.version,
        "platform": platform.platform(),
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        "hostname": platform.node(),
        "cpu_count_os": os.cpu_count(),
    }
    try:
        info["nccl"] = ".".join(str(v) for v in torch.cuda.nccl.version())
    except Exception as e:  # noqa
        info["nccl"] = "n/a %r" % (e,)
    try:
        import triton
        info["triton"] = triton.__version__
    except Exception:
        info["triton"] = None
    lscpu = sh("lscpu")
    info["lscpu"] = lscpu
    for line in lscpu.splitlines():
        if line.startswith("Model name:"):
            info["cpu_model"] = line.split(":", 1)[1].strip()
        if line.startswith("CPU(s):"):
            info["cpu_cores_lscpu"] = line.split(":", 1)[1].strip()
    info["nvidia_smi"] = sh("nvidia-smi")
    info["nvidia_smi_query"] = sh(
        "nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,"
        "clocks.sm,power.limit,pstate --format=csv")
    try:
        info["driver"] = sh("nvidia-smi --query-gpu=driver_version --format=csv,noheader").strip().splitlines()[0]
    except Exception:
        info["driver"] = None
    gpus = []
    for i in range(torch.cuda.device_count()):
        p = torch.cuda.get_device_properties(i)
        gpus.append({
            "index": i, "name": p.name, "sm_count": p.multi_processor_count,
            "total_memory_bytes": p.total_memory, "cc": "%d.%d" % (p.major, p.minor),
            "l2_cache_bytes": getattr(p, "L2_cache_size", None),
        })
    info["gpus"] = gpus
    try:
        info["meminfo_head"] = sh("head -3 /proc/meminfo")
    except Exception:
        pass
    if extra:
        info.update(extra)
    return info


class Results:
    """Incrementally-written JSON results file."""

    def __init__(self, path, info):
        self.path = path
        self.data = {"env": info, "results": {}, "errors": [], "skipped": [], "notes": []}
        self.flush()

    def put(self, section, key, value):
        self.data["results"].setdefault(section, {})[key] = value
        self.flush()

    def err(self, what, e):
        import traceback
        msg = {"what": what, "error": repr(e), "tb": traceback.format_exc()[-2000:]}
        print("ERROR", what, repr(e)[:300], flush=True)
        self.data["errors"].append(msg)
        self.flush()

    def skip(self, what, why):
        print("SKIP", what, why, flush=True)
        self.data["skipped"].append({"what": what, "why": why})
        self.flush()

    def note(self, s):
        self.data["notes"].append(s)
        self.flush()

    def flush(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=1, default=str)
        os.replace(tmp, self.path)


def stats(samples):
    s = sorted(samples)
    n = len(s)
    if n == 0:
        return {}
    med = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    return {"median": med, "min": s[0], "max": s[-1], "mean": sum(s) / n, "n": n}


def event_times_us(fn, prepare, reps):
    """`fn` timed alone by CUDA events `reps` times, `prepare()` (an L2 flush, a clean read) run before
    each outside the timed span; the times in us, in run order."""
    times = []
    for _ in range(reps):
        prepare()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e) * 1000)
    return times


def capture_graph(fn, copies=1, warmup=3):
    """A CUDA graph of `copies` calls of fn, captured the way PyTorch asks (warm-up calls on a side
    stream first); returns (graph, the last captured call's output, kept alive for the replays)."""
    st = torch.cuda.Stream()
    st.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(st):
        for _ in range(warmup):
            fn()
    torch.cuda.current_stream().wait_stream(st)
    g = torch.cuda.CUDAGraph()
    out = None
    with torch.cuda.graph(g):
        for _ in range(copies):
            out = fn()
    return g, out


def train_step(model, opt, x, y, amp, autocast_dtype=torch.bfloat16):
    """One eager training step as the bench scripts run it: the loss (under autocast to autocast_dtype
    with amp), backward, the optimizer step, zero_grad(set_to_none=True)."""
    if amp:
        with torch.autocast("cuda", dtype=autocast_dtype):
            loss = model(x, y)
    else:
        loss = model(x, y)
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    return loss


def round_robin_results(out, seconds):
    """The results file of a round-robin script (bench_infer_interleaved.py, bench_train_interleaved.py):
    OUT/results.json with the method noted, TF32 off for every matmul."""
    os.makedirs(out, exist_ok=True)
    torch.backends.cuda.matmul.allow_tf32 = False
    r = Results(os.path.join(out, "results.json"), env_info({"seconds": seconds, "method": "interleaved"}))
    r.note("one process, never profiled; every item visited once per round in a random order (seed 14); "
           "figures are medians over all rounds")
    return r


def elapsed_log():
    """print() with the seconds since this call in front, flushed (the bench scripts' log)."""
    t0 = time.time()

    def log(*a):
        print("[%6.1fs]" % (time.time() - t0), *a, flush=True)
    return log


def wall_samples(fn, warmup, iters):
    """Wall-clock milliseconds of `iters` calls of fn after `warmup`, the GPU synchronized around each."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(iters):
        torch.cuda.synchronize()
        t = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        out.append((time.perf_counter() - t) * 1e3)
    return out


class SmiSampler:
    """nvidia-smi sampling the SM clock, memory clock, power and temperature (plus `extra` columns)
    every `period_ms` into `path` (CSV) while the GPU runs; stop() returns the samples as lists of
    strings, the timestamp first (bench_clocks.py, bench_power.py)."""
    COLUMNS = "timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu"

    def __init__(self, path, extra="", period_ms=20):
        self.path = path
        self.columns = self.COLUMNS + ("," + extra if extra else "")
        self._out = open(path, "w")
        self._proc = subprocess.Popen(["nvidia-smi", "--query-gpu=" + self.columns, "--format=csv,noheader,nounits",
                                       "-lms", str(period_ms)], stdout=self._out, stderr=subprocess.DEVNULL)

    def stop(self):
        self._proc.terminate()
        self._proc.wait()
        self._out.close()
        return [[x.strip() for x in line.split(",")] for line in open(self.path) if line.count(",") >= 4]


def smi_epoch(timestamp):
    """Seconds since the epoch of an nvidia-smi timestamp (the device machines keep UTC)."""
    return datetime.datetime.strptime(timestamp, "%Y/%m/%d %H:%M:%S.%f").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def loop_for(fns, seconds, sync_every):
    """Calls fns in turn, over and over, for `seconds` of wall time, synchronizing the GPU every
    `sync_every` rounds so the host stays a bounded distance ahead; returns the rounds run."""
    start = time.time()
    n = 0
    while time.time() - start < seconds:
        for f in fns:
            f()
        n += 1
        if n % sync_every == 0:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    return n


# ----------------------------------------------------------------------------------------------
# Llama-style decoder (HF-Llama-like eager implementation)
# ----------------------------------------------------------------------------------------------

class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        dt = x.dtype
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(dt)


def rope_cache(seq, head_dim, device, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, device=device, dtype=torch.float32) / head_dim))
    t = torch.arange(seq, device=device, dtype=torch.float32)
    fr = torch.outer(t, inv)
    emb = torch.cat([fr, fr], dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(q, k, cos, sin):
    # q,k: [b, h, s, d]; cos/sin: [s, d]
    cos = cos.to(q.dtype)[None, None]
    sin = sin.to(q.dtype)[None, None]
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


class Attention(nn.Module):
    def __init__(self, d, nh, nkv):
        super().__init__()
        self.nh, self.nkv, self.hd = nh, nkv, d // nh
        self.q_proj = nn.Linear(d, nh * self.hd, bias=False)
        self.k_proj = nn.Linear(d, nkv * self.hd, bias=False)
        self.v_proj = nn.Linear(d, nkv * self.hd, bias=False)
        self.o_proj = nn.Linear(nh * self.hd, d, bias=False)

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.nh, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.nkv, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.nkv, self.hd).transpose(1, 2)
        q, k = apply_rope(q, k, cos[:s], sin[:s])
        if self.nkv != self.nh:  # HF repeat_kv
            rep = self.nh // self.nkv
            k = k[:, :, None].expand(b, self.nkv, rep, s, self.hd).reshape(b, self.nh, s, self.hd)
            v = v[:, :, None].expand(b, self.nkv, rep, s, self.hd).reshape(b, self.nh, s, self.hd)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        o = o.transpose(1, 2).reshape(b, s, self.nh * self.hd)
        return self.o_proj(o)


class MLP(nn.Module):
    def __init__(self, d, ffn):
        super().__init__()
        self.gate_proj = nn.Linear(d, ffn, bias=False)
        self.up_proj = nn.Linear(d, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, d, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Block(nn.Module):
    def __init__(self, d, nh, nkv, ffn):
        super().__init__()
        self.input_layernorm = RMSNorm(d)
        self.self_attn = Attention(d, nh, nkv)
        self.post_attention_layernorm = RMSNorm(d)
        self.mlp = MLP(d, ffn)

    def forward(self, x, cos, sin):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin)
        x = x + self.mlp(self.post_attention_layernorm(x))
        return x


class Llama(nn.Module):
    def __init__(self, d, layers, nh, nkv, ffn, vocab=32000, max_seq=4096, tie=False):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Block(d, nh, nkv, ffn) for _ in range(layers)])
        self.norm = RMSNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        if tie:
            self.lm_head.weight = self.embed_tokens.weight
        cos, sin = rope_cache(max_seq, d // nh, self.embed_tokens.weight.device)
        self.register_buffer("rope_cos", cos, persistent=False)
        self.register_buffer("rope_sin", sin, persistent=False)

    def forward(self, idx, targets=None):
        x = self.embed_tokens(idx)
        for blk in self.layers:
            x = blk(x, self.rope_cos, self.rope_sin)
        x = self.norm(x)
        logits = self.lm_head(x)
        if targets is None:
            return logits
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


# name -> (d, layers, heads, kv_heads, ffn)
LLAMA_CFGS = {
    "125m": (768, 12, 12, 12, 2048),
    "350m": (1024, 24, 16, 16, 2816),
    "1b": (2048, 16, 16, 8, 5632),
    "3b": (3072, 26, 24, 8, 8192),
}


def build_llama(name, dtype=torch.float32, layers=None, max_seq=4096):
    d, L, nh, nkv, ffn = LLAMA_CFGS[name]
    if layers is not None:
        L = layers
    with torch.device("cuda"):
        m = Llama(d, L, nh, nkv, ffn, max_seq=max_seq)
    m = m.to(dtype)
    # rope tables stay fp32 (they are cast per use)
    m.rope_cos = m.rope_cos.float()
    m.rope_sin = m.rope_sin.float()
    nparams = sum(p.numel() for p in m.parameters())
    return m, nparams


def free_cuda():
    import gc
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()


# ----------------------------------------------------------------------------------------------
# GPT-2-style decoder (HF-GPT2-like eager implementation)
# ----------------------------------------------------------------------------------------------

class GPTAttention(nn.Module):
    def __init__(self, d, nh):
        super().__init__()
        self.nh, self.hd = nh, d // nh
        self.c_attn = nn.Linear(d, 3 * d)  # fused QKV with bias (HF's Conv1D is an addmm too)
        self.c_proj = nn.Linear(d, d)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=2)
        q = q.view(b, s, self.nh, self.hd).transpose(1, 2)
        k = k.view(b, s, self.nh, self.hd).transpose(1, 2)
        v = v.view(b, s, self.nh, self.hd).transpose(1, 2)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(o.transpose(1, 2).reshape(b, s, d))


class GPTBlock(nn.Module):
    def __init__(self, d, nh):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = GPTAttention(d, nh)
        self.ln_2 = nn.LayerNorm(d)
        self.c_fc = nn.Linear(d, 4 * d)
        self.act = nn.GELU(approximate="tanh")  # GPT-2's gelu_new
        self.c_proj = nn.Linear(4 * d, d)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.c_proj(self.act(self.c_fc(self.ln_2(x))))


class GPT(nn.Module):
    """GPT-2: learned absolute positions, LayerNorm, GELU MLP, biases, lm_head tied to the token
    embedding, no dropout (p=0: no dropout kernels)."""

    def __init__(self, d, layers, nh, vocab=50257, max_seq=1024):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_seq, d)
        self.h = nn.ModuleList([GPTBlock(d, nh) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, idx, targets=None):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for blk in self.h:
            x = blk(x)
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


# name -> (d, layers, heads): GPT-2 small, medium, large, XL; vocab 50257, 1024 positions
GPT_CFGS = {
    "gpt124m": (768, 12, 12),
    "gpt355m": (1024, 24, 16),
    "gpt774m": (1280, 36, 20),
    "gpt1.5b": (1600, 48, 25),
}
GPT_VOCAB = 50257


def build_gpt(name, dtype=torch.float32, layers=None, max_seq=1024):
    d, L, nh = GPT_CFGS[name]
    if layers is not None:
        L = layers
    with torch.device("cuda"):
        m = GPT(d, L, nh, vocab=GPT_VOCAB, max_seq=max_seq)
    m = m.to(dtype)
    nparams = sum(p.numel() for p in m.parameters())  # the tied weight counted once
    return m, nparams
