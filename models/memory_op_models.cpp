#include "models/memory_op_models.h"

#include <algorithm>
#include <cmath>

#include "models/backward_kernels.h"
#include "models/elementwise_model.h"
#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// index_select takes indexSelectSmallIndex for at most 16 indices: 128-thread blocks, a block per
// 128 features, at most 8 blocks per SM (aten/src/ATen/native/cuda/Indexing.cu; library fact).
constexpr double kSmallIndexMaxIndices = 16;
constexpr int kIndexSelectThreads = 128;
constexpr double kIndexSelectBlocksPerSm = 8;
// vectorized_gather_kernel: 128-thread blocks, one 16-byte vector per thread (Indexing.cu; library fact).
constexpr int kGatherThreads = 128;
// Past 16 indices index_select gathers through ScatterGatherKernel.cu, which takes the vectorized
// kernel only when fast_gather_kernel_eligible<16> holds: a row (slice) a multiple of 16 bytes, with
// aligned pointers and strides. Any other row width runs the generic _scatter_gather_elementwise_kernel
// <128, 8>: a strided TensorIterator map over output, table and the expanded index, 8 items per
// thread (library facts; the broad set's profiles show the switch: 100-wide fp16 / bf16 and 333-wide
// rows run the generic kernel, 100-wide fp32 rows, 400 bytes, the vectorized one).
constexpr double kGatherRowAlignmentBytes = 16;
constexpr double kGenericGatherOperands = 3;
constexpr double kGenericGatherItemsPerThread = 8;
// Embedding lookups: registers per thread, lane instructions per element and fixed cycles per block
// (index load, address math, the store's completion; assumption).
constexpr int kEmbeddingRegisters = 32;
constexpr double kEmbeddingInstructionsPerElement = 6;
constexpr double kEmbeddingFixedCycles = 300;
// A custom kernel as a well-written one launches it: 8 blocks per SM of 256 threads, 64 registers each
// (assumption).
constexpr double kCustomBlocksPerSm = 8;
constexpr int kCustomThreads = 256;
constexpr int kCustomRegisters = 64;
}  // namespace

std::vector<PlanOption> EmbeddingModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& m = std::get<wl::EmbeddingOp>(op);
  if (m.backward) return {embedding_backward_plan(m, gpu)};
  const double e = bytes_per_element(m.dtype);
  const double tokens = double(m.tokens);
  const double dim = double(m.dim);
  const double rows_bytes = tokens * dim * e;
  KernelPlan k;
  // A row of a table larger than the L2 sits on a page whose translation the kernel does not find in
  // its TLB (the rows are scattered, other traffic or an L2 flush came between): its load first walks
  // the page table, the walk the flush probe measures as first_touch_us.
  const double table_bytes = double(m.vocab) * dim * e;
  const double walk_rounds =
      gpu.fits_in_l2(table_bytes) || gpu.latency().dram <= 0 ? 0 : gpu.launch().first_touch_us / gpu.latency().dram;
  if (tokens <= kSmallIndexMaxIndices) {
    k.name = "indexSelectSmallIndex";
    k.threads = kIndexSelectThreads;
    k.blocks = std::min(std::ceil(dim / kIndexSelectThreads), kIndexSelectBlocksPerSm * gpu.sms());
    // A thread walks every index in turn: the indices share one line, which after its first load
    // hits in the L1, so each row's load waits on the previous one's store, not on an index load.
    k.dram_rounds = 1 + tokens * (1 + walk_rounds);
    k.bytes_in_flight = kIndexSelectThreads * e;
  } else if (std::fmod(dim * e, kGatherRowAlignmentBytes) != 0) {
    // Each element's offset through the OffsetCalculator of three operands; the table's rows are
    // read element by element, the output written once.
    KernelPlan g = strided_map_kernel("_scatter_gather_elementwise_kernel (generic gather)", tokens * dim,
                                      kGenericGatherOperands, rows_bytes + kIndexBytes * tokens, rows_bytes, 0,
                                      gpu, kGenericGatherItemsPerThread);
    // A thread's items run one after another (the functor writes through char pointers, which may
    // alias the index and the table, so no item's loads are hoisted above the previous one's
    // store): each loads its index (an L2 hit, the index line shared by the row's elements), then the
    // table element it names, from DRAM or, for a table the L2 holds, from the L2.
    const bool table_in_l2 = gpu.fits_in_l2(table_bytes);
    g.dram_rounds = table_in_l2 ? 1 : kGenericGatherItemsPerThread;
    g.l2_rounds = kGenericGatherItemsPerThread * (table_in_l2 ? 2 : 1);
    // One item's table element in flight per thread.
    g.bytes_in_flight = g.threads * e;
    // More blocks than fit at once: every later wave's blocks wait their own first load too.
    const device::BlockResources block{g.threads, g.registers, 0, 0};
    const double slots = gpu.sms() * std::max(1, gpu.occupancy(block).blocks_per_sm);
    if (g.blocks > slots) g.dram_rounds += 1;
    return {PlanOption{g.name, {g}, 0}};
  } else {
    k.name = "vectorized_gather_kernel";
    k.threads = kGatherThreads;
    const double vectors = rows_bytes / kVectorBytes;
    k.blocks = std::max(1.0, std::ceil(vectors / kGatherThreads));
    k.dram_rounds = 2 + walk_rounds;  // the index, then the row
    k.bytes_in_flight = kGatherThreads * kVectorBytes;
  }
  k.registers = kEmbeddingRegisters;
  k.simt_instructions = kEmbeddingInstructionsPerElement * tokens * dim / k.blocks;
  k.dram_bytes = (2 * rows_bytes + kIndexBytes * tokens) / k.blocks;
  k.dram_write_bytes = rows_bytes / k.blocks;
  k.l2_bytes = k.dram_bytes;
  k.fixed_cycles = kEmbeddingFixedCycles;
  return {PlanOption{k.name, {k}, 0}};
}

