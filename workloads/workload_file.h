#pragma once
// The workload file format (TOML): a [workload] table and [[kernel]] entries. Reading checks every
// key and value and reports file:line:column; writing produces a file the reader accepts.
#include <filesystem>
#include <string>

#include <toml++/toml.h>

#include "workloads/workload.h"

namespace gpucast::wl {

[[nodiscard]] Workload read_workload_file(const std::filesystem::path& path);
[[nodiscard]] Workload read_workload_text(const std::string& text, const std::string& origin);
// The checking-and-building half of a read, on a document already parsed (`gpucast bench` times
// parse, this, and freeing the document apart).
[[nodiscard]] Workload read_workload_table(const toml::table& root, const std::string& origin);

// TOML text for `w` (explicit dependencies only where they differ from stream order).
[[nodiscard]] std::string write_workload(const Workload& w);

}  // namespace gpucast::wl
