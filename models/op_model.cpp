#include "models/op_model.h"

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
  std::vector<PlanOption> plan(const wl::Op& op, const hw::GpuSpec&) const override {
    throw UnsupportedError(wl::op_name(op) +
                           " is a collective: it needs a multi-GPU system (--gpus NxGPU, e.g. --gpus 2xh200-sxm, or "
                           "--system FILE_OR_ID)");
  }
};
}  // namespace

std::vector<PlanOption> plan_op(const wl::Op& op, const hw::GpuSpec& gpu) {
  // Stateless models: one instance each, chosen by the op's family.
  static const GemmModel kGemm;
  static const AttentionModel kAttention;
  static const ConvModel kConv;
  static const ElementwiseModel kElementwise;
  static const RowOpModel kRows;
  static const EmbeddingModel kEmbedding;
  static const CopyModel kCopy;
  static const CustomModel kCustom;
  static const NoSystemCollectiveModel kCollective;
  const OpModel* models[] = {&kGemm,      &kAttention, &kConv,   &kElementwise, &kRows,
                             &kEmbedding, &kCopy,      &kCustom, &kCollective};
  return models[op.index()]->plan(op, gpu);
}

}  // namespace gpucast::models
