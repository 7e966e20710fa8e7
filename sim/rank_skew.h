#pragma once
// Rank skew: every rank's process issues the same program, each at its own host's pace, and an eager
// collective starts on the GPUs only once the slowest rank has issued it. With the ranks' host speeds
// spread by a relative standard deviation s, the slowest of n ranks lags the mean by s x E[max of n
// standard normals] (models::expected_max_standard_normal) of the host time since the ranks last
// synchronized (a host sync waits for the GPU, which waited for every rank's collectives). Measured on
// the lent 2x H200 VM: validation/runs/h200x2/skew (docs/accuracy.md, Multi-GPU).
#include <vector>

#include "sim/op_predictor.h"

namespace gpucast::sim {

// When each kernel may start on the GPU as far as the hosts go: `issue_us` (this rank's host), or for
// a collective with a peer skew, since = the time the ranks last synchronized before it,
//   since + (issue - since) x (1 + skew).
// `since_us[i]`: when the ranks last synchronized before kernel i (0 before any sync).
[[nodiscard]] std::vector<Microseconds> peer_ready_times(const std::vector<const OpTiming*>& ops,
                                                         const std::vector<Microseconds>& issue_us,
                                                         const std::vector<Microseconds>& since_us);

}  // namespace gpucast::sim
