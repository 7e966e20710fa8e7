// Recognition of the ops the held-out traces (validation/runs/h100-sxm/heldout: GPT-2-style training,
// nn.TransformerEncoder's fast path) launch and the Llama traces did not: GEMM operand layouts from
// the recorded strides, addmm with a fused activation, the norms' and the embedding's backward as
// their op models, and cat's vectorized variant.
#include <catch2/catch.hpp>

#include "workloads/trace/op_recognition.h"

using namespace gpucast;

namespace {
trace::OpInput tensor(std::vector<std::int64_t> shape, std::vector<std::int64_t> strides, const char* type) {
  trace::OpInput in;
  in.shapes = {std::move(shape)};
  if (!strides.empty()) in.strides = {std::move(strides)};
  in.type = type;
  return in;
}
trace::OpInput scalar(const char* concrete) {
  trace::OpInput in;
  in.type = "Scalar";
  in.concrete = concrete;
  return in;
}
trace::CpuOp op_of(const char* name, std::vector<trace::OpInput> inputs) {
  trace::CpuOp op;
  op.name = name;
  op.has_shapes = true;
  op.inputs = std::move(inputs);
  return op;
}
}  // namespace

SCENARIO("a GEMM operand stored transposed (stride 1 on its row dimension) sets that operand's layout") {
  // The weight gradient of a 50257-row lm_head: g^T [50257, 8192] is a view of g [8192, 50257].
  const auto wgrad = op_of("aten::mm", {tensor({50257, 8192}, {1, 50257}, "c10::BFloat16"),
                                        tensor({8192, 768}, {768, 1}, "c10::BFloat16")});
  const auto g = std::get<wl::GemmOp>(*trace::recognize_op(wgrad, "cutlass::Kernel2"));
  CHECK((g.m == 50257 && g.n == 768 && g.k == 8192));
  CHECK(g.transpose_a);
  CHECK_FALSE(g.transpose_b);
  WHEN("an operand is a single row or column (either layout), or no strides were recorded") {
    const auto vec = op_of("aten::mm", {tensor({1, 4096}, {1, 1}, "c10::BFloat16"),
                                        tensor({4096, 4096}, {1, 4096}, "c10::BFloat16")});
    const auto v = std::get<wl::GemmOp>(*trace::recognize_op(vec, "nvjet"));
    CHECK_FALSE(v.transpose_a);
    CHECK(v.transpose_b);
    const auto bare =
        op_of("aten::mm", {tensor({64, 32}, {}, "c10::BFloat16"), tensor({32, 16}, {}, "c10::BFloat16")});
    const auto b = std::get<wl::GemmOp>(*trace::recognize_op(bare, "nvjet"));
    CHECK_FALSE((b.transpose_a || b.transpose_b));
  }
}

SCENARIO("addmm with a fused activation is an addmm; aten::linear reads its weight transposed") {
  const auto fused = op_of("aten::_addmm_activation",
                           {tensor({3072}, {1}, "c10::Half"), tensor({16384, 768}, {768, 1}, "c10::Half"),
                            tensor({768, 3072}, {1, 768}, "c10::Half")});
  const auto g = std::get<wl::GemmOp>(*trace::recognize_op(fused, "nvjet_sm90_gelubias"));
  CHECK((g.m == 16384 && g.n == 3072 && g.k == 768 && g.dtype == DataType::fp16 && g.transpose_b));
  const auto linear = op_of("aten::linear", {tensor({8, 1024, 768}, {}, "c10::BFloat16"),
                                             tensor({2304, 768}, {}, "c10::BFloat16")});
  CHECK(std::get<wl::GemmOp>(*trace::recognize_op(linear, "nvjet")).transpose_b);
}

SCENARIO("the norms' backward is the norm backward op, in the saved input's dtype") {
  // native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, mask):
  // under autocast the layer norm ran in fp32.
  const auto ln =
      op_of("aten::native_layer_norm_backward",
            {tensor({8, 1024, 768}, {}, "float"), tensor({8, 1024, 768}, {}, "float"), scalar("[768]")});
  const auto r = std::get<wl::RowOp>(*trace::recognize_op(ln, "layer_norm_grad_input_kernel_vectorized"));
  CHECK((r.kind == wl::RowOpKind::layernorm && r.backward && r.rows == 8192 && r.cols == 768));
  CHECK(r.dtype == DataType::fp32);
  const auto rms = op_of("aten::_fused_rms_norm_backward", {tensor({4, 2048, 2048}, {}, "c10::BFloat16"),
                                                            tensor({4, 2048, 2048}, {}, "c10::BFloat16")});
  const auto q = std::get<wl::RowOp>(*trace::recognize_op(rms, "rms_norm"));
  CHECK((q.kind == wl::RowOpKind::rmsnorm && q.backward && q.rows == 8192 && q.dtype == DataType::bf16));
}

