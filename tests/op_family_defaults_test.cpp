// Op families state each default once, in the op's struct: a workload file that leaves an optional
// parameter out builds the same op as one that writes the default the schema documents.
#include <catch2/catch.hpp>

#include "sim/op_cache_key.h"
#include "workloads/op_params.h"

using namespace gpucast;
using namespace gpucast::wl;

namespace {
// A value of the parameter's kind that every family accepts.
ParamValue sample(const ParamDef& p) {
  switch (p.kind) {
    case ParamKind::integer:
      return ParamValue{std::int64_t{8}};
    case ParamKind::number:
      return ParamValue{8.0};
    case ParamKind::boolean:
      return ParamValue{false};
    case ParamKind::dtype:
      return ParamValue{std::string("bf16")};
    default:
      return ParamValue{std::string(p.choices.empty() ? "" : p.choices.front())};
  }
}
// The documented default as a value of the parameter's kind.
ParamValue parse_default(const ParamDef& p) {
  const std::string text(p.default_text);
  switch (p.kind) {
    case ParamKind::integer:
      return ParamValue{std::int64_t{std::stoll(text)}};
    case ParamKind::number:
      return ParamValue{std::stod(text)};
    case ParamKind::boolean:
      return ParamValue{text == "true"};
    default:
      return ParamValue{text.size() >= 2 && text.front() == '"' ? text.substr(1, text.size() - 2) : text};
  }
}
}  // namespace

SCENARIO("every documented default is the default the op is built with") {
  for (const auto& def : op_defs()) {
    ParamMap base;
    for (const auto& p : def.params)
      if (p.required || p.default_text.empty()) base[std::string(p.name)] = {sample(p), {}};
    const Op plain = build_op(def.op, base, "k", {});
    for (const auto& p : def.params) {
      if (p.required || p.default_text.empty() || p.default_text.front() == '=')
        continue;  // derived: "= dtype"
      INFO(def.op << "." << p.name << " = " << p.default_text);
      ParamMap explicit_default = base;
      explicit_default[std::string(p.name)] = {parse_default(p), {}};
      CHECK(sim::OpEqual{}(plain, build_op(def.op, explicit_default, "k", {})));
    }
  }
}
