#include "models/elementwise_model.h"

#include <algorithm>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// SIMT lane-instructions per element beyond its arithmetic: loads, stores, conversions, loop.
constexpr double kVectorizedOverhead = 4;
// A FLOP of a pointwise function costs about this many lane-instructions (transcendentals are
// polynomial sequences; bf16 inputs convert to fp32 and back).
constexpr double kInstructionsPerFlop = 3;
// Lane instructions per element of PyTorch's non-vectorized paths other than the strided map: a
// dynamic cast's type switch per load and store, a transpose's offset arithmetic. The transpose
// calibrated it (kTransposedL2BytesPerElement); a large cast is bound by its loads in flight, so this
// count sets only warm casts (90 against 60 on the dev traces' warm casts).
constexpr double kUnrolledInstructions = 90;
// PyTorch's strided kernel (elementwise_kernel<128, N>, CUDALoops.cuh's legacy path for views that do
// not vectorize: slices, broadcasts, permutes) computes every operand's offset per element through
// its OffsetCalculator and loads or stores each operand's element on its own, so its cost follows
// the operands (inputs, broadcast inputs and outputs), not one count per element. Dev constant: the
// H100 traces' strided kernels (llama125m/1b steps: RoPE's rotate_half negation and x / n, two
// operands, 2.3-2.6 us per M elements; x * rstd, q * cos and adds, three operands, 3.3-3.9 us per M)
// fit about 34 lane instructions per operand beside the arithmetic.
constexpr double kStridedInstructionsPerOperand = 34;
// With the index dimensions known (a trace's strides: ElementwiseOp::index_dims), the count follows
// the OffsetCalculator's loop instead (aten/src/ATen/cuda/detail/OffsetCalculator.cuh, get(): per
// dimension one IntDivider divmod, a multiply-high, add, shift and multiply-subtract, and the loop's
// exit test, then one multiply-add per operand into its offset). Library fact: the divmod's
// instructions per dimension.
constexpr double kDivmodInstructionsPerDim = 5;
// Fit on the dev data, H100 (the H100 traces' strided kernels, validation/runs/h100-sxm/
// trace-llama*.json.gz: index dims 2-5, two and three operands; 12.9% -> 8.0% MAPE over those 1,052
// kernels; validation/h100-sxm/strided.json's dev and calibration broadcast multiplies give a like
// slope, about 14 lane instructions per dimension with three operands against 17 here): lane
// instructions per operand per index dimension (its offset's multiply-add and its stride's operand
// fetch), per operand outside the loop (its address, load or store, conversion), and per element
// (the item loop, the bounds test, the linear index). On validation/h100-sxm/strided-warm.json
// (dev and calibration, RoPE and head-split shapes) the cold kernels go 20.4% -> 19.4% and the
// back-to-back warm ones 22.6% -> 25.1%: its 4-byte kernels run 30-37% above this count, where a
// thread's one load in flight binds (modelled since in plan(): with it, and sim/warm_l2's recent
// reads, cold 21.5% -> 11.5% and warm 26.5% -> 15.5% there, calibrated/h100-sxm).
constexpr double kOffsetInstructionsPerOperandDim = 4;
constexpr double kStridedInstructionsPerOperandAddress = 6;
constexpr double kStridedInstructionsPerItem = 20;
// Lane instructions per element of the strided kernel's offsets, loads and stores: by the
// OffsetCalculator's loop when the index dimensions are known (index_dims > 0), else the count per
// operand fitted without them.
[[nodiscard]] double strided_instructions(double operands, int index_dims) {
  if (index_dims <= 0) return kStridedInstructionsPerOperand * operands;
  return kStridedInstructionsPerItem + kStridedInstructionsPerOperandAddress * operands +
         index_dims * (kDivmodInstructionsPerDim + kOffsetInstructionsPerOperandDim * operands);
}
// unrolled_elementwise_kernel: each thread handles thread_work_size = 4 elements in 128-thread
// blocks (aten/src/ATen/native/cuda/CUDALoops.cuh; library fact). With a dynamic cast
// (LoadWithCast: a switch on the source type per element) its loads do not run ahead of each other:
// measured on the H100, a 16.8M-element bf16 -> fp32 cast takes 54 us at 1,980 MHz and 58 us with the
// SM clock at 1,395 MHz beside GEMMs (calibration/runs/bench_clocks.py, validation/h100-sxm/clocks.json),
// so it is not bound by its instructions, and its 100 MB move at 1.9 TB/s, two thirds of the copy
// rate; one element in flight per thread over the DRAM round trip gives that rate.
constexpr double kUnrolledElementsPerThread = 4;
// The strided kernel's items per thread: launch_legacy_kernel<128, unroll_factor> with unroll_factor
// = sizeof(output) >= 4 ? 2 : 4 (CUDALoops.cuh, gpu_kernel_impl's legacy path; library fact): the
// traces name them elementwise_kernel<128, 2> for fp32 outputs and <128, 4> for 16-bit ones.
[[nodiscard]] double strided_items_per_thread(DataType out) {
  return bytes_per_element(out) >= 4 ? 2 : 4;
}
// The strided kernel and the dynamic cast handle a thread's items one after another, each item's
// loads waiting on the chain before them (the strided kernel's offsets, a divmod per dimension; the
// cast's switch on the source type): a kernel too small to stream still pays this chain per item.
// Fitted (calibration measurement, not a validation set): calibration/runs/bench_graph_tiny.py on
// the H100 (validation/h100-sxm/graph_tiny.json), a strided negation and a bf16 -> fp32 cast of
// 2,048 and 16,384 elements replayed back to back in a CUDA graph cost 2.0 and 2.3 us per kernel,
// 0.7 us more than the model charged without it: about 350 SM cycles per item, both kernels alike.
constexpr double kSerialItemCycles = 350;
// A transposed input (x.t().contiguous()): a warp's 32 loads fall a row apart, one 32-byte sector
// each, so the L2 serves a sector request per element instead of a line per 32-128 elements.
// Dev constant: L2 traffic per transposed element, set so that the 3M-element fp32 transpose (the
// dev split's one large case) comes out within 4% on both GPUs (-3.6% H100, +1.1% H200): more than
// the 32-byte sector, as sector-sized requests do not reach the L2's whole-line streaming rate.
constexpr double kTransposedL2BytesPerElement = 52;
}  // namespace