SCENARIO("embedding_dense_backward is the embedding backward op when the table's row count is recorded") {
  const auto bwd =
      op_of("aten::embedding_dense_backward",
            {tensor({8, 1024, 768}, {}, "float"), tensor({8, 1024}, {}, "long int"), scalar("50257")});
  const auto e = std::get<wl::EmbeddingOp>(*trace::recognize_op(bwd, "embedding_backward"));
  CHECK((e.backward && e.vocab == 50257 && e.dim == 768 && e.tokens == 8192 && e.dtype == DataType::fp32));
  WHEN("the row count was not recorded, one pass over the gradient stands in") {
    const auto bare =
        op_of("aten::embedding_dense_backward",
              {tensor({8, 1024, 768}, {}, "float"), tensor({8, 1024}, {}, "long int"), scalar("")});
    CHECK(std::holds_alternative<wl::ElementwiseOp>(*trace::recognize_op(bare, "embedding_backward")));
  }
}

SCENARIO("cat's vectorized variant moves 16-byte vectors with one offset each, the strided one per element") {
  trace::OpInput list;
  list.is_list = true;
  list.type = "TensorList";
  list.shapes = {{8, 1024, 768}, {8, 1024, 768}, {8, 1024, 768}};
  const auto cat = op_of("aten::cat", {list, scalar("2")});
  const auto strided = std::get<wl::ElementwiseOp>(*trace::recognize_op(cat, "CatArrayBatchedCopy"));
  const auto vectorized =
      std::get<wl::ElementwiseOp>(*trace::recognize_op(cat, "CatArrayBatchedCopy_vectorized"));
  CHECK(strided.flops_per_element == Approx(15));  // 3 dims x 5
  // A TensorList records no element type: bf16, 8 elements a 16-byte vector.
  CHECK(vectorized.flops_per_element == Approx(15.0 / 8));
  CHECK(vectorized.elements == strided.elements);
  CHECK(vectorized.contiguous);
  CHECK_FALSE(strided.contiguous);
}

SCENARIO("softmax's backward reads the gradient twice once a row outgrows a warp's registers") {
  auto bwd = [](std::int64_t cols) {
    const auto op = op_of("aten::_log_softmax_backward_data", {tensor({8192, cols}, {}, "c10::BFloat16"),
                                                               tensor({8192, cols}, {}, "c10::BFloat16")});
    return std::get<wl::ElementwiseOp>(*trace::recognize_op(op, "cunn_SoftMaxBackward"));
  };
  CHECK(bwd(1024).inputs == 2);  // softmax_warp_backward: the row in registers
  CHECK(bwd(1025).inputs == 3);  // cunn_SoftMaxBackward: the gradient's row sum, then the write loop
  CHECK(bwd(32000).elements == 8192 * 32000);
}

SCENARIO("an expanded input that repeats each element 4 times or more is read from the L2, as a broadcast") {
  // RMSNorm's backward spreads the mean's gradient [8, 1024, 1] over the row: an expanded view with
  // stride 0 on its 768-wide last dimension, divided by 768 in a strided kernel.
  const auto spread = op_of("aten::div", {tensor({8, 1024, 768}, {1024, 1, 0}, "float"), scalar("768")});
  const auto e = std::get<wl::ElementwiseOp>(*trace::recognize_op(spread, "elementwise_kernel<128, 2>"));
  CHECK(e.inputs == 0);
  CHECK(e.broadcast_inputs == 1);
  CHECK(e.elements == 8 * 1024 * 768);
  WHEN("each element repeats fewer than 4 times (repeat_kv over 2 query heads), it stays a DRAM input") {
    const auto rep2 = op_of("aten::mul", {tensor({4, 8, 2, 2048, 128}, {2097152, 128, 0, 1024, 1}, "c10::BFloat16"),
                                          tensor({4, 8, 2, 2048, 128}, {}, "c10::BFloat16")});
    const auto r = std::get<wl::ElementwiseOp>(*trace::recognize_op(rep2, "elementwise_kernel<128, 4>"));
    CHECK(r.inputs == 2);
    CHECK(r.broadcast_inputs == 0);
  }
}

SCENARIO("an add of an fp32 and a bf16 tensor in PyTorch's unrolled kernel is a mixed-type map, read as fp32") {
  // Autocast's residual stream: hidden (fp32) + attention output (bf16), [4, 2048, 2048].
  const auto residual = op_of("aten::add", {tensor({4, 2048, 2048}, {}, "float"),
                                            tensor({4, 2048, 2048}, {}, "c10::BFloat16"), scalar("1")});
  const auto e = std::get<wl::ElementwiseOp>(
      *trace::recognize_op(residual, "void at::native::unrolled_elementwise_kernel<at::native::CUDAFunctor_add<float>"));
  CHECK(e.mixed_types);
  CHECK(e.dtype == DataType::fp32);
  CHECK(e.inputs == 2);
  WHEN("both inputs have one type, or the kernel is the vectorized one") {
    const auto same = op_of("aten::add", {tensor({4, 2048, 2048}, {}, "float"), tensor({4, 2048, 2048}, {}, "float")});
    CHECK_FALSE(std::get<wl::ElementwiseOp>(*trace::recognize_op(same, "unrolled_elementwise_kernel")).mixed_types);
    CHECK_FALSE(std::get<wl::ElementwiseOp>(*trace::recognize_op(residual, "vectorized_elementwise_kernel<4>")).mixed_types);
  }
}
