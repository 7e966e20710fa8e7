#pragma once
// Multi-GPU systems with round numbers for hand computation: a built GPU of 100 SMs, a fabric of
// `fabric_gbps` per GPU, NCCL fixed cost 10 us, 1 us per step (one protocol: NCCL's protocol tables
// off, tests/multi_gpu_protocol_test.cpp turns them on), ring plateau 0.8, and an efficiency ramp that
// is 1 for any real message (ramp_bytes 1 byte).
#include "hardware/system_spec.h"
#include "support/gpu_builder.h"
#include "workloads/ops/collective.h"

namespace gpucast::test {

inline hw::SystemSpec system_builder(int gpus_per_node, int nodes = 1, double fabric_gbps = 100) {
  hw::SystemSpec s;
  s.id = "test-system";
  s.name = "test system";
  s.gpu = gpu_builder{}.sms(100).build();
  s.nodes = nodes;
  s.gpus_per_node = gpus_per_node;
  s.fabric.kind = hw::FabricKind::nvswitch;
  s.fabric.bandwidth_gbps = fabric_gbps;
  s.fabric.domain_gpus = gpus_per_node;
  s.network.kind = "infiniband-ndr";
  s.network.nics_per_node = nodes > 1 ? gpus_per_node : 0;
  s.network.nic_gbits = nodes > 1 ? 400 : 0;
  s.network.latency_us = 5;
  s.network.efficiency = 1;
  s.nccl.base_latency_us = 10;
  s.nccl.step_latency_us = 1;
  s.nccl.bus_efficiency = 0.8;
  s.nccl.nvls_efficiency = 0.6;
  s.nccl.ramp_bytes = 1;
  s.nccl.ramp_exponent = 1;
  s.nccl.channels = 20;
  s.nccl.protocols = false;
  return s;
}

// A collective call of `bytes` over `ranks` GPUs (`stride` apart: a TP group spread over nodes).
inline wl::CollectiveOp collective_op(wl::CollectiveKind kind, double bytes, int ranks, int stride = 1) {
  wl::CollectiveOp o;
  o.kind = kind;
  o.bytes = bytes;
  o.ranks = ranks;
  o.stride = stride;
  return o;
}

}  // namespace gpucast::test
