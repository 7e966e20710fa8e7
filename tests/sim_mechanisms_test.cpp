// The simulator's mechanisms against expectations computed by hand on a tidy GPU.
#include <catch2/catch.hpp>

#include "sim/kernel_timer.h"
#include "sim/simulator.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;
using test::gpu_builder;

namespace {
wl::RowOp row_op(wl::RowOpKind kind, wl::Count rows, wl::Count cols, DataType dtype) {
  wl::RowOp r;
  r.kind = kind;
  r.rows = rows;
  r.cols = cols;
  r.dtype = dtype;
  return r;
}

double predict_us(const hw::GpuSpec& gpu, const wl::Op& op) {
  sim::OpPredictor p(gpu);
  return p.predict(op).duration_us;
}
}  // namespace

SCENARIO("a bandwidth-bound elementwise kernel takes bytes over bandwidth plus launch") {
  const auto gpu = gpu_builder{}.build();
  wl::ElementwiseOp e;
  e.elements = 1 << 28;  // 1 GiB in, 1 GiB out as fp32
  e.dtype = e.out_dtype = DataType::fp32;
  const double bytes = 2.0 * 4 * e.elements;
  const double expected_us = bytes / 1000e3 + 2.0;  // 1000 GB/s = 1e6 bytes/us, plus launch
  CHECK(predict_us(gpu, e) == Approx(expected_us).epsilon(0.03));
}

SCENARIO("one block more than a full wave takes about two waves") {
  const auto gpu = gpu_builder{}.build();
  models::KernelPlan k;
  k.name = "compute-bound tiles";
  k.threads = 256;
  k.max_blocks_per_sm = 1;
  k.pipe = models::Pipe::tensor;
  k.dtype = DataType::bf16;
  k.pipe_flops = 4e9;  // 1 ms of one SM's tensor rate (400 TFLOP/s over 100 SMs)
  k.blocks = 100;
  const double one_wave = sim::time_kernel(k, gpu).exec_us;
  k.blocks = 101;
  const double one_more = sim::time_kernel(k, gpu).exec_us;
  CHECK(one_wave == Approx(1000).epsilon(0.01));
  CHECK(one_more / one_wave == Approx(2.0).epsilon(0.02));
}

SCENARIO("an fp8 GEMM takes about half the time of a bf16 one when compute bound") {
  const auto gpu = gpu_builder{}.build();
  wl::GemmOp g = test::gemm_builder{}.square(8192).build();
  const double bf16 = predict_us(gpu, g);
  g.dtype = DataType::fp8;
  g.out_dtype = DataType::bf16;
  const double fp8 = predict_us(gpu, g);
  CHECK(fp8 / bf16 == Approx(0.5).epsilon(0.1));
}

SCENARIO("a GEMM at m = 1 is bound by reading the weights") {
  const auto gpu = hw::Catalog(test::source_dir() / "hardware").load("h100-sxm");
  wl::GemmOp g;
  g.m = 1;
  g.n = 8192;
  g.k = 8192;
  g.dtype = g.out_dtype = DataType::bf16;
  sim::OpPredictor p(gpu);
  const auto& t = p.predict(g);
  const double weights = 8192.0 * 8192 * 2;
  const double stream_us = weights / (gpu.memory.bandwidth_gbps * 1e3 * gpu.efficiency.dram_bandwidth);
  CHECK(t.bound == sim::Bound::memory);
  CHECK(t.exec_us >= stream_us);
  CHECK(t.exec_us <= 1.6 * stream_us);
  CHECK(t.dram_bytes >= weights);
}

SCENARIO("an eager run of tiny kernels is host bound and leaves the GPU idle") {
  const auto gpu = gpu_builder{}.host_eager_us(10).build();
  std::string text = "[workload]\nlaunch = \"eager\"\n";
  for (int i = 0; i < 20; ++i) text += "[[kernel]]\nop = \"elementwise\"\nelements = 1024\ndtype = \"fp32\"\n";
  const auto w = wl::read_workload_text(text, "tiny.toml");
  sim::Simulator s(gpu);
  const auto p = s.predict(w);
  THEN("the host's issue rate sets the total") { CHECK(p.total_us >= 20 * 10.0); }
  THEN("the GPU waits for the host most of the time") { CHECK(p.gpu_idle_us() > 0.4 * p.total_us); }
  AND_WHEN("the same kernels are replayed as a CUDA graph") {
    const auto g = wl::read_workload_text(text.replace(text.find("eager"), 5, "graph"), "tiny.toml");
    const auto q = s.predict(g);
    THEN("the GPU no longer waits") { CHECK(q.total_us < 0.5 * p.total_us); }
  }
}

