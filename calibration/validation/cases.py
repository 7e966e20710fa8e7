"""Validation cases: real kernels of every op family at sizes from tiny to large.

Each case is an op with the exact parameters of gpucast's workload format, so `gpucast validate`
predicts it with the same code path as `gpucast predict`. Cases are generated deterministically
(fixed shapes plus seeded random sizes) and split by a stable hash of their id into a `dev` half
(looked at while building the models) and a `test` half (reported, never looked at for tuning).
None of these shapes is a calibration shape (calibration GEMMs are square 6144, 8192, 10240).
"""
import math
import random
import zlib

CALIBRATION_SQUARES = {6144, 8192, 10240}


def split_of(case_id):
    """The fixed hash rule: CRC32 of the case id. Odd -> test (the same test half as the first 680-case
    suite); a multiple of 4 -> calibration; 2 mod 4 -> dev. Cases of the first suite that were dev
    are now calibration or dev, never test."""
    h = zlib.crc32(case_id.encode())
    if h % 2 == 1:
        return "test"
    return "calibration" if h % 4 == 0 else "dev"


def log_uniform(rng, lo, hi, multiple=1):
    v = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    return max(multiple, int(round(v / multiple)) * multiple)


class Cases:
    def __init__(self):
        self.items = []
        self.ids = set()

    def add(self, family, op, params, torch_expr, variant=None):
        """`variant` (outside the op's parameters) says how PyTorch is called when the op alone does not:
        a GEMM's operand layout, an attention backend, a backward pass run through autograd."""
        key = family + ":" + op + ":" + ",".join(f"{k}={v}" for k, v in params.items())
        if variant:
            key += ":" + variant
        if key in self.ids:
            return
        self.ids.add(key)
        case_id = f"{family}-{len(self.items):04d}"
        item = {"id": case_id, "family": family, "op": op, "params": dict(params), "torch": torch_expr}
        if variant:
            item["variant"] = variant
        self.items.append(item)


