// Launch costs (do_bench-style single kernel, back-to-back queued kernels, CUDA graph replay, host
// issue time) and host<->device copy bandwidth over PCIe with pinned memory.
#include "common.cuh"

#include <chrono>
#include <cstring>

namespace mb {
namespace {

__global__ void empty_kernel() {}

// One thread loads `lines` cache lines one after another and writes one value back.
__global__ void touch_kernel(const unsigned* data, int lines, unsigned* out) {
  unsigned j = 0;
  for (int i = 0; i < lines; ++i) j += __ldcg(data + (size_t(i) * 32 + j % 2));
  out[0] = j;
}

// Keeps the GPU busy for `cycles` so that launches queue up behind it, as in triton's do_bench
// where the L2 flush runs ahead of the timed kernel.
__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

}  // namespace

void run_launch(const Context& ctx) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  const long long spin_cycles = 100000;  // ~50 us
  const int reps = ctx.quick ? 50 : 200;

  for (int kernels : {1, 2, 4, 8, 16}) {
    std::vector<double> times;
    for (int r = 0; r < reps + 5; ++r) {
      spin_kernel<<<1, 1, 0, ctx.stream>>>(spin_cycles);
      CUDA_CHECK(cudaEventRecord(start, ctx.stream));
      for (int k = 0; k < kernels; ++k) empty_kernel<<<1, 32, 0, ctx.stream>>>();
      CUDA_CHECK(cudaEventRecord(stop, ctx.stream));
      CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (r >= 5) times.push_back(ms * 1e3);
    }
    CUDA_CHECK_LAUNCH();
    ctx.emit(Record{"launch_queued"}.set("kernels", kernels).set("time_us", median(times)));
  }

  // CUDA graph with `n` empty kernels: per-kernel cost inside a replay.
  for (int n : {10, 100}) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStream_t capture;
    CUDA_CHECK(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < n; ++k) empty_kernel<<<1, 32, 0, capture>>>();
    CUDA_CHECK(cudaStreamEndCapture(capture, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    std::vector<double> times;
    for (int r = 0; r < reps / 2 + 3; ++r) {
      spin_kernel<<<1, 1, 0, ctx.stream>>>(spin_cycles);
      CUDA_CHECK(cudaEventRecord(start, ctx.stream));
      CUDA_CHECK(cudaGraphLaunch(exec, ctx.stream));
      CUDA_CHECK(cudaEventRecord(stop, ctx.stream));
      CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (r >= 3) times.push_back(ms * 1e3);
    }
    ctx.emit(Record{"launch_graph"}.set("kernels", n).set("time_us", median(times)));
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaStreamDestroy(capture));
  }

  // Host issue cost: wall time of asynchronous launches while the GPU is busy (queue not full).
  {
    std::vector<double> per_launch;
    for (int r = 0; r < 5; ++r) {
      spin_kernel<<<1, 1, 0, ctx.stream>>>(2000000);  // ~1 ms: the launches below only queue
      const int n = 200;
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < n; ++k) empty_kernel<<<1, 32, 0, ctx.stream>>>();
      const auto t1 = std::chrono::steady_clock::now();
      CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
      per_launch.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / n);
    }
    ctx.emit(Record{"launch_host"}.set("us_per_launch", median(per_launch)));
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
}

void run_dispatch(const Context& ctx) {
  // Empty 128-thread blocks: beyond a few waves the time grows with the GPU's block dispatch rate.
  for (int blocks : {1024, 4096, 16384, 65536, 262144, 1048576}) {
    const double t = time_us(ctx, [&] { empty_kernel<<<blocks, 128, 0, ctx.stream>>>(); }, ctx.quick ? 5 : 20, false);
    ctx.emit(Record{"dispatch_blocks"}.set("blocks", blocks).set("threads", 128).set("time_us", t));
  }
}

void run_dispatch_width(const Context& ctx) {
  // The block dispatch rate by block size: run_dispatch's 128-thread slope is what the description
  // keeps (launch.blocks_per_us); wider blocks start more warps each, and resident-block limits
  // (blocks or warps per SM) cap how many empty blocks can be in flight. Not used by any fit yet.
  for (int threads : {32, 64, 128, 256, 512, 1024}) {
    for (int blocks : {16384, 65536, 262144}) {
      const double t = time_us(ctx, [&] { empty_kernel<<<blocks, threads, 0, ctx.stream>>>(); }, ctx.quick ? 5 : 20, false);
      ctx.emit(Record{"dispatch_width"}.set("blocks", blocks).set("threads", threads).set("time_us", t));
    }
  }
}

void run_first_touch(const Context& ctx) {
  // do_bench semantics: after the 256 MB flush, a tiny kernel's first loads miss L2 and the TLB.
  // The difference to an empty kernel timed the same way is the first-touch cost.
  unsigned* data = nullptr;
  unsigned* out = nullptr;
  const size_t bytes = size_t(64) << 20;
  CUDA_CHECK(cudaMalloc(&data, bytes));
  CUDA_CHECK(cudaMalloc(&out, 64));
  fill_random_bytes(data, bytes, 7, ctx.stream);
  const int reps = ctx.quick ? 20 : 100;
  const double empty = time_us(ctx, [&] { empty_kernel<<<1, 32, 0, ctx.stream>>>(); }, reps, true);
  for (int lines : {1, 4, 16}) {
    const double cold = time_us(ctx, [&] { touch_kernel<<<1, 1, 0, ctx.stream>>>(data, lines, out); }, reps, true);
    const double warm = time_us(ctx, [&] { touch_kernel<<<1, 1, 0, ctx.stream>>>(data, lines, out); }, reps, false);
    ctx.emit(Record{"first_touch"}
                 .set("lines", lines)
                 .set("empty_us", empty)
                 .set("cold_us", cold)
                 .set("warm_us", warm));
  }
  CUDA_CHECK(cudaFree(data));
  CUDA_CHECK(cudaFree(out));
}

void run_pcie(const Context& ctx) {
  const size_t max_bytes = size_t(256) << 20;
  void* host = nullptr;
  void* dev = nullptr;
  CUDA_CHECK(cudaMallocHost(&host, max_bytes));
  CUDA_CHECK(cudaMalloc(&dev, max_bytes));
  std::memset(host, 1, max_bytes);
  for (size_t bytes : {size_t(64) << 10, size_t(1) << 20, size_t(16) << 20, max_bytes}) {
    const int reps = ctx.quick ? 3 : 10;
    const double h2d = time_us(ctx, [&] { CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, ctx.stream)); },
                               reps, false);
    const double d2h = time_us(ctx, [&] { CUDA_CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, ctx.stream)); },
                               reps, false);
    ctx.emit(Record{"pcie_h2d"}.set("bytes", bytes).set("time_us", h2d).set("gbps", bytes / h2d * 1e-3));
    ctx.emit(Record{"pcie_d2h"}.set("bytes", bytes).set("time_us", d2h).set("gbps", bytes / d2h * 1e-3));
  }
  CUDA_CHECK(cudaFreeHost(host));
  CUDA_CHECK(cudaFree(dev));
}

}  // namespace mb
