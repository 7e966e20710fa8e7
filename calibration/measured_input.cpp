#include "calibration/measured_input.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "calibration/case_variant.h"
#include "reports/json.h"
#include "sim/op_predictor.h"
#include "workloads/op_params.h"

namespace gpucast::calib {
namespace {

struct CsvRow {
  std::vector<std::string> fields;
  int line = 0;
};

// RFC 4180: quoted fields may hold commas, doubled quotes and newlines. Rows keep their first line.
std::vector<CsvRow> parse_csv(const std::string& text, const std::string& origin) {
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string field;
  bool quoted = false, any = false;
  int line = 1;
  row.line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.fields.push_back(field);
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        row.fields.push_back(field);
        rows.push_back(row);
      }
      row = CsvRow{};
      field.clear();
      any = false;
      row.line = ++line;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) throw InputError(SourceLocation{origin, line, 0}, "", "unterminated quoted CSV field");
  if (any || !field.empty()) {
    row.fields.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

double positive_time(double v, const SourceLocation& where, const std::string& key) {
  if (!std::isfinite(v) || v <= 0)
    throw InputError(where, key, "measured time must be a positive, finite number");
  return v;
}

wl::ParamValue param_from_text(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  char* end = nullptr;
  const long long i = std::strtoll(text.c_str(), &end, 10);
  if (end && *end == '\0' && !text.empty()) return static_cast<std::int64_t>(i);
  const double d = std::strtod(text.c_str(), &end);
  if (end && *end == '\0' && !text.empty()) return d;
  return text;
}

void check_op(MeasuredKernel& k, const std::string& key) {
  const wl::OpDef* def = wl::find_op_def(k.op);
  if (!def) throw InputError(k.where, key, "unknown op '" + k.op + "'");
  wl::coerce_to_schema(k.params, *def);
}

std::optional<double> time_column_scale(const std::string& column) {
  if (column == "measured_us") return 1.0;
  if (column == "measured_ms") return 1e3;
  if (column == "measured_ns") return 1e-3;
  return std::nullopt;
}

MeasuredFile read_gpucast_csv(const std::vector<CsvRow>& rows, const std::string& origin) {
  MeasuredFile out;
  out.format = MeasuredFormat::gpucast_csv;
  if (rows.empty()) throw InputError(SourceLocation{origin}, "", "empty measurement file");
  std::vector<std::string> header;
  for (const auto& h : rows[0].fields) header.push_back(trim(h));
  int op_col = -1, name_col = -1, time_col = -1;
  double scale = 1;
  for (size_t c = 0; c < header.size(); ++c) {
    if (header[c] == "op") op_col = int(c);
    if (header[c] == "name") name_col = int(c);
    if (const auto s = time_column_scale(header[c])) time_col = int(c), scale = *s;
  }
  const SourceLocation head{origin, rows[0].line, 0};
  if (op_col < 0) throw InputError(head, "op", "the header needs an 'op' column (gpucast measured CSV)");
  if (time_col < 0)
    throw InputError(head, "measured_us", "the header needs a 'measured_us' (or _ms, _ns) column");
  for (size_t r = 1; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (row.fields.size() == 1 && trim(row.fields[0]).empty()) continue;
    if (row.fields.size() != header.size())
      throw InputError(SourceLocation{origin, row.line, 0}, "",
                       "row has " + std::to_string(row.fields.size()) + " fields, the header " +
                           std::to_string(header.size()));
    MeasuredKernel k;
    k.where = SourceLocation{origin, row.line, 0};
    k.op = trim(row.fields[size_t(op_col)]);
    k.name = name_col >= 0 ? trim(row.fields[size_t(name_col)]) : "";
    if (k.name.empty()) k.name = "row " + std::to_string(row.line);
    const std::string t = trim(row.fields[size_t(time_col)]);
    const auto v = parse_localized_number(t);
    if (!v) throw InputError(k.where, header[size_t(time_col)], "'" + t + "' is not a number");
    k.measured_us = positive_time(*v * scale, k.where, header[size_t(time_col)]);
    std::string variant;
    for (size_t c = 0; c < header.size(); ++c) {
      if (int(c) == op_col || int(c) == name_col || int(c) == time_col) continue;
      const std::string cell = trim(row.fields[c]);
      if (cell.empty()) continue;
      if (header[c] == "variant") {  // not an op parameter: calibration/case_variant.h
        variant = cell;
        continue;
      }
      k.params[header[c]] =
          wl::LocatedParam{param_from_text(cell), SourceLocation{origin, row.line, int(c) + 1}};
    }
    apply_case_variant(k.op, variant, k.params, k.where);
    check_op(k, "op");
    out.kernels.push_back(std::move(k));
  }
  return out;
}

MeasuredFile read_gpucast_json(const std::string& text, const std::string& origin) {
  MeasuredFile out;
  out.format = MeasuredFormat::gpucast_json;
  const auto doc = reports::Json::parse(text, origin);
  const reports::Json* list = doc.is_array() ? &doc : doc.get("kernels");
  if (!list || !list->is_array())
    throw InputError(SourceLocation{origin}, "kernels",
                     "expected {\"kernels\": [...]} or an array of kernels");
  size_t i = 0;
  for (const auto& item : list->as_array()) {
    const std::string where = origin + " kernels[" + std::to_string(i++) + "]";
    MeasuredKernel k;
    k.where = SourceLocation{where};
    if (!item.is_object()) throw InputError(k.where, "", "each kernel is an object");
    const auto* op = item.get("op");
    if (!op || !op->is_string()) throw InputError(k.where, "op", "missing op (a workload-file op name)");
    k.op = op->as_string();
    if (const auto* n = item.get("name"); n && n->is_string()) k.name = n->as_string();
    if (k.name.empty()) k.name = "kernel " + std::to_string(i);
    const reports::Json* time = nullptr;
    std::string key;
    double scale = 1;
    for (const char* c : {"measured_us", "measured_ms", "measured_ns"})
      if (const auto* t = item.get(c)) time = t, key = c, scale = *time_column_scale(c);
    if (!time || !time->is_number())
      throw InputError(k.where, "measured_us", "missing measured time (a number)");
    k.measured_us = positive_time(time->as_number() * scale, k.where, key);
    if (const auto* params = item.get("params")) {
      if (!params->is_object()) throw InputError(k.where, "params", "params is an object of op parameters");
      for (const auto& [pk, pv] : params->as_object()) {
        wl::LocatedParam p;
        p.where = SourceLocation{where + " params"};
        if (pv.is_bool())
          p.value = pv.as_bool();
        else if (pv.is_integer())
          p.value = static_cast<std::int64_t>(pv.as_integer());
        else if (pv.is_number())
          p.value = pv.as_number();
        else if (pv.is_string())
          p.value = pv.as_string();
        else
          throw InputError(p.where, pk, "a parameter is a number, a string or a boolean");
        k.params[pk] = p;
      }
    }
    // A validation set's "variant" (GEMM "layout=XY": the operands' layouts, calibration/case_variant.h).
    if (const auto* variant = item.get("variant")) {
      if (!variant->is_string()) throw InputError(k.where, "variant", "variant is a string (layout=nt)");
      apply_case_variant(k.op, variant->as_string(), k.params, k.where);
    }
    check_op(k, "op");
    out.kernels.push_back(std::move(k));
  }
  return out;
}

MeasuredFile read_ncu_csv(const std::vector<CsvRow>& rows, const std::string& origin) {
  MeasuredFile out;
  out.format = MeasuredFormat::ncu_csv;
  std::map<std::string, size_t> col;
  for (size_t c = 0; c < rows[0].fields.size(); ++c) col[trim(rows[0].fields[c])] = c;
  const SourceLocation head{origin, rows[0].line, 0};
  for (const char* need : {"ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value"})
    if (!col.count(need))
      throw InputError(head, need,
                       "not an Nsight Compute details export (ncu --csv --page details): no column");
  auto cell = [&](const CsvRow& r, const char* name) -> std::string {
    const auto it = col.find(name);
    return it == col.end() || it->second >= r.fields.size() ? std::string() : trim(r.fields[it->second]);
  };
  struct Partial {
    MeasuredKernel k;
    std::optional<double> duration_us, dram_read, dram_write, dram_total, bandwidth;
  };
  std::vector<Partial> kernels;
  std::map<std::string, size_t> by_id;
  for (size_t r = 1; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (row.fields.size() < col.size()) continue;  // ncu prints "==PROF==" lines and blanks
    const SourceLocation where{origin, row.line, 0};
    const std::string id = cell(row, "ID");
    auto [it, fresh] = by_id.emplace(id, kernels.size());
    if (fresh) {
      Partial p;
      p.k.where = where;
      p.k.name = cell(row, "Kernel Name");
      p.k.grid = cell(row, "Grid Size");
      p.k.block = cell(row, "Block Size");
      kernels.push_back(p);
    }
    auto& p = kernels[it->second];
    const std::string metric = cell(row, "Metric Name");
    const std::string unit = cell(row, "Metric Unit");
    const std::string text = cell(row, "Metric Value");
    const auto value = parse_localized_number(text);
    auto number = [&]() {
      if (!value || !std::isfinite(*value) || *value < 0)
        throw InputError(where, metric, "'" + text + "' is not a non-negative number");
      return *value;
    };
    auto bytes = [&]() {
      const auto s = byte_unit_to_bytes(unit);
      if (!s) throw InputError(where, metric, "unknown byte unit '" + unit + "'");
      return number() * *s;
    };
    if (metric == "Duration" || metric == "gpu__time_duration.sum") {
      const auto s = time_unit_to_us(unit);
      if (!s) throw InputError(where, metric, "unknown time unit '" + unit + "'");
      p.duration_us = number() * *s;
    } else if (metric == "dram__bytes.sum" || metric == "DRAM Bytes") {
      p.dram_total = bytes();
    } else if (metric == "dram__bytes_read.sum") {
      p.dram_read = bytes();
    } else if (metric == "dram__bytes_write.sum") {
      p.dram_write = bytes();
    } else if (metric == "Compute (SM) Throughput" || metric == "SM [%]" || metric == "Compute (SM) [%]") {
      p.k.sm_throughput_pct = number();
    } else if (metric == "DRAM Throughput") {
      if (unit == "%") {
        p.k.dram_throughput_pct = number();
      } else if (const auto pos = unit.find("/second"); pos != std::string::npos) {
        const auto s = byte_unit_to_bytes(unit.substr(0, pos));
        if (!s) throw InputError(where, metric, "unknown unit '" + unit + "'");
        p.bandwidth = number() * *s;
      }
    } else if (metric == "Memory Throughput" || metric == "Memory [%]") {
      if (unit == "%") {
        p.k.memory_throughput_pct = number();
      } else if (const auto pos = unit.find("/second"); pos != std::string::npos) {
        const auto s = byte_unit_to_bytes(unit.substr(0, pos));
        if (!s) throw InputError(where, metric, "unknown unit '" + unit + "'");
        p.bandwidth = number() * *s;
      }
    }
  }
  for (auto& p : kernels) {
    if (!p.duration_us)
      throw InputError(
          p.k.where, "Duration",
          "kernel '" + p.k.name + "' has no Duration (export with --page details, the SpeedOfLight section)");
    p.k.measured_us = positive_time(*p.duration_us, p.k.where, "Duration");
    if (p.dram_total)
      p.k.dram_bytes = p.dram_total;
    else if (p.dram_read || p.dram_write)
      p.k.dram_bytes = p.dram_read.value_or(0) + p.dram_write.value_or(0);
    else if (p.bandwidth)
      p.k.dram_bytes = *p.bandwidth * p.k.measured_us * 1e-6;
    out.kernels.push_back(std::move(p.k));
  }
  if (out.kernels.empty())
    throw InputError(SourceLocation{origin}, "", "no kernels in the Nsight Compute export");
  return out;
}

}  // namespace

std::optional<double> parse_localized_number(const std::string& raw) {
  std::string s;
  for (size_t i = 0; i < raw.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c == ' ' || c == '\'' || c == '\t') continue;
    if (c == 0xC2 && i + 1 < raw.size() &&
        static_cast<unsigned char>(raw[i + 1]) == 0xA0) {  // no-break space
      ++i;
      continue;
    }
    s += static_cast<char>(c);
  }
  if (s.empty()) return std::nullopt;
  const auto last_dot = s.rfind('.'), last_comma = s.rfind(',');
  std::string plain;
  if (last_dot != std::string::npos && last_comma != std::string::npos) {
    const char decimal = last_dot > last_comma ? '.' : ',';
    for (char c : s)
      if (c == decimal)
        plain += '.';
      else if (c != '.' && c != ',')
        plain += c;
  } else if (last_comma != std::string::npos) {
    // One comma followed by exactly three digits, or several commas: thousands. Otherwise decimal.
    const bool several = s.find(',') != last_comma;
    const bool three = s.size() - last_comma - 1 == 3;
    for (char c : s)
      if (c != ',')
        plain += c;
      else if (!several && !three)
        plain += '.';
  } else {
    plain = s;
  }
  char* end = nullptr;
  const double v = std::strtod(plain.c_str(), &end);
  if (!end || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<double> time_unit_to_us(const std::string& unit) {
  const std::string u = lower(trim(unit));
  if (u == "nsecond" || u == "ns" || u == "nanosecond") return 1e-3;
  if (u == "usecond" || u == "us" || u == "microsecond") return 1.0;
  if (u == "msecond" || u == "ms" || u == "millisecond") return 1e3;
  if (u == "second" || u == "s") return 1e6;
  return std::nullopt;
}

std::optional<double> byte_unit_to_bytes(const std::string& unit) {
  const std::string u = lower(trim(unit));
  if (u == "byte" || u == "b" || u == "bytes") return 1.0;
  if (u == "kbyte" || u == "kb") return 1e3;
  if (u == "mbyte" || u == "mb") return 1e6;
  if (u == "gbyte" || u == "gb") return 1e9;
  if (u == "tbyte" || u == "tb") return 1e12;
  if (u == "kib") return 1024.0;
  if (u == "mib") return 1024.0 * 1024;
  if (u == "gib") return 1024.0 * 1024 * 1024;
  return std::nullopt;
}

MeasuredFile read_measured_text(const std::string& text, const std::string& origin) {
  size_t first = 0;
  while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
  if (first < text.size() && (text[first] == '{' || text[first] == '['))
    return read_gpucast_json(text, origin);
  auto rows = parse_csv(text, origin);
  // ncu prints "==PROF==" lines before the table.
  rows.erase(
      std::remove_if(rows.begin(), rows.end(),
                     [](const CsvRow& r) { return !r.fields.empty() && r.fields[0].rfind("==", 0) == 0; }),
      rows.end());
  if (rows.empty()) throw InputError(SourceLocation{origin}, "", "empty measurement file");
  for (const auto& f : rows[0].fields)
    if (trim(f) == "Metric Name") return read_ncu_csv(rows, origin);
  return read_gpucast_csv(rows, origin);
}

MeasuredFile read_measured(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLocation{path}, "", "cannot open file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return read_measured_text(buffer.str(), path);
}

ValidationReport validate_measured(const MeasuredFile& file, const std::string& origin,
                                   const hw::GpuSpec& gpu, const wl::Workload* workload) {
  ValidationReport report;
  report.gpu_predicted = gpu.id;
  report.gpu_measured = "your GPU";
  report.measured_on = origin;
  const bool ncu = file.format == MeasuredFormat::ncu_csv;
  report.method =
      ncu ? "Nsight Compute export (ncu --csv --page details), paired in order with the workload's kernels"
          : "measured times from " + origin;
  if (ncu) {
    if (!workload)
      throw InputError(
          SourceLocation{origin}, "",
          "an Nsight Compute export names kernels, not ops: give --workload FILE whose kernels are the "
          "profiled ones, in order");
    if (workload->size() != file.kernels.size())
      throw InputError(SourceLocation{origin}, "",
                       std::to_string(file.kernels.size()) + " kernels profiled but the workload has " +
                           std::to_string(workload->size()) + ": they pair in order, one to one");
  }
  sim::OpPredictor predictor(gpu);
  for (size_t i = 0; i < file.kernels.size(); ++i) {
    const auto& m = file.kernels[i];
    ValidationCase v;
    v.split = "test";
    v.measured_us = m.measured_us;
    v.measured_kernels =
        m.name + (m.grid.empty() ? "" : " grid " + m.grid) + (m.block.empty() ? "" : " block " + m.block);
    v.ncu_sm_pct = m.sm_throughput_pct;
    v.ncu_memory_pct = m.memory_throughput_pct;
    try {
      const wl::Op op = ncu ? workload->kernels()[i].op : wl::build_op(m.op, m.params, m.name, m.where);
      v.id = ncu ? workload->kernels()[i].name : m.name;
      v.op = wl::op_name(op);
      v.family = v.op;
      v.shape = wl::op_shape(op);
      const sim::OpTiming& t = predictor.predict(op);
      v.predicted_us = t.duration_us;
      v.option = t.option;
      v.bound = std::string(sim::bound_name(t.bound));
      set_speed_of_light(v, gpu, sim::sol_pipe(op, predictor.device()), t.flops, t.dram_bytes, m.dram_bytes,
                         t.bound);
    } catch (const UnsupportedError& e) {
      report.skipped.push_back(m.name + ": cannot predict (" + e.what() + ")");
      continue;
    }
    report.cases.push_back(std::move(v));
  }
  summarize_cases(report);
  return report;
}

}  // namespace gpucast::calib
