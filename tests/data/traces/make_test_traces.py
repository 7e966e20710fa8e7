#!/usr/bin/env python3
"""Writes the small hand-made Kineto traces the tests read (tests/trace_*_test.cpp).

They follow torch.profiler's export_chrome_trace format (Kineto): top-level deviceProperties,
traceEvents with "ph": "X" events of cat cpu_op / cuda_runtime / kernel / gpu_memcpy /
gpu_memset / user_annotation (ProfilerStep#N) and "ac2g" flow pairs, args "External id",
"correlation", "Input Dims", "Input type", "Concrete Inputs", "grid", "block", ...
Times are microseconds with round values so that tests can compute expectations by hand.
Run: python3 tests/data/traces/make_test_traces.py (rewrites the files beside it).
"""
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PID = 1000
MAIN = 1000      # main Python thread
AUTOGRAD = 1001  # autograd engine thread
H100 = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85031714816, "computeMajor": 9,
        "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
        "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
        "sharedMemPerMultiprocessor": 233472, "numSms": 132, "sharedMemPerBlockOptin": 232448}


class Trace:
    def __init__(self, shapes=True):
        self.events = []
        self.corr = 100
        self.ext = 1
        self.shapes = shapes

    def op(self, name, ts, dur, dims=None, types=None, concrete=None, tid=MAIN):
        args = {"External id": self.ext, "Record function id": 0, "Ev Idx": self.ext}
        self.ext += 1
        if self.shapes and dims is not None:
            args["Input Dims"] = dims
            args["Input type"] = types or [""] * len(dims)
            if concrete is not None:
                args["Concrete Inputs"] = concrete
        self.events.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": PID, "tid": tid, "ts": ts,
                            "dur": dur, "args": args})
        return args["External id"]

    def step(self, n, ts, dur):
        self.events.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % n, "pid": PID,
                            "tid": MAIN, "ts": ts, "dur": dur, "args": {"External id": self.ext}})
        self.ext += 1

    def runtime(self, name, ts, dur, ext=0, tid=MAIN, corr=None):
        if corr is None:
            self.corr += 1
            corr = self.corr
        self.events.append({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": PID, "tid": tid, "ts": ts,
                            "dur": dur, "args": {"External id": ext, "cbid": 211, "correlation": corr}})
        return corr

    def kernel(self, name, launch_ts, start, dur, ext=0, tid=MAIN, stream=7, grid=(132, 1, 1), block=(128, 1, 1),
               launch_dur=4):
        corr = self.runtime("cudaLaunchKernel", launch_ts, launch_dur, ext, tid)
        self.events.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": start,
                            "dur": dur, "args": {"External id": ext, "queued": 0, "device": 0, "context": 1,
                                                 "stream": stream, "correlation": corr, "registers per thread": 32,
                                                 "shared memory": 0, "blocks per SM": 1.0, "warps per SM": 4.0,
                                                 "grid": list(grid), "block": list(block),
                                                 "est. achieved occupancy %": 6}})
        self.events.append({"ph": "s", "id": corr, "pid": PID, "tid": tid, "ts": launch_ts, "cat": "ac2g",
                            "name": "ac2g"})
        self.events.append({"ph": "f", "id": corr, "pid": 0, "tid": stream, "ts": start, "cat": "ac2g",
                            "name": "ac2g", "bp": "e"})

    def memcpy(self, name, launch_ts, start, dur, nbytes, runtime="cudaMemcpyAsync", ext=0, stream=7):
        corr = self.runtime(runtime, launch_ts, 5, ext)
        self.events.append({"ph": "X", "cat": "gpu_memcpy", "name": name, "pid": 0, "tid": stream, "ts": start,
                            "dur": dur, "args": {"External id": ext, "device": 0, "context": 1, "stream": stream,
                                                 "correlation": corr, "bytes": nbytes,
                                                 "memory bandwidth (GB/s)": nbytes / dur / 1e3}})

    def memset(self, launch_ts, start, dur, nbytes, ext=0, stream=7):
        corr = self.runtime("cudaMemsetAsync", launch_ts, 3, ext)
        self.events.append({"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": stream,
                            "ts": start, "dur": dur, "args": {"External id": ext, "device": 0, "context": 1,
                                                              "stream": stream, "correlation": corr,
                                                              "bytes": nbytes}})

    def doc(self, devices=True):
        d = {"schemaVersion": 1}
        if devices:
            d["deviceProperties"] = [H100]
        d.update({"cupti_version": 18, "cuda_runtime_version": 12040, "with_flops": 0, "record_shapes": 1,
                  "cuda_driver_version": 12040, "trace_id": "TEST", "traceEvents": self.events,
                  "traceName": "test", "displayTimeUnit": "ms", "baseTimeNanoseconds": 1700000000000000000})
        return d


