#include "common.cuh"

#include <cmath>

namespace mb {

std::string Record::json() const {
  std::string out = "{\"bench\": \"" + bench + "\"";
  for (const auto& [k, v] : text) out += ", \"" + k + "\": \"" + v + "\"";
  for (const auto& [k, v] : fields) {
    char buf[64];
    if (std::isfinite(v)) std::snprintf(buf, sizeof buf, "%.9g", v);
    else std::snprintf(buf, sizeof buf, "null");
    out += ", \"" + k + "\": " + buf;
  }
  return out + "}";
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double time_us(const Context& ctx, const std::function<void()>& launch, int reps, bool flush, int warmup) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < warmup; ++i) launch();
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    if (flush) ctx.flush_l2();
    CUDA_CHECK(cudaEventRecord(start, ctx.stream));
    launch();
    CUDA_CHECK(cudaEventRecord(stop, ctx.stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK_LAUNCH();
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms * 1e3);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return median(times);
}

namespace {
__global__ void fill_kernel(uint32_t* data, size_t words, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    // Every byte in [1, 0x3f]: finite and non-zero read as fp32, bf16, fp16, fp8 (e4m3) or int8.
    data[i] = (x & 0x3f3f3f3fu) | 0x01010101u;
  }
}
}  // namespace

void fill_random_bytes(void* data, size_t bytes, uint32_t seed, cudaStream_t stream) {
  fill_kernel<<<1024, 256, 0, stream>>>(static_cast<uint32_t*>(data), bytes / 4, seed);
  CUDA_CHECK_LAUNCH();
}

}  // namespace mb
