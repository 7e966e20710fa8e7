#include "reports/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

namespace gpucast::reports {

bool Json::as_bool() const {
  if (!is_bool()) throw Error("JSON value is not a boolean");
  return std::get<bool>(value_);
}
double Json::as_number() const {
  if (is_integer()) return static_cast<double>(std::get<std::int64_t>(value_));
  if (value_.index() == 3) return std::get<double>(value_);
  throw Error("JSON value is not a number");
}
std::int64_t Json::as_integer() const {
  if (is_integer()) return std::get<std::int64_t>(value_);
  if (value_.index() == 3) {
    const double d = std::get<double>(value_);
    if (d == std::floor(d)) return static_cast<std::int64_t>(d);
  }
  throw Error("JSON value is not an integer");
}
const std::string& Json::as_string() const {
  if (!is_string()) throw Error("JSON value is not a string");
  return std::get<std::string>(value_);
}
const Json::Array& Json::as_array() const {
  if (!is_array()) throw Error("JSON value is not an array");
  return *std::get<std::shared_ptr<Array>>(value_);
}
const Json::Object& Json::as_object() const {
  if (!is_object()) throw Error("JSON value is not an object");
  return *std::get<std::shared_ptr<Object>>(value_);
}
Json::Array& Json::mutable_array() {
  if (is_null()) value_ = std::make_shared<Array>();
  if (!is_array()) throw Error("JSON value is not an array");
  auto& ptr = std::get<std::shared_ptr<Array>>(value_);
  if (ptr.use_count() > 1) ptr = std::make_shared<Array>(*ptr);  // copy on write
  return *ptr;
}
Json::Object& Json::mutable_object() {
  if (is_null()) value_ = std::make_shared<Object>();
  if (!is_object()) throw Error("JSON value is not an object");
  auto& ptr = std::get<std::shared_ptr<Object>>(value_);
  if (ptr.use_count() > 1) ptr = std::make_shared<Object>(*ptr);
  return *ptr;
}

Json& Json::set(const std::string& key, Json value) {
  auto& object = mutable_object();
  for (auto& [k, v] : object)
    if (k == key) {
      v = std::move(value);
      return v;
    }
  object.emplace_back(key, std::move(value));
  return object.back().second;
}
const Json* Json::get(const std::string& key) const {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : as_object())
    if (k == key) return &v;
  return nullptr;
}
const Json& Json::at(const std::string& key) const {
  const Json* v = get(key);
  if (!v) throw Error("missing JSON key '" + key + "'");
  return *v;
}
Json& Json::push(Json value) {
  auto& array = mutable_array();
  array.push_back(std::move(value));
  return array.back();
}
size_t Json::size() const {
  if (is_array()) return as_array().size();
  if (is_object()) return as_object().size();
  return 0;
}

std::string format_number(double v, int digits) {
  if (!std::isfinite(v)) return "null";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

namespace {
using Library = nlohmann::ordered_json;

// Strings go through the library (escaping, invalid UTF-8 replaced); numbers keep the reports'
// format (integers exact, others to ten significant digits, as in the CSV): the library's Grisu2
// prints 4.447969697 as 4.4479696969999996.
void quote(std::string& out, const std::string& s) {
  out += Library(s).dump(-1, ' ', false, Library::error_handler_t::replace);
}
void newline(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<size_t>(indent * depth), ' ');
}
void write(const Json& v, std::string& out, int indent, int depth) {
  if (v.is_null()) {
    out += "null";
  } else if (v.is_bool()) {
    out += v.as_bool() ? "true" : "false";
  } else if (v.is_integer()) {
    out += std::to_string(v.as_integer());
  } else if (v.is_number()) {
    out += format_number(v.as_number(), 10);
  } else if (v.is_string()) {
    quote(out, v.as_string());
  } else if (v.is_array()) {
    const auto& a = v.as_array();
    out += '[';
    for (size_t i = 0; i < a.size(); ++i) {
      if (i) out += ',';
      newline(out, indent, depth + 1);
      write(a[i], out, indent, depth + 1);
    }
    if (!a.empty()) newline(out, indent, depth);
    out += ']';
  } else {
    const auto& o = v.as_object();
    out += '{';
    for (size_t i = 0; i < o.size(); ++i) {
      if (i) out += ',';
      newline(out, indent, depth + 1);
      quote(out, o[i].first);
      out += indent < 0 ? ":" : ": ";
      write(o[i].second, out, indent, depth + 1);
    }
    if (!o.empty()) newline(out, indent, depth);
    out += '}';
  }
}

// Builds a Json document from the library's SAX events, keeping key order and telling integers
// from other numbers; a syntax error becomes an InputError naming the line and column.
class Builder final : public nlohmann::json_sax<nlohmann::json> {
 public:
  Builder(const std::string& text, const std::string& origin) : text_(text), origin_(origin) {}
  Json result;

  bool null() override { return add(Json()); }
  bool boolean(bool v) override { return add(Json(v)); }
  bool number_integer(number_integer_t v) override { return add(Json(static_cast<long long>(v))); }
  bool number_unsigned(number_unsigned_t v) override {
    if (v > static_cast<number_unsigned_t>(std::numeric_limits<long long>::max()))
      return add(Json(static_cast<double>(v)));
    return add(Json(static_cast<long long>(v)));
  }
  bool number_float(number_float_t v, const string_t&) override { return add(Json(static_cast<double>(v))); }
  bool string(string_t& v) override { return add(Json(v)); }
  bool binary(binary_t&) override { return add(Json()); }
  bool start_object(std::size_t) override {
    stack_.push_back({Json::object(), {}});
    return true;
  }
  bool key(string_t& k) override {
    stack_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    stack_.push_back({Json::array(), {}});
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    // `position` counts the bytes read, the offending one included.
    const size_t end = std::min(position > 0 ? position - 1 : 0, text_.size());
    int line = 1, column = 1;
    for (size_t i = 0; i < end; ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = ex.what();
    // "[json.exception.parse_error.101] parse error at line 2, column 8: syntax error ..." -> "syntax error
    // ..."
    if (const auto at = what.find("column "); at != std::string::npos) {
      if (const auto colon = what.find(": ", at); colon != std::string::npos) what = what.substr(colon + 2);
    } else if (const auto colon = what.find("] "); colon != std::string::npos) {
      what = what.substr(colon + 2);
    }
    throw InputError(SourceLocation{origin_, line, column}, "", "JSON syntax error: " + what);
  }

 private:
  struct Frame {
    Json value;
    std::string key;
  };
  const std::string& text_;
  const std::string& origin_;
  std::vector<Frame> stack_;

  bool add(Json v) {
    if (stack_.empty()) {
      result = std::move(v);
    } else if (stack_.back().value.is_array()) {
      stack_.back().value.push(std::move(v));
    } else {
      stack_.back().value.set(stack_.back().key, std::move(v));
    }
    return true;
  }
  bool close() {
    Json done = std::move(stack_.back().value);
    stack_.pop_back();
    return add(std::move(done));
  }
};
}  // namespace

std::string Json::dump(int indent) const {
  std::string out;
  write(*this, out, indent, 0);
  return out;
}

Json Json::parse(const std::string& text, const std::string& origin) {
  Builder builder(text, origin);
  nlohmann::json::sax_parse(text, &builder);
  return std::move(builder.result);
}

Json Json::parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLocation{path}, "", "cannot open file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse(buffer.str(), path);
}

}  // namespace gpucast::reports
