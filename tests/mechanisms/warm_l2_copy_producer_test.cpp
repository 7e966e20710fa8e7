// A device-to-device copy as the warm-L2 producer (sim/warm_l2.h): the copy writes its bytes through
// the L2 like a kernel, so the pointwise kernel after it that reads a tensor of exactly those bytes
// reads it from the L2 (the 125M step's RMSNorm backward: a 25 MB memcpy, then `x * scalar` on it).
// A copy has no element type: the match is by bytes, one byte off is another tensor; a host copy
// writes nothing into the L2.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "sim/warm_l2.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("a pointwise kernel after a device copy of its input's bytes reads it from the L2") {
  // 10 MB of L2, reuse share 0.5: a reused set of up to 5 MB stays.
  const device::Device gpu = test::gpu_builder{}.l2_mb(10).set("cache.l2_reuse_fraction", "0.5").build();
  wl::ElementwiseOp consumer;
  consumer.elements = 250000;  // 1 MB of fp32
  consumer.dtype = consumer.out_dtype = DataType::fp32;
  sim::OpPredictor p(gpu);
  const auto cold = p.predict(wl::Op{consumer});
  auto warm_after = [&](double bytes, wl::CopyKind kind) {
    wl::CopyOp copy;
    copy.bytes = bytes;
    copy.kind = kind;
    return sim::warm_l2_timing(wl::Op{consumer}, cold, wl::Op{copy}, gpu);
  };
  CHECK(sim::written_bytes(wl::Op{wl::CopyOp{1e6, wl::CopyKind::d2d}}) == 1e6);
  const auto warm = warm_after(1e6, wl::CopyKind::d2d);
  REQUIRE(warm);
  CHECK(warm->exec_us < cold.exec_us);
  CHECK(sim::input_warm(*warm));
  CHECK_FALSE(warm_after(1e6 + 1, wl::CopyKind::d2d));  // another tensor
  CHECK_FALSE(warm_after(1e6, wl::CopyKind::h2d));      // from the host: the rule does not track it
}
