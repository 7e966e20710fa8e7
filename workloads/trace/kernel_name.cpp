#include "workloads/trace/kernel_name.h"

#include <array>
#include <cctype>
#include <string_view>

namespace gpucast::trace {
namespace {

constexpr size_t kMaxHead = 60;

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

void erase_all(std::string& s, std::string_view part) {
  for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at)) s.erase(at, part.size());
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The first identifier after `from` that names the loop's functor: ends in _kernel_cuda,
// _kernel_impl or _kernel, or contains Functor (the PyTorch helpers the loop wraps it in excluded).
std::string functor(std::string_view s, size_t from) {
  for (size_t i = from; i < s.size();) {
    if (!ident_char(s[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && ident_char(s[j])) ++j;
    const std::string_view id = s.substr(i, j - i);
    i = j;
    if (id == "gpu_kernel_impl_nocast" || id == "gpu_kernel_impl" || id == "elementwise_kernel" ||
        id == "vectorized_elementwise_kernel" || id == "unrolled_elementwise_kernel")
      continue;
    if (id.find("Functor") != std::string_view::npos || ends_with(id, "_kernel_cuda") ||
        ends_with(id, "_kernel_impl") || ends_with(id, "_kernel"))
      return std::string(id);
  }
  return "";
}

// The first element type named after `from`, as PyTorch spells it.
std::string element_type(std::string_view s, size_t from) {
  static constexpr std::array<std::string_view, 6> kTypes{"BFloat16", "Half", "float",
                                                          "double",   "long", "bool"};
  size_t best = std::string_view::npos;
  std::string_view found;
  for (auto t : kTypes)
    if (const size_t at = s.find(t, from); at < best) {
      best = at;
      found = t;
    }
  return std::string(found);
}

}  // namespace

std::string short_kernel_name(const std::string& kernel) {
  std::string name = kernel.rfind("void ", 0) == 0 ? kernel.substr(5) : kernel;
  erase_all(name, "(anonymous namespace)::");
  const std::string_view s(name);
  const size_t cut = s.find_first_of("<(");
  std::string head(s.substr(0, cut));
  erase_all(head, "at::native::");
  if (head.find("elementwise_kernel") == std::string::npos || cut == std::string_view::npos || s[cut] != '<')
    return head.size() > kMaxHead ? head.substr(0, kMaxHead) : head;
  // The loop's leading template numbers: "<8," or "<128, 4,".
  std::string numbers;
  size_t i = cut + 1;
  for (int n = 0; n < 2 && i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++n) {
    const size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (!numbers.empty()) numbers += ", ";
    numbers += s.substr(start, i - start);
    if (s.substr(i, 2) == ", ") i += 2;
  }
  std::string out = head;
  if (!numbers.empty()) out += "<" + numbers + ">";
  if (const auto f = functor(s, cut); !f.empty()) out += " " + f;
  if (const auto t = element_type(s, cut); !t.empty()) out += " " + t;
  return out;
}

}  // namespace gpucast::trace
