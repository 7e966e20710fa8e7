#include "models/memory_op_models.h"

#include <algorithm>
#include <cmath>

#include "models/backward_kernels.h"
#include "models/helper_kernels.h"

namespace gpucast::models {

std::vector<PlanOption> EmbeddingModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& m = std::get<wl::EmbeddingOp>(op);
  if (m.backward) return {embedding_backward_plan(m, gpu)};
  const double e = bytes_per_element(m.dtype);
  const double tokens = double(m.tokens);
  const double dim = double(m.dim);
  const double rows_bytes = tokens * dim * e;
  KernelPlan k;
  if (tokens <= 16) {
    k.name = "indexSelectSmallIndex";
    k.threads = 128;
    k.blocks = std::min(std::ceil(dim / 128), 8.0 * gpu.sms());
    k.dram_rounds = 2 * tokens;  // each index load gates its row load
    k.bytes_in_flight = 128 * e;
  } else {
    k.name = "vectorized_gather_kernel";
    k.threads = 128;
    const double vectors = rows_bytes / 16;
    k.blocks = std::max(1.0, std::ceil(vectors / 128));
    k.dram_rounds = 2;
    k.bytes_in_flight = 128 * 16;
  }
  k.registers = 32;
  k.simt_instructions = 6 * tokens * dim / k.blocks;
  k.dram_bytes = (2 * rows_bytes + 8 * tokens) / k.blocks;
  k.dram_write_bytes = rows_bytes / k.blocks;
  k.l2_bytes = k.dram_bytes;
  k.fixed_cycles = 300;
  return {PlanOption{k.name, {k}, 0}};
}

std::vector<PlanOption> CopyModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& c = std::get<wl::CopyOp>(op);
  if (c.kind == wl::CopyKind::d2d) {
    KernelPlan k = streaming_kernel("device copy", c.bytes / 16, c.bytes, c.bytes, 2, gpu, 1);
    return {PlanOption{k.name, {k}, 0}};
  }
  KernelPlan k;
  k.name = c.kind == wl::CopyKind::h2d ? "copy engine host->device" : "copy engine device->host";
  k.blocks = 1;
  k.threads = 32;
  k.reads_dram = false;
  // The copy engine, not the SMs: a fixed setup, then the host link's sustained rate.
  k.extra_us = gpu.host_link().transfer_latency_us + c.bytes / gpu.host_link().rate;
  return {PlanOption{k.name, {k}, 0}};
}

std::vector<PlanOption> CustomModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& c = std::get<wl::CustomOp>(op);
  KernelPlan k;
  k.name = "custom kernel";
  // Enough blocks to fill every SM several times over, as a well-written kernel does.
  k.blocks = 8.0 * gpu.sms();
  k.threads = 256;
  k.registers = 64;
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
