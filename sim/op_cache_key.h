#pragma once
// Hashing and equality of ops by their parameters, for the predictor's cache: identical ops in a
// workload are timed once. Comparing the structs directly costs a few nanoseconds where building
// a text key per kernel cost a microsecond (a million-kernel workload spent most of its time there).
#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>

#include "workloads/op.h"

namespace gpucast::sim {
namespace detail {

inline std::size_t mix(std::size_t h, std::size_t v) {
  // 64-bit combine (splitmix-style), so that shapes differing in one field spread well.
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}
template <typename T>
std::size_t hash_one(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return static_cast<std::size_t>(v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return std::hash<std::string>{}(v);
  } else if constexpr (std::is_same_v<T, double>) {
    std::uint64_t bits = 0;
    const double x = v == 0 ? 0.0 : v;  // -0 and +0 are equal
    std::memcpy(&bits, &x, sizeof bits);
    return static_cast<std::size_t>(bits);
  } else {
    return static_cast<std::size_t>(v);
  }
}

}  // namespace detail

struct OpHash {
  std::size_t operator()(const wl::Op& op) const {
    return std::visit(
        [&](const auto& o) {
          std::size_t h = op.index();
          std::apply([&](const auto&... f) { ((h = detail::mix(h, detail::hash_one(f))), ...); }, o.fields());
          return h;
        },
        op);
  }
};

struct OpEqual {
  bool operator()(const wl::Op& a, const wl::Op& b) const {
    if (a.index() != b.index()) return false;
    return std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          return x.fields() == std::get<T>(b).fields();
        },
        a);
  }
};

}  // namespace gpucast::sim
