#pragma once
// The two-stage collective fit: the GPU's curve from CUDA-graph times (calibration/runs/
// bench_multi_probe.py: 20 calls captured in one graph, so the host's issue time is out of the loop),
// then the host's issue floor from the eager nccl-tests-style (batched) times with that curve fixed.
//
// Stage 1, per collective c, on the graph points: time = nccl.c.gpu_latency_us + steps x step
// latency + wire bytes / (line rate x nccl.c.bus_efficiency x ramp(S)), ramp(S) = 1 / (1 +
// (nccl.c.ramp_bytes / S)^exponent), exponent fixed; the smallest mean |relative error|.
// Stage 2, per collective, on the batched points: time = max(nccl.c.base_latency_us, GPU time).
// Even size indices fit, odd ones are held out (reported, never fitted), in both stages.
#include <string>
#include <vector>

#include "calibration/collective_fit.h"

namespace gpucast::calib {

// Reads bench_multi_probe.py output: per collective and size, the CUDA-graph time per call (the
// smallest over replays of the larger of the two ranks). Sizes below `min_bytes` are skipped; the
// rest are marked even (fit) / odd (held out) per collective.
[[nodiscard]] std::vector<CollectivePoint> read_probe_graph_times(const std::string& path,
                                                                  double min_bytes = 65536);

// The two stages above. `gpu_points` from read_probe_graph_times, `host_points` from read_bench_multi.
[[nodiscard]] CollectiveFit fit_collectives_two_stage(const hw::SystemSpec& base,
                                                      const std::vector<CollectivePoint>& gpu_points,
                                                      const std::vector<CollectivePoint>& host_points,
                                                      double ramp_exponent);

// A point's GPU time (inside a CUDA graph) on `system`.
[[nodiscard]] double predict_point_gpu(const hw::SystemSpec& system, const CollectivePoint& point);

}  // namespace gpucast::calib
