#pragma once
// Producer -> consumer reuse through the L2 inside a workload. An op's standalone prediction has
// do_bench semantics: the L2 was flushed, every input comes from DRAM. In a real step a pointwise
// or row op usually reads a tensor that one of the last few kernels on the same stream wrote or
// read; when nothing moved since evicted it from the share of the L2 a reused set keeps
// (device::Device::l2_reuse_bytes, `cache.l2_reuse_fraction`: an LRU-like budget), the consumer
// reads it from the L2 instead. The one rule both
// generated workloads and replayed traces use (sim::Simulator::predict applies it).
#include <optional>
#include <string_view>
#include <vector>

#include "device/device.h"
#include "sim/op_predictor.h"
#include "workloads/op.h"

namespace gpucast::sim {

// What warm_l2_timing appends to the option of a timing it made warm, and when the consumer's
// output stays in the L2 as well.
inline constexpr std::string_view kWarmInputSuffix = " (input warm in L2)";
inline constexpr std::string_view kKeptOutputSuffix = " (output kept in L2)";
// The L2 of the GPUs gpucast models is split into two partitions, each SM writing through its near
// one (NVIDIA A100 and H100 whitepapers; library fact): a warm consumer's stores stay in the L2 when
// its output fits in one partition's share of the reuse set (assumption: the partitions split the
// reuse share evenly).
inline constexpr double kL2Partitions = 2;

// Bytes the op writes to its outputs (a device-to-device copy: its bytes); 0 for ops the rule does
// not track. A copy producer matches a consumer by bytes (one of its inputs' bytes), having no
// element type.
[[nodiscard]] double written_bytes(const wl::Op& op);
// Elements of the tensor the op writes (a reduction: its outputs); 0 for ops the rule does not track.
[[nodiscard]] double output_elements(const wl::Op& op);
// Elements of each input tensor of a pointwise or row op; 0 for other ops.
[[nodiscard]] double input_elements(const wl::Op& op);
// Bytes a pointwise or row op reads from its inputs; 0 for other ops (never warm consumers).
[[nodiscard]] double input_bytes(const wl::Op& op);

// How many kernels back on a stream the rule looks for the tensor a consumer reads: a pointwise op
// often reads what a kernel a few launches earlier read or wrote (RoPE's rotate_half negation reads
// q, which the q * cos kernel just before it read; an fp32 x * rstd reads x, which `pow` read two
// kernels earlier). Beyond the last few kernels the bytes moved since have evicted it on every GPU
// the data covers (validation/runs/h100-sxm/trace-*.json.gz, dev: kernels 3+ back move tens of MB).
inline constexpr int kRecentKernels = 4;

// A strided consumer's input may be a slice of a tensor a recent kernel read: RoPE's rotate_half
// reads x[..., d/2:] of the q (or k) that q * cos read just before it (torch.cat((-x2, x1))):
// library fact, the Llama rotate_half of transformers' modeling_llama.py; the traces' neg kernels.
inline constexpr double kViewParts = 2;

// One kernel the stream ran before the consumer and the L2 lines it allocated, which evict older
// ones (allocated_bytes: its DRAM reads and writes, and its stores kept in the L2).
struct RecentKernel {
  const wl::Op* op = nullptr;
  double moved_bytes = 0;
};

// What a consumer finds in the L2: the bytes of one of its inputs that a recent kernel read or
// wrote and nothing since evicted (at most one input tensor: traces carry no tensor identities,
// only sizes), and its own stores that stay there.
struct WarmInput {
  double read_bytes = 0;
  double write_bytes = 0;
  bool every_input = false;  // that input is all the consumer reads from DRAM
  // Of that input, the share its in-order reads find in the L2 (1 unless the producer's output
  // outgrew one L2 partition's reuse share; see warm_input).
  double hit_share = 1;
};

// Bytes a kernel moves through the L2 when no timing is at hand: what a pointwise or row op reads
// plus what any tracked op writes.
[[nodiscard]] double moved_bytes(const wl::Op& op);

// What a consumer finds warm. The previous kernel's output (one of the consumer's inputs has its
// element count) while it fits the reuse share (device::Device::l2_reuse_bytes): dirty lines stay
// whatever the producer read beside them. For a pointwise consumer, also a tensor one of the last
// kRecentKernels kernels read (same element count, or a strided consumer's slice, kViewParts),
// with the L2 as an LRU-like cache of the reuse share's size: a tensor that kernel j read while
// moving P bytes, followed by kernels moving M bytes, is still there for a consumer moving C bytes
// in all when both ends of its in-order re-read fit: its first line (P + M bytes touched since) and
// its last (M + C). A re-read of a set that does not fit finds nothing: each miss evicts the line
// it needs next (validation/h100-sxm/strided-warm.json, dev+calibration: back-to-back copies moving
// 33.6 MB run 15-25% under their cold time on the H100, 50 MB ones within 3-6%; 0.7 x 50 MB =
// 35 MB). `consumer_moved_bytes`: its cold timing's dram_bytes. `recent` runs oldest first, the
// last entry being the kernel just before the consumer.
// `input_from_back` (wl::Kernel): the entry of `recent` that wrote the consumer's input, counted back
// from the last (1); 0 when not known. Of a known producer further back, the consumer finds what
// the lines allocated since (the kernels in between, then its own stores) left of one partition's
// reuse share (WarmInput::hit_share; none left: cold); one older than `recent` is cold.
[[nodiscard]] WarmInput warm_input(const wl::Op& consumer, double consumer_moved_bytes,
                                   const std::vector<RecentKernel>& recent, const device::Device& gpu,
                                   int input_from_back = 0);

// The consumer's timing with `warm` of its bytes in the L2: those reads come at the L2's rate
// instead of DRAM's, and so do its stores when its output fits in one L2 partition's share of the
// reuse set (kL2Partitions), taken off its memory-bound time; when that input is all it reads, its
// dependent loads wait the L2's round trip (KernelTiming::l2_input_exec_us) if that saves more: the
// hit share of them (WarmInput::hit_share), the rest DRAM's, so the time moves that share of the way
// from the cold kernel's to the all-L2 one's (each round trip waits the average latency).
// Never below the kernel with its loads from the L2 (its compute and latency bounds), less its
// stores kept. nullopt when nothing is warm or nothing is saved.
[[nodiscard]] std::optional<OpTiming> warm_l2_timing(const wl::Op& consumer, const OpTiming& cold,
                                                     const WarmInput& warm, const device::Device& gpu);
// The same with one producer (the previous kernel on the stream), its moved bytes from its op.
[[nodiscard]] std::optional<OpTiming> warm_l2_timing(const wl::Op& consumer, const OpTiming& cold,
                                                     const wl::Op& producer, const device::Device& gpu);

// Whether `t` is a warm consumer's timing (its first loads hit the L2).
[[nodiscard]] bool input_warm(const OpTiming& t);

// The L2 lines a kernel allocated (RecentKernel::moved_bytes) given its timing `t` and what it found
// warm: its DRAM bytes and, when warm, its stores kept in the L2 (they evict older lines just the same).
[[nodiscard]] double allocated_bytes(const OpTiming& t, const WarmInput& warm);

}  // namespace gpucast::sim
