#pragma once
// A kernel as the simulator sees it: a grid of alike thread blocks, each block's resources and
// work. Op models build these; sim/ turns them into time. Units: bytes, FLOPs, SM cycles.
#include <string>
#include <vector>

#include "common/dtype.h"
#include "device/occupancy.h"
#include "device/pipe.h"
#include "workloads/op.h"

namespace gpucast::models {

using device::Pipe;

struct KernelPlan {
  std::string name;  // what runs, e.g. "gemm 128x256 k64 (1 CTA/SM)"

  // Grid and per-block resources: they set occupancy (blocks resident per SM).
  double blocks = 1;
  int threads = 128;
  int registers = 32;          // per thread
  double shared_bytes = 0;     // per block
  int max_blocks_per_sm = 0;   // kernel's own cap (persistent kernels: 1); 0 = hardware limits only
  // A grid of at most one block per SM whose blocks walk the tiles in a fixed share each (Hopper's
  // cuBLAS GEMMs), each block holding most of its SM's shared memory: a block cannot start on an SM
  // that another kernel's resident blocks hold (sim/sm_residency.h).
  bool persistent = false;
  // The longest block's work over the average block's (the per-block figures below are averages).
  // Above 1 (causal attention), blocks dispatched in launch order leave an SM finishing a long
  // block after the others are done.
  double longest_block_ratio = 1;
  // When above 0: the grid's length in waves of the average block, from the op model's own schedule
  // of its unequal blocks (models/block_dispatch.h); it replaces the wave count and the ratio above.
  double dispatch_waves = 0;

  // Arithmetic per block.
  Pipe pipe = Pipe::none;
  DataType dtype = DataType::fp32;  // for Pipe::tensor / mma_sync
  double pipe_flops = 0;            // FLOPs on `pipe`
  double pipe_efficiency = 1;       // extra factor on the pipe's sustained rate (small tiles, masking)
  double simt_instructions = 0;     // lane-instructions on the SIMT cores (128 lanes per SM per clock)
  double sfu_ops = 0;               // special-function results (exp, rsqrt)
  double overlap = 1;               // 1: pipe and SIMT/SFU work overlap; 0: they serialize

  // Memory per block.
  double dram_bytes = 0;       // DRAM traffic after L2 reuse (reads + writes)
  double dram_write_bytes = 0; // the part of dram_bytes that is stores (they need no bytes in flight)
  double l2_bytes = 0;         // L2-to-SM traffic (includes what DRAM supplies)
  double dram_read_efficiency = 1;  // share of the sustained streaming read rate this access pattern gets
  double dram_write_efficiency = 1;  // share of the sustained store rate this store pattern gets
  double bytes_in_flight = 0;  // DRAM read bytes a block keeps outstanding; 0: enough to saturate
                               // (deep copy-engine / TMA pipelines)
  bool bulk_async_loads = false;  // loads are TMA bulk copies (cp.async.bulk.tensor): what one SM
                                  // draws is not held to the LSU's outstanding-miss limit
                                  // (memory.sm_bandwidth_gbps), only to the device's rate
  double dirty_evicted_bytes = 0;  // dirty L2 lines its DRAM reads evict, written back meanwhile
                                   // (models/l2_writeback.h); none when its loads hit the L2

  // Dependent latency of one block, beyond what the throughput terms cover.
  double dram_rounds = 0;   // dependent DRAM round trips (a load that must wait for the previous)
  double l2_rounds = 0;     // dependent L2 round trips
  // Its dram_rounds are an effective issue limit, not DRAM latency: a load that hits the L2 (a warm
  // consumer, sim/warm_l2.h) leaves them as long (models/batch_norm_model.cpp's transform).
  bool warm_keeps_rounds = false;
  double fixed_cycles = 0;    // serial per-block overhead: syncs, reductions
  double startup_cycles = 0;  // once per kernel, before and after the waves: a persistent kernel's
                              // prologue (descriptor fetch, barrier init) and final epilogue drain

  // Time outside the blocks' work (e.g. a host link transfer), microseconds.
  double extra_us = 0;
  bool reads_dram = true;  // pays the first-touch latency after an L2 flush

  // What one block asks of an SM, for the occupancy rule.
  [[nodiscard]] device::BlockResources resources() const {
    return {threads, registers, shared_bytes, max_blocks_per_sm};
  }
};

// One way a library may run an op: kernels launched back to back on one stream.
struct PlanOption {
  std::string name;
  std::vector<KernelPlan> kernels;
  double host_us = 0;  // host-side library time per call beyond an ordinary launch (e.g. graph lookups)
  // Ops the library runs one after another as their own kernels (an unfused composition, e.g.
  // math attention): each is predicted as that op would be, and their times add to this option's.
  std::vector<wl::Op> sub_ops;
  // host_us is spent between the launches (an engine issuing the kernels one by one, e.g. autograd):
  // each kernel waits for its share of it, so a long kernel hides the host work behind it.
  bool host_between_launches = false;
};

}  // namespace gpucast::models
