// cuDNN's channel-padding path costs the host a share of a library call per padding launch
// (models/conv_model.cpp, kPadLaunchHostShareOfLibraryCall = 0.46), spent between the launches: the
// whole call's host time is (host_eager_us + host_library_us) x (1 + 0.46 x padding launches), and
// do_bench's flush hides it unless it outlasts the flush.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/op_predictor.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// 50 bf16 channels pad to 56, and 33 filters compute as 40: input and filter padded (a memset and a
// copy each) and the output copied out: five padding launches.
wl::Conv2dOp padded() {
  return test::conv_builder{}.batch(1).channels(50).image(31).filters(33).dtype(DataType::bf16).build();
}
wl::Conv2dOp aligned() {
  return test::conv_builder{}.batch(1).channels(56).image(31).filters(40).dtype(DataType::bf16).build();
}
}  // namespace

SCENARIO("a padded convolution's host time is a library call plus 0.46 of one per padding launch") {
  const device::Device gpu(test::gpu_builder{}.host_eager_us(10).set("launch.host_library_us", "10").build());
  const auto options = models::plan_op(padded(), gpu);
  REQUIRE(!options.empty());
  for (const auto& option : options) {
    CHECK(option.kernels.size() == 6);  // five padding launches and the convolution
    CHECK(option.host_us == Approx(20 * (1 + 5 * 0.46)));
    CHECK(option.host_between_launches);
  }
  for (const auto& option : models::plan_op(aligned(), gpu)) CHECK(option.host_us == 0);
}

SCENARIO("the padding path's host time shows only where it outlasts do_bench's flush") {
  // 256 MB at 1,000 GB/s: a 268 us flush hides a 66 us call; at 100 us of eager and library time each
  // the call takes 660 us and the convolution waits for it.
  const auto slow_host = [](double us) {
    return device::Device(test::gpu_builder{}
                              .bandwidth_gbps(1000)
                              .host_eager_us(us)
                              .set("launch.host_library_us", std::to_string(us))
                              .build());
  };
  sim::OpPredictor quick(slow_host(10)), slow(slow_host(100));
  const auto& fast_call = quick.predict(padded());
  const auto& slow_call = slow.predict(padded());
  CHECK(fast_call.overhead_us < slow_call.overhead_us);
  CHECK(slow_call.duration_us > 660 - quick.device().launch().flush_us);
}
