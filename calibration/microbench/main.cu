// gpucast-microbench: measures one GPU and prints a JSON document of results. Run by
// `gpucast calibrate` on a GPU machine (or by hand); the GPU's clocks and settings are left alone.
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "common.cuh"

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: gpucast-microbench [--quick] [--only a,b,...] [--device N] [--out FILE]\n"
               "benchmarks: dram stream_sizes inflight l2 shared latency compute mma gemm launch dispatch first_touch pcie\n");
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
  std::string out_path;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) {
      ctx.quick = true;
    } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      std::stringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) only.insert(item);
    } else if (!std::strcmp(argv[i], "--out") && i + 1 < argc) {
      out_path = argv[++i];
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
  const Bench benches[] = {{"dram", mb::run_dram},       {"stream_sizes", mb::run_stream_sizes}, {"inflight", mb::run_inflight}, {"l2", mb::run_l2},
                           {"shared", mb::run_shared},   {"latency", mb::run_latency},   {"compute", mb::run_compute},
                           {"mma", mb::run_mma},         {"gemm", mb::run_gemm},         {"launch", mb::run_launch},
                           {"dispatch", mb::run_dispatch}, {"dispatch_width", mb::run_dispatch_width}, {"first_touch", mb::run_first_touch},
                           {"pcie", mb::run_pcie}};
  int total = 0, done = 0;
  for (const auto& b : benches) total += only.empty() || only.count(b.name);
  for (const auto& b : benches) {
    if (!only.empty() && !only.count(b.name)) continue;
    std::fprintf(stderr, "[microbench] %d/%d %s\n", ++done, total, b.name);
    b.run(ctx);
  }

  int driver = 0, runtime = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::ostringstream doc;
  std::ostream& os = doc;
  os << "{\n  \"format\": \"gpucast-microbench/1\",\n";
  os << "  \"date\": \"" << date << "\",\n";
  os << "  \"device\": {\"name\": \"" << json_escape(ctx.prop.name) << "\", \"sm_count\": " << ctx.sm_count
            << ", \"l2_bytes\": " << ctx.l2_bytes << ", \"memory_bytes\": " << ctx.prop.totalGlobalMem
            << ", \"compute_capability\": \"" << ctx.prop.major << "." << ctx.prop.minor
            << "\", \"max_threads_per_sm\": " << ctx.prop.maxThreadsPerMultiProcessor
            << ", \"shared_memory_per_sm\": " << ctx.prop.sharedMemPerMultiprocessor
            << ", \"cuda_driver_version\": " << driver << ", \"cuda_runtime_version\": " << runtime << "},\n";
  os << "  \"results\": [\n";
  for (size_t i = 0; i < records.size(); ++i)
    os << "    " << records[i].json() << (i + 1 < records.size() ? ",\n" : "\n");
  os << "  ]\n}\n";
  if (out_path.empty()) {
    std::cout << doc.str();
    return 0;
  }
  const std::string tmp = out_path + ".tmp";
  {
    std::ofstream f(tmp);
    f << doc.str();
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), out_path.c_str()) != 0) {
    std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
    return 1;
  }
  return 0;
}
