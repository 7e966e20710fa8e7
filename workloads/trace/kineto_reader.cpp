// Kineto Chrome trace -> KinetoTrace, with simdjson's on-demand parser: one pass over
// traceEvents, fields read in any order, strings copied only for the events kept.
#include <algorithm>
#include <cctype>
#include <cmath>

#include <simdjson.h>

#include "common/errors.h"
#include "workloads/trace/kineto_trace.h"

namespace gpucast::trace {
namespace {

namespace od = simdjson::ondemand;

[[noreturn]] void fail(const std::string& origin, const std::string& message) {
  throw InputError(SourceLocation{origin}, "", message);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Numbers: Kineto writes ints, floats, and now and then a quoted number or "inf".
double number(od::value v) {
  switch (v.type()) {
    case od::json_type::number: return v.get_double();
    case od::json_type::string: {
      const std::string_view s = v.get_string();
      try {
        return std::stod(std::string(s));
      } catch (...) {
        return std::nan("");
      }
    }
    default: return std::nan("");
  }
}

// -1 for what is not a number an int64 holds (a conversion out of range is undefined behaviour;
// found by the trace_import fuzz harness).
std::int64_t integer(od::value v) {
  const double d = number(v);
  return std::isfinite(d) && std::fabs(d) < 9.2e18 ? static_cast<std::int64_t>(d) : -1;
}

// pid/tid are numbers, or strings such as "stream 7" in older traces.
std::int64_t thread_id(od::value v) {
  if (v.type() == od::json_type::number) return integer(v);
  if (v.type() == od::json_type::string) {
    const std::string_view s = v.get_string();
    std::uint64_t h = 0;  // unsigned: the hash wraps instead of overflowing
    for (char c : s) h = h * 131 + static_cast<unsigned char>(c);
    return static_cast<std::int64_t>(h >> 1);
  }
  return 0;
}

void read_dims3(od::value v, std::int64_t out[3]) {
  int i = 0;
  for (auto e : v.get_array()) {
    if (i < 3) out[i] = integer(e.value());
    ++i;
  }
}

// "Input Dims" (and "Input Strides", same layout): per argument [d0, d1, ...] (a tensor),
// [[...], [...]] (a tensor list) or [].
void read_input_dims(od::value v, std::vector<OpInput>& inputs, bool strides) {
  size_t i = 0;
  for (auto arg : v.get_array()) {
    if (inputs.size() <= i) inputs.resize(i + 1);
    OpInput& in = inputs[i++];
    auto& out = strides ? in.strides : in.shapes;
    od::value a = arg.value();
    if (a.type() != od::json_type::array) continue;
    std::vector<std::int64_t> shape;
    bool any = false, list = false;
    for (auto e : a.get_array()) {
      od::value x = e.value();
      any = true;
      if (x.type() == od::json_type::array) {
        list = true;
        std::vector<std::int64_t> s;
        for (auto d : x.get_array()) s.push_back(integer(d.value()));
        out.push_back(std::move(s));
      } else {
        shape.push_back(integer(x));
      }
    }
    if (list && !strides) in.is_list = true;
    if (!list && any) out.push_back(std::move(shape));
  }
}

void read_strings(od::value v, std::vector<OpInput>& inputs, bool type) {
  size_t i = 0;
  for (auto e : v.get_array()) {
    if (inputs.size() <= i) inputs.resize(i + 1);
    od::value x = e.value();
    std::string text;
    if (x.type() == od::json_type::string) text = std::string(std::string_view(x.get_string()));
    (type ? inputs[i].type : inputs[i].concrete) = std::move(text);
    ++i;
  }
}

struct Args {
  std::int64_t correlation = -1, external_id = -1, device = 0, stream = -1;
  std::int64_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  int registers = 0;
  double shared = 0, bytes = 0;
  std::int64_t wait_on_stream = -1, record_correlation = -1;
  std::vector<OpInput> inputs;
  bool has_dims = false;
};

void read_args(od::object obj, Args& a) {
  for (auto field : obj) {
    const std::string_view key = field.unescaped_key();
    od::value v = field.value();
    if (key == "correlation") a.correlation = integer(v);
    else if (key == "External id" || key == "external id") a.external_id = integer(v);
    else if (key == "device") a.device = integer(v);
    else if (key == "stream") a.stream = integer(v);
    else if (key == "grid") read_dims3(v, a.grid);
    else if (key == "block") read_dims3(v, a.block);
    else if (key == "registers per thread") a.registers = static_cast<int>(integer(v));
    else if (key == "shared memory") a.shared = number(v);
    else if (key == "bytes") a.bytes = number(v);
    else if (key == "Input Dims") {
      read_input_dims(v, a.inputs, false);
      a.has_dims = true;
    } else if (key == "Input Strides") {
      read_input_dims(v, a.inputs, true);
    } else if (key == "Input type") read_strings(v, a.inputs, true);
    else if (key == "Concrete Inputs") read_strings(v, a.inputs, false);
    else if (key == "wait_on_stream") a.wait_on_stream = integer(v);
    else if (key == "wait_on_cuda_event_record_corr_id") a.record_correlation = integer(v);
  }
}

void read_device_properties(od::value v, std::vector<DeviceProperties>& out) {
  for (auto e : v.get_array()) {
    DeviceProperties d;
    for (auto field : e.get_object()) {
      const std::string_view key = field.unescaped_key();
      od::value x = field.value();
      if (key == "id") d.id = static_cast<int>(integer(x));
      else if (key == "name") d.name = std::string(std::string_view(x.get_string()));
      else if (key == "numSms") d.sm_count = static_cast<int>(integer(x));
      else if (key == "totalGlobalMem") d.memory_gb = number(x) / 1e9;
      else if (key == "computeMajor") d.cc_major = static_cast<int>(integer(x));
      else if (key == "computeMinor") d.cc_minor = static_cast<int>(integer(x));
    }
    out.push_back(std::move(d));
  }
}

enum class Cat { other, kernel, memcpy, memset, runtime, cpu_op, annotation, sync, flow };

Cat category(std::string_view cat) {
  const std::string c = lower(cat);
  if (c == "kernel") return Cat::kernel;
  if (c == "gpu_memcpy" || c == "memcpy") return Cat::memcpy;
  if (c == "gpu_memset" || c == "memset") return Cat::memset;
  if (c == "cuda_runtime" || c == "cuda_driver" || c == "runtime") return Cat::runtime;
  if (c == "cpu_op" || c == "operator") return Cat::cpu_op;
  if (c == "user_annotation") return Cat::annotation;
  if (c == "cuda_sync") return Cat::sync;
  if (c == "ac2g") return Cat::flow;
  return Cat::other;
}

bool finite_time(double ts, double dur) { return std::isfinite(ts) && std::isfinite(dur) && dur >= 0; }

void read_event(od::object obj, KinetoTrace& t) {
  std::string_view ph, cat, name;
  double ts = std::nan(""), dur = 0;
  std::int64_t tid = 0;
  Args args;
  bool have_args = false;
  for (auto field : obj) {
    const std::string_view key = field.unescaped_key();
    od::value v = field.value();
    if (key == "ph") ph = v.get_string();
    else if (key == "cat") cat = v.get_string();
    else if (key == "name") name = v.get_string();
    else if (key == "ts") ts = number(v);
    else if (key == "dur") dur = number(v);
    else if (key == "tid") tid = thread_id(v);
    else if (key == "args" && v.type() == od::json_type::object) {
      read_args(v.get_object(), args);
      have_args = true;
    }
  }
  // Strings above point into the parser's buffer, valid until the next string: copy what we keep.
  // (On-demand keeps unescaped strings in a per-document buffer, so they stay valid here.)
  const Cat c = category(cat);
  if (c == Cat::flow) {
    ++t.flows;
    return;
  }
  if (ph != "X") return;
  if (!finite_time(ts, dur)) return;
  switch (c) {
    case Cat::kernel:
    case Cat::memcpy:
    case Cat::memset: {
      GpuActivity g;
      g.kind = c == Cat::kernel ? GpuActivityKind::kernel : c == Cat::memcpy ? GpuActivityKind::memcpy
                                                                            : GpuActivityKind::memset;
      g.name = std::string(name);
      g.ts_us = ts;
      g.dur_us = dur;
      g.device = static_cast<int>(args.device);
      g.stream = args.stream >= 0 ? args.stream : tid;
      g.correlation = args.correlation;
      g.external_id = args.external_id;
      std::copy(args.grid, args.grid + 3, g.grid);
      std::copy(args.block, args.block + 3, g.block);
      g.registers = args.registers;
      g.shared_bytes = args.shared;
      g.bytes = args.bytes;
      t.gpu.push_back(std::move(g));
      return;
    }
    case Cat::runtime: {
      RuntimeCall r;
      r.name = std::string(name);
      r.ts_us = ts;
      r.dur_us = dur;
      r.tid = tid;
      r.correlation = args.correlation;
      r.external_id = args.external_id;
      t.runtime.push_back(std::move(r));
      return;
    }
    case Cat::cpu_op:
    case Cat::annotation: {
      if (name.rfind("ProfilerStep#", 0) == 0) {
        StepSpan s;
        try {
          s.step = std::stoll(std::string(name.substr(13)));
        } catch (...) {
          return;
        }
        s.ts_us = ts;
        s.dur_us = dur;
        t.steps.push_back(s);
        return;
      }
      if (c == Cat::annotation) return;
      CpuOp op;
      op.name = std::string(name);
      op.ts_us = ts;
      op.dur_us = dur;
      op.tid = tid;
      op.external_id = args.external_id;
      op.has_shapes = args.has_dims;
      op.inputs = std::move(args.inputs);
      t.cpu_ops.push_back(std::move(op));
      return;
    }
    case Cat::sync: {
      if (args.wait_on_stream < 0 && args.record_correlation < 0) return;
      StreamWait w;
      w.ts_us = ts;
      w.stream = args.stream >= 0 ? args.stream : tid;
      w.wait_on_stream = args.wait_on_stream;
      w.correlation = args.correlation;
      w.record_correlation = args.record_correlation;
      t.waits.push_back(w);
      return;
    }
    default: return;
  }
  (void)have_args;
}

// 1-based line of byte `offset`, for parse errors.
size_t line_of(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

}  // namespace

KinetoTrace parse_kineto_trace(std::string text, const std::string& origin) {
  KinetoTrace t;
  t.origin = origin;
  if (text.capacity() < text.size() + simdjson::SIMDJSON_PADDING) text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) fail(origin, "not JSON: the file is empty");
  if (text[first] != '{')
    fail(origin, std::string("not a Kineto trace: expected a JSON object ({\"traceEvents\": [...]}), found '") +
                     text[first] + "' at line " + std::to_string(line_of(text, first)));
  od::parser parser;
  od::document doc;
  bool saw_events = false;
  bool iterating = false;  // the document exists: only then can simdjson say where an error is
  try {
    doc = parser.iterate(simdjson::padded_string_view(text.data(), text.size(), text.capacity()));
    iterating = true;
    od::object root = doc.get_object();
    for (auto field : root) {
      const std::string_view key = field.unescaped_key();
      od::value v = field.value();
      if (key == "traceEvents") {
        if (v.type() != od::json_type::array) fail(origin, "not a Kineto trace: \"traceEvents\" is not an array");
        saw_events = true;
        for (auto e : v.get_array()) {
          ++t.events;
          od::value ev = e.value();
          if (ev.type() != od::json_type::object) continue;
          read_event(ev.get_object(), t);
        }
      } else if (key == "deviceProperties" && v.type() == od::json_type::array) {
        read_device_properties(v, t.devices);
      }
    }
  } catch (const simdjson::simdjson_error& e) {
    std::string where;
    const char* loc = nullptr;
    // Asking a document that failed in iterate() for its location reads a null token pointer (found
    // by the trace_import fuzz harness under UBSan; kept in fuzz/regressions/trace_import).
    if (iterating && doc.current_location().get(loc) == simdjson::SUCCESS && loc >= text.data() &&
        loc <= text.data() + text.size())
      where = " near line " + std::to_string(line_of(text, static_cast<size_t>(loc - text.data())));
    std::string message = e.what();
    if (e.error() == simdjson::INCOMPLETE_ARRAY_OR_OBJECT || e.error() == simdjson::UNCLOSED_STRING)
      message += " (the file looks truncated)";
    fail(origin, "not JSON: " + message + where);
  }
  if (!saw_events)
    fail(origin, "not a Kineto trace: no \"traceEvents\" array (expected torch.profiler's export_chrome_trace output)");
  if (t.gpu.empty()) {
    if (t.cpu_ops.empty() && t.runtime.empty())
      fail(origin, "not a Kineto trace: \"traceEvents\" holds no CPU ops, CUDA runtime calls or GPU kernels");
    fail(origin,
         "the trace has no GPU kernels: CUDA activity was not recorded (profile with "
         "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])");
  }
  std::sort(t.steps.begin(), t.steps.end(), [](const auto& a, const auto& b) { return a.step < b.step; });
  return t;
}

KinetoTrace read_kineto_trace(const std::filesystem::path& path) {
  return parse_kineto_trace(read_trace_bytes(path), path.string());
}

}  // namespace gpucast::trace
