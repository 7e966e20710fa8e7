#include "models/op_model.h"

#include <iterator>

#include "common/errors.h"

#include "models/attention_model.h"
#include "models/conv_model.h"
#include "models/elementwise_model.h"
#include "models/gemm_model.h"
#include "models/memory_op_models.h"
#include "models/row_models.h"

namespace gpucast::models {

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
  const OpModel* models[] = {&kGemm, &kAttention, &kConv, &kElementwise, &kRows, &kEmbedding, &kCopy, &kCustom};
  if (op.index() >= std::size(models))
    throw UnsupportedError("a " + wl::op_name(op) + " op has no kernel plan: it is timed by scaling its measured time");
  return models[op.index()]->plan(op, gpu);
}

}  // namespace gpucast::models
