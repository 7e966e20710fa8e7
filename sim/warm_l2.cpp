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

double moved_bytes(const wl::Op& op) {
  return input_bytes(op) + written_bytes(op);
}

namespace {
// Whether `op` wrote the consumer's input: its output has that input's element count (a device
// copy, having no element type: that input's bytes).
bool wrote_input_of(const wl::Op& op, const wl::Op& consumer) {
  if (const auto* c = std::get_if<wl::CopyOp>(&op))
    return c->kind == wl::CopyKind::d2d && c->bytes == input_tensor_bytes(consumer);
  if (written_bytes(op) <= 0 || output_elements(op) != input_elements(consumer)) return false;
  // A pointwise consumer of one element type reads its input in that type: a tensor of its element
  // count written in another type is another tensor (the previous weight cast's bf16 output before
  // the next weight's fp32 cast). Mixed-type consumers read inputs of several types.
  const auto* e = std::get_if<wl::ElementwiseOp>(&consumer);
  if (e != nullptr && !e->mixed_types) return written_bytes(op) == input_tensor_bytes(consumer);
  return true;
}
// Whether `op` (a pointwise or row op) read a tensor of the consumer's input's element count.
bool read_input_of(const wl::Op& op, const wl::Op& consumer) {
  if (input_bytes(op) <= 0) return false;
  const double n = input_elements(consumer);
  if (input_elements(op) == n) return true;
  // A strided consumer reads a view: one of the kViewParts slices of a tensor the kernel read.
  const auto* e = std::get_if<wl::ElementwiseOp>(&consumer);
  return e != nullptr && !e->contiguous && input_elements(op) == kViewParts * n;
}
// Whether `op` and the consumer are both casts between the same two types. Autocast casts each
// fp32 weight once per forward and caches it (torch.autocast's weight-cast cache: library fact), so a
// cast after a cast of the same types and size reads another tensor: the q, k and v projections'
// weights, cast one after another, or the two 256 x 1024 key/value weights of a grouped-query
// layer. Evidence (dev): llama1b-train's second 262,144-element weight cast in each layer ran 2.08-
// 2.14 us on the H100 like the first (2.11-2.21 us), where a warm read predicted 1.13 us
// (validation/runs/h100-sxm/trace-llama1b-train.json.gz; the H200's and llama125m-train's alike).
bool cast_after_same_cast(const wl::Op& op, const wl::Op& consumer) {
  const auto* a = std::get_if<wl::ElementwiseOp>(&op);
  const auto* b = std::get_if<wl::ElementwiseOp>(&consumer);
  const auto is_cast = [](const wl::ElementwiseOp& e) {
    return e.dtype != e.out_dtype && e.inputs == 1 && e.outputs == 1 && !e.mixed_types;
  };
  return a != nullptr && b != nullptr && is_cast(*a) && is_cast(*b) && a->dtype == b->dtype &&
         a->out_dtype == b->out_dtype;
}
}  // namespace

