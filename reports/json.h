#pragma once
// A JSON value as the reports build it: ordered objects (stable output) and exact integers. Reading
// and writing go through nlohmann/json (Debian's nlohmann-json3-dev); this type is the small
// document the rest of the code builds and reads, so no other file depends on the library.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/errors.h"

namespace gpucast::reports {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;  // insertion order is output order

  Json() = default;  // null
  Json(std::nullptr_t) {}
  Json(bool v) : value_(v) {}
  Json(int v) : value_(static_cast<std::int64_t>(v)) {}
  Json(long v) : value_(static_cast<std::int64_t>(v)) {}
  Json(long long v) : value_(static_cast<std::int64_t>(v)) {}
  Json(unsigned v) : value_(static_cast<std::int64_t>(v)) {}
  Json(unsigned long v) : value_(static_cast<std::int64_t>(v)) {}
  Json(double v) : value_(v) {}
  Json(const char* v) : value_(std::string(v)) {}
  Json(std::string v) : value_(std::move(v)) {}
  Json(std::string_view v) : value_(std::string(v)) {}
  Json(Array v) : value_(std::make_shared<Array>(std::move(v))) {}
  Json(Object v) : value_(std::make_shared<Object>(std::move(v))) {}

  static Json object() { return Json(Object{}); }
  static Json array() { return Json(Array{}); }

  [[nodiscard]] bool is_null() const { return value_.index() == 0; }
  [[nodiscard]] bool is_bool() const { return value_.index() == 1; }
  [[nodiscard]] bool is_number() const { return value_.index() == 2 || value_.index() == 3; }
  [[nodiscard]] bool is_integer() const { return value_.index() == 2; }
  [[nodiscard]] bool is_string() const { return value_.index() == 4; }
  [[nodiscard]] bool is_array() const { return value_.index() == 5; }
  [[nodiscard]] bool is_object() const { return value_.index() == 6; }

  [[nodiscard]] bool as_bool() const;
  [[nodiscard]] double as_number() const;
  [[nodiscard]] std::int64_t as_integer() const;
  [[nodiscard]] const std::string& as_string() const;
  [[nodiscard]] const Array& as_array() const;
  [[nodiscard]] const Object& as_object() const;

  // Object access. `set` appends or replaces; `get` returns nullptr when absent.
  Json& set(const std::string& key, Json value);
  [[nodiscard]] const Json* get(const std::string& key) const;
  // Throws gpucast::Error naming `key` when absent.
  [[nodiscard]] const Json& at(const std::string& key) const;
  // Array append.
  Json& push(Json value);
  [[nodiscard]] size_t size() const;

  // Compact when indent < 0, else pretty-printed with `indent` spaces.
  [[nodiscard]] std::string dump(int indent = 2) const;
  // Parses JSON text; errors name `origin` and the line and column.
  [[nodiscard]] static Json parse(const std::string& text, const std::string& origin);
  [[nodiscard]] static Json parse_file(const std::string& path);

 private:
  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, std::shared_ptr<Array>,
               std::shared_ptr<Object>>
      value_;
  Array& mutable_array();
  Object& mutable_object();
};

// A number, or null when absent (optional fields of the documented schemas).
[[nodiscard]] inline Json number_or_null(const std::optional<double>& v) {
  return v ? Json(*v) : Json();
}

// Formats a double for JSON/CSV: finite, shortest round-trip-ish with up to `digits` significant digits.
[[nodiscard]] std::string format_number(double v, int digits = 6);

}  // namespace gpucast::reports
