// Reading a trace file's bytes: plain, or gzip (by magic bytes), inflated with zlib. The buffer
// keeps simdjson's padding spare so the parser reads it in place.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>

#include <simdjson.h>
#include <zlib.h>

#include "common/errors.h"
#include "common/limits.h"
#include "workloads/trace/kineto_trace.h"

namespace gpucast::trace {
namespace {
// Profiler traces run to hundreds of MB (plain or inflated), so they may be larger than other
// inputs: at least 2 GB, or --max-input-mb when that is higher.
std::uintmax_t max_trace_bytes() { return std::max<std::uintmax_t>(max_input_bytes(), 2048ull << 20); }

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& message) {
  throw InputError(SourceLocation{path.string()}, "", message);
}

std::string inflate_gzip(const std::string& packed, const std::filesystem::path& path) {
  std::string out;
  // The gzip trailer stores the inflated size modulo 4 GiB: a good first guess for the buffer.
  size_t guess = packed.size() * 8;
  if (packed.size() >= 18) {
    const auto* t = reinterpret_cast<const unsigned char*>(packed.data() + packed.size() - 4);
    const size_t isize = size_t(t[0]) | size_t(t[1]) << 8 | size_t(t[2]) << 16 | size_t(t[3]) << 24;
    if (isize >= packed.size() / 2 && isize < (size_t(1) << 32)) guess = isize;
  }
  out.reserve(guess + simdjson::SIMDJSON_PADDING);
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) fail(path, "cannot initialise zlib");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, inflateEnd);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
  z.avail_in = static_cast<uInt>(packed.size());
  constexpr size_t kChunk = 1 << 20;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const size_t used = out.size();
    out.resize(used + kChunk);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    z.avail_out = static_cast<uInt>(kChunk);
    rc = inflate(&z, Z_NO_FLUSH);
    out.resize(used + kChunk - z.avail_out);
    if (out.size() > max_trace_bytes())
      fail(path, "the trace inflates to more than " + std::to_string(max_trace_bytes() >> 20) +
                     " MB; raise the limit with gpucast --max-input-mb N");
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && z.avail_in == 0)
      fail(path, "truncated gzip: the compressed stream ends before its end marker after " +
                     std::to_string(out.size()) + " inflated bytes (was the file cut off while copying?)");
    if (rc != Z_OK)
      fail(path, std::string("corrupt gzip data: ") + (z.msg ? z.msg : "zlib error " + std::to_string(rc)));
  }
  if (out.capacity() < out.size() + simdjson::SIMDJSON_PADDING) out.reserve(out.size() + simdjson::SIMDJSON_PADDING);
  return out;
}

}  // namespace

std::string read_trace_bytes(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) fail(path, "no such trace file");
  if (!std::filesystem::is_regular_file(path, ec))
    fail(path, "not a regular file (a directory, FIFO or device): give a trace file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the trace file");
  const auto size = static_cast<size_t>(std::filesystem::file_size(path, ec));
  if (ec || size > max_trace_bytes())
    fail(path, "the trace is larger than " + std::to_string(max_trace_bytes() >> 20) +
                   " MB; raise the limit with gpucast --max-input-mb N");
  std::string bytes;
  bytes.reserve(size + simdjson::SIMDJSON_PADDING);
  bytes.resize(size);
  if (size > 0 && !in.read(bytes.data(), static_cast<std::streamsize>(size))) fail(path, "cannot read the trace file");
  if (size >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b)
    return inflate_gzip(bytes, path);
  if (path.extension() == ".gz") fail(path, "named .gz but not gzip-compressed (no gzip magic bytes)");
  return bytes;
}

}  // namespace gpucast::trace