KernelPlan strided_map_kernel(const std::string& name, double elements, double operands, double read_bytes,
                              double write_bytes, double extra_instructions_per_element,
                              const device::Device& gpu, double elements_per_thread, int index_dims) {
  KernelPlan k = streaming_kernel(name, elements, read_bytes, write_bytes,
                                  strided_instructions(operands, index_dims) + extra_instructions_per_element,
                                  gpu, elements_per_thread);
  k.fixed_cycles += elements_per_thread * kSerialItemCycles;
  return k;
}

std::vector<PlanOption> ElementwiseModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& e = std::get<wl::ElementwiseOp>(op);
  const double n = static_cast<double>(e.elements);
  const double read = n * e.inputs * bytes_per_element(e.dtype);
  const double write = n * e.outputs * bytes_per_element(e.out_dtype);
  // PyTorch's copy_ special-cases contiguous fp32 -> bf16/fp16 (autocast's weight casts, .to()):
  // a typed, vectorized kernel (aten/src/ATen/native/cuda/Copy.cu, float-to-reduced-float path;
  // the traces name it vectorized_elementwise_kernel). Every other cast converts dynamically.
  const bool narrowing_copy = e.contiguous && e.dtype == DataType::fp32 &&
                              (e.out_dtype == DataType::bf16 || e.out_dtype == DataType::fp16);
  const bool cast = (e.out_dtype != e.dtype && !narrowing_copy) || e.mixed_types;
  PlanOption option;
  if (cast || !e.contiguous) {
    option.name = cast                      ? "unrolled elementwise (cast)"
                  : e.transposed_inputs > 0 ? "elementwise on a transposed view"
                                            : "elementwise on strided views";
    // A transpose (calibrated with the unrolled count, kTransposedL2BytesPerElement) and a dynamic
    // cast keep the unrolled kernel's count; a strided map's count follows its operands.
    const double operands = e.inputs + e.broadcast_inputs + e.outputs;
    const double math = kInstructionsPerFlop * e.flops_per_element;
    KernelPlan k = cast || e.transposed_inputs > 0
                       ? streaming_kernel(option.name, n, read, write, kUnrolledInstructions + math, gpu,
                                          kUnrolledElementsPerThread)
                       : strided_map_kernel(option.name, n, operands, read, write, math, gpu,
                                            strided_items_per_thread(e.out_dtype), e.index_dims);
    if (cast && e.transposed_inputs == 0) k.fixed_cycles += kUnrolledElementsPerThread * kSerialItemCycles;
    if (!cast && e.transposed_inputs == 0 && e.inputs > 0) {
      // The strided kernel's items run one after another too: its operands are untyped pointers
      // (char* plus the OffsetCalculator's byte offsets), so the compiler cannot move an item's loads
      // above the previous item's store. One element of each full-size input is in flight per thread
      // (broadcast inputs are small and hit the L2), over one DRAM round trip per item.
      k.bytes_in_flight = k.threads * e.inputs * bytes_per_element(e.dtype);
      k.dram_rounds = strided_items_per_thread(e.out_dtype);
    }
    if (cast) {
      // The dynamic cast loads each item through a switch on its runtime type (fetch_and_cast), so a
      // thread's items load one after another: one element of each input in flight per thread, and
      // the kernel is bound by Little's law, not by its instructions.
      k.bytes_in_flight = k.threads * e.inputs * bytes_per_element(e.dtype);
      k.dram_rounds = kUnrolledElementsPerThread;
    }
    if (e.transposed_inputs > 0) {
      // Each transposed input's bytes reach the SMs as one sector request per element.
      const double transposed = std::min(e.transposed_inputs, e.inputs);
      const double per_input = n * bytes_per_element(e.dtype);
      k.l2_bytes += transposed * (n * kTransposedL2BytesPerElement - per_input) / k.blocks;
    }
    option.kernels.push_back(k);
  } else {
    option.name = "vectorized elementwise";
    const double per_thread = std::max(1.0, kVectorBytes / bytes_per_element(e.dtype));
    option.kernels.push_back(
        streaming_kernel(option.name, n, read, write,
                         kVectorizedOverhead + kInstructionsPerFlop * e.flops_per_element, gpu, per_thread));
  }
  return {option};
}

}  // namespace gpucast::models