WarmInput warm_input(const wl::Op& consumer, double consumer_moved_bytes,
                     const std::vector<RecentKernel>& recent, const device::Device& gpu,
                     int input_from_back) {
  WarmInput w;
  const double tensor = input_tensor_bytes(consumer);
  const double reads = input_bytes(consumer);
  if (tensor <= 0 || recent.empty() || recent.back().op == nullptr) return w;
  const double budget = gpu.l2_reuse_bytes();
  // The kernel that wrote the input: the previous one; for a row op also an earlier one of the last
  // kRecentKernels when every kernel since moved no DRAM bytes (resnet50-fwd's batch norms follow
  // their convolution after a Memcpy DtoD of a few KB: validation/runs/h100-sxm/trace-resnet50-fwd).
  const wl::Op* producer_op = recent.back().op;
  double since_producer = 0;  // bytes the kernels after the producer moved
  if (input_from_back > 0) {
    if (size_t(input_from_back) > recent.size()) return w;
    const size_t at = recent.size() - size_t(input_from_back);
    producer_op = recent[at].op;
    if (producer_op == nullptr) return w;
    for (size_t i = at + 1; i < recent.size(); ++i) since_producer += recent[i].moved_bytes;
  } else if (std::holds_alternative<wl::RowOp>(consumer)) {
    const size_t oldest = recent.size() > size_t(kRecentKernels) ? recent.size() - kRecentKernels : 0;
    for (size_t i = recent.size(); i-- > oldest;) {
      if (recent[i].op == nullptr) break;
      if (wrote_input_of(*recent[i].op, consumer)) {
        producer_op = recent[i].op;
        break;
      }
      if (recent[i].moved_bytes > 0) break;
    }
  }
  const wl::Op& producer = *producer_op;
  const double written = written_bytes(producer);
  // A row op writes a new tensor: its stores allocate lines that evict the input's before it reads
  // them unless input and output fit the reuse share together (the LRU bound of the recent-read
  // case below). resnet50-fwd, dev: batch norms of 12.8 MB run warm, of 25.7 MB at their cold time;
  // the training microbenchmark's transforms likewise (models/batch_norm_model.cpp).
  const bool footprint_fits =
      !std::holds_alternative<wl::RowOp>(consumer) || tensor + written_bytes(consumer) <= budget;
  double hit_share = 0;
  if (wrote_input_of(producer, consumer) && written <= budget && footprint_fits) {
    // The previous kernel's output: its dirty lines stay while they fit the reuse share, whatever it
    // read beside them (resnet50-fwd's relu_ after batch norm, 25.7 MB written of 51 MB moved, runs at
    // 4.1 TB/s on the H100: validation/runs/h100-sxm/trace-resnet50-fwd.json.gz, dev).
    // An output larger than one partition's reuse share keeps that much of itself where an in-order
    // consumer finds it (llama125m-train's fp32 `mean` of the 25 MB `pow` output, 0.7 of it by
    // this rule on the H100, runs 7.5-8.3 us against its cold 14.4 us, the backward's `sum` of the
    // same shape: validation/runs/h100-sxm/trace-llama125m-train.json.gz, dev).
    const double share = budget / kL2Partitions;
    if (since_producer > 0) {
      // A producer further back: of that share, what the lines allocated since it (the kernels in
      // between, then the consumer's stores) have not taken. The RMSNorm backward's sum two kernels
      // after its 8.4 MB producer runs as warm as the forward's mean, after 12.6 MB partly, after
      // 16.8 MB at its cold time (validation/runs/h100-sxm/warm-rmsnorm/, dev).
      hit_share = std::clamp((share - since_producer - written_bytes(consumer)) / written, 0.0, 1.0);
    } else {
      hit_share = written <= share ? 1.0 : std::max(0.0, share - written_bytes(consumer)) / written;
    }
    // The previous kernel's output is read from the L2 at least at the L2's rate (its loads' latency
    // by the hit share); one further back only where some of it is left.
    if (since_producer <= 0 || hit_share > 0) w.read_bytes = std::min(tensor, reads);
  } else if (std::holds_alternative<wl::ElementwiseOp>(consumer)) {
    // A tensor a recent kernel read: its clean lines age like every other line. Pointwise consumers
    // only: a batch norm after a convolution reads a tensor of the size an earlier relu read, not the
    // same one (resnet50-fwd, dev: its norms run at their cold time). The last line's distance holds
    // the consumer's whole footprint, the re-read tensor included: a hashed, set-associative L2 does
    // not keep a scan larger than the budget even when its hits refresh their lines
    // (llama125m-train's fp32 x * rstd, 25 MB of x read by `mean` three kernels before and 25 MB
    // written, runs at its cold time: validation/runs/h100-sxm/trace-llama125m-train.json.gz, dev).
    const double consumer_footprint = std::max(consumer_moved_bytes, tensor);
    double since = 0;  // bytes the kernels after the one looked at moved
    const size_t oldest = recent.size() > size_t(kRecentKernels) ? recent.size() - kRecentKernels : 0;
    for (size_t i = recent.size(); i-- > oldest;) {
      const RecentKernel& r = recent[i];
      if (r.op != nullptr && read_input_of(*r.op, consumer) && !cast_after_same_cast(*r.op, consumer) &&
          std::max(r.moved_bytes, tensor) + since <= budget && since + consumer_footprint <= budget) {
        w.read_bytes = std::min(tensor, reads);
        hit_share = 1;
        break;
      }
      since += r.moved_bytes;
      if (since > budget) break;
    }
  }
  if (w.read_bytes <= 0) return w;
  // When that input is all it reads, its loads find the hit share of it in the L2: all of a read set
  // that fits the LRU budget, or of an output that fits one partition's reuse share; of a larger
  // output that share's worth (the lines written first, which an in-order consumer reads first, are
  // the first it evicts).
  w.every_input = w.read_bytes >= reads;
  w.hit_share = hit_share;
  // Its stores stay in the (write-back) L2 too when its output fits in one partition's reuse share:
  // reading from the L2 it allocates no new lines for that input, so nothing evicts them during the
  // kernel.
  const double out = written_bytes(consumer);
  if (out <= budget / kL2Partitions) w.write_bytes = out;
  return w;
}

