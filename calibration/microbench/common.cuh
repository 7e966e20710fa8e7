#pragma once
// Shared helpers for gpucast's microbenchmarks: error checks, event timing, L2 flushing, random
// fills and the JSON records every benchmark prints. These programs run on a GPU machine only.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#define CUDA_CHECK(call)                                                                          \
  do {                                                                                            \
    cudaError_t err_ = (call);                                                                    \
    if (err_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, \
                   cudaGetErrorString(err_));                                                     \
      std::exit(3);                                                                               \
    }                                                                                             \
  } while (0)

#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

namespace mb {

// One result: a benchmark name plus numeric fields, printed as a JSON object.
struct Record {
  std::string bench;
  std::vector<std::pair<std::string, double>> fields;
  std::vector<std::pair<std::string, std::string>> text;
  Record& set(const std::string& k, double v) {
    fields.emplace_back(k, v);
    return *this;
  }
  Record& note(const std::string& k, const std::string& v) {
    text.emplace_back(k, v);
    return *this;
  }
  std::string json() const;
};

struct Context {
  int device = 0;
  cudaDeviceProp prop{};
  int sm_count = 0;
  size_t l2_bytes = 0;
  cudaStream_t stream = nullptr;
  void* flush_buffer = nullptr;  // 256 MiB, zeroed before timed runs like triton's do_bench
  size_t flush_bytes = size_t(256) << 20;
  bool quick = false;
  std::vector<Record>* out = nullptr;

  void emit(const Record& r) const { out->push_back(r); }
  void flush_l2() const { CUDA_CHECK(cudaMemsetAsync(flush_buffer, 0, flush_bytes, stream)); }
};

// Median of `reps` event-timed runs of `launch` (microseconds); `flush` zeroes the L2 flush buffer
// before each run so the timed region starts with a cold L2.
double time_us(const Context& ctx, const std::function<void()>& launch, int reps, bool flush, int warmup = 2);
// Median and mean helpers.
double median(std::vector<double> v);

// Fills `n` elements with reproducible pseudo-random bytes (never zeros: they hide bugs and can run
// faster than real data).
void fill_random_bytes(void* data, size_t bytes, uint32_t seed, cudaStream_t stream);

// Fills `count` elements of a GEMM operand type with normally distributed values (what
// torch.randn gives), so that tensor cores toggle as many bits, and draw as much power, as on real
// data. `type`: "fp32", "fp16", "bf16", "fp8", "int8", "fp64".
void fill_normal(void* data, size_t count, const char* type, uint32_t seed, cudaStream_t stream);

// Benchmarks; each emits records into ctx.out.
void run_dram(const Context& ctx);
void run_inflight(const Context& ctx);
void run_stream_sizes(const Context& ctx);
void run_l2(const Context& ctx);
void run_shared(const Context& ctx);
void run_latency(const Context& ctx);
void run_compute(const Context& ctx);
void run_mma(const Context& ctx);
void run_gemm(const Context& ctx);
void run_launch(const Context& ctx);
void run_dispatch(const Context& ctx);
void run_dispatch_width(const Context& ctx);
void run_first_touch(const Context& ctx);
void run_pcie(const Context& ctx);

}  // namespace mb
