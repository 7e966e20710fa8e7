#pragma once
// The granularity the memory system moves data in, named once for every kernel model that reasons
// about partial accesses (strided reads that skip pixels, rows that straddle sectors).
namespace gpucast::device {

// DRAM and the L2 move whole 32-byte sectors (hardware fact: global memory is accessed in 32-byte
// segments, CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory").
constexpr double kDramSectorBytes = 32;

}  // namespace gpucast::device
