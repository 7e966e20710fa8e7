// Library GEMM rates per data type through cuBLASLt at large square sizes: what a well-tuned
// tensor-core (or SIMT) GEMM sustains. These shapes are the calibration set; the validation suite
// uses other shapes.
#include "common.cuh"

#include <cublasLt.h>

#define CUBLAS_CHECK(call)                                                                     \
  do {                                                                                         \
    cublasStatus_t st_ = (call);                                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                        \
      std::fprintf(stderr, "cuBLAS error %d at %s:%d\n", static_cast<int>(st_), __FILE__, __LINE__); \
      std::exit(4);                                                                            \
    }                                                                                          \
  } while (0)

namespace mb {
namespace {

struct GemmType {
  const char* name;
  cudaDataType ab;
  cudaDataType cd;
  cublasComputeType_t compute;
  cudaDataType scale;
  int ab_bytes;
  int cd_bytes;
  std::vector<int> sizes;
  bool nn = false;  // also time the NN layout (what PyTorch's row-major A @ B calls); fp8/int8 need TN
};

// Returns the median time in us, or a negative value when cuBLASLt has no algorithm for the type.
double time_gemm(const Context& ctx, cublasLtHandle_t lt, const GemmType& t, int n, bool transpose_a,
                 void* workspace, size_t workspace_bytes) {
  const size_t ab_bytes = size_t(n) * n * t.ab_bytes;
  const size_t cd_bytes = size_t(n) * n * t.cd_bytes;
  void *a = nullptr, *b = nullptr, *d = nullptr;
  CUDA_CHECK(cudaMalloc(&a, ab_bytes));
  CUDA_CHECK(cudaMalloc(&b, ab_bytes));
  CUDA_CHECK(cudaMalloc(&d, cd_bytes));
  // Normally distributed operands, as torch.randn gives: tensor cores draw far more power on such
  // data than on a narrow bit pattern, and the sustained rate drops accordingly.
  const char* fill = t.name == std::string("tf32") ? "fp32" : t.name;
  fill_normal(a, size_t(n) * n, fill, 11, ctx.stream);
  fill_normal(b, size_t(n) * n, fill, 12, ctx.stream);

  cublasLtMatmulDesc_t desc;
  CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc, t.compute, t.scale));
  const cublasOperation_t transa = transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N, transb = CUBLAS_OP_N;
  CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa));
  CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb));
  cublasLtMatrixLayout_t la, lb, lc;
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&la, t.ab, n, n, n));
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lb, t.ab, n, n, n));
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lc, t.cd, n, n, n));
  cublasLtMatmulPreference_t pref;
  CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
  CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                                    sizeof workspace_bytes));
  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  const cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref, 1, &heuristic, &found);
  double us = -1;
  if (st == CUBLAS_STATUS_SUCCESS && found > 0) {
    // Scalars in the scale type.
    float alpha_f = 1.0f, beta_f = 0.0f;
    double alpha_d = 1.0, beta_d = 0.0;
    int alpha_i = 1, beta_i = 0;
    const void* alpha = t.scale == CUDA_R_64F ? static_cast<const void*>(&alpha_d)
                        : t.scale == CUDA_R_32I ? static_cast<const void*>(&alpha_i)
                                                : static_cast<const void*>(&alpha_f);
    const void* beta = t.scale == CUDA_R_64F ? static_cast<const void*>(&beta_d)
                       : t.scale == CUDA_R_32I ? static_cast<const void*>(&beta_i)
                                               : static_cast<const void*>(&beta_f);
    auto run = [&] {
      CUBLAS_CHECK(cublasLtMatmul(lt, desc, alpha, a, la, b, lb, beta, d, lc, d, lc, &heuristic.algo, workspace,
                                  workspace_bytes, ctx.stream));
    };
    // Warm up for ~50 ms so that clocks and power settle as they do under a sustained load.
    us = time_us(ctx, run, ctx.quick ? 3 : 10, true, std::max(3, static_cast<int>(50e3 / (2.0 * n * n * n / 600e6))));
  }
  CUBLAS_CHECK(cublasLtMatmulPreferenceDestroy(pref));
  CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(la));
  CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(lb));
  CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(lc));
  CUBLAS_CHECK(cublasLtMatmulDescDestroy(desc));
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  CUDA_CHECK(cudaFree(d));
  return us;
}

}  // namespace

void run_gemm(const Context& ctx) {
  cublasLtHandle_t lt;
  CUBLAS_CHECK(cublasLtCreate(&lt));
  const size_t workspace_bytes = size_t(64) << 20;
  void* workspace = nullptr;
  CUDA_CHECK(cudaMalloc(&workspace, workspace_bytes));
  // Sizes apart from the validation suite's square GEMMs (2048..4096, 12288, 16384).
  const std::vector<int> big{5120, 6144, 7168, 8192, 10240};
  const std::vector<int> simt{5120, 8192};
  const std::vector<GemmType> types{
      {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2, big, true},
      {"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2, big, true},
      {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F, 4, 4, big, true},
      {"fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 1, 2, big},
      {"int8", CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, CUDA_R_32I, 1, 4, big},
      {"fp32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC, CUDA_R_32F, 4, 4, simt, true},
      {"fp64", CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F, 8, 8, simt, true},
  };
  for (const auto& t : types) {
    for (int n : t.sizes) {
      if (ctx.quick && n != 8192) continue;
      for (const bool transpose_a : {true, false}) {
        if (!transpose_a && !t.nn) continue;
        const double us = time_gemm(ctx, lt, t, n, transpose_a, workspace, workspace_bytes);
        const double flops = 2.0 * n * n * n;
        Record r{"gemm"};
        r.note("dtype", t.name).note("layout", transpose_a ? "tn" : "nn").set("m", n).set("n", n).set("k", n);
        r.set("flops", flops);
        if (us > 0) r.set("time_us", us).set("tflops", flops / us * 1e-6);
        else r.note("status", "no cuBLASLt algorithm");
        ctx.emit(r);
      }
    }
  }
  CUDA_CHECK(cudaFree(workspace));
  CUBLAS_CHECK(cublasLtDestroy(lt));
}

}  // namespace mb