std::optional<OpTiming> warm_l2_timing(const wl::Op& consumer, const OpTiming& cold, const WarmInput& warm,
                                       const device::Device& gpu) {
  if (warm.read_bytes <= 0 || input_bytes(consumer) <= 0 || cold.kernels.empty()) return std::nullopt;
  const auto& rates = gpu.rates();
  if (rates.dram <= 0 || rates.l2 <= rates.dram) return std::nullopt;
  const double per_byte_us = 1.0 / rates.dram - 1.0 / rates.l2;
  const double hit = std::min(cold.dram_bytes, warm.read_bytes + warm.write_bytes);
  // The kernel that moves the most bytes takes the hits; only its memory-bound time can shrink.
  const auto it = std::max_element(
      cold.kernels.begin(), cold.kernels.end(),
      [](const KernelTiming& a, const KernelTiming& b) { return a.memory_us < b.memory_us; });
  double saved = std::min(it->memory_us, hit * per_byte_us);
  // When that input is all the consumer reads, every load hits: a kernel bound by its dependent
  // loads (a reduction's few vector loads per thread in one wave, the strided kernel's one item in
  // flight per thread) waits the L2's round trip instead of DRAM's on each of them.
  if (warm.every_input) saved = std::max(saved, warm.hit_share * (it->exec_us - it->l2_input_exec_us));
  // Never below the kernel's non-memory bound (its compute and dependent-latency terms): the bytes
  // it no longer moves from DRAM cannot shorten its arithmetic.
  saved = std::min(saved, it->exec_us - it->non_memory_exec_us);
  if (saved <= 0) return std::nullopt;
  OpTiming out = cold;
  auto& k = out.kernels[size_t(it - cold.kernels.begin())];
  const double from_memory = std::min(k.memory_us, saved);
  k.memory_us -= from_memory;
  k.latency_us = std::max(0.0, k.latency_us - (saved - from_memory));
  k.exec_us -= saved;
  k.dram_bytes = std::max(0.0, k.dram_bytes - hit);
  out.exec_us -= saved;
  out.duration_us -= saved;
  out.dram_bytes = std::max(0.0, out.dram_bytes - hit);
  out.option += kWarmInputSuffix;
  if (warm.write_bytes > 0) out.option += kKeptOutputSuffix;
  return out;
}

std::optional<OpTiming> warm_l2_timing(const wl::Op& consumer, const OpTiming& cold, const wl::Op& producer,
                                       const device::Device& gpu) {
  const WarmInput w =
      warm_input(consumer, cold.dram_bytes, {RecentKernel{&producer, moved_bytes(producer)}}, gpu);
  return warm_l2_timing(consumer, cold, w, gpu);
}

bool input_warm(const OpTiming& t) {
  return t.option.find(kWarmInputSuffix) != std::string::npos;
}

double allocated_bytes(const OpTiming& t, const WarmInput& warm) {
  return t.dram_bytes + (input_warm(t) ? warm.write_bytes : 0.0);
}

}  // namespace gpucast::sim
