"""The broad validation set (issue 17): about 1,200 kernels added after the first suite's 680.

Appended after the first suite's cases, so their ids (family-NNNN, NNNN = position) are unchanged.
What it adds, each a case gpucast expresses as an op (the C++ side predicts every one):
- every op family at sizes from tiny to huge, every dtype the op takes on Hopper;
- odd sizes: not multiples of 8, primes (cuBLAS and the vectorized kernels lose alignment);
- GEMM operand layouts (`variant` nn, nt, tn, tt: a linear layer's forward is nt, its data gradient nn,
  its weight gradient tn) and fp32 with TF32 off vs on;
- convolutions in fp32 (cuDNN's FMA kernels, TF32 off), tf32 and fp16, odd channel counts and stems;
- attention through every SDPA backend (`backend` = flash2, cudnn, efficient, math; auto left to
  PyTorch), forward and backward (`backward` = true, dQ dK dV through autograd), decode, GQA, fp16;
- reductions and softmax with very long rows (32K-256K columns, vocabulary sizes), few rows, odd
  column counts, fp32 / bf16 / fp16;
- layer / RMS norm forward and backward, embedding forward and backward (embedding_dense_backward).
Deterministic: its own seeded generator, independent of the first suite's.
"""
import math

PRIMES = (127, 251, 509, 1021, 2039, 4093, 8191, 12281)


def log_uniform(rng, lo, hi, multiple=1):
    v = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    return max(multiple, int(round(v / multiple)) * multiple)


def gemm_broad(c, rng):
    def add(m, n, k, dtype, layout="nn", batch=1):
        if dtype in ("fp32", "tf32") and m * n * k * max(1, batch) > 6e11:
            return
        if m * n * k * batch > 9e12:
            return
        p = {"m": m, "n": n, "k": k}
        if batch > 1:
            p["batch"] = batch
        p["dtype"] = dtype
        if dtype == "fp8":
            p["out_dtype"] = "bf16"
            layout = "nt"  # _scaled_mm takes row-major A and column-major B only
        expr = "torch._scaled_mm" if dtype == "fp8" else ("torch.bmm" if batch > 1 else "torch.matmul")
        c.add("gemm", "gemm", p, expr + " " + layout, "layout=" + layout)

    # Layouts of a linear layer: forward (nt), data gradient (nn), weight gradient (tn), and tt.
    shapes = [(4096, 4096, 4096), (2048, 11008, 4096), (8192, 4096, 14336), (4096, 14336, 8192),
              (1024, 1024, 1024), (16384, 4096, 1024), (512, 4096, 4096), (4096, 4096, 512), (128, 8192, 8192)]
    for m, n, k in shapes:
        for layout in ("nt", "tn", "tt", "nn"):
            add(m, n, k, "bf16", layout)
        add(m, n, k, rng.choice(("fp16", "tf32")), rng.choice(("nt", "tn")))
    # Linear-layer training triples for transformer widths: forward y = x W^T (nt), dgrad dx = dy W (nn),
    # wgrad dW = dy^T x (tn).
    for tokens in (256, 2048, 8192, 16384):
        for d_in, d_out in ((768, 3072), (3072, 768), (4096, 4096), (4096, 11008), (5120, 13824), (8192, 1024)):
            if rng.random() < 0.55:
                add(tokens, d_out, d_in, "bf16", "nt")
                add(tokens, d_in, d_out, "bf16", "nn")
                add(d_out, d_in, tokens, "bf16", "tn")
    # Odd sizes: primes and not-multiple-of-8 dimensions, every dtype.
    for dtype in ("bf16", "fp16", "fp32", "tf32"):
        for _ in range(14):
            m, n, k = rng.choice(PRIMES), rng.choice(PRIMES), rng.choice(PRIMES)
            add(m, n, k, dtype, rng.choice(("nn", "nt", "tn")))
        for _ in range(8):
            m, n, k = (log_uniform(rng, 17, 9000) | 1 for _ in range(3))
            add(m, n, k, dtype, "nn")
    # Tiny to huge squares in every dtype.
    for n in (64, 96, 200, 384, 768, 1536, 2500, 5000, 7168, 14336, 20480):
        add(n, n, n, "bf16", "nn")
    for n in (128, 768, 2000, 6000, 16384):
        add(n, n, n, "fp16", "nt")
        add(n, n, n, "tf32", "nn")
    for n in (128, 768, 3000, 6000):
        add(n, n, n, "fp32", "nn")
    for n in (256, 768, 2048, 6144 + 16, 16384, 20480):
        add(n, n, n, "fp8")
    for tokens in (1, 7, 33, 200, 1000, 3001):
        add(tokens, 8192, 8192, "fp8")
        add(tokens, 4096, 4096, "bf16", "nt")
        add(tokens, 4096, 4096, "fp32", "nt")
    # Skinny: decode-like GEMV shapes and tall-thin weight gradients.
    for m in (1, 2, 3, 5, 8, 16):
        add(m, 14336, 4096, "bf16", "nt")
        add(m, 4096, 14336, "fp16", "nt")
    for k in (64, 128, 256):
        add(8192, 8192, k, "bf16", "nn")
    # Batched in every dtype, transposed operands too (attention-like and MoE-like).
    for batch, m, n, k in [(32, 512, 512, 64), (16, 1024, 1024, 128), (64, 128, 128, 128), (8, 2048, 2048, 2048),
                           (256, 64, 64, 64), (12, 197, 197, 64), (40, 77, 77, 64), (4, 4096, 4096, 4096)]:
        add(m, n, k, "bf16", rng.choice(("nn", "nt", "tn")), batch)
        add(m, n, k, rng.choice(("fp16", "fp32", "tf32")), "nn", batch)
    for _ in range(40):
        mult = rng.choice((1, 8, 16, 64))
        m, n, k = (log_uniform(rng, 8, 16384, mult) for _ in range(3))
        add(m, n, k, rng.choice(("bf16", "bf16", "fp16", "tf32", "fp32", "fp8")),
            rng.choice(("nn", "nt", "tn", "tt")))


