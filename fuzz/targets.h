#pragma once
// The fuzz targets: one function per input gpucast parses. Each takes arbitrary bytes and must
// return normally: bad input may only end in a gpucast::Error, never in a crash, a hang, another
// exception or a sanitizer report. The libFuzzer harnesses (built with GPUCAST_FUZZ=ON and clang)
// call these, and so does the regression test, which replays the corpora under any compiler.
#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace gpucast::fuzz {

// A GPU description file, loaded through the catalog (extends, architecture defaults), then its
// derived figures; a small workload is predicted on it when it loads.
int gpu_file(const std::uint8_t* data, std::size_t size);
// A workload file, read, written back and predicted on a fixed GPU.
int workload_file(const std::uint8_t* data, std::size_t size);
// A model file, read and generated in each mode (with a small kernel limit) and predicted.
int model_file(const std::uint8_t* data, std::size_t size);
// Lines of `--set key=value` and `--vary spec` text (a line starting with "vary " is a --vary spec).
int set_vary(const std::uint8_t* data, std::size_t size);
// The profiler-trace importer: Kineto JSON parsed, a step selected, linked, imported and replayed.
int trace_import(const std::uint8_t* data, std::size_t size);

// A multi-GPU system description, loaded through the system catalog (extends, defaults, its GPU);
// one rank's workload of every collective kind and a GEMM is predicted on it, and a small
// tensor-parallel decode step generated and predicted where the system has two GPUs or more.
int system_file(const std::uint8_t* data, std::size_t size);
// A host description (the CPU and framework that issue the work), loaded through the host catalog;
// an eager training step and a CUDA-graph decode step of a small model are predicted with it.
int host_file(const std::uint8_t* data, std::size_t size);

// Where the catalog lives (the source tree; GPUCAST_HOME overrides).
std::filesystem::path data_dir();

}  // namespace gpucast::fuzz
