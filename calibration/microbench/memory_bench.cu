// DRAM and L2 bandwidth: read-only, write-only and copy at sizes far above L2; bandwidth against
// bytes in flight (blocks x loads per thread), which the latency-bound model needs; L2-resident
// bandwidth and the L2 capacity knee.
#include "common.cuh"

namespace mb {
namespace {

// Reads the same `n` vectors `passes` times inside one kernel: an L2-resident working set streams
// at the L2's rate with a single launch.
__global__ void reread_kernel(const float4* __restrict__ in, size_t n, int passes, float* sink) {
  float acc = 0.f;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
      const float4 a = __ldcg(in + i), b = __ldcg(in + i + stride), c = __ldcg(in + i + 2 * stride),
                   d = __ldcg(in + i + 3 * stride);
      acc += a.x + b.y + c.z + d.w;
    }
    for (; i < n; i += stride) acc += __ldcg(in + i).x;
  }
  if (acc == -1.2345f) sink[0] = acc;
}

template <int ILP>
__global__ void read_kernel(const float4* __restrict__ in, size_t n, float* sink) {
  float acc = 0.f;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (ILP - 1) * stride < n; i += ILP * stride) {
    float4 v[ILP];
#pragma unroll
    for (int j = 0; j < ILP; ++j) v[j] = in[i + j * stride];
#pragma unroll
    for (int j = 0; j < ILP; ++j) acc += v[j].x + v[j].y + v[j].z + v[j].w;
  }
  for (; i < n; i += stride) {
    const float4 v = in[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == -1.2345f) sink[0] = acc;  // keeps the loads alive; never true for our data
}

__global__ void write_kernel(float4* __restrict__ out, size_t n, float value) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = make_float4(value, value, value, value);
}

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    float4 v0 = in[i], v1 = in[i + stride], v2 = in[i + 2 * stride], v3 = in[i + 3 * stride];
    out[i] = v0;
    out[i + stride] = v1;
    out[i + 2 * stride] = v2;
    out[i + 3 * stride] = v3;
  }
  for (; i < n; i += stride) out[i] = in[i];
}

void launch_read(int ilp, int blocks, int threads, const float4* in, size_t n, float* sink, cudaStream_t s) {
  switch (ilp) {
    case 1: read_kernel<1><<<blocks, threads, 0, s>>>(in, n, sink); break;
    case 2: read_kernel<2><<<blocks, threads, 0, s>>>(in, n, sink); break;
    case 4: read_kernel<4><<<blocks, threads, 0, s>>>(in, n, sink); break;
    default: read_kernel<8><<<blocks, threads, 0, s>>>(in, n, sink); break;
  }
}

}  // namespace

void run_dram(const Context& ctx) {
  const size_t bytes = size_t(1) << 30;  // 1 GiB, 15-20x the L2
  const size_t n = bytes / 16;
  float4 *a = nullptr, *b = nullptr;
  float* sink = nullptr;
  CUDA_CHECK(cudaMalloc(&a, bytes));
  CUDA_CHECK(cudaMalloc(&b, bytes));
  CUDA_CHECK(cudaMalloc(&sink, 64));
  fill_random_bytes(a, bytes, 1, ctx.stream);
  fill_random_bytes(b, bytes, 2, ctx.stream);
  const int threads = 256;
  const int blocks = ctx.sm_count * (ctx.prop.maxThreadsPerMultiProcessor / threads);
  const int reps = ctx.quick ? 3 : 10;

  const double t_read = time_us(ctx, [&] { launch_read(4, blocks, threads, a, n, sink, ctx.stream); }, reps, true);
  ctx.emit(Record{"dram_read"}.set("bytes", bytes).set("time_us", t_read).set("gbps", bytes / t_read * 1e-3));
  const double t_write = time_us(ctx, [&] { write_kernel<<<blocks, threads, 0, ctx.stream>>>(b, n, 1.5f); }, reps, true);
  ctx.emit(Record{"dram_write"}.set("bytes", bytes).set("time_us", t_write).set("gbps", bytes / t_write * 1e-3));
  const double t_copy = time_us(ctx, [&] { copy_kernel<<<blocks, threads, 0, ctx.stream>>>(a, b, n); }, reps, true);
  ctx.emit(Record{"dram_copy"}.set("bytes", 2.0 * bytes).set("time_us", t_copy).set("gbps", 2.0 * bytes / t_copy * 1e-3));
  const double t_memcpy = time_us(
      ctx, [&] { CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, ctx.stream)); }, reps, true);
  ctx.emit(Record{"dram_memcpy_d2d"}.set("bytes", 2.0 * bytes).set("time_us", t_memcpy).set("gbps", 2.0 * bytes / t_memcpy * 1e-3));

  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  CUDA_CHECK(cudaFree(sink));
}

