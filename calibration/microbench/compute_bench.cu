// Arithmetic peaks: FP32 and FP64 FMA, special functions (ex2), warp-level mma.sync tensor-core
// rates, and the SM clock sustained while running them (read, never set).
#include "common.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace mb {
namespace {

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Thread 0 of block 0 records SM cycles and nanoseconds over the loop: their ratio is the clock.
template <typename T>
__global__ void fma_kernel(int iters, T b, T c, T* sink, unsigned long long* clock_out) {
  T a[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) a[j] = T(threadIdx.x + j);
  const unsigned long long c0 = clock64();
  const unsigned long long g0 = global_timer();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 8; ++j) a[j] = a[j] * b + c;
  }
  const unsigned long long c1 = clock64();
  const unsigned long long g1 = global_timer();
  T acc = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) acc += a[j];
  if (acc == T(-1.2345)) sink[0] = acc;
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    clock_out[0] = c1 - c0;
    clock_out[1] = g1 - g0;
  }
}

__global__ void ex2_kernel(int iters, float* sink) {
  float a[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) a[j] = 0.001f * (threadIdx.x + j);
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 8; ++j) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(a[j]));
  }
  float acc = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) acc += a[j];
  if (acc == -1.2345f) sink[0] = acc;
}

// Warp-level mma.sync m16n8k16 (bf16 or fp16 in, fp32 accumulate), 4 independent accumulators per
// warp so that issue, not latency, limits the rate.
template <bool BF16>
__global__ void mma_kernel(int iters, float* sink) {
  unsigned a0 = 0x3c003c00u + threadIdx.x, a1 = a0 ^ 1, a2 = a0 ^ 2, a3 = a0 ^ 3;
  unsigned b0 = 0x3c003c00u + 7 * threadIdx.x, b1 = b0 ^ 5;
  float d[4][4] = {};
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int acc = 0; acc < 4; ++acc) {
      if constexpr (BF16) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+f"(d[acc][0]), "+f"(d[acc][1]), "+f"(d[acc][2]), "+f"(d[acc][3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+f"(d[acc][0]), "+f"(d[acc][1]), "+f"(d[acc][2]), "+f"(d[acc][3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      }
    }
  }
  float s = 0;
#pragma unroll
  for (int acc = 0; acc < 4; ++acc) s += d[acc][0] + d[acc][1] + d[acc][2] + d[acc][3];
  if (s == -1.2345f) sink[0] = s;
}

}  // namespace

void run_compute(const Context& ctx) {
  float* sink = nullptr;
  unsigned long long* clk = nullptr;
  CUDA_CHECK(cudaMalloc(&sink, 64));
  CUDA_CHECK(cudaMalloc(&clk, 64));
  const int threads = 256;
  const int blocks = ctx.sm_count * (ctx.prop.maxThreadsPerMultiProcessor / threads);
  const double total_threads = double(blocks) * threads;
  const int reps = ctx.quick ? 2 : 5;

  auto clock_mhz = [&] {
    unsigned long long r[2];
    CUDA_CHECK(cudaMemcpy(r, clk, sizeof r, cudaMemcpyDeviceToHost));
    return double(r[0]) / double(r[1]) * 1e3;
  };

  {
    const int iters = 16384;
    const double t = time_us(ctx, [&] { fma_kernel<float><<<blocks, threads, 0, ctx.stream>>>(iters, 1.0001f, 0.5f, sink, clk); },
                             reps, false);
    const double flops = total_threads * iters * 8 * 2;
    ctx.emit(Record{"fp32_fma"}.set("flops", flops).set("time_us", t).set("tflops", flops / t * 1e-6).set("sm_clock_mhz", clock_mhz()));
  }
  {
    const int iters = 4096;
    double* dsink = nullptr;
    CUDA_CHECK(cudaMalloc(&dsink, 64));
    const double t = time_us(ctx, [&] { fma_kernel<double><<<blocks, threads, 0, ctx.stream>>>(iters, 1.0001, 0.5, dsink, clk); },
                             reps, false);
    const double flops = total_threads * iters * 8 * 2;
    ctx.emit(Record{"fp64_fma"}.set("flops", flops).set("time_us", t).set("tflops", flops / t * 1e-6).set("sm_clock_mhz", clock_mhz()));
    CUDA_CHECK(cudaFree(dsink));
  }
  {
    const int iters = 4096;
    const double t = time_us(ctx, [&] { ex2_kernel<<<blocks, threads, 0, ctx.stream>>>(iters, sink); }, reps, false);
    const double ops = total_threads * iters * 8;
    ctx.emit(Record{"sfu_ex2"}.set("ops", ops).set("time_us", t).set("tops", ops / t * 1e-6));
  }
  CUDA_CHECK(cudaFree(sink));
  CUDA_CHECK(cudaFree(clk));
}

void run_mma(const Context& ctx) {
  float* sink = nullptr;
  CUDA_CHECK(cudaMalloc(&sink, 64));
  const int threads = 128;  // 4 warps: one per SM sub-partition
  const int iters = 4096;
  for (int warps_per_sm : {4, 8, 16}) {
    const int blocks = ctx.sm_count * warps_per_sm / 4;
    const double flops = double(blocks) * (threads / 32) * iters * 4 * (2.0 * 16 * 8 * 16);
    const double tb = time_us(ctx, [&] { mma_kernel<true><<<blocks, threads, 0, ctx.stream>>>(iters, sink); },
                              ctx.quick ? 2 : 5, false);
    ctx.emit(Record{"mma_sync_bf16"}.set("warps_per_sm", warps_per_sm).set("flops", flops).set("time_us", tb).set("tflops", flops / tb * 1e-6));
    const double th = time_us(ctx, [&] { mma_kernel<false><<<blocks, threads, 0, ctx.stream>>>(iters, sink); },
                              ctx.quick ? 2 : 5, false);
    ctx.emit(Record{"mma_sync_fp16"}.set("warps_per_sm", warps_per_sm).set("flops", flops).set("time_us", th).set("tflops", flops / th * 1e-6));
  }
  CUDA_CHECK(cudaFree(sink));
}

}  // namespace mb