def attention_broad(c, rng):
    def add(b, h, hkv, sq, skv, d, causal, dtype="bf16", backend="auto", backward=False):
        flops = 4 * b * h * sq * skv * d * (0.5 if causal else 1) * (2.5 if backward else 1)
        if flops > 2e13 or b * h * max(sq, skv) * d * 2 > 4e9:
            return
        if backend == "math" and b * h * sq * skv * 4 > 2e9:
            return
        if causal and sq != skv:
            return
        p = {"batch": b, "heads": h}
        if hkv != h:
            p["kv_heads"] = hkv
        p.update({"seq_q": sq, "seq_kv": skv, "head_dim": d})
        if causal:
            p["causal"] = True
        p["dtype"] = dtype
        if backward:
            p["backward"] = True
        if backend != "auto":
            p["backend"] = backend
        family = "attention_bwd" if backward else "attention"
        c.add(family, "attention", p, "F.scaled_dot_product_attention" + (" backward" if backward else ""))

    # Every backend at one set of shapes, forward and backward.
    for backend in ("auto", "flash2", "cudnn", "efficient", "math"):
        for b, h, s, d in ((1, 16, 512, 64), (4, 32, 1024, 128), (2, 16, 4096, 128), (8, 12, 256, 64),
                           (1, 32, 8192, 128), (16, 16, 2048, 64)):
            for causal in (False, True):
                if rng.random() < 0.7:
                    add(b, h, h, s, s, d, causal, "bf16", backend)
                if rng.random() < 0.5:
                    add(b, h, h, s, s, d, causal, "bf16", backend, backward=True)
    # Backward at the forward suite's shapes (default backend).
    for d in (64, 128):
        for s in (256, 1024, 2048, 4096, 8192):
            for b, h in ((1, 16), (4, 32), (16, 16)):
                if rng.random() < 0.5:
                    add(b, h, h, s, s, d, rng.random() < 0.5, backward=True)
    # fp16, other head dims, odd sequence lengths.
    for d in (64, 80, 96, 128, 256):
        for s in (100, 333, 1000, 1999, 3001, 5000):
            if rng.random() < 0.45:
                h = rng.choice((8, 16, 32))
                add(rng.choice((1, 2, 8)), h, h, s, s, d, rng.random() < 0.5, rng.choice(("bf16", "fp16")))
    # Grouped-query attention, forward and backward.
    for b, h, hkv, s in [(1, 32, 8, 2048), (2, 32, 4, 4096), (4, 64, 8, 1024), (1, 40, 8, 3000)]:
        add(b, h, hkv, s, s, 128, True)
        add(b, h, hkv, s, s, 128, True, backward=True)
    # Decode and chunked prefill: few queries against a long cache.
    for b in (1, 4, 16, 128):
        for skv in (1000, 4096, 16384, 65536):
            for sq in (1, 4, 128):
                if rng.random() < 0.4:
                    add(b, 32, 8 if rng.random() < 0.5 else 32, sq, skv, 128, False, rng.choice(("bf16", "fp16")))
    # Cross attention (seq_q != seq_kv).
    for sq, skv in ((77, 4096), (4096, 77), (1024, 256), (256, 2048)):
        add(2, 8, 8, sq, skv, 64, False)
        add(2, 8, 8, sq, skv, 64, False, backend="efficient")