void run_stream_sizes(const Context& ctx) {
  // A PyTorch-style copy (128-thread blocks, one 16-byte vector per thread) from 256 KB to 1 GiB,
  // timed like do_bench (flush first): how kernels below, near and above the L2 size behave.
  const size_t max_bytes = size_t(1) << 30;
  float4 *a = nullptr, *b = nullptr;
  CUDA_CHECK(cudaMalloc(&a, max_bytes));
  CUDA_CHECK(cudaMalloc(&b, max_bytes));
  fill_random_bytes(a, max_bytes, 9, ctx.stream);
  for (size_t bytes = size_t(256) << 10; bytes <= max_bytes; bytes *= 2) {
    const size_t n = bytes / 16;
    const int blocks = static_cast<int>((n + 127) / 128);
    const double t = time_us(ctx, [&] { copy_kernel<<<blocks, 128, 0, ctx.stream>>>(a, b, n); }, ctx.quick ? 10 : 30, true);
    ctx.emit(Record{"stream_copy"}.set("bytes", bytes).set("blocks", blocks).set("time_us", t));
  }
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
}

void run_inflight(const Context& ctx) {
  // Bandwidth against bytes in flight: few blocks and few loads per thread cannot cover DRAM
  // latency (Little's law: bandwidth = bytes in flight / latency).
  const size_t buffer = size_t(512) << 20;
  float4* a = nullptr;
  float* sink = nullptr;
  CUDA_CHECK(cudaMalloc(&a, buffer));
  CUDA_CHECK(cudaMalloc(&sink, 64));
  fill_random_bytes(a, buffer, 3, ctx.stream);
  const int threads = 256;
  std::vector<int> block_counts{1, 2, 4, 8, 16, 33, 66, ctx.sm_count, 2 * ctx.sm_count, 4 * ctx.sm_count,
                                8 * ctx.sm_count};
  for (int ilp : {1, 2, 4, 8}) {
    for (int blocks : block_counts) {
      const double in_flight = double(blocks) * threads * ilp * 16;
      // Enough bytes that the run lasts well past launch overhead, within the buffer.
      size_t bytes = static_cast<size_t>(std::min<double>(buffer, std::max<double>(8 << 20, in_flight * 3000)));
      bytes = bytes / (16 * size_t(threads)) * 16 * threads;
      const size_t n = bytes / 16;
      const double t = time_us(ctx, [&] { launch_read(ilp, blocks, threads, a, n, sink, ctx.stream); },
                               ctx.quick ? 2 : 5, true);
      ctx.emit(Record{"dram_inflight"}
                   .set("blocks", blocks)
                   .set("threads", threads)
                   .set("loads_per_thread", ilp)
                   .set("bytes_in_flight", in_flight)
                   .set("bytes", bytes)
                   .set("time_us", t)
                   .set("gbps", bytes / t * 1e-3));
    }
  }
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(sink));
}

void run_l2(const Context& ctx) {
  // Read a working set repeatedly; while it fits in L2 the rate is L2's, past the knee DRAM's.
  const int threads = 256;
  const int blocks = ctx.sm_count * (ctx.prop.maxThreadsPerMultiProcessor / threads);
  float4* a = nullptr;
  float* sink = nullptr;
  const size_t max_bytes = size_t(256) << 20;
  CUDA_CHECK(cudaMalloc(&a, max_bytes));
  CUDA_CHECK(cudaMalloc(&sink, 64));
  fill_random_bytes(a, max_bytes, 4, ctx.stream);
  for (double mb : {2.0, 4.0, 8.0, 12.0, 16.0, 20.0, 24.0, 28.0, 32.0, 40.0, 48.0, 56.0, 64.0, 80.0, 96.0, 128.0,
                    192.0, 256.0}) {
    const size_t bytes = static_cast<size_t>(mb * (1 << 20));
    const size_t n = bytes / 16;
    const int passes = std::max(2, static_cast<int>((size_t(2) << 30) / bytes));
    // ld.global.cg bypasses L1, so every pass after the first is served by L2 (or DRAM past the knee).
    auto run = [&] { reread_kernel<<<blocks, threads, 0, ctx.stream>>>(a, n, passes, sink); };
    const double t = time_us(ctx, run, ctx.quick ? 2 : 3, false, 1);
    ctx.emit(Record{"l2_read"}
                 .set("working_set_bytes", bytes)
                 .set("passes", passes)
                 .set("time_us", t)
                 .set("gbps", double(bytes) * passes / t * 1e-3));
  }
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(sink));
}

}  // namespace mb