SCENARIO("few blocks cannot use the whole GPU's bandwidth") {
  const auto gpu = gpu_builder{}.sm_bandwidth_gbps(20).build();
  models::KernelPlan k;
  k.threads = 256;
  k.dram_bytes = 20e6;  // 20 MB per block
  k.blocks = 10;        // 10 SMs x 20 GB/s = 200 GB/s, a fifth of the GPU's 1000
  const double t = sim::time_kernel(k, gpu).exec_us;
  CHECK(t == Approx(20e6 / 20e3).epsilon(0.01));
}

SCENARIO("kernels on one stream run in order; streams overlap; dependencies wait") {
  const auto gpu = gpu_builder{}.build();
  const auto w = wl::read_workload_text(R"(
[workload]
launch = "graph"
[[kernel]]
name = "a"
op = "custom"
flops = 0
bytes = 1e8
[[kernel]]
name = "b"
op = "custom"
flops = 0
bytes = 1e8
stream = 1
[[kernel]]
name = "c"
op = "custom"
flops = 0
bytes = 1e6
after = ["b"]
)", "streams.toml");
  sim::Simulator s(gpu);
  const auto p = s.predict(w);
  const auto& a = p.kernels[0].scheduled;
  const auto& b = p.kernels[1].scheduled;
  const auto& c = p.kernels[2].scheduled;
  CHECK(b.start_us < a.end_us);  // the two streams overlap
  CHECK(c.start_us >= a.end_us);  // stream order
  CHECK(c.start_us >= b.end_us);  // cross-stream dependency
  // Sharing DRAM, the two 100 MB kernels together take about as long as 200 MB alone.
  CHECK(std::max(a.end_us, b.end_us) == Approx(2e8 / 1e6).epsilon(0.05));
}

SCENARIO("a softmax pass rereads its rows from DRAM once the resident rows overflow the L2") {
  // 1024 rows of 128K fp32 (512 KB each): a few hundred resident rows need far more than the L2.
  const auto softmax = row_op(wl::RowOpKind::softmax, 1024, 131072, DataType::fp32);
  const double io_bytes = 2.0 * 4 * 1024 * 131072;
  GIVEN("an L2 that holds them all") {
    sim::OpPredictor big(gpu_builder{}.l2_mb(4096).build());
    THEN("only the read and the write reach DRAM") { CHECK(big.predict(softmax).dram_bytes == Approx(io_bytes)); }
  }
  GIVEN("a 1 MB L2") {
    sim::OpPredictor small(gpu_builder{}.l2_mb(1).build());
    THEN("both rereads reach DRAM too, and the op takes about twice as long") {
      sim::OpPredictor big(gpu_builder{}.l2_mb(4096).build());
      CHECK(small.predict(softmax).dram_bytes == Approx(2 * io_bytes).epsilon(0.01));
      CHECK(small.predict(softmax).exec_us / big.predict(softmax).exec_us == Approx(2).epsilon(0.1));
    }
  }
}

SCENARIO("a layer norm over a few long rows waits DRAM round trips in both passes") {
  const auto norm = row_op(wl::RowOpKind::layernorm, 16, 12288, DataType::bf16);
  const auto gpu = gpu_builder{}.build();
  sim::OpPredictor p(gpu);
  const auto t = p.predict(norm);
  // 24 iterations of 128 threads x 4 elements, each pass: 47 dependent DRAM round trips after the first.
  const double dram_round_us = gpu.latency.dram_cycles / gpu.sm.sustained_clock_mhz;
  CHECK(t.bound == sim::Bound::latency);
  CHECK(t.exec_us > 47 * dram_round_us);
}

SCENARIO("causal attention saves half the work only when many blocks share each SM") {
  const auto gpu = hw::Catalog(test::source_dir() / "hardware").load("h100-sxm");
  auto ratio = [&](wl::Count batch, wl::Count seq) {
    wl::AttentionOp a;
    a.batch = batch;
    a.heads = a.kv_heads = 16;
    a.seq_q = a.seq_kv = seq;
    a.head_dim = 128;
    a.dtype = DataType::bf16;
    sim::OpPredictor p(gpu);
    const double full = p.predict(a).exec_us;
    a.causal = true;
    return p.predict(a).exec_us / full;
  };
  WHEN("256 query blocks meet 132 SMs") {
    THEN("some SM still runs a full-length block at the end: little is saved") { CHECK(ratio(1, 2048) > 0.8); }
  }
  WHEN("thousands of query blocks spread over the SMs") {
    THEN("the time approaches half, plus the diagonal's masking") {
      CHECK(ratio(16, 4096) == Approx(0.55).margin(0.05));
    }
  }
}
