"""The host probe's tight loops, one home for their work (issue 14): each entry is one kind of host work
PyTorch does per call (an op, a module call, an autograd chain, a library call, a norm, a foreach
list, an optimizer step, a sync, a Triton launch), on tensors too small for the GPU to matter.

bench_single.py's section B1 times each in its own window (host_time: n calls, five repeats);
bench_infer_interleaved.py times them round-robin beside the forwards. calibration/host/host_profile.py
turns the medians into a host description (SPEED_ENTRIES: the ones whose geometric mean is a host's
speed).
"""
import gc
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import RMSNorm

def host_us(fn, n, calls_per_fn=1):
    """Host time per call (us) of n back-to-back calls of fn (each making calls_per_fn calls), the GPU
    idle before and waited for after; with Python's garbage collector off while they run when fn
    carries `without_gc = True` (bench_host_components.py)."""
    off = getattr(fn, "without_gc", False)
    torch.cuda.synchronize()
    if off:
        gc.disable()
    t = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    if off:
        gc.enable()
    torch.cuda.synchronize()
    return (t1 - t) / (n * calls_per_fn) * 1e6


def run_rounds(items, visit, seconds, min_rounds=3, seed=14, after_round=None):
    """Round-robin timing: visits every item once per round, in a fresh random order (a fixed seed),
    until `seconds` have passed and at least `min_rounds` rounds ran; returns the rounds run."""
    order = list(items)
    rng = random.Random(seed)
    start, rounds = time.time(), 0
    while time.time() - start < seconds or rounds < min_rounds:
        rng.shuffle(order)
        for item in order:
            visit(item)
        rounds += 1
        if after_round:
            after_round(rounds)
    return rounds


# Nodes of the autograd chain entries (c_*).
CHAIN_NODES = 100
# Tensors of the foreach and optimizer entries (g_*).
LIST_TENSORS = 100


