// Recognition: each CPU op family with its shapes becomes the gpucast op an op model predicts.
#include <catch2/catch.hpp>

#include "support/gpu_builder.h"
#include "support/temp_dir.h"
#include "workloads/trace/op_recognition.h"
#include "workloads/trace/trace_workload.h"

using namespace gpucast;

namespace {
std::string traces() { return (test::source_dir() / "tests" / "data" / "traces").string() + "/"; }

struct Families {
  trace::TraceImport imp;
  Families() : imp(load()) {}
  static trace::TraceImport load() {
    auto t = trace::read_kineto_trace(traces() + "families.json");
    return trace::import_trace(t, trace::select_step(t, ""), test::gpu_builder{}.build(), "families");
  }
  template <class T>
  const T& op(size_t i) const {
    REQUIRE(i < imp.workload.size());
    const auto* o = std::get_if<T>(&imp.workload.kernels()[i].op);
    REQUIRE(o != nullptr);
    return *o;
  }
};
}  // namespace

SCENARIO("GEMM ops (mm, bmm, matmul, _scaled_mm) become gemm with their shapes and types") {
  const Families f;
  const auto& mm = f.op<wl::GemmOp>(0);
  CHECK((mm.m == 2048 && mm.n == 1024 && mm.k == 4096 && mm.dtype == DataType::bf16));
  const auto& bmm = f.op<wl::GemmOp>(1);
  CHECK((bmm.batch == 8 && bmm.m == 512 && bmm.n == 512 && bmm.k == 64));
  const auto& matmul = f.op<wl::GemmOp>(2);  // fp32 inputs, a TF32 kernel
  CHECK((matmul.m == 512 && matmul.n == 512 && matmul.k == 1024 && matmul.dtype == DataType::tf32));
  const auto& scaled = f.op<wl::GemmOp>(3);
  CHECK((scaled.dtype == DataType::fp8 && scaled.out_dtype == DataType::bf16 && scaled.k == 2048));
}

SCENARIO("SDPA flash forward and backward become attention with GQA heads and the causal flag") {
  const Families f;
  const auto& fwd = f.op<wl::AttentionOp>(4);
  CHECK((fwd.batch == 2 && fwd.heads == 16 && fwd.kv_heads == 4 && fwd.seq_q == 1024 && fwd.head_dim == 64));
  CHECK(fwd.causal);
  CHECK_FALSE(fwd.backward);
  const auto& bwd = f.op<wl::AttentionOp>(5);
  CHECK((bwd.backward && bwd.causal && bwd.kv_heads == 4));
  THEN("the flash ops keep the backend that ran") {
    CHECK(fwd.backend == wl::AttentionBackend::flash2);
    CHECK(bwd.backend == wl::AttentionBackend::flash2);
  }
}

SCENARIO("generic SDPA takes its backend from the kernel's name, automatic when the name says nothing") {
  trace::CpuOp op;
  op.name = "aten::scaled_dot_product_attention";
  op.has_shapes = true;
  trace::OpInput q;
  q.shapes = {{2, 8, 512, 64}};
  q.type = "c10::BFloat16";
  op.inputs = {q, q, q};
  auto backend = [&](const std::string& kernel) {
    const auto r = trace::recognize_op(op, kernel);
    REQUIRE(r);
    return std::get<wl::AttentionOp>(*r).backend;
  };
  CHECK(backend("void fmha_cutlassF_bf16_aligned_64x64_rf_sm80(...)") == wl::AttentionBackend::efficient);
  CHECK(backend("void pytorch_flash::flash_fwd_kernel<...>") == wl::AttentionBackend::flash2);
  CHECK(backend("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16") == wl::AttentionBackend::cudnn);
  CHECK(backend("some_attention_kernel") == wl::AttentionBackend::automatic);
}

