#pragma once
// Producer -> consumer reuse through the L2 inside a workload. An op's standalone prediction has
// do_bench semantics: the L2 was flushed, every input comes from DRAM. In a real step a pointwise
// or row op usually reads what the kernel just before it on the same stream wrote; when that
// output fits in the share of the L2 a reused set keeps (device::Device::l2_reuse_bytes,
// `cache.l2_reuse_fraction`), the consumer reads it from the L2 instead. The one rule both
// generated workloads and replayed traces use (sim::Simulator::predict applies it).
#include <optional>
#include <string_view>

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

// The consumer's timing when `producer` (the previous kernel on its stream) left its output in the
// L2 and one of the consumer's inputs is that output (its size is the output's: a weight cast after
// a matmul, or a broadcast statistic, reads another tensor): the bytes it reads of that output (at
// most its own input bytes) come at the L2's rate instead of DRAM's, and so do its stores when its
// output fits in one L2 partition's share of the reuse set (kL2Partitions), taken off its
// memory-bound time; when that output is all it reads, its dependent loads wait the L2's round trip
// (KernelTiming::l2_input_exec_us) if that saves more. nullopt when the rule does not apply (not a pointwise
// or row consumer, sizes differ, no memory-bound time, or the producer's output does not fit).
[[nodiscard]] std::optional<OpTiming> warm_l2_timing(const wl::Op& consumer, const OpTiming& cold,
                                                     const wl::Op& producer, const device::Device& gpu);

// Whether `t` is a warm consumer's timing (its first loads hit the L2).
[[nodiscard]] bool input_warm(const OpTiming& t);

}  // namespace gpucast::sim
