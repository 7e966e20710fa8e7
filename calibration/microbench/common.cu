#include "common.cuh"

#include <cmath>
#include <type_traits>
#include <cstring>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

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

namespace {
__device__ float normal_at(size_t i, uint32_t seed) {
  auto hash = [](uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
  };
  const uint32_t a = hash(static_cast<uint32_t>(i) * 2u + 1u + seed * 0x9e3779b9u);
  const uint32_t b = hash(static_cast<uint32_t>(i) * 2u + 2u + seed * 0x85ebca6bu);
  const float u1 = (a + 1.0f) * 2.3283064e-10f;  // (0, 1]
  const float u2 = b * 2.3283064e-10f;
  return sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);  // Box-Muller
}

template <typename T>
__global__ void normal_kernel(T* data, size_t count, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    const float v = normal_at(i, seed);
    if constexpr (std::is_same_v<T, int8_t>) {
      data[i] = static_cast<int8_t>(fmaxf(-127.f, fminf(127.f, rintf(v * 32.f))));
    } else {
      data[i] = static_cast<T>(v);
    }
  }
}
}  // namespace

void fill_normal(void* data, size_t count, const char* type, uint32_t seed, cudaStream_t stream) {
  const dim3 grid(1024), block(256);
  if (!std::strcmp(type, "fp32")) normal_kernel<float><<<grid, block, 0, stream>>>(static_cast<float*>(data), count, seed);
  else if (!std::strcmp(type, "fp64")) normal_kernel<double><<<grid, block, 0, stream>>>(static_cast<double*>(data), count, seed);
  else if (!std::strcmp(type, "fp16")) normal_kernel<__half><<<grid, block, 0, stream>>>(static_cast<__half*>(data), count, seed);
  else if (!std::strcmp(type, "bf16")) normal_kernel<__nv_bfloat16><<<grid, block, 0, stream>>>(static_cast<__nv_bfloat16*>(data), count, seed);
  else if (!std::strcmp(type, "fp8")) normal_kernel<__nv_fp8_e4m3><<<grid, block, 0, stream>>>(static_cast<__nv_fp8_e4m3*>(data), count, seed);
  else normal_kernel<int8_t><<<grid, block, 0, stream>>>(static_cast<int8_t*>(data), count, seed);
  CUDA_CHECK_LAUNCH();
}

void fill_random_bytes(void* data, size_t bytes, uint32_t seed, cudaStream_t stream) {
  fill_kernel<<<1024, 256, 0, stream>>>(static_cast<uint32_t*>(data), bytes / 4, seed);
  CUDA_CHECK_LAUNCH();
}

}  // namespace mb
