#include "common/limits.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "common/errors.h"

namespace gpucast {

std::uintmax_t max_input_bytes() {
  const char* text = std::getenv("GPUCAST_MAX_INPUT_MB");
  if (!text || !*text) return kDefaultMaxInputBytes;
  const auto mb = parse_int64(text);
  if (!mb || *mb < 1 || *mb > (1 << 20))
    throw UsageError(std::string("GPUCAST_MAX_INPUT_MB must be a whole number of megabytes in 1..1048576, not '") +
                     text + "'");
  return static_cast<std::uintmax_t>(*mb) << 20;
}

std::string read_input_file(const std::filesystem::path& path) {
  const SourceLocation where{path.string()};
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(where, "", "cannot open file (no such file)");
  if (S_ISDIR(st.st_mode)) throw InputError(where, "", "is a directory, not a file");
  if (!S_ISREG(st.st_mode))
    throw InputError(where, "", "is not a regular file (a device, FIFO or socket); give a .toml file");
  const std::uintmax_t limit = max_input_bytes();
  if (static_cast<std::uintmax_t>(st.st_size) > limit)
    throw InputError(where, "",
                     "file is " + std::to_string(st.st_size >> 20) + " MB, over the limit of " +
                         std::to_string(limit >> 20) + " MB; raise it with gpucast --max-input-mb N "
                         "(or GPUCAST_MAX_INPUT_MB=N)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where, "", "cannot open file");
  std::string text(static_cast<size_t>(st.st_size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  // The file may have grown since stat(); read no more than the limit.
  if (in && in.peek() != std::char_traits<char>::eof())
    throw InputError(where, "", "file changed while being read");
  return text;
}

std::optional<std::int64_t> parse_int64(std::string_view text) {
  const std::string s(text);
  if (s.empty() || s.size() > 40) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || errno != 0) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

std::optional<double> parse_finite(std::string_view text) {
  const std::string s(text);
  if (s.empty() || s.size() > 64) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

bool is_plain_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name[0] == '.') return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

bool is_file(const std::filesystem::path& path) noexcept {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && !ec;
}

bool path_exists(const std::filesystem::path& path) noexcept {
  std::error_code ec;
  return std::filesystem::exists(path, ec) && !ec;
}

}  // namespace gpucast
