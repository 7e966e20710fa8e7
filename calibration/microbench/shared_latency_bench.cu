// Shared-memory bandwidth and pointer-chase latencies: L1, shared, L2, DRAM (cycles and ns).
#include "common.cuh"

#include <numeric>
#include <random>

namespace mb {
namespace {

__global__ void shared_bw_kernel(int iters, float* sink, unsigned long long* cycles) {
  __shared__ float4 buf[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) buf[i] = make_float4(i, i + 1, i + 2, i + 3);
  __syncthreads();
  float acc = 0;
  const unsigned long long t0 = clock64();
  int idx = threadIdx.x;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const float4 v = buf[(idx + j * 128) & 1023];
      acc += v.x + v.y + v.z + v.w;
    }
    idx += 32;
  }
  const unsigned long long t1 = clock64();
  if (threadIdx.x == 0 && blockIdx.x == 0) cycles[0] = t1 - t0;
  if (acc == -1.2345f) sink[0] = acc;
}

__device__ __forceinline__ unsigned load_ca(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ unsigned load_cg(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread follows `next` for `steps` loads; `l1` selects ld.ca (L1-cached) over ld.cg (L2 only).
__global__ void chase_kernel(const unsigned* next, int steps, int warm_steps, bool l1, unsigned* sink,
                             unsigned long long* out) {
  unsigned j = 0;
  for (int i = 0; i < warm_steps; ++i) j = l1 ? load_ca(next + j) : load_cg(next + j);
  const unsigned long long c0 = clock64();
  const unsigned long long g0 = global_timer();
  for (int i = 0; i < steps; ++i) j = l1 ? load_ca(next + j) : load_cg(next + j);
  const unsigned long long c1 = clock64();
  const unsigned long long g1 = global_timer();
  sink[0] = j;
  out[0] = c1 - c0;
  out[1] = g1 - g0;
}

__global__ void shared_chase_kernel(int steps, unsigned* sink, unsigned long long* out) {
  __shared__ unsigned next[4096];
  for (int i = 0; i < 4096; ++i) next[i] = (i * 1029 + 7) & 4095;  // full-period LCG mod 2^12 (a = 1 mod 4, c odd)
  __syncthreads();
  unsigned j = 0;
  const unsigned long long c0 = clock64();
  for (int i = 0; i < steps; ++i) j = next[j];
  const unsigned long long c1 = clock64();
  sink[0] = j;
  out[0] = c1 - c0;
}

// Random cyclic permutation over 128-byte lines; lines are visited region by region (2 MiB regions
// in random order) so that DRAM latency is measured without a TLB miss on every load.
std::vector<unsigned> make_chase(size_t bytes, uint32_t seed) {
  const size_t words = bytes / 4;
  const size_t line_words = 32;
  const size_t lines = words / line_words;
  const size_t region_lines = std::min<size_t>(lines, (size_t(2) << 20) / 128);
  std::mt19937_64 rng(seed);
  std::vector<size_t> regions(lines / region_lines);
  std::iota(regions.begin(), regions.end(), 0);
  std::shuffle(regions.begin(), regions.end(), rng);
  std::vector<size_t> order;
  order.reserve(lines);
  for (size_t r : regions) {
    std::vector<size_t> in(region_lines);
    std::iota(in.begin(), in.end(), r * region_lines);
    std::shuffle(in.begin(), in.end(), rng);
    order.insert(order.end(), in.begin(), in.end());
  }
  std::vector<unsigned> next(words, 0);
  for (size_t i = 0; i < order.size(); ++i)
    next[order[i] * line_words] = static_cast<unsigned>(order[(i + 1) % order.size()] * line_words);
  return next;
}

}  // namespace

void run_shared(const Context& ctx) {
  float* sink = nullptr;
  unsigned long long* cycles = nullptr;
  CUDA_CHECK(cudaMalloc(&sink, 64));
  CUDA_CHECK(cudaMalloc(&cycles, 64));
  const int threads = 1024;
  const int blocks = ctx.sm_count * std::max(1, ctx.prop.maxThreadsPerMultiProcessor / threads);
  const int iters = 4096;
  const double t = time_us(ctx, [&] { shared_bw_kernel<<<blocks, threads, 0, ctx.stream>>>(iters, sink, cycles); },
                           ctx.quick ? 2 : 5, false);
  unsigned long long c = 0;
  CUDA_CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
  const double bytes = double(blocks) * threads * iters * 8 * 16;
  const double bytes_per_sm = bytes / ctx.sm_count;
  const int blocks_per_sm = blocks / ctx.sm_count;
  ctx.emit(Record{"shared_bandwidth"}
               .set("bytes", bytes)
               .set("time_us", t)
               .set("gbps", bytes / t * 1e-3)
               .set("bytes_per_clk_per_sm", bytes_per_sm / blocks_per_sm / double(c)));
  CUDA_CHECK(cudaFree(sink));
  CUDA_CHECK(cudaFree(cycles));
}

void run_latency(const Context& ctx) {
  unsigned* sink = nullptr;
  unsigned long long* out = nullptr;
  CUDA_CHECK(cudaMalloc(&sink, 64));
  CUDA_CHECK(cudaMalloc(&out, 64));
  struct Level {
    const char* name;
    size_t bytes;
    bool l1;
    int steps;
    bool flush;
  };
  const Level levels[] = {{"latency_l1", 16 << 10, true, 20000, false},
                          {"latency_l2", 8 << 20, false, 20000, false},
                          {"latency_dram", size_t(512) << 20, false, 20000, true}};
  for (const auto& level : levels) {
    const auto host = make_chase(level.bytes, 42);
    unsigned* next = nullptr;
    CUDA_CHECK(cudaMalloc(&next, level.bytes));
    CUDA_CHECK(cudaMemcpy(next, host.data(), level.bytes, cudaMemcpyHostToDevice));
    std::vector<double> cycles, ns;
    for (int rep = 0; rep < 3; ++rep) {
      // For L1/L2 a warm-up pass of the whole array loads it; for DRAM the flush evicts it and the
      // steps touch far more lines than the L2 holds.
      const int warm = level.flush ? 0 : static_cast<int>(std::min<size_t>(level.bytes / 128, 200000));
      if (level.flush) ctx.flush_l2();
      chase_kernel<<<1, 1, 0, ctx.stream>>>(next, level.steps, warm, level.l1, sink, out);
      CUDA_CHECK_LAUNCH();
      unsigned long long r[2];
      CUDA_CHECK(cudaMemcpyAsync(r, out, sizeof r, cudaMemcpyDeviceToHost, ctx.stream));
      CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
      cycles.push_back(double(r[0]) / level.steps);
      ns.push_back(double(r[1]) / level.steps);
    }
    ctx.emit(Record{level.name}.set("working_set_bytes", level.bytes).set("cycles", median(cycles)).set("ns", median(ns)));
    CUDA_CHECK(cudaFree(next));
  }
  std::vector<double> shared_cycles;
  for (int rep = 0; rep < 3; ++rep) {
    shared_chase_kernel<<<1, 1, 0, ctx.stream>>>(20000, sink, out);
    CUDA_CHECK_LAUNCH();
    unsigned long long c = 0;
    // The kernel runs on a non-blocking stream: wait for it before reading its result.
    CUDA_CHECK(cudaMemcpyAsync(&c, out, sizeof c, cudaMemcpyDeviceToHost, ctx.stream));
    CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
    shared_cycles.push_back(double(c) / 20000);
  }
  ctx.emit(Record{"latency_shared"}.set("cycles", median(shared_cycles)));
  CUDA_CHECK(cudaFree(sink));
  CUDA_CHECK(cudaFree(out));
}

}  // namespace mb