def conv_broad(c, rng):
    def add(n, cin, h, w, k, r, s, stride=1, pad=0, dtype="bf16"):
        if n * cin * h * w * 4 > 4e9 or n * k * h * w * 4 > 4e9:
            return
        if dtype in ("fp32",) and 2 * n * k * (h // stride) * (w // stride) * cin * r * s > 4e11:
            return
        p = {"n": n, "c": cin, "h": h, "w": w, "k": k, "r": r, "s": s}
        if stride != 1:
            p["stride"] = stride
        if pad:
            p["pad"] = pad
        p["dtype"] = dtype
        if dtype == "fp32":
            # Measured with torch.backends.cudnn.allow_tf32 off (suite.py make_conv): say so, as the op's
            # default follows PyTorch's (TF32 allowed).
            p["allow_tf32"] = False
        c.add("conv2d", "conv2d", p, "F.conv2d channels_last")

    layers = [(3, 224, 64, 7, 2, 3), (64, 56, 64, 3, 1, 1), (64, 56, 256, 1, 1, 0), (128, 28, 128, 3, 1, 1),
              (256, 14, 256, 3, 1, 1), (512, 7, 512, 3, 1, 1), (1024, 14, 256, 1, 1, 0), (3, 32, 64, 3, 1, 1),
              (320, 64, 320, 3, 1, 1), (32, 112, 32, 3, 1, 1), (96, 56, 24, 1, 1, 0), (3, 512, 32, 3, 2, 1)]
    for dtype in ("fp32", "tf32", "fp16", "bf16"):
        for n in (1, 8, 32):
            for cin, hw, k, r, stride, pad in layers:
                if rng.random() < (0.35 if dtype != "bf16" else 0.2):
                    add(n, cin, hw, hw, k, r, r, stride, pad, dtype)
    # Odd channel counts and spatial sizes.
    for _ in range(24):
        cin = rng.choice((3, 5, 13, 24, 50, 100, 129, 255))
        k = rng.choice((7, 16, 33, 64, 100, 257))
        hw = rng.choice((13, 31, 57, 99, 113))
        r = rng.choice((1, 3, 5))
        add(rng.choice((1, 4, 16)), cin, hw, hw, k, r, r, rng.choice((1, 2)), r // 2,
            rng.choice(("bf16", "fp16", "fp32", "tf32")))


def elementwise_broad(c, rng):
    kinds = [
        ("add", {"inputs": 2}, "a + b"),
        ("mul_scalar", {}, "a * 1.5"),
        ("gelu", {"flops_per_element": 10}, "F.gelu(a)"),
        ("silu", {"flops_per_element": 5}, "F.silu(a)"),
        ("cast_f32", {"out_dtype": "fp32"}, "a.to(torch.float32)"),
        ("addcmul", {"inputs": 3, "flops_per_element": 2}, "torch.addcmul(a, b, c)"),
        ("transpose", {"flops_per_element": 0, "contiguous": False, "transposed_inputs": 1}, "a2d.t().contiguous()"),
    ]
    sizes = [1, 3, 1000, 4099, 65537, 999983, 3 * 10 ** 6 + 1, 2 ** 24 + 3, 123456789]
    sizes += [log_uniform(rng, 10, 1e9) for _ in range(14)]
    for elements in sizes:
        for name, extra, expr in kinds:
            for dtype in ("bf16", "fp16", "fp32"):
                if name == "cast_f32" and dtype == "fp32":
                    continue
                if name == "transpose" and elements < 1024:
                    continue
                bytes_per = 2 if dtype != "fp32" else 4
                if elements * bytes_per * (extra.get("inputs", 1) + 1) > 8e9:
                    continue
                if rng.random() < 0.3:
                    p = {"elements": int(elements), "dtype": dtype}
                    p.update(extra)
                    if name == "transpose":
                        p["elements"] = transpose_elements(int(elements))
                    c.add("elementwise", "elementwise", p, expr)


def transpose_elements(n):
    """A transposed 2-D view's element count: rows x cols with rows = a power of two near sqrt(n)."""
    rows = 2 ** max(1, int(math.log2(max(4, n)) // 2))
    return rows * max(1, n // rows)


def row_broad(c, rng):
    # Sums over the last dimension: very long rows (vocabularies, 32K-256K), few rows, odd columns.
    long_cols = (32000, 32768, 50257, 65536, 100003, 128256, 131072, 151936, 262144)
    few_rows = (1, 2, 3, 4, 7, 8, 16, 33, 100, 132, 264, 1000)
    for dtype in ("fp32", "bf16", "fp16"):
        for rows in few_rows:
            for cols in long_cols:
                if rng.random() < 0.22:
                    c.add("reduce", "reduce", {"rows": rows, "cols": cols, "dtype": dtype}, "x.sum(dim=-1)")
        for _ in range(14):
            rows = log_uniform(rng, 1, 200000)
            cols = log_uniform(rng, 2, 300000)
            if 64 <= rows * cols <= 2 ** 29:
                c.add("reduce", "reduce", {"rows": rows, "cols": cols, "dtype": dtype}, "x.sum(dim=-1)")
        for rows, cols in ((4096, 4096), (16384, 1024), (65536, 128), (1000000, 7), (262144, 33), (2048, 8192)):
            c.add("reduce", "reduce", {"rows": rows, "cols": cols, "dtype": dtype}, "x.sum(dim=-1)")
    # Softmax: vocabulary-length rows (logits), attention-score rows, odd lengths, every dtype.
    for dtype in ("fp32", "bf16", "fp16"):
        for rows in (1, 2, 4, 8, 16, 64, 256, 1024, 4096):
            for cols in (32000, 50257, 128256, 151936):
                if rng.random() < 0.3 and rows * cols <= 2 ** 29:
                    c.add("softmax", "softmax", {"rows": rows, "cols": cols, "dtype": dtype}, "F.softmax(x, dim=-1)")
        for _ in range(16):
            rows = log_uniform(rng, 1, 500000)
            cols = log_uniform(rng, 8, 200000)
            if 64 <= rows * cols <= 2 ** 29:
                c.add("softmax", "softmax", {"rows": rows, "cols": cols, "dtype": dtype}, "F.softmax(x, dim=-1)")
        for rows, cols in ((65536, 77), (32768, 197), (16384, 1000), (8192, 1025), (4096, 3000), (1024, 10000),
                           (262144, 64), (512, 16384)):
            c.add("softmax", "softmax", {"rows": rows, "cols": cols, "dtype": dtype}, "F.softmax(x, dim=-1)")
    # Norms: odd widths, fp16, forward and backward.
    for op, expr in (("layernorm", "F.layer_norm(x, (h,), w, b)"), ("rmsnorm", "F.rms_norm(x, (h,), w)")):
        for dtype in ("bf16", "fp16", "fp32"):
            for rows in (1, 7, 100, 1000, 4096, 16384, 65536):
                for hidden in (64, 320, 1000, 2560, 3072, 4099, 5120, 7168, 16384):
                    if rows * hidden > 2 ** 29:
                        continue
                    if rng.random() < 0.12:
                        c.add(op, op, {"rows": rows, "hidden": hidden, "dtype": dtype}, expr)
                    if rng.random() < 0.22:
                        c.add(op + "_bwd", op, {"rows": rows, "hidden": hidden, "dtype": dtype, "backward": True},
                              expr + " backward")


def embedding_broad(c, rng):
    for vocab, dim in ((32000, 4096), (50257, 768), (128256, 4096), (151936, 3584), (30522, 1024), (1000, 100),
                       (50000, 333)):
        for tokens in (1, 7, 100, 1000, 4096, 16384, 65536):
            for dtype in ("bf16", "fp16", "fp32"):
                if tokens * dim * 4 > 4e9:
                    continue
                if rng.random() < 0.18:
                    c.add("embedding", "embedding", {"vocab": vocab, "dim": dim, "tokens": tokens, "dtype": dtype},
                          "F.embedding(idx, table)")
                if rng.random() < 0.18:
                    c.add("embedding_bwd", "embedding",
                          {"vocab": vocab, "dim": dim, "tokens": tokens, "dtype": dtype, "backward": True},
                          "F.embedding(idx, table) backward")


def copy_broad(c, rng):
    for b in (1, 3, 1000, 4099, 65537, 999983, 3 * 10 ** 6 + 1, 123456789, 1e9 + 7, 4e9):
        c.add("copy", "copy", {"bytes": float(b)}, "dst.copy_(src)")
    for b in (1000, 999983, 123456789, 1e9):
        c.add("copy", "copy", {"bytes": float(b), "kind": "h2d"}, "gpu.copy_(pinned, non_blocking=True)")
        c.add("copy", "copy", {"bytes": float(b), "kind": "d2h"}, "pinned.copy_(gpu, non_blocking=True)")


BUILDERS = [("gemm", gemm_broad), ("attention", attention_broad), ("conv2d", conv_broad),
            ("elementwise", elementwise_broad), ("rows", row_broad), ("embedding", embedding_broad),
            ("copy", copy_broad)]
