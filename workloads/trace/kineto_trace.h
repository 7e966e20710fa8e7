#pragma once
// The parts of a PyTorch profiler (Kineto) Chrome trace that gpucast replays: GPU activities
// (kernels, memcpy, memset), the CUDA runtime/driver calls that launched them (linked by
// correlation id), CPU ops (aten::... with External id and, when record_shapes=True, input shapes
// and types), ProfilerStep#N spans, cross-stream waits and the device properties.
// Times are microseconds as the trace stores them.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gpucast::trace {

struct DeviceProperties {
  int id = 0;
  std::string name;     // "NVIDIA H100 80GB HBM3"
  int sm_count = 0;     // numSms
  double memory_gb = 0; // totalGlobalMem / 1e9
  int cc_major = 0, cc_minor = 0;
};

enum class GpuActivityKind { kernel, memcpy, memset };

struct GpuActivity {
  GpuActivityKind kind = GpuActivityKind::kernel;
  std::string name;
  double ts_us = 0, dur_us = 0;
  int device = 0;
  std::int64_t stream = 0;
  std::int64_t correlation = -1;
  std::int64_t external_id = -1;
  std::int64_t grid[3] = {0, 0, 0};
  std::int64_t block[3] = {0, 0, 0};
  int registers = 0;
  double shared_bytes = 0;
  double bytes = 0;  // memcpy / memset
  [[nodiscard]] double blocks() const { return double(grid[0]) * double(grid[1]) * double(grid[2]); }
  [[nodiscard]] std::int64_t threads() const { return block[0] * block[1] * block[2]; }
};

// A CUDA runtime or driver call on a host thread (cudaLaunchKernel, cudaMemcpyAsync,
// cudaStreamSynchronize, ...).
struct RuntimeCall {
  std::string name;
  double ts_us = 0, dur_us = 0;
  std::int64_t tid = 0;
  std::int64_t correlation = -1;
  std::int64_t external_id = -1;
  [[nodiscard]] double end_us() const { return ts_us + dur_us; }
};

// One argument of a CPU op as record_shapes saw it: a tensor (one shape), a tensor list (several
// shapes), or a scalar/None (no shape).
struct OpInput {
  std::vector<std::vector<std::int64_t>> shapes;
  // "Input Strides" (PyTorch 2.1+), parallel to `shapes` when recorded, else empty.
  std::vector<std::vector<std::int64_t>> strides;
  bool is_list = false;
  std::string type;      // "c10::BFloat16", "float", "TensorList", "Scalar", ""
  std::string concrete;  // "Concrete Inputs" value when recorded ("True", "[2, 2]", "")
};

struct CpuOp {
  std::string name;
  double ts_us = 0, dur_us = 0;
  std::int64_t tid = 0;
  std::int64_t external_id = -1;
  std::vector<OpInput> inputs;  // empty without record_shapes
  bool has_shapes = false;
  std::int32_t parent = -1;     // enclosing CPU op on the same thread (filled by linking)
  [[nodiscard]] double end_us() const { return ts_us + dur_us; }
};

// ProfilerStep#N (or another user annotation span).
struct StepSpan {
  std::int64_t step = 0;
  double ts_us = 0, dur_us = 0;
  [[nodiscard]] double end_us() const { return ts_us + dur_us; }
};

// A GPU-side wait of one stream on an event recorded on another (Kineto's cuda_sync events,
// recorded when the profiler was asked for CUDA sync events).
struct StreamWait {
  double ts_us = 0;
  std::int64_t stream = 0;
  std::int64_t wait_on_stream = -1;
  std::int64_t correlation = -1;         // the cudaStreamWaitEvent call
  std::int64_t record_correlation = -1;  // the cudaEventRecord it waits on
};

struct KinetoTrace {
  std::string origin;  // file name, for messages
  std::vector<DeviceProperties> devices;
  std::vector<GpuActivity> gpu;     // in file order
  std::vector<RuntimeCall> runtime;
  std::vector<CpuOp> cpu_ops;
  std::vector<StepSpan> steps;      // sorted by step number
  std::vector<StreamWait> waits;
  size_t flows = 0;                 // ac2g flow events seen (start + finish)
  size_t events = 0;                // traceEvents entries
};

// Reads a plain or gzip-compressed (.gz, or by magic bytes) Chrome trace. Throws InputError naming
// the file: not JSON, not a Kineto trace (no traceEvents), no GPU activity (CUDA was not
// profiled), truncated gzip.
[[nodiscard]] KinetoTrace read_kineto_trace(const std::filesystem::path& path);
// Parses trace text already in memory (`origin` names it in messages).
[[nodiscard]] KinetoTrace parse_kineto_trace(std::string text, const std::string& origin);

// The file's bytes, inflated when gzip-compressed; throws InputError for unreadable or truncated
// files.
[[nodiscard]] std::string read_trace_bytes(const std::filesystem::path& path);

}  // namespace gpucast::trace
