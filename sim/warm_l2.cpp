#include "sim/warm_l2.h"

#include <algorithm>
#include <type_traits>

namespace gpucast::sim {

double written_bytes(const wl::Op& op) {
  return std::visit(
      [](const auto& o) -> double {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, wl::ElementwiseOp>) {
          return double(o.elements) * bytes_per_element(o.out_dtype) * std::max(1, o.outputs);
        } else if constexpr (std::is_same_v<T, wl::RowOp>) {
          const double cols = o.kind == wl::RowOpKind::reduce ? 1.0 : double(o.cols);
          return double(o.rows) * cols * bytes_per_element(o.dtype);
        } else if constexpr (std::is_same_v<T, wl::GemmOp>) {
          return double(o.m) * double(o.n) * double(o.batch) * bytes_per_element(o.out_dtype);
        } else if constexpr (std::is_same_v<T, wl::AttentionOp>) {
          if (o.backward) return 0.0;
          return double(o.batch) * o.heads * double(o.seq_q) * o.head_dim * bytes_per_element(o.dtype);
        } else if constexpr (std::is_same_v<T, wl::Conv2dOp>) {
          return double(o.n) * double(o.p()) * double(o.q()) * double(o.k) * bytes_per_element(o.dtype);
        } else if constexpr (std::is_same_v<T, wl::CopyOp>) {
          return o.kind == wl::CopyKind::d2d ? o.bytes
                                             : 0.0;  // a device copy writes its bytes through the L2
        } else {
          return 0.0;
        }
      },
      op);
}

double output_elements(const wl::Op& op) {
  if (const auto* e = std::get_if<wl::ElementwiseOp>(&op)) return double(e->elements);
  if (const auto* r = std::get_if<wl::RowOp>(&op))
    return double(r->rows) * (r->kind == wl::RowOpKind::reduce ? 1.0 : double(r->cols));
  if (const auto* g = std::get_if<wl::GemmOp>(&op)) return double(g->m) * double(g->n) * double(g->batch);
  if (const auto* a = std::get_if<wl::AttentionOp>(&op))
    return a->backward ? 0.0 : double(a->batch) * a->heads * double(a->seq_q) * a->head_dim;
  if (const auto* c = std::get_if<wl::Conv2dOp>(&op))
    return double(c->n) * double(c->p()) * double(c->q()) * double(c->k);
  return 0;
}

double input_elements(const wl::Op& op) {
  if (const auto* e = std::get_if<wl::ElementwiseOp>(&op)) return double(e->elements);
  if (const auto* r = std::get_if<wl::RowOp>(&op)) return double(r->rows) * double(r->cols);
  return 0;
}

// Bytes of one input tensor of a pointwise or row op; 0 for other ops.
double input_tensor_bytes(const wl::Op& op) {
  if (const auto* e = std::get_if<wl::ElementwiseOp>(&op))
    return double(e->elements) * bytes_per_element(e->dtype);
  if (const auto* r = std::get_if<wl::RowOp>(&op))
    return double(r->rows) * double(r->cols) * bytes_per_element(r->dtype);
  return 0;
}

double input_bytes(const wl::Op& op) {
  if (const auto* e = std::get_if<wl::ElementwiseOp>(&op))
    return double(e->elements) * bytes_per_element(e->dtype) * std::max(0, e->inputs);
  if (const auto* r = std::get_if<wl::RowOp>(&op))
    return double(r->rows) * double(r->cols) * bytes_per_element(r->dtype);
  return 0;
}

std::optional<OpTiming> warm_l2_timing(const wl::Op& consumer, const OpTiming& cold, const wl::Op& producer,
                                       const device::Device& gpu) {
  const double reads = input_bytes(consumer);
  const double written = written_bytes(producer);
  if (reads <= 0 || written <= 0 || written > gpu.l2_reuse_bytes() || cold.kernels.empty())
    return std::nullopt;
  // The consumer reads the producer's output only when one of its inputs is a tensor of that size
  // (a weight cast after a matmul, a norm's statistics after an activation: other tensors).
  // A device copy has no element type: its bytes must be one of the consumer's inputs' bytes.
  if (const auto* c = std::get_if<wl::CopyOp>(&producer)) {
    if (c->bytes != input_tensor_bytes(consumer)) return std::nullopt;
  } else if (output_elements(producer) != input_elements(consumer)) {
    return std::nullopt;
  }
  const auto& rates = gpu.rates();
  if (rates.dram <= 0 || rates.l2 <= rates.dram) return std::nullopt;
  const double read_hit = std::min(reads, written);
  // Its stores stay in the (write-back) L2 too when its output fits in one partition's reuse share:
  // reading from the L2 it allocates no new lines, so nothing evicts them during the kernel.
  const double out = written_bytes(consumer);
  const double write_hit = out <= gpu.l2_reuse_bytes() / kL2Partitions ? out : 0.0;
  const double hit = std::min(cold.dram_bytes, read_hit + write_hit);
  // The kernel that moves the most bytes takes the hits; only its memory-bound time can shrink.
  const auto it = std::max_element(
      cold.kernels.begin(), cold.kernels.end(),
      [](const KernelTiming& a, const KernelTiming& b) { return a.memory_us < b.memory_us; });
  double saved = std::min(it->memory_us, hit * (1.0 / rates.dram - 1.0 / rates.l2));
  // When the producer's output is all the consumer reads and it fits one partition's reuse share
  // (so none of it was evicted before the consumer reads it: the lines written first, which an
  // in-order consumer reads first, are the first a larger output evicts), every load hits: a kernel
  // bound by its dependent loads (a reduction's few vector loads per thread in one wave) waits the
  // L2's round trip instead of DRAM's on each of them.
  if (read_hit >= reads && written <= gpu.l2_reuse_bytes() / kL2Partitions)
    saved = std::max(saved, it->exec_us - it->l2_input_exec_us);
  if (saved <= 0) return std::nullopt;
  OpTiming warm = cold;
  auto& k = warm.kernels[size_t(it - cold.kernels.begin())];
  const double from_memory = std::min(k.memory_us, saved);
  k.memory_us -= from_memory;
  k.latency_us = std::max(0.0, k.latency_us - (saved - from_memory));
  k.exec_us -= saved;
  k.dram_bytes = std::max(0.0, k.dram_bytes - hit);
  warm.exec_us -= saved;
  warm.duration_us -= saved;
  warm.dram_bytes = std::max(0.0, warm.dram_bytes - hit);
  warm.option += kWarmInputSuffix;
  if (write_hit > 0) warm.option += kKeptOutputSuffix;
  return warm;
}

bool input_warm(const OpTiming& t) {
  return t.option.find(kWarmInputSuffix) != std::string::npos;
}

}  // namespace gpucast::sim
