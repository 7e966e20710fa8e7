#include "reports/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

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
void escape(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}
void newline(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<size_t>(indent * depth), ' ');
}
}  // namespace

void Json::dump_to(std::string& out, int indent, int depth) const {
  switch (value_.index()) {
    case 0: out += "null"; break;
    case 1: out += std::get<bool>(value_) ? "true" : "false"; break;
    case 2: out += std::to_string(std::get<std::int64_t>(value_)); break;
    case 3: out += format_number(std::get<double>(value_), 10); break;
    case 4: escape(out, std::get<std::string>(value_)); break;
    case 5: {
      const auto& a = as_array();
      out += '[';
      for (size_t i = 0; i < a.size(); ++i) {
        if (i) out += ',';
        newline(out, indent, depth + 1);
        a[i].dump_to(out, indent, depth + 1);
      }
      if (!a.empty()) newline(out, indent, depth);
      out += ']';
      break;
    }
    default: {
      const auto& o = as_object();
      out += '{';
      for (size_t i = 0; i < o.size(); ++i) {
        if (i) out += ',';
        newline(out, indent, depth + 1);
        escape(out, o[i].first);
        out += indent < 0 ? ":" : ": ";
        o[i].second.dump_to(out, indent, depth + 1);
      }
      if (!o.empty()) newline(out, indent, depth);
      out += '}';
    }
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

namespace {
class Parser {
 public:
  Parser(const std::string& text, const std::string& origin) : s_(text), origin_(origin) {}

  Json parse_document() {
    skip_ws();
    Json v = parse_value();
    skip_ws();
    if (pos_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  const std::string& s_;
  const std::string& origin_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    int line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw InputError(SourceLocation{origin_, line, column}, "", "JSON syntax error: " + what);
  }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool consume(const char* word) {
    size_t n = std::char_traits<char>::length(word);
    if (s_.compare(pos_, n, word) == 0) {
      pos_ += n;
      return true;
    }
    return false;
  }
  Json parse_value() {
    if (pos_ >= s_.size()) fail("unexpected end of input");
    const char c = s_[pos_];
    if (c == '{') return parse_object();
    if (c == '[') return parse_array();
    if (c == '"') return Json(parse_string());
    if (consume("true")) return Json(true);
    if (consume("false")) return Json(false);
    if (consume("null")) return Json();
    if (consume("NaN")) return Json(std::nan(""));
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
    fail(std::string("unexpected character '") + c + "'");
  }
  Json parse_number() {
    const size_t start = pos_;
    bool is_float = false;
    if (s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c >= '0' && c <= '9') {
        ++pos_;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        is_float = true;
        ++pos_;
      } else {
        break;
      }
    }
    const std::string text = s_.substr(start, pos_ - start);
    char* end = nullptr;
    if (!is_float) {
      const long long v = std::strtoll(text.c_str(), &end, 10);
      if (*end == '\0') return Json(v);
    }
    const double d = std::strtod(text.c_str(), &end);
    if (*end != '\0') fail("malformed number '" + text + "'");
    return Json(d);
  }
  std::string parse_string() {
    ++pos_;  // opening quote
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      c = s_[pos_++];
      switch (c) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("short \\u escape");
          const unsigned code = static_cast<unsigned>(std::stoul(s_.substr(pos_, 4), nullptr, 16));
          pos_ += 4;
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: out += c;
      }
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    ++pos_;
    return out;
  }
  Json parse_array() {
    ++pos_;
    Json out = Json::array();
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return out;
    }
    while (true) {
      skip_ws();
      out.push(parse_value());
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return out;
      }
      fail("expected ',' or ']'");
    }
  }
  Json parse_object() {
    ++pos_;
    Json out = Json::object();
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return out;
    }
    while (true) {
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a quoted key");
      std::string key = parse_string();
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != ':') fail("expected ':'");
      ++pos_;
      skip_ws();
      out.set(key, parse_value());
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return out;
      }
      fail("expected ',' or '}'");
    }
  }
};
}  // namespace

Json Json::parse(const std::string& text, const std::string& origin) { return Parser(text, origin).parse_document(); }

Json Json::parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLocation{path}, "", "cannot open file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse(buffer.str(), path);
}

}  // namespace gpucast::reports