std::vector<PlanOption> CopyModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& c = std::get<wl::CopyOp>(op);
  if (c.kind == wl::CopyKind::d2d) {
    // cudaMemcpyAsync device-to-device runs on a copy engine, not as a kernel (the profiler lists
    // "Memcpy DtoD (Device -> Device)", a memcpy activity): no blocks to dispatch, no kernel's fixed
    // work, no SM's share of the DRAM rate. The engine reads the source and writes the destination at
    // its own sustained rate (the description's efficiency.copy_engine) after the first read's round trip.
    KernelPlan k;
    k.name = "copy engine device->device";
    k.blocks = 1;
    k.threads = gpu.warp_size();  // nominal: the copy engine runs it, not the SMs
    k.reads_dram = c.bytes > 0;
    const double first_read_us = c.bytes > 0 ? gpu.latency().dram : 0;
    k.extra_us = first_read_us + 2 * c.bytes / gpu.rates().copy_engine;
    return {PlanOption{k.name, {k}, 0}};
  }
  KernelPlan k;
  k.blocks = 1;
  k.threads = gpu.warp_size();  // nominal: the copy engine runs it, not the SMs
  k.reads_dram = false;
  // A small host-to-device copy travels inside the command stream: the driver writes its bytes
  // after the copy command and the GPU's front end stores them, with no copy-engine setup (H100:
  // 64 B to 1 KB take 3.9-4.3 us through PyTorch, 1.5 KB and up 8.3-8.7 us; probe-small-copies).
  if (c.kind == wl::CopyKind::h2d && c.bytes <= gpu.host_link().inline_copy_max_bytes) {
    k.name = "inline host->device copy (command stream)";
    k.extra_us = c.bytes / gpu.host_link().rate;
    return {PlanOption{k.name, {k}, 0}};
  }
  k.name = c.kind == wl::CopyKind::h2d ? "copy engine host->device" : "copy engine device->host";
  // The copy engine, not the SMs: a fixed setup, then the host link's sustained rate.
  k.extra_us = gpu.host_link().transfer_latency_us + c.bytes / gpu.host_link().rate;
  return {PlanOption{k.name, {k}, 0}};
}

std::vector<PlanOption> CustomModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& c = std::get<wl::CustomOp>(op);
  KernelPlan k;
  k.name = "custom kernel";
  // Enough blocks to fill every SM several times over, as a well-written kernel does.
  k.blocks = kCustomBlocksPerSm * gpu.sms();
  k.threads = kCustomThreads;
  k.registers = kCustomRegisters;
  if (c.dtype == DataType::fp32 || c.dtype == DataType::fp64) {
    k.pipe = c.dtype == DataType::fp64 ? Pipe::fp64 : Pipe::fp32;
  } else {
    gpu.require_tensor(c.dtype);
    k.pipe = Pipe::tensor;
  }
  k.dtype = c.dtype;
  k.pipe_flops = c.flops / k.blocks;
  k.dram_bytes = c.bytes / k.blocks;
  k.l2_bytes = k.dram_bytes;
  k.dram_rounds = c.bytes > 0 ? 1 : 0;
  k.reads_dram = c.bytes > 0;
  return {PlanOption{k.name, {k}, 0}};
}

}  // namespace gpucast::models
