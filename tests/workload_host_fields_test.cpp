// Host work in workload files: `host = { category = count }` and `sync = true` per kernel, read,
// written by --dump-workload and replayed through the host description like a generated workload.
#include <catch2/catch.hpp>

#include "sim/simulator.h"
#include "support/gpu_builder.h"
#include "workloads/training_step.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
hw::HostSpec round_host() {
  hw::HostSpec h;
  h.id = "round";
  h.op_dispatch_us = 10;
  h.launch_us = 5;
  h.autograd_node_us = 20;
  h.module_call_us = 3;
  h.library_call_us = 7;
  h.optimizer_step_us = 50;
  h.optimizer_param_us = 2;
  h.foreach_tensor_us = 0.5;
  return h;
}
const std::string kTiny = "[[kernel]]\nname = \"a\"\nop = \"elementwise\"\nelements = 64\ndtype = \"fp32\"\n";

std::string error_of(const std::string& text) {
  try {
    (void)wl::read_workload_text(text, "w.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("expected an InputError");
  return "";
}
}  // namespace

SCENARIO("a kernel's host counts are priced by the host description") {
  const auto w =
      wl::read_workload_text(kTiny + "host = { op_dispatch = 2, launch = 1, module_call = 1 }\n", "w.toml");
  CHECK(w.kernels()[0].host[wl::HostCategory::op_dispatch] == 2);
  sim::Simulator s(test::gpu_builder{}.build(), round_host());
  CHECK(s.predict(w).host_busy_us == Approx(2 * 10 + 5 + 3));
  THEN("without counts a kernel is one aten op and its launch") {
    CHECK(s.predict(wl::read_workload_text(kTiny, "w.toml")).host_busy_us == Approx(10 + 5));
  }
}

SCENARIO("a dumped training step reads back with the same host work and the same prediction") {
  wl::TransformerConfig c;
  c.name = "tiny";
  c.layers = 1;
  c.d_model = 128;
  c.heads = c.kv_heads = 2;
  c.ffn = 256;
  c.vocab = 512;
  wl::GenerateOptions o;
  o.mode = wl::Mode::train;
  o.batch = 2;
  o.seq = 64;
  o.precision = wl::Precision::amp;
  const auto w = wl::generate_training_step(c, o).workload;
  const auto back = wl::read_workload_text(wl::write_workload(w), "dump.toml");
  REQUIRE(back.size() == w.size());
  for (size_t i = 0; i < w.size(); ++i) CHECK(back.kernels()[i].host == w.kernels()[i].host);
  sim::Simulator s(test::gpu_builder{}.build(), round_host());
  const auto a = s.predict(w), b = s.predict(back);
  CHECK(b.host_busy_us == Approx(a.host_busy_us));
  CHECK(b.total_us == Approx(a.total_us));
}

SCENARIO("sync = true makes the host wait for the kernel, and round-trips") {
  const auto w = wl::read_workload_text(kTiny + "sync = true\n", "w.toml");
  CHECK(w.kernels()[0].sync);
  CHECK(wl::read_workload_text(wl::write_workload(w), "w2.toml").kernels()[0].sync);
}

SCENARIO("bad host fields name the file, line and key") {
  const std::string unknown = error_of(kTiny + "host = { launchh = 1 }\n");
  CHECK(unknown.find("w.toml:6") != std::string::npos);
  CHECK(unknown.find("host.launchh") != std::string::npos);
  CHECK(unknown.find("did you mean 'launch'") != std::string::npos);
  CHECK(error_of(kTiny + "host = { launch = -1 }\n").find("host.launch") != std::string::npos);
  CHECK(error_of(kTiny + "host = 3\n").find("host") != std::string::npos);
  CHECK(error_of(kTiny + "sync = 1\n").find("sync") != std::string::npos);
}
