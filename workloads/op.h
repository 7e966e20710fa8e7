#pragma once
// The operations a workload kernel can perform. Each op family is registered in one place,
// workloads/ops/<family>.{h,cpp} (see workloads/op_schema.h for what a family declares); this file
// gathers them into the Op variant and dispatches the questions every family answers. Counts
// (FLOPs, minimum bytes) are properties of the operation; how a GPU executes it lives in models/.
#include <string>
#include <variant>

#include "workloads/ops/attention.h"
#include "workloads/ops/collective.h"
#include "workloads/ops/conv2d.h"
#include "workloads/ops/copy.h"
#include "workloads/ops/custom.h"
#include "workloads/ops/elementwise.h"
#include "workloads/ops/embedding.h"
#include "workloads/ops/gemm.h"
#include "workloads/ops/row.h"
#include "workloads/ops/traced.h"

namespace gpucast::wl {

// Every op family. Adding one: its ops/<family>.{h,cpp}, an include above, an alternative here,
// and its model (models/op_model.cpp); order does not matter anywhere.
using Op = std::variant<GemmOp, AttentionOp, Conv2dOp, ElementwiseOp, RowOp, EmbeddingOp, CopyOp, CustomOp,
                        CollectiveOp, TracedOp>;

// The op's name as written in workload files: "gemm", "softmax", ...
[[nodiscard]] std::string op_name(const Op& op);
// Short human shape, e.g. "8192x12288x4096 bf16" or "b4 h32 q2048 kv2048 d128 causal".
[[nodiscard]] std::string op_shape(const Op& op);
// Useful floating-point work (FLOPs; multiply-add = 2), as roofline and MFU count it.
[[nodiscard]] double op_flops(const Op& op);
// The fewest bytes the op must move through device memory: each input read once, each output
// written once.
[[nodiscard]] double op_min_bytes(const Op& op);
// The data type whose arithmetic rate bounds the op.
[[nodiscard]] DataType op_compute_dtype(const Op& op);

}  // namespace gpucast::wl