BF16 = "c10::BFloat16"
T0 = 1000000.0  # a trace's timestamps start far from zero


def linking(shapes=True):
    """Two steps; step 2 has nested ops, an autograd-thread op, an unknown op, a copy, a sync."""
    t = Trace(shapes)
    for n, base in ((1, T0), (2, T0 + 1000)):
        t.step(n, base, 900)
        # aten::linear > aten::addmm > cudaLaunchKernel > GEMM kernel (x[4,128,768] @ W[3072,768]^T)
        lin = t.op("aten::linear", base + 10, 60, [[4, 128, 768], [3072, 768], [3072]], [BF16, BF16, BF16])
        t.op("aten::t", base + 12, 5, [[3072, 768]], [BF16])
        mm = t.op("aten::addmm", base + 20, 45, [[3072], [512, 768], [768, 3072], [], []],
                  [BF16, BF16, BF16, "Scalar", "Scalar"], ["", "", "", "1", "1"])
        t.kernel("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
                 base + 40, base + 50, 30.0, mm)
        # aten::layer_norm > aten::native_layer_norm > kernel
        t.op("aten::layer_norm", base + 80, 40, [[4, 128, 3072], [], [3072], [3072], [], []],
             [BF16, "", BF16, BF16, "Scalar", "Scalar"])
        ln = t.op("aten::native_layer_norm", base + 85, 30, [[4, 128, 3072], [], [3072], [3072], []],
                  [BF16, "", BF16, BF16, "Scalar"])
        t.kernel("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
                 base + 95, base + 100, 8.0, ln)
        # aten::add_ (in place, two tensors of one size): a vectorized elementwise kernel
        add = t.op("aten::add_", base + 130, 20, [[4, 128, 3072], [4, 128, 3072], []], [BF16, BF16, "Scalar"])
        t.kernel("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)",
                 base + 135, base + 140, 6.0, add)
        # an op gpucast has no model for, on the autograd thread
        cus = t.op("aten::_my_custom_op", base + 200, 30, [[1024, 1024]], ["float"], tid=AUTOGRAD)
        t.kernel("my_custom_kernel(float*, int)", base + 210, base + 215, 40.0, cus, tid=AUTOGRAD,
                 grid=(1024, 1, 1))
        # .item(): aten::_local_scalar_dense > D2H copy, then a stream sync
        item = t.op("aten::item", base + 300, 120, [[]], ["float"])
        t.op("aten::_local_scalar_dense", base + 305, 110, [[]], ["float"])
        t.memcpy("Memcpy DtoH (Device -> Pageable)", base + 310, base + 320, 2.0, 4, ext=item)
        t.runtime("cudaStreamSynchronize", base + 316, 100, item, corr=0)
        # zero_ -> memset
        z = t.op("aten::zero_", base + 500, 20, [[1024]], ["float"])
        t.memset(base + 505, base + 510, 1.5, 4096, ext=z)
    return t


def host_bound():
    """Three 10 us kernels, each launched 50 us after the previous launch returned."""
    t = Trace()
    t.step(1, T0, 200)
    for i in range(3):
        ext = t.op("aten::_host_heavy_op", T0 + 46 + 50 * i, 6, [[1 << 20]], ["float"])
        # the launch call returns at T0 + 50 (i + 1); the kernel runs 10 us on a full wave
        t.kernel("host_heavy_kernel", T0 + 46 + 50 * i, T0 + 55 + 50 * i, 10.0, ext, launch_dur=4,
                 grid=(1320, 1, 1))
    return t


