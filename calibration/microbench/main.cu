// gpucast-microbench: measures one GPU and prints a JSON document of results. Run by
// `gpucast calibrate` on a GPU machine (or by hand); the GPU's clocks and settings are left alone.
#include <cstring>
#include <ctime>
#include <iostream>
#include <set>
#include <sstream>

#include "common.cuh"

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: gpucast-microbench [--quick] [--only a,b,...] [--device N]\n"
               "benchmarks: dram inflight l2 shared latency compute mma gemm launch pcie\n");
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  mb::Context ctx;
  std::set<std::string> only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) {
      ctx.quick = true;
    } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      std::stringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) only.insert(item);
    } else if (!std::strcmp(argv[i], "--device") && i + 1 < argc) {
      ctx.device = std::atoi(argv[++i]);
    } else {
      usage();
      return 2;
    }
  }
  CUDA_CHECK(cudaSetDevice(ctx.device));
  CUDA_CHECK(cudaGetDeviceProperties(&ctx.prop, ctx.device));
  ctx.sm_count = ctx.prop.multiProcessorCount;
  ctx.l2_bytes = ctx.prop.l2CacheSize;
  CUDA_CHECK(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaMalloc(&ctx.flush_buffer, ctx.flush_bytes));
  std::vector<mb::Record> records;
  ctx.out = &records;

  struct Bench {
    const char* name;
    void (*run)(const mb::Context&);
  };
  const Bench benches[] = {{"dram", mb::run_dram},       {"inflight", mb::run_inflight}, {"l2", mb::run_l2},
                           {"shared", mb::run_shared},   {"latency", mb::run_latency},   {"compute", mb::run_compute},
                           {"mma", mb::run_mma},         {"gemm", mb::run_gemm},         {"launch", mb::run_launch},
                           {"pcie", mb::run_pcie}};
  for (const auto& b : benches) {
    if (!only.empty() && !only.count(b.name)) continue;
    std::fprintf(stderr, "[microbench] %s\n", b.name);
    b.run(ctx);
  }

  int driver = 0, runtime = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::cout << "{\n  \"format\": \"gpucast-microbench/1\",\n";
  std::cout << "  \"date\": \"" << date << "\",\n";
  std::cout << "  \"device\": {\"name\": \"" << json_escape(ctx.prop.name) << "\", \"sm_count\": " << ctx.sm_count
            << ", \"l2_bytes\": " << ctx.l2_bytes << ", \"memory_bytes\": " << ctx.prop.totalGlobalMem
            << ", \"compute_capability\": \"" << ctx.prop.major << "." << ctx.prop.minor
            << "\", \"max_threads_per_sm\": " << ctx.prop.maxThreadsPerMultiProcessor
            << ", \"shared_memory_per_sm\": " << ctx.prop.sharedMemPerMultiprocessor
            << ", \"cuda_driver_version\": " << driver << ", \"cuda_runtime_version\": " << runtime << "},\n";
  std::cout << "  \"results\": [\n";
  for (size_t i = 0; i < records.size(); ++i)
    std::cout << "    " << records[i].json() << (i + 1 < records.size() ? ",\n" : "\n");
  std::cout << "  ]\n}\n";
  return 0;
}
