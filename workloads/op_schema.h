#pragma once
// The workload-file schema of ops (parameter kinds, definitions, values as read) and how an op
// family registers. Every op family is one OpFamily<T> specialization in workloads/ops/<family>.h,
// defined in its .cpp beside it: the op's names in files, its parameters with their ranges, how it
// is built from a file's parameters and written back, its shape text, FLOPs, minimum bytes, compute
// type and host category. op.cpp, op_params.cpp and host_work.cpp only dispatch to it, so adding a
// family is: its ops/<family>.{h,cpp}, one alternative in the Op variant (workloads/op.h), and its
// model (models/op_model.cpp: model_for, which fails to compile without one).
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/dtype.h"
#include "common/errors.h"

namespace gpucast::wl {

using Count = std::int64_t;  // elements, rows, dimensions

enum class ParamKind { integer, number, boolean, dtype, choice, text };

struct ParamDef {
  std::string_view name;
  ParamKind kind;
  bool required;
  std::string_view default_text;  // shown in docs; "" when required or derived ("= heads")
  std::vector<std::string_view> choices;
  std::string_view description;
  // Accepted range (inclusive); numbers must also be finite. 0 for max means "the kind's default":
  // kMaxDim for integers, kMaxNumber for numbers.
  double min = 1;
  double max = 0;
};

// The largest dimension of any op, and the most elements one tensor of an op may hold: sizes
// stay exact in doubles and every product the models form (tiles x batch, bytes) fits in 64 bits.
constexpr std::int64_t kMaxDim = (std::int64_t{1} << 31) - 1;
constexpr double kMaxElements = 281474976710656.0;  // 2^48
constexpr double kMaxNumber = 1e24;
// Stream ids a workload may use.
constexpr std::int64_t kMaxStream = 1023;
// The farthest back a kernel's `input_from_back` may point (kernels on its stream).
constexpr std::int64_t kMaxInputFromBack = 1024;

struct OpDef {
  std::string_view op;
  std::vector<ParamDef> params;
  std::string_view description;
};

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;
// A parameter's value and where it was written. A reader may leave `where.file` empty (workload
// files keep one file name per kernel, not one per parameter); errors then name the kernel's file.
struct LocatedParam {
  ParamValue value;
  SourceLocation where;
};

// One kernel's parameters, name -> value, in the order they were added. A flat list: a kernel has
// a dozen parameters at most, and a tree node per parameter was a fifth of a workload file's load.
class ParamMap {
 public:
  using value_type = std::pair<std::string, LocatedParam>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  [[nodiscard]] iterator begin() { return items_.begin(); }
  [[nodiscard]] iterator end() { return items_.end(); }
  [[nodiscard]] const_iterator begin() const { return items_.begin(); }
  [[nodiscard]] const_iterator end() const { return items_.end(); }
  [[nodiscard]] size_t size() const { return items_.size(); }
  [[nodiscard]] bool empty() const { return items_.empty(); }
  [[nodiscard]] iterator find(std::string_view name);
  [[nodiscard]] const_iterator find(std::string_view name) const;
  [[nodiscard]] size_t count(std::string_view name) const { return find(name) == end() ? 0 : 1; }
  // Adds the parameter unless one of that name is there already (as std::map::emplace does).
  std::pair<iterator, bool> emplace(std::string_view name, LocatedParam value);
  // The parameter of that name, added empty if missing.
  LocatedParam& operator[](std::string_view name);
  // The parameter of that name; std::out_of_range if missing (as std::map::at).
  [[nodiscard]] const LocatedParam& at(std::string_view name) const;
  // Removes every parameter, keeping the storage for the next kernel.
  void clear() { items_.clear(); }
  void reserve(size_t n) { items_.reserve(n); }

 private:
  std::vector<value_type> items_;
};
// An op's parameters as a workload file writes them, in file order (defaults left out).
using ParamList = std::vector<std::pair<std::string, ParamValue>>;

// A kernel's parameters (already type- and range-checked against its OpDef) as an op family's
// build() reads them: typed getters with the struct's own default as fallback, and the checks that
// need several parameters, failing with the parameter's file position and the kernel's name.
class ParamReader {
 public:
  ParamReader(const ParamMap& p, const std::string& kernel, const SourceLocation& where)
      : p_(p), kernel_(kernel), where_(where) {}
  [[nodiscard]] std::int64_t integer(std::string_view name, std::int64_t fallback) const;
  [[nodiscard]] double number(std::string_view name, double fallback) const;
  [[nodiscard]] bool boolean(std::string_view name, bool fallback) const;
  [[nodiscard]] DataType dtype(std::string_view name, DataType fallback) const;
  [[nodiscard]] std::string text(std::string_view name, const std::string& fallback) const;

  void positive(std::string_view name, double v) const;
  void non_negative(std::string_view name, double v) const;
  // The product of a tensor's dimensions, checked against kMaxElements; `name` is the parameter blamed.
  void elements(std::string_view name, std::initializer_list<Count> dims, const char* tensor) const;
  [[noreturn]] void fail(std::string_view name, const std::string& message) const;

 private:
  const ParamMap& p_;
  const std::string& kernel_;
  const SourceLocation& where_;
};

// One op family's registration; specialized (declarations only) in workloads/ops/<family>.h:
//   static std::vector<OpDef> defs();                        names and parameters in files
//   static T build(std::string_view name, const ParamReader&);  from a file (name picks a kind)
//   static ParamList params(const T&);                        back to a file, defaults left out
//   static std::string name(const T&);  static std::string shape(const T&);
//   static double flops(const T&);  static double min_bytes(const T&);
//   static DataType compute_dtype(const T&);
//   static bool library_call(const T&);   host: the op goes through a library's dispatch
//                                          (cuBLAS, cuDNN, SDPA heuristics and descriptors)
template <class T>
struct OpFamily;

// The declarations every family's specialization holds (one macro, so that the list above is the
// one definition of what a family provides).
#define GPUCAST_OP_FAMILY(T)                                                   \
  template <>                                                                  \
  struct OpFamily<T> {                                                         \
    [[nodiscard]] static std::vector<OpDef> defs();                            \
    [[nodiscard]] static T build(std::string_view name, const ParamReader& p); \
    [[nodiscard]] static ParamList params(const T& o);                         \
    [[nodiscard]] static std::string name(const T& o);                         \
    [[nodiscard]] static std::string shape(const T& o);                        \
    [[nodiscard]] static double flops(const T& o);                             \
    [[nodiscard]] static double min_bytes(const T& o);                         \
    [[nodiscard]] static DataType compute_dtype(const T& o);                   \
    [[nodiscard]] static bool library_call(const T& o);                        \
  }

}  // namespace gpucast::wl