def families():
    """One kernel per recognized op family, one step."""
    t = Trace()
    t.step(5, T0, 5000)
    ts = [T0 + 10]

    def add(op, dims, types, kernel, dur=20.0, concrete=None, grid=(528, 1, 1)):
        ext = t.op(op, ts[0], 30, dims, types, concrete)
        t.kernel(kernel, ts[0] + 5, ts[0] + 10, dur, ext, grid=grid)
        ts[0] += 100

    add("aten::mm", [[2048, 4096], [4096, 1024]], [BF16, BF16], "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_cublas")
    add("aten::bmm", [[8, 512, 64], [8, 64, 512]], [BF16, BF16], "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_cublas")
    add("aten::matmul", [[2, 256, 1024], [1024, 512]], ["float", "float"], "sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize")
    add("aten::_scaled_mm", [[1024, 2048], [2048, 4096], [], []], ["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float"],
        "sm90_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn_n")
    add("aten::_scaled_dot_product_flash_attention", [[2, 16, 1024, 64], [2, 4, 1024, 64], [2, 4, 1024, 64], [], [], [], []],
        [BF16, BF16, BF16, "Scalar", "bool", "bool", ""], "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t>, false, true, false, false, false, true, false, false>(pytorch_flash::Flash_fwd_params)",
        concrete=["", "", "", "0.0", "True", "False", ""])
    add("aten::_scaled_dot_product_flash_attention_backward",
        [[2, 16, 1024, 64], [2, 16, 1024, 64], [2, 4, 1024, 64], [2, 4, 1024, 64], [2, 16, 1024, 64], [2, 16, 1024], [], [], [], [], [], [], [], [], []],
        [BF16] * 5 + ["float"] + [""] * 9, "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<...>(pytorch_flash::Flash_bwd_params)",
        concrete=[""] * 11 + ["True", "", "", ""])
    add("aten::native_layer_norm", [[4096, 1024], [], [1024], [1024], []], [BF16, "", BF16, BF16, "Scalar"],
        "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>")
    add("aten::native_layer_norm_backward", [[4096, 1024], [4096, 1024], [], [4096, 1], [4096, 1], [1024], [1024], []],
        [BF16, BF16, "", "float", "float", BF16, BF16, ""], "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<c10::BFloat16, float>")
    add("aten::_fused_rms_norm", [[4096, 1024], [], [1024], []], [BF16, "", BF16, ""], "rms_norm_kernel")
    add("aten::_softmax", [[64, 1024, 1024], [], []], ["float", "Scalar", "bool"],
        "void (anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, (anonymous namespace)::SoftMaxForwardEpilogue>")
    add("aten::_log_softmax_backward_data", [[4096, 32000], [4096, 32000], [], []], ["float", "float", "Scalar", "Scalar"],
        "void (anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, (anonymous namespace)::LogSoftMaxBackwardEpilogue>")
    add("aten::cudnn_convolution", [[32, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], [], [], []],
        [BF16, BF16, "", "", "", "Scalar", "bool", "bool", "bool"], "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc",
        concrete=["", "", "[1, 1]", "[1, 1]", "[1, 1]", "1", "False", "False", "True"])
    add("aten::convolution_backward", [[32, 64, 56, 56], [32, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], [], [], [], []],
        [BF16, BF16, BF16, "", "", "", "", "bool", "", "Scalar", ""], "sm90_xmma_dgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc",
        concrete=["", "", "", "[0]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "[True, True, False]"])
    add("aten::embedding", [[32000, 1024], [4, 1024], [], [], []], [BF16, "long int", "Scalar", "bool", "bool"],
        "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>")
    add("aten::embedding_dense_backward", [[4, 1024, 1024], [4, 1024], [], [], []], [BF16, "long int", "Scalar", "Scalar", "bool"],
        "void at::native::(anonymous namespace)::compute_grad_weight<c10::BFloat16, long>", concrete=["", "", "32000", "-1", "False"])
    add("aten::mul", [[4096, 1024], [4096, 1024]], [BF16, BF16],
        "void at::native::vectorized_elementwise_kernel<4, at::native::binary_internal::MulFunctor<float>, at::detail::Array<char*, 3> >")
    add("aten::copy_", [[4096, 1024], [4096, 1024], []], [BF16, "float", "bool"],
        "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}>")
    add("aten::sum", [[4096, 1024], [], [], []], ["float", "", "bool", ""],
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()>")
    add("aten::_foreach_add_", [[[1024, 1024], [1024], [4096, 1024]], [[1024, 1024], [1024], [4096, 1024]], []],
        ["TensorList", "TensorList", "Scalar"],
        "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>")
    add("aten::_fused_adamw_", [[[1024, 1024], [4096]], [[1024, 1024], [4096]], [[1024, 1024], [4096]], [[1024, 1024], [4096]], [], [[], []], [], [], [], [], [], [], [], [], []],
        ["TensorList"] * 4 + ["", "TensorList"] + ["Scalar"] * 9, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, float*, float*>")
    return t


def reductions():
    """Three sums of one [8, 1024, 768] fp32 tensor: over the last dim, over the two trailing dims
    (negative indices), and over the two leading dims (a column reduction)."""
    t = Trace()
    t.step(1, T0, 400)
    kernel = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()> >"
    for i, dims in enumerate(("[-1]", "[-2, -1]", "[0, 1]")):
        ext = t.op("aten::sum", T0 + 10 + 100 * i, 30, [[8, 1024, 768], [], [], []], ["float", "ScalarList", "Scalar", ""],
                   ["", dims, "False", ""])
        t.kernel(kernel, T0 + 15 + 100 * i, T0 + 20 + 100 * i, 10.0, ext)
    return t


def sum_to():
    """Autograd's sum_to (tests/trace_sum_to_test.cpp): two MulBackward0 nodes of an [8, 1024, 768] fp32
    gradient, each two muls inside the node's span and then the engine's aten::sum over the last dim
    (keepdim) inside "autograd::engine::evaluate_function", outside the node's span. In the first the
    full x full mul (the gradient that needs reducing) comes first, in the second last. Then a sum in
    a forward, outside any node, after a full x full mul."""
    t = Trace()
    t.step(1, T0, 1000)
    full, bcast = [8, 1024, 768], [8, 1024, 1]
    mul = "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >"
    strided = "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > > >"
    reduce = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()> >"
    start = T0 + 10
    gpu = T0 + 20
    for node, others in enumerate(((full, bcast), (bcast, full))):
        ts = start + 250 * node
        t.op("autograd::engine::evaluate_function: MulBackward0", ts, 200, tid=AUTOGRAD)
        t.op("MulBackward0", ts + 1, 100, [full], ["float"], tid=AUTOGRAD)
        for i, other in enumerate(others):
            ext = t.op("aten::mul", ts + 5 + 40 * i, 30, [full, other], ["float", "float"], ["", ""], tid=AUTOGRAD)
            t.kernel(mul if other == full else strided, ts + 6 + 40 * i, gpu, 20.0, ext, tid=AUTOGRAD)
            gpu += 25
        ext = t.op("aten::sum", ts + 120, 40, [full, [], [], []], ["float", "ScalarList", "Scalar", ""],
                   ["", "[2]", "True", ""], tid=AUTOGRAD)
        t.kernel(reduce, ts + 121, gpu, 15.0, ext, tid=AUTOGRAD)
        gpu += 25
    ts = start + 500
    ext = t.op("aten::mul", ts, 30, [full, full], ["float", "float"], ["", ""])
    t.kernel(mul, ts + 1, gpu, 20.0, ext)
    ext = t.op("aten::sum", ts + 40, 30, [full, [], [], []], ["float", "ScalarList", "Scalar", ""],
               ["", "[2]", "True", ""])
    t.kernel(reduce, ts + 41, gpu + 25, 15.0, ext)
    return t


def two_streams():
    """Stream 7 runs A (0-100 us); stream 20's B waits on A via an event, then C runs on stream 7."""
    t = Trace()
    t.step(1, T0, 400)
    a = t.op("aten::_op_a", T0 + 5, 10, [[1 << 20]], ["float"])
    t.kernel("kernel_a", T0 + 6, T0 + 20, 100.0, a, stream=7)
    b = t.op("aten::_op_b", T0 + 20, 10, [[1 << 20]], ["float"])
    t.kernel("kernel_b", T0 + 21, T0 + 121, 50.0, b, stream=20)
    c = t.op("aten::_op_c", T0 + 35, 10, [[1 << 20]], ["float"])
    t.kernel("kernel_c", T0 + 36, T0 + 121, 30.0, c, stream=7)
    return t


def write(name, doc, gz=False):
    text = json.dumps(doc, indent=1)
    path = os.path.join(HERE, name)
    if gz:
        with gzip.open(path, "wt") as f:
            f.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


def main():
    write("linking.json", linking().doc())
    write("linking.json.gz", linking().doc(), gz=True)
    write("no_shapes.json", linking(shapes=False).doc())
    write("host_bound.json", host_bound().doc())
    write("families.json", families().doc())
    write("two_streams.json", two_streams().doc())
    write("reductions.json", reductions().doc())
    write("sum_to.json", sum_to().doc())
    # Bad inputs.
    with open(os.path.join(HERE, "bad_not_json.json"), "w") as f:
        f.write('{"traceEvents": [ {"ph": "X", "cat": "kernel", oops} ]}\n')
    write("bad_not_kineto.json", {"name": "some other JSON", "values": [1, 2, 3]})
    cpu_only = Trace()
    cpu_only.step(1, T0, 100)
    cpu_only.op("aten::mm", T0 + 1, 20, [[64, 64], [64, 64]], [BF16, BF16])
    write("bad_no_kernels.json", cpu_only.doc())
    packed = gzip.compress(json.dumps(linking().doc()).encode())
    with open(os.path.join(HERE, "bad_truncated.json.gz"), "wb") as f:
        f.write(packed[: len(packed) // 2])


if __name__ == "__main__":
    main()