def gemm_cases(c, rng):
    def add(m, n, k, dtype, batch=1):
        if m == n == k and m in CALIBRATION_SQUARES:
            return
        p = {"m": m, "n": n, "k": k}
        if batch > 1:
            p["batch"] = batch
        p["dtype"] = dtype
        if dtype == "fp8":
            p["out_dtype"] = "bf16"
        c.add("gemm", "gemm", p, "torch._scaled_mm" if dtype == "fp8" else ("torch.bmm" if batch > 1 else "torch.matmul"))

    for n in (128, 256, 512, 1024, 2048, 3072, 4096, 12288, 16384):
        add(n, n, n, "bf16")
    for n in (256, 1024, 4096, 12288):
        add(n, n, n, "fp16")
    for n in (512, 1024, 2048, 4096):
        add(n, n, n, "fp32")
        add(n, n, n, "tf32")
    for n in (512, 1024, 2048, 4096, 12288, 16384):
        add(n, n, n, "fp8")
    # LLM-shaped (tokens x (out, in)): Llama-2-7B, Llama-3-8B, 70B projections and an LM head.
    llm = [(4096, 4096), (12288, 4096), (22016, 4096), (4096, 11008), (6144, 4096), (28672, 4096), (4096, 14336),
           (10240, 8192), (8192, 28672), (32000, 4096)]
    for tokens in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192):
        for n, k in llm:
            if rng.random() < 0.45:
                add(tokens, n, k, "bf16")
    for tokens in (1, 16, 128, 1024, 4096):
        add(tokens, 4096, 4096, "fp16")
        add(tokens, 14336, 4096, "fp8")
        add(tokens, 4096, 4096, "fp32")
    # Batched (attention-like and MoE-like).
    for batch, m, n, k in [(8, 512, 512, 64), (32, 2048, 2048, 128), (64, 1024, 64, 1024), (128, 256, 256, 64),
                           (16, 4096, 4096, 128), (8, 1024, 4096, 1024), (4, 8192, 1024, 2048), (96, 512, 128, 512)]:
        add(m, n, k, "bf16", batch)
    for batch, m, n, k in [(16, 1024, 1024, 1024), (64, 512, 512, 512)]:
        add(m, n, k, "fp32", batch)
        add(m, n, k, "fp16", batch)
    # Random shapes, log-uniform, mostly 16-aligned, some only 8-aligned.
    for dtype, count in (("bf16", 40), ("fp16", 10), ("fp32", 12), ("tf32", 12), ("fp8", 14)):
        for _ in range(count):
            mult = 16 if dtype == "fp8" else rng.choice((8, 16, 64))
            m, n, k = (log_uniform(rng, 16, 12288, mult) for _ in range(3))
            while m * n * k > 4e11 if dtype in ("fp32", "tf32") else m * n * k > 2.5e12:
                m, n, k = max(mult, m // 2), max(mult, n // 2), k
            add(m, n, k, dtype)


def attention_cases(c, rng):
    def add(b, h, hkv, sq, skv, d, causal):
        flops = 4 * b * h * sq * skv * d * (0.5 if causal else 1)
        if flops > 2e13 or b * h * max(sq, skv) * d * 2 > 6e9:
            return
        p = {"batch": b, "heads": h}
        if hkv != h:
            p["kv_heads"] = hkv
        p.update({"seq_q": sq, "seq_kv": skv, "head_dim": d})
        if causal:
            p["causal"] = True
        p["dtype"] = "bf16"
        c.add("attention", "attention", p, "F.scaled_dot_product_attention")

    for d in (64, 128):
        for s in (128, 256, 512, 1024, 2048, 4096, 8192, 16384):
            for b, h in ((1, 16), (4, 32), (16, 16)):
                for causal in (False, True):
                    if rng.random() < 0.5:
                        add(b, h, h, s, s, d, causal)
    for b, h, hkv, s in [(1, 32, 8, 4096), (4, 32, 8, 2048), (2, 64, 8, 8192), (8, 32, 4, 1024), (1, 64, 8, 16384)]:
        add(b, h, hkv, s, s, 128, True)
        add(b, h, hkv, s, s, 128, False)
    # Decode: one query token against a KV cache.
    for b in (1, 8, 32, 64):
        for skv in (512, 2048, 8192, 32768):
            add(b, 32, 32, 1, skv, 128, False)
            add(b, 32, 8, 1, skv, 128, False)
    for _ in range(16):
        d = rng.choice((64, 128))
        s = log_uniform(rng, 128, 8192, 64)
        add(rng.choice((1, 2, 4, 8)), 16, 16, s, s, d, rng.random() < 0.5)


def conv_cases(c, rng):
    def add(n, cin, h, w, k, r, s, stride=1, pad=0):
        p = {"n": n, "c": cin, "h": h, "w": w, "k": k, "r": r, "s": s}
        if stride != 1:
            p["stride"] = stride
        if pad:
            p["pad"] = pad
        p["dtype"] = "bf16"
        c.add("conv2d", "conv2d", p, "F.conv2d channels_last")

    resnet = [(3, 224, 64, 7, 2, 3), (64, 56, 64, 1, 1, 0), (64, 56, 64, 3, 1, 1), (64, 56, 256, 1, 1, 0),
              (256, 56, 64, 1, 1, 0), (256, 56, 128, 1, 1, 0), (128, 56, 128, 3, 2, 1), (128, 28, 512, 1, 1, 0),
              (512, 28, 128, 1, 1, 0), (128, 28, 128, 3, 1, 1), (512, 28, 256, 1, 1, 0), (256, 14, 256, 3, 1, 1),
              (256, 14, 1024, 1, 1, 0), (1024, 14, 256, 1, 1, 0), (1024, 14, 512, 1, 1, 0), (512, 7, 512, 3, 1, 1),
              (512, 7, 2048, 1, 1, 0), (2048, 7, 512, 1, 1, 0)]
    for n in (1, 8, 32, 128):
        for cin, hw, k, r, stride, pad in resnet:
            if n in (32,) or rng.random() < 0.4:
                add(n, cin, hw, hw, k, r, r, stride, pad)
    # Stable-Diffusion-style 3x3 convolutions.
    for n in (1, 2, 8):
        for cin, hw in ((320, 64), (640, 32), (1280, 16), (1280, 8)):
            add(n, cin, hw, hw, cin, 3, 3, 1, 1)
    for _ in range(12):
        cin = rng.choice((32, 64, 96, 128, 192, 256, 384, 512))
        hw = rng.choice((7, 14, 28, 56, 112))
        add(rng.choice((1, 4, 16, 64)), cin, hw, hw, rng.choice((64, 128, 256, 512)), rng.choice((1, 3)),
            rng.choice((1, 3)), 1, 0)


def elementwise_cases(c, rng):
    kinds = [
        ("add", {"inputs": 2}, "a + b"),
        ("mul_scalar", {}, "a * 1.5"),
        ("gelu", {"flops_per_element": 10}, "F.gelu(a)"),
        ("cast_f32", {"out_dtype": "fp32"}, "a.to(torch.float32)"),
        ("addcmul", {"inputs": 3, "flops_per_element": 2}, "torch.addcmul(a, b, c)"),
    ]
    sizes = [2 ** e for e in range(10, 31, 2)] + [log_uniform(rng, 1000, 5e8) for _ in range(10)]
    for elements in sizes:
        for name, extra, expr in kinds:
            for dtype in ("bf16", "fp32"):
                if name == "cast_f32" and dtype == "fp32":
                    continue
                bytes_per = 2 if dtype == "bf16" else 4
                if elements * bytes_per * (extra.get("inputs", 1) + 1) > 8e9:
                    continue
                if rng.random() < 0.55 or elements in (2 ** 20, 2 ** 26):
                    p = {"elements": int(elements), "dtype": dtype}
                    for k2, v in extra.items():
                        p[k2] = v
                    c.add("elementwise", "elementwise", p, expr)


def row_cases(c, rng):
    for rows in (1, 8, 64, 512, 4096, 32768):
        for cols in (64, 512, 4096, 32768, 262144, 1048576):
            if rows * cols > 2 ** 30 or rows * cols < 256:
                continue
            for dtype in ("fp32", "bf16"):
                if rng.random() < 0.6:
                    c.add("reduce", "reduce", {"rows": rows, "cols": cols, "dtype": dtype}, "x.sum(dim=-1)")
    for rows in (1, 64, 1024, 8192, 65536):
        for cols in (128, 512, 1024, 2048, 4096, 8192, 32768, 131072):
            if rows * cols > 2 ** 30:
                continue
            for dtype in ("fp32", "bf16"):
                if rng.random() < 0.5:
                    c.add("softmax", "softmax", {"rows": rows, "cols": cols, "dtype": dtype}, "F.softmax(x, dim=-1)")
    for op, expr in (("layernorm", "F.layer_norm(x, (h,), w, b)"), ("rmsnorm", "F.rms_norm(x, (h,), w)")):
        for rows in (1, 16, 256, 2048, 8192, 32768):
            for hidden in (768, 1024, 2048, 4096, 8192, 12288):
                for dtype in ("bf16", "fp32"):
                    if rng.random() < 0.45:
                        c.add(op, op, {"rows": rows, "hidden": hidden, "dtype": dtype}, expr)


def embedding_cases(c, rng):
    for vocab, dim in ((32000, 4096), (50257, 768), (128256, 4096), (32000, 8192), (50257, 2048)):
        for tokens in (1, 16, 128, 1024, 8192, 32768):
            for dtype in ("bf16", "fp32"):
                if rng.random() < 0.55:
                    c.add("embedding", "embedding", {"vocab": vocab, "dim": dim, "tokens": tokens, "dtype": dtype},
                          "F.embedding(idx, table)")


def _add_pinned_copy(c, size, kind):
    """A pinned host<->device copy of `size` bytes, `kind` h2d or d2h, as suite.py times it."""
    expr = "gpu.copy_(pinned, non_blocking=True)" if kind == "h2d" else "pinned.copy_(gpu, non_blocking=True)"
    c.add("copy", "copy", {"bytes": float(size), "kind": kind}, expr)


def copy_cases(c, rng):
    for e in range(12, 32, 2):
        c.add("copy", "copy", {"bytes": float(2 ** e)}, "dst.copy_(src)")
    for e in range(12, 31, 3):
        _add_pinned_copy(c, 2 ** e, "h2d")
        _add_pinned_copy(c, 2 ** e, "d2h")
    for _ in range(4):
        c.add("copy", "copy", {"bytes": float(log_uniform(rng, 1e4, 1e9, 256))}, "dst.copy_(src)")


def all_cases(seed=20261122, families=None, broad=True):
    """The first suite's 680 cases (ids unchanged), then, with `broad`, the broad set of cases_broad.py."""
    rng = random.Random(seed)
    c = Cases()
    builders = [("gemm", gemm_cases), ("attention", attention_cases), ("conv2d", conv_cases),
                ("elementwise", elementwise_cases), ("rows", row_cases), ("embedding", embedding_cases),
                ("copy", copy_cases)]
    for name, build in builders:
        build(c, rng)
    if broad:
        import cases_broad  # noqa: E402  (beside this file)
        rng_broad = random.Random(seed + 17)
        for name, build in cases_broad.BUILDERS:
            build(c, rng_broad)
    out = []
    for case in c.items:
        if families and case["family"] not in families:
            continue
        case["set"] = split_of(case["id"])
        out.append(case)
    return out


def case_key(case):
    """What makes two cases the same kernel call: family, op, parameters and variant."""
    return (case["family"], case["op"], tuple(sorted(case["params"].items())), case.get("variant"))


def heldout_cases(seed, families=None):
    """A held-out set for measuring after the models are built: the broad set's builders run with
    another seed, and every case whose call the suite already has (the builders' fixed shapes) dropped,
    so each remaining case is a shape no model was developed on. Ids are held-<family>-NNNN and every
    case is in the test split: nothing here is for tuning."""
    import cases_broad  # noqa: E402  (beside this file)
    seen = {case_key(c) for c in all_cases()}
    c = Cases()
    rng = random.Random(seed)
    for name, build in cases_broad.BUILDERS:
        build(c, rng)
    out = []
    for case in c.items:
        if case_key(case) in seen or (families and case["family"] not in families):
            continue
        case = dict(case, id="held-" + case["id"], set="test")
        out.append(case)
    return out


# The held-out set's seed (issue 17, measured 2026-11-26): a tuning set must never share its shapes.
HELDOUT_SEED = 20261126


def tuning_cases(seed, families=None):
    """A second tuning set, for mechanisms the broad set's dev split rarely reaches (the libraries'
    fallback kernels at odd sizes): the broad builders with another seed, every shape the suite or
    the held-out set (HELDOUT_SEED) already has dropped. Ids are tune-<family>-NNNN and every case is
    in the dev split: tune on these, and keep reporting the test split and the held-out set."""
    if seed == HELDOUT_SEED:
        raise ValueError(f"tuning seed {seed} is the held-out set's seed")
    seen = {case_key(c) for c in all_cases()}
    seen |= {case_key(c) for c in heldout_cases(HELDOUT_SEED)}
    c = Cases()
    rng = random.Random(seed)
    for name, build in _broad_builders():
        build(c, rng)
    out = []
    for case in c.items:
        if case_key(case) in seen or (families and case["family"] not in families):
            continue
        seen.add(case_key(case))
        out.append(dict(case, id="tune-" + case["id"], set="dev"))
    return out


# Probe sets (2026-11-28): small targeted dev sets for one mechanism each, named here so that a later
# session measures the same cases. Every case is dev; shapes the suite, the held-out set or a tuning
# set already has are dropped. Ids are probe-<family>-NNNN.
def _skinny_fp32_gemms(c):
    """cuBLAS's skinny-M fp32 kernels (gemmSN, gemv) against its split-K SIMT tiles: M from 1 to 48
    rows over weight matrices from 0.6 to 180 MB, in the two layouts a linear layer's forward (nt)
    and data gradient (nn) use."""
    for m in (1, 2, 3, 4, 6, 8, 11, 16, 24, 32, 48):
        for n, k in ((4096, 4096), (1024, 4096), (4096, 1024), (11008, 4096), (4096, 11008), (768, 768),
                     (2048, 2048), (8192, 5120), (1000, 2048)):
            for layout in ("nt", "nn"):
                p = {"m": m, "n": n, "k": k, "dtype": "fp32"}
                c.add("gemm", "gemm", p, "torch.matmul " + layout, "layout=" + layout)


def _small_copies(c):
    """Host-to-device and device-to-host copies of 64 B to 256 KB (pinned, non-blocking): where the
    driver stops sending a copy through its command stream and starts the DMA engine."""
    for size in (64, 256, 512, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384, 32768, 65536, 131072, 262144):
        for kind in ("h2d", "d2h"):
            _add_pinned_copy(c, size, kind)


def _fp32_convs(c):
    """FP32 convolutions with TF32 off: where cuDNN runs its direct NHWC FMA kernel and where it
    transposes to NCHW for its implicit GEMM, by channels, batch, image size and filter."""
    for ch in (8, 16, 24, 32, 48, 64, 96):
        for n in (1, 4, 16):
            for hw in (28, 56, 112):
                for r, pad in ((1, 0), (3, 1)):
                    p = {"n": n, "c": ch, "h": hw, "w": hw, "k": 64, "r": r, "s": r}
                    if pad:
                        p["pad"] = pad
                    p.update({"dtype": "fp32", "allow_tf32": False})
                    c.add("conv2d", "conv2d", p, "F.conv2d channels_last")


def _add_padded_conv(c, dtype, n, ch, hw, k, r, stride):
    """One square convolution with "same" padding (r // 2), as the padding-path probes write it."""
    p = {"n": n, "c": ch, "h": hw, "w": hw, "k": k, "r": r, "s": r}
    if stride != 1:
        p["stride"] = stride
    p["pad"] = r // 2
    p["dtype"] = dtype
    c.add("conv2d", "conv2d", p, "F.conv2d channels_last")


def _fp32_pointwise_convs(c):
    """FP32 1x1 convolutions with TF32 off (2026-11-28): whether the output channels (unaligned 33 and
    100 against 16, 64 and 128) move cuDNN between its direct NHWC kernel and the NCHW implicit GEMM,
    at the image sizes where fp32-conv saw the switch."""
    for ch in (24, 48):
        for k in (16, 33, 64, 100, 128):
            for n, hw in ((1, 56), (4, 56), (16, 28), (1, 113), (16, 113)):
                p = {"n": n, "c": ch, "h": hw, "w": hw, "k": k, "r": 1, "s": 1, "dtype": "fp32", "allow_tf32": False}
                c.add("conv2d", "conv2d", p, "F.conv2d channels_last")


def _fp32_direct_k(c):
    """cuDNN's direct NHWC FP32 kernel by output channels (2026-11-28): 1x1 over 16 x 113 x 113 images
    (an odd pixel count: always the direct kernel) at 24 and 48 channels, k from 64 to 128 in steps of
    4, and 3x3 over 16 x 56 x 56 at 8 channels, where k = 100 ran 1.2-1.7x k = 128 in the pointwise
    probe."""
    for ch in (24, 48):
        for k in range(64, 129, 4):
            c.add("conv2d", "conv2d", {"n": 16, "c": ch, "h": 113, "w": 113, "k": k, "r": 1, "s": 1, "dtype": "fp32",
                                       "allow_tf32": False}, "F.conv2d channels_last")
    for k in (64, 68, 72, 80, 96, 100, 112, 128):
        c.add("conv2d", "conv2d", {"n": 16, "c": 8, "h": 56, "w": 56, "k": k, "r": 3, "s": 3, "pad": 1, "dtype": "fp32",
                                   "allow_tf32": False}, "F.conv2d channels_last")


def _padded_convs(c):
    """Tensor-core convolutions whose channels are not whole 16-byte vectors (2026-11-28), which cuDNN
    runs through its padding path (Memset + nhwcAddPaddingKernel): by type, input and output channels,
    filter and stride, on a small and a medium image, to see which ones cost time beyond their kernels."""
    for dtype in ("fp16", "bf16", "tf32"):
        for ch in (50, 100):
            for k in (16, 33):
                for r, stride in ((3, 1), (5, 2)):
                    for n, hw in ((1, 31), (4, 57)):
                        _add_padded_conv(c, dtype, n, ch, hw, k, r, stride)


def _heldout_2026_11_27(c):
    """Held out (test): shapes chosen after the inline-copy and wide-filter 256x64 rules were final,
    measured once and predicted once. FP32 convolutions (TF32 off) with filters wider than 1x1 around
    and above one wave of 256x64 blocks, k at most 64 and two controls above it; copies around the
    1 KB inline cut."""
    for n, ch, hw, k, r, stride in ((8, 40, 72, 64, 3, 1), (2, 64, 160, 48, 3, 1), (32, 32, 40, 64, 3, 1),
                                    (4, 128, 100, 64, 3, 1), (16, 20, 80, 32, 5, 1), (8, 56, 96, 40, 3, 1),
                                    (1, 64, 224, 64, 3, 1), (8, 72, 64, 64, 3, 1), (12, 48, 52, 64, 3, 1),
                                    (16, 40, 128, 64, 3, 2), (2, 96, 200, 64, 3, 1), (32, 24, 64, 24, 3, 1),
                                    (8, 64, 96, 96, 3, 1), (4, 48, 120, 128, 3, 1)):
        p = {"n": n, "c": ch, "h": hw, "w": hw, "k": k, "r": r, "s": r}
        if stride != 1:
            p["stride"] = stride
        p["pad"] = r // 2
        p.update({"dtype": "fp32", "allow_tf32": False})
        c.add("conv2d", "conv2d", p, "F.conv2d channels_last")
    for size, kind in ((128, "h2d"), (768, "h2d"), (1000, "h2d"), (1100, "h2d"), (1280, "h2d"), (1400, "h2d"),
                       (2500, "h2d"), (5000, "h2d"), (128, "d2h"), (1000, "d2h"), (5000, "d2h")):
        _add_pinned_copy(c, size, kind)


def _heldout_skinny_2026_11_27(c):
    """Held out (test): fp32 linear-layer forwards (nt) of 2-10 rows at weight shapes the dev probe does
    not have, chosen after the skinny fp32 GEMM model (gemmSN) was final, measured once."""
    for m in (2, 5, 7, 9, 10):
        for n, k in ((3072, 768), (768, 3072), (5120, 5120), (2560, 10240), (14336, 4096)):
            c.add("gemm", "gemm", {"m": m, "n": n, "k": k, "dtype": "fp32"}, "torch.matmul nt", "layout=nt")


def _heldout_conv_2026_11_28(c):
    """Held out (test): shapes chosen after the FP32 1x1 direct-kernel rule and the padding path's host
    time were final (2026-11-28), measured once and predicted once. FP32 1x1 convolutions (TF32 off)
    across channels 20-80, odd and even image sides and batches; tensor-core convolutions through the
    padding path at channel counts the dev probe does not have."""
    for n, ch, hw, k in ((1, 20, 45, 48), (2, 32, 71, 24), (8, 40, 35, 96), (1, 56, 60, 48), (4, 32, 99, 64),
                         (32, 40, 14, 96), (1, 64, 41, 32), (16, 20, 27, 48), (2, 48, 64, 96), (1, 80, 20, 64),
                         (4, 24, 30, 24), (8, 56, 55, 48), (1, 36, 120, 64), (64, 32, 7, 128), (2, 28, 97, 40),
                         (1, 44, 33, 80)):
        c.add("conv2d", "conv2d", {"n": n, "c": ch, "h": hw, "w": hw, "k": k, "r": 1, "s": 1, "dtype": "fp32",
                                   "allow_tf32": False}, "F.conv2d channels_last")
    for dtype, n, ch, hw, k, r, stride in (("fp16", 1, 70, 40, 24, 3, 1), ("bf16", 2, 30, 50, 17, 3, 2),
                                           ("tf32", 1, 90, 35, 20, 5, 1), ("fp16", 8, 60, 28, 40, 3, 1),
                                           ("bf16", 1, 150, 23, 9, 3, 1), ("tf32", 4, 45, 45, 64, 3, 2),
                                           ("fp16", 2, 110, 19, 33, 5, 2), ("bf16", 16, 12, 33, 32, 3, 1)):
        _add_padded_conv(c, dtype, n, ch, hw, k, r, stride)


def _heldout_stream_2026_11_28(c):
    """Held out (test): shapes chosen after the GEMMs' dirty-line write-back rule was final
    (2026-11-28, models/l2_writeback.h), measured once and predicted once. Weight-streaming GEMMs
    (1-256 rows) over weights of 10-400 MB, in every dtype and in the linear layer's forward (nt) and
    data-gradient (nn) layouts; GEMMs whose operands straddle the L2's reused share; row sums over
    20-300 MB (the kernel timer's write-back rule, which they share)."""
    def gemm(m, n, k, dtype, layout):
        p = {"m": m, "n": n, "k": k, "dtype": dtype}
        if dtype == "fp8":
            p["out_dtype"] = "bf16"
            layout = "nt"
        expr = "torch._scaled_mm" if dtype == "fp8" else "torch.matmul"
        c.add("gemm", "gemm", p, expr + " " + layout, "layout=" + layout)

    for m, n, k, dtype, layout in ((1, 5120, 5120, "bf16", "nt"), (2, 7168, 5120, "fp16", "nt"),
                                   (4, 3584, 9216, "bf16", "nn"), (8, 20480, 5120, "bf16", "nt"),
                                   (16, 2560, 6912, "fp16", "nn"), (24, 13824, 5120, "bf16", "nt"),
                                   (32, 5120, 13824, "bf16", "nn"), (48, 9216, 3584, "fp16", "nt"),
                                   (64, 18432, 4608, "bf16", "nt"), (96, 4608, 18432, "bf16", "nn"),
                                   (128, 6656, 6656, "fp16", "nt"), (192, 24576, 2048, "bf16", "nt"),
                                   (256, 2048, 24576, "bf16", "nn"), (1, 9216, 9216, "fp8", "nt"),
                                   (16, 16384, 6144, "fp8", "nt"), (64, 7168, 12288, "fp8", "nt"),
                                   (8, 6144, 3072, "tf32", "nt"), (32, 3072, 8704, "tf32", "nn"),
                                   (1, 6144, 6144, "fp32", "nt"), (12, 8192, 3072, "fp32", "nn"),
                                   (384, 3072, 3072, "bf16", "nt"), (640, 5120, 2560, "bf16", "nn"),
                                   (1536, 2560, 2560, "fp16", "nt"), (768, 7168, 1536, "bf16", "nt")):
        gemm(m, n, k, dtype, layout)
    for rows, cols, dtype in ((2560, 4096, "bf16"), (12288, 3072, "fp32"), (40000, 2048, "bf16"),
                              (6000, 12000, "fp16"), (300, 250000, "fp32"), (72000, 1024, "fp32")):
        c.add("reduce", "reduce", {"rows": rows, "cols": cols, "dtype": dtype}, "x.sum(dim=-1)")


def _gemm_layouts(c):
    """Dev (2026-11-28, issue 17): every operand layout (nn, nt, tn, tt: row- or column-major A and B)
    of aligned GEMMs in tf32, fp32, bf16 and fp16, where Hopper's tf32 tensor-core instructions read
    K-major operands only (16-bit ones either way); cuBLAS's unaligned 16-bit fallbacks in each layout;
    and bf16 GEMMs with a long K in each layout (the split-K choice)."""
    def gemm(m, n, k, dtype, layout):
        c.add("gemm", "gemm", {"m": m, "n": n, "k": k, "dtype": dtype}, "torch.matmul " + layout,
              "layout=" + layout)

    for m, n, k in ((3072, 3072, 3072), (2048, 6144, 1024), (6144, 2048, 2048), (1024, 1024, 8192),
                    (512, 4096, 4096)):
        for dtype in ("tf32", "fp32", "bf16", "fp16"):
            for layout in ("nn", "nt", "tn", "tt"):
                gemm(m, n, k, dtype, layout)
    for m, n, k in ((2039, 1021, 4093), (8191, 509, 2039), (2048, 1024, 8192), (1024, 2048, 6144)):
        for layout in ("nn", "nt", "tn", "tt"):
            gemm(m, n, k, "bf16", layout)


def _heldout_layouts_2026_11_28(c):
    """Held out (test): chosen with the dev layout probe (gemm-layouts) before it was measured and
    committed before either was measured (2026-11-28); predicted once, after the layout rules were
    final. Other shapes, the same four layouts."""
    def gemm(m, n, k, dtype, layout):
        c.add("gemm", "gemm", {"m": m, "n": n, "k": k, "dtype": dtype}, "torch.matmul " + layout,
              "layout=" + layout)

    for m, n, k, dtype in ((2560, 2560, 2560, "tf32"), (5120, 1536, 1024, "tf32"), (1536, 6144, 3072, "tf32"),
                           (2560, 1280, 1280, "fp32"), (1280, 2560, 10240, "bf16"), (4608, 4608, 1536, "fp16"),
                           (4093, 2039, 1021, "bf16"), (3000, 1000, 7000, "fp16")):
        for layout in ("nn", "nt", "tn", "tt"):
            gemm(m, n, k, dtype, layout)


def _heldout_stores_2026_11_28(c):
    """Held out (test): chosen and committed after the store-only DRAM rule was final (2026-11-28,
    third stop: efficiency.dram_write_stream, the stores a kernel writes beyond its reads), measured
    once and predicted once. Zero and constant fills of 3 MB-2 GB in every float type; bf16/fp16 to
    fp32 casts (half their stores beyond the reads); embedding backward over large vocabularies
    (PyTorch's zero fill of the weight gradient, then the scatter of a few rows)."""
    for elements, dtype, expr in ((1500007, "fp32", "a.zero_()"), (7000001, "bf16", "a.zero_()"),
                                  (23000000, "fp32", "a.zero_()"), (61000003, "bf16", "a.zero_()"),
                                  (130000000, "fp16", "a.zero_()"), (290000000, "fp32", "a.zero_()"),
                                  (550000000, "bf16", "a.zero_()"), (400000000, "fp32", "a.zero_()"),
                                  (12000000, "fp32", "a.fill_(1.5)"), (90000000, "bf16", "a.fill_(1.5)"),
                                  (210000000, "fp32", "a.fill_(1.5)")):
        c.add("elementwise", "elementwise", {"elements": elements, "dtype": dtype, "inputs": 0,
                                             "flops_per_element": 0}, expr)
    for elements, dtype in ((5000000, "bf16"), (33000000, "fp16"), (150000000, "bf16"), (450000000, "fp16")):
        c.add("elementwise", "elementwise", {"elements": elements, "dtype": dtype, "out_dtype": "fp32"},
              "a.to(torch.float32)")
    for vocab, dim, tokens, dtype in ((100000, 2048, 64, "fp32"), (65536, 5120, 1, "bf16"),
                                      (256000, 2304, 256, "bf16"), (49152, 1536, 16, "fp32")):
        c.add("embedding_bwd", "embedding", {"vocab": vocab, "dim": dim, "tokens": tokens, "dtype": dtype,
                                             "backward": True}, "F.embedding(idx, table) backward")


PROBES = {"skinny-fp32-gemm": _skinny_fp32_gemms, "small-copies": _small_copies, "fp32-conv": _fp32_convs,
          "fp32-pointwise-conv": _fp32_pointwise_convs, "padded-conv": _padded_convs, "fp32-direct-k": _fp32_direct_k,
          "heldout-2026-11-27": _heldout_2026_11_27, "heldout-skinny-2026-11-27": _heldout_skinny_2026_11_27,
          "heldout-conv-2026-11-28": _heldout_conv_2026_11_28, "heldout-stream-2026-11-28": _heldout_stream_2026_11_28,
          "gemm-layouts": _gemm_layouts, "heldout-layouts-2026-11-28": _heldout_layouts_2026_11_28,
          "heldout-stores-2026-11-28": _heldout_stores_2026_11_28}
# Probe sets that are held out: every case in the test split, never tuned on.
HELDOUT_PROBES = {"heldout-2026-11-27", "heldout-skinny-2026-11-27", "heldout-conv-2026-11-28",
                  "heldout-stream-2026-11-28", "heldout-layouts-2026-11-28", "heldout-stores-2026-11-28"}
TUNING_SEEDS = (20261127, 20261128)
# Probe sets measured after the first three carry their own id prefix, so that no two probe files
# share an id (the first sets keep probe-<family>-NNNN, as stored).
PROBE_ID_PREFIX = {"fp32-pointwise-conv": "probe-pw-", "padded-conv": "probe-pad-", "fp32-direct-k": "probe-dk-",
                   "gemm-layouts": "probe-lay-"}
HELDOUT_ID_PREFIX = {"heldout-conv-2026-11-28": "held-conv-probe-", "heldout-stream-2026-11-28": "held-stream-probe-",
                     "heldout-layouts-2026-11-28": "held-lay-probe-", "heldout-stores-2026-11-28": "held-store-probe-"}


def probe_cases(name):
    """One probe set (PROBES), all dev except the held-out ones (HELDOUT_PROBES: all test)."""
    if name not in PROBES:
        raise ValueError(f"unknown probe set {name!r}; known: {', '.join(sorted(PROBES))}")
    seen = {case_key(c) for c in all_cases()}
    seen |= {case_key(c) for c in heldout_cases(HELDOUT_SEED)}
    for seed in TUNING_SEEDS:
        seen |= {case_key(c) for c in tuning_cases(seed)}
    c = Cases()
    PROBES[name](c)
    if name in HELDOUT_PROBES:  # nor any dev probe's shape
        for other in PROBES:
            if other not in HELDOUT_PROBES:
                dev = Cases()
                PROBES[other](dev)
                seen |= {case_key(case) for case in dev.items}
    split = "test" if name in HELDOUT_PROBES else "dev"
    prefix = (HELDOUT_ID_PREFIX.get(name, "held-probe-") if name in HELDOUT_PROBES
              else PROBE_ID_PREFIX.get(name, "probe-"))
    return [dict(case, id=prefix + case["id"], set=split) for case in c.items if case_key(case) not in seen]


def _broad_builders():
    import cases_broad  # noqa: E402  (beside this file)
    return cases_broad.BUILDERS


if __name__ == "__main__":
    import collections
    cases = all_cases()
    print(len(cases), collections.Counter(x["family"] for x in cases), collections.Counter(x["set"] for x in cases))
