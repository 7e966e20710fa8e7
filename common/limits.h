#pragma once
// Limits on what gpucast accepts, checked before any arithmetic: input files are regular files of
// bounded size, numbers parse strictly (no overflow, no inf/nan) and products of sizes are formed
// with overflow checks. See docs/robustness.md.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gpucast {

// Largest input file gpucast reads, unless GPUCAST_MAX_INPUT_MB (or `gpucast --max-input-mb N`) raises it.
constexpr std::uintmax_t kDefaultMaxInputBytes = 64ull << 20;
[[nodiscard]] std::uintmax_t max_input_bytes();

// Reads a whole input file. Throws InputError naming the file when it is missing, not a regular file
// (directory, FIFO, device such as /dev/zero), unreadable or larger than max_input_bytes().
[[nodiscard]] std::string read_input_file(const std::filesystem::path& path);

// Strict parses of command-line text: the whole text, no overflow, finite. nullopt otherwise.
[[nodiscard]] std::optional<std::int64_t> parse_int64(std::string_view text);
[[nodiscard]] std::optional<double> parse_finite(std::string_view text);

// a * b, or nullopt when it overflows int64 (either operand negative is allowed).
[[nodiscard]] std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b);

// Filesystem queries that never throw: a name too long for the filesystem, a permission error or
// any other failure reads as "no such file" (the caller's error then names the file).
[[nodiscard]] bool is_file(const std::filesystem::path& path) noexcept;
[[nodiscard]] bool path_exists(const std::filesystem::path& path) noexcept;

// A name read from a file that picks another file (architecture = "hopper"): letters, digits,
// '-', '_' and '.', not starting with '.', at most 64 characters, so it cannot leave its folder.
[[nodiscard]] bool is_plain_name(std::string_view name);

}  // namespace gpucast
