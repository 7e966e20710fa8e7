#include "models/op_model.h"

#include <type_traits>

#include "common/errors.h"

#include "models/attention_model.h"
#include "models/conv_model.h"
#include "models/elementwise_model.h"
#include "models/gemm_model.h"
#include "models/memory_op_models.h"
#include "models/row_models.h"

namespace gpucast::models {
namespace {

// Collectives need the system they run on: the simulator times them with models/collective_model.h.
class NoSystemCollectiveModel final : public OpModel {
 public:
  std::vector<PlanOption> plan(const wl::Op& op, const device::Device&) const override {
    throw UnsupportedError(wl::op_name(op) +
                           " is a collective: it needs a multi-GPU system (--gpus NxGPU, e.g. --gpus 2xh200-sxm, or "
                           "--system FILE_OR_ID)");
  }
};

// The model of each op family, found by the op's type (not its position in the variant): adding a
// family means one line here, and forgetting it fails to compile.
template <class OpT>
const OpModel& model_for() {
  if constexpr (std::is_same_v<OpT, wl::GemmOp>) { static const GemmModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::AttentionOp>) { static const AttentionModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::Conv2dOp>) { static const ConvModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::ElementwiseOp>) { static const ElementwiseModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::RowOp>) { static const RowOpModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::EmbeddingOp>) { static const EmbeddingModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::CopyOp>) { static const CopyModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::CustomOp>) { static const CustomModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::CollectiveOp>) { static const NoSystemCollectiveModel m; return m; }
  else if constexpr (std::is_same_v<OpT, wl::TracedOp>) {
    // Traced kernels have no plan: the predictor scales their measured time (sim/traced_timing.h).
    throw UnsupportedError("a traced op has no kernel plan: it is timed by scaling its measured time");
  }
  else static_assert(!sizeof(OpT), "every op family needs a model: add it to model_for");
}

}  // namespace

std::vector<PlanOption> plan_op(const wl::Op& op, const device::Device& gpu) {
  return std::visit([&](const auto& o) { return model_for<std::decay_t<decltype(o)>>().plan(op, gpu); }, op);
}

}  // namespace gpucast::models