SCENARIO("norms and softmax become row ops; the norms' backward the norm backward op, softmax's a pointwise pass") {
  const Families f;
  const auto& ln = f.op<wl::RowOp>(6);
  CHECK((ln.kind == wl::RowOpKind::layernorm && ln.rows == 4096 && ln.cols == 1024));
  const auto& ln_bwd = f.op<wl::RowOp>(7);
  CHECK((ln_bwd.kind == wl::RowOpKind::layernorm && ln_bwd.backward && ln_bwd.rows == 4096 && ln_bwd.cols == 1024));
  CHECK(f.op<wl::RowOp>(8).kind == wl::RowOpKind::rmsnorm);
  const auto& sm = f.op<wl::RowOp>(9);
  CHECK((sm.kind == wl::RowOpKind::softmax && sm.rows == 64 * 1024 && sm.cols == 1024 && sm.dtype == DataType::fp32));
  CHECK(f.op<wl::ElementwiseOp>(10).elements == 4096 * 32000);
}

SCENARIO("convolution forward and backward become conv2d with stride and padding") {
  const Families f;
  const auto& fwd = f.op<wl::Conv2dOp>(11);
  CHECK((fwd.n == 32 && fwd.c == 64 && fwd.h == 56 && fwd.k == 64 && fwd.r == 3 && fwd.stride == 1 && fwd.pad == 1));
  CHECK(f.op<wl::Conv2dOp>(12).n == 64);  // data + weight gradients: the forward at twice the batch
}

SCENARIO("embedding and its backward are recognized by table and token counts") {
  const Families f;
  const auto& e = f.op<wl::EmbeddingOp>(13);
  CHECK((e.vocab == 32000 && e.dim == 1024 && e.tokens == 4096));
  const auto& bwd = f.op<wl::EmbeddingOp>(14);  // the table's gradient: the backward op model's kernels
  CHECK((bwd.backward && bwd.vocab == 32000 && bwd.dim == 1024 && bwd.tokens == 4096));
}

SCENARIO("pointwise ops and reductions go by element count and type") {
  const Families f;
  const auto& mul = f.op<wl::ElementwiseOp>(15);
  CHECK((mul.elements == 4096 * 1024 && mul.inputs == 2 && mul.contiguous));
  const auto& cast = f.op<wl::ElementwiseOp>(16);  // copy_(bf16 destination, fp32 source), strided kernel
  CHECK((cast.dtype == DataType::fp32 && cast.out_dtype == DataType::bf16 && cast.inputs == 1 && !cast.contiguous));
  const auto& sum = f.op<wl::RowOp>(17);
  CHECK((sum.kind == wl::RowOpKind::reduce && sum.rows == 4096 && sum.cols == 1024));
}

SCENARIO("optimizer foreach and fused updates go by tensor count and sizes") {
  const Families f;
  const auto& add = f.op<wl::ElementwiseOp>(18);
  CHECK((add.elements == 1024 * 1024 + 1024 + 4096 * 1024 && add.inputs == 2));
  const auto& adamw = f.op<wl::ElementwiseOp>(19);
  CHECK((adamw.elements == 1024 * 1024 + 4096 && adamw.inputs == 4 && adamw.outputs == 3));
  CHECK(f.imp.recognized_gpu_us == Approx(f.imp.traced_gpu_us));
}

SCENARIO("cat pays a 32-bit division per dimension of its tensors in its index math") {
  // torch.cat of two tensors: CatArrayBatchedCopy, a strided copy of every element, and three
  // five FLOP-equivalents of index division per dimension (4-D: 20, 2-D: 10).
  auto cat_of = [](std::vector<std::int64_t> shape) {
    trace::CpuOp op;
    op.name = "aten::cat";
    op.has_shapes = true;
    trace::OpInput list;
    list.is_list = true;
    list.type = "TensorList";
    list.shapes = {shape, shape};
    op.inputs = {list, trace::OpInput{}};
    const auto rec = trace::recognize_op(op, "CatArrayBatchedCopy");
    REQUIRE(rec);
    return std::get<wl::ElementwiseOp>(*rec);
  };
  const auto four = cat_of({8, 12, 1024, 32});
  CHECK((four.elements == 2 * 8 * 12 * 1024 * 32 && !four.contiguous && four.inputs == 1));
  CHECK(four.flops_per_element == Approx(20));
  CHECK(cat_of({4096, 32}).flops_per_element == Approx(10));
}