def workloads(dev):
    """name -> (callable, calls per timing at full length). The callables share their tensors, as the
    probe always has; the optimizer entries each own their parameters."""
    x = torch.ones(1, device=dev)
    y = torch.ones(1, device=dev)
    z = torch.empty(1, device=dev)

    class AddMod(nn.Module):
        def forward(self, a, b):
            return torch.add(a, b, out=z)

    class Wrapped(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = AddMod()
            self.id = nn.Identity()

        def forward(self, a, b):
            return self.id(self.inner(a, b))

    m1, m2 = AddMod(), Wrapped()
    xg = torch.ones(1, device=dev, requires_grad=True)
    c = torch.full((1,), 1.0001, device=dev)

    def chain():
        h = xg
        for _ in range(CHAIN_NODES):
            h = h * c
        return h

    def chain_bwd():
        chain().backward()

    def chain_nograd():
        with torch.no_grad():
            chain()

    a = torch.randn(16, 16, device=dev)
    b = torch.randn(16, 16, device=dev)
    o = torch.empty(16, 16, device=dev)
    ab, bb = a.bfloat16(), b.bfloat16()
    lin = nn.Linear(16, 16, device=dev)
    q = torch.randn(1, 1, 16, 64, device=dev, dtype=torch.bfloat16)
    t = torch.randn(4, 64, device=dev)
    w = torch.ones(64, device=dev)
    rn = RMSNorm(64).to(dev)
    ts = [torch.zeros(4, device=dev) for _ in range(LIST_TENSORS)]
    ts1 = [torch.zeros(4, device=dev)]
    opts = {}
    for kind, kw in (("foreach", {"foreach": True}), ("fused", {"fused": True}), ("forloop", {"foreach": False})):
        ps = [nn.Parameter(torch.randn(4, device=dev)) for _ in range(LIST_TENSORS)]
        for p in ps:
            p.grad = torch.randn_like(p)
        opts[kind] = torch.optim.AdamW(ps, lr=1e-3, **kw)
    s1 = torch.ones(1, device=dev)
    W = {
        "a_add_out": (lambda: torch.add(x, y, out=z), 5000),
        "a_add_alloc": (lambda: torch.add(x, y), 5000),
        "a_mul_scalar_inplace": (lambda: z.mul_(1.0), 5000),
        "b_module_call_add_out": (lambda: m1(x, y), 5000),
        "b_nested_module_identity_add_out": (lambda: m2(x, y), 5000),
        "c_autograd_fwd_bwd_chain100": (chain_bwd, 50),
        "c_autograd_fwd_only_grad_chain100": (chain, 50),
        "c_fwd_nograd_chain100": (chain_nograd, 50),
        "d_mm16_fp32": (lambda: torch.mm(a, b), 5000),
        "d_mm16_fp32_out": (lambda: torch.mm(a, b, out=o), 5000),
        "d_mm16_bf16": (lambda: torch.mm(ab, bb), 5000),
        "d_nn_linear16_fp32": (lambda: lin(a), 5000),
        "e_sdpa_tiny_bf16": (lambda: F.scaled_dot_product_attention(q, q, q), 5000),
        "e_sdpa_tiny_bf16_causal": (lambda: F.scaled_dot_product_attention(q, q, q, is_causal=True), 5000),
        "f_layer_norm_tiny": (lambda: F.layer_norm(t, (64,), w, w), 5000),
        "f_rms_norm_tiny": (lambda: F.rms_norm(t, (64,), w), 5000),
        "f_rmsnorm_module_eager_tiny(6_ops)": (lambda: rn(t), 5000),
        "g_foreach_add_100": (lambda: torch._foreach_add_(ts, 1.0), 500),
        "g_foreach_add_1": (lambda: torch._foreach_add_(ts1, 1.0), 5000),
        "g_adamw_step_foreach_100params": (lambda: opts["foreach"].step(), 100),
        "g_adamw_step_fused_100params": (lambda: opts["fused"].step(), 100),
        "g_adamw_step_forloop_100params": (lambda: opts["forloop"].step(), 20),
        "h_item_idle": (lambda: s1.item(), 200),
    }
    try:
        import triton
        import triton.language as tl

        @triton.jit
        def _k(xp, n, BLOCK: tl.constexpr):
            off = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            m = off < n
            tl.store(xp + off, tl.load(xp + off, mask=m) + 1.0, mask=m)

        tx = torch.zeros(16, device=dev)
        _k[(1,)](tx, 16, BLOCK=16)
        W["j_triton_launch_tiny"] = (lambda: _k[(1,)](tx, 16, BLOCK=16), 5000)
    except Exception:  # Triton missing: the entry is skipped, as the probe always did
        pass
    return W


# Calls per visit when the entries are timed round-robin (bench_infer_interleaved.py,
# bench_train_interleaved.py): a few milliseconds each; the speed entries and the causal SDPA call.
ROUND_ROBIN_CALLS = {
    "a_add_out": 1000, "a_add_alloc": 1000, "a_mul_scalar_inplace": 1000, "b_module_call_add_out": 1000,
    "b_nested_module_identity_add_out": 1000, "c_fwd_nograd_chain100": 10, "c_autograd_fwd_only_grad_chain100": 10,
    "c_autograd_fwd_bwd_chain100": 5, "d_mm16_bf16": 500, "d_nn_linear16_fp32": 500, "e_sdpa_tiny_bf16": 300,
    "e_sdpa_tiny_bf16_causal": 300, "f_layer_norm_tiny": 500, "f_rms_norm_tiny": 500,
    "f_rmsnorm_module_eager_tiny(6_ops)": 200, "g_foreach_add_100": 200, "g_adamw_step_foreach_100params": 10,
    "g_adamw_step_fused_100params": 20, "h_item_idle": 200, "j_triton_launch_tiny": 500,
}


def round_robin_entries(dev):
    """name -> (callable, calls per visit) for the round-robin scripts."""
    W = workloads(dev)
    return {name: (W[name][0], n) for name, n in ROUND_ROBIN_CALLS.items() if name in W}
