#include "workloads/traced_op_params.h"

#include <cmath>

namespace gpucast::wl {
namespace {
using P = ParamKind;
}  // namespace

OpDef traced_op_def() {
  return {"traced",
          {{"measured_us", P::number, true, "", {}, "the kernel's GPU time on the source GPU (profiler trace)", 0},
           {"bound", P::choice, true, "", {"memory", "compute", "latency", "launch"},
            "what bounds it on the source GPU: DRAM bandwidth, a pipe's rate, sub-wave latency, the launch floor"},
           {"source_gpu", P::text, false, "\"\"", {}, "catalog id of the source GPU (informational)"},
           {"pipe", P::choice, false, "fp32", {"tensor", "fp32"}, "compute-bound: tensor cores or the FP32 pipe"},
           {"dtype", P::dtype, false, "fp32", {}, "compute-bound on tensor cores: operand type"},
           {"source_dram_gbps", P::number, false, "", {}, "memory-bound: the source's sustained DRAM bandwidth"},
           {"source_tflops", P::number, false, "", {}, "compute-bound: the source's sustained pipe rate"},
           {"source_clock_mhz", P::number, false, "", {}, "latency-bound: the source's sustained SM clock"},
           {"source_sms", P::integer, false, "", {}, "latency-bound: the source's SM count"},
           {"source_floor_us", P::number, false, "", {}, "launch-bound: the source's shortest kernel time", 0},
           {"blocks", P::number, false, "0", {}, "thread blocks (latency-bound: waves on the target)", 0},
           {"kernels", P::integer, false, "1", {}, "trace kernels it stands for"},
           {"bytes", P::number, false, "0", {}, "work estimate: bytes", 0},
           {"flops", P::number, false, "0", {}, "work estimate: FLOPs", 0}},
          "a profiler-trace kernel no op model re-predicts: its measured time scaled by the mechanism that bounds it"};
}

TracedOp build_traced_op(const ParamReader& p) {
  auto fail = [&](const std::string& name, const std::string& message) { p.fail(name, message); };
  TracedOp t;
  t.measured_us = p.number("measured_us", 0);
  const std::string bound = p.text("bound", "memory");
  t.bound = bound == "compute" ? TracedBound::compute : bound == "latency" ? TracedBound::latency
            : bound == "launch" ? TracedBound::launch : TracedBound::memory;
  t.source_gpu = p.text("source_gpu", "");
  t.pipe = p.text("pipe", "fp32") == "tensor" ? TracedPipe::tensor : TracedPipe::fp32;
  t.dtype = *parse_dtype(p.text("dtype", "fp32"));
  t.source_dram_gbps = p.number("source_dram_gbps", 0);
  t.source_tflops = p.number("source_tflops", 0);
  t.source_clock_mhz = p.number("source_clock_mhz", 0);
  t.source_sms = static_cast<int>(p.number("source_sms", 0));
  t.source_floor_us = p.number("source_floor_us", 0);
  t.blocks = p.number("blocks", 0);
  t.kernels = static_cast<int>(p.number("kernels", 1));
  t.bytes = p.number("bytes", 0);
  t.flops = p.number("flops", 0);
  if (!(t.measured_us >= 0) || !std::isfinite(t.measured_us)) fail("measured_us", "must be a finite number >= 0");
  auto need = [&](const char* name, double v) {
    if (!(v > 0) || !std::isfinite(v)) fail(name, std::string("a ") + bound + "-bound traced kernel needs " + name + " > 0");
  };
  switch (t.bound) {
    case TracedBound::memory: need("source_dram_gbps", t.source_dram_gbps); break;
    case TracedBound::compute: need("source_tflops", t.source_tflops); break;
    case TracedBound::latency:
      need("source_clock_mhz", t.source_clock_mhz);
      need("source_sms", t.source_sms);
      break;
    case TracedBound::launch: need("source_floor_us", t.source_floor_us); break;
  }
  for (auto [name, v] : {std::pair{"blocks", t.blocks}, {"bytes", t.bytes}, {"flops", t.flops}})
    if (!(v >= 0) || !std::isfinite(v)) fail(name, "must be a finite number >= 0");
  if (t.kernels < 1) fail("kernels", "must be >= 1");
  return t;
}

ParamList traced_op_params(const TracedOp& t) {
  ParamList v{{"measured_us", ParamValue{t.measured_us}},
                                                    {"bound", ParamValue{std::string(traced_bound_name(t.bound))}}};
  if (!t.source_gpu.empty()) v.emplace_back("source_gpu", ParamValue{t.source_gpu});
  switch (t.bound) {
    case TracedBound::memory: v.emplace_back("source_dram_gbps", ParamValue{t.source_dram_gbps}); break;
    case TracedBound::compute:
      if (t.pipe == TracedPipe::tensor) {
        v.emplace_back("pipe", ParamValue{std::string("tensor")});
        v.emplace_back("dtype", ParamValue{std::string(to_string(t.dtype))});
      }
      v.emplace_back("source_tflops", ParamValue{t.source_tflops});
      break;
    case TracedBound::latency:
      v.emplace_back("source_clock_mhz", ParamValue{t.source_clock_mhz});
      v.emplace_back("source_sms", ParamValue{static_cast<std::int64_t>(t.source_sms)});
      break;
    case TracedBound::launch: v.emplace_back("source_floor_us", ParamValue{t.source_floor_us}); break;
  }
  if (t.blocks > 0) v.emplace_back("blocks", ParamValue{t.blocks});
  if (t.kernels != 1) v.emplace_back("kernels", ParamValue{static_cast<std::int64_t>(t.kernels)});
  if (t.bytes > 0) v.emplace_back("bytes", ParamValue{t.bytes});
  if (t.flops > 0) v.emplace_back("flops", ParamValue{t.flops});
  return v;
}

}  // namespace gpucast::wl
