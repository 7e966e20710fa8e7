#include "support/json_schema.h"

#include "support/temp_dir.h"

namespace gpucast::test {
namespace {
using reports::Json;

bool has_type(const Json& v, const std::string& type) {
  if (type == "null") return v.is_null();
  if (type == "boolean") return v.is_bool();
  if (type == "integer") return v.is_integer() || (v.is_number() && v.as_number() == double(static_cast<long long>(v.as_number())));
  if (type == "number") return v.is_number();
  if (type == "string") return v.is_string();
  if (type == "array") return v.is_array();
  if (type == "object") return v.is_object();
  return false;
}

bool equal(const Json& a, const Json& b) { return a.dump(-1) == b.dump(-1); }

class Checker {
 public:
  explicit Checker(const Json& root) : root_(root) {}
  std::vector<std::string> errors;

  void check(const Json& v, const Json& schema, const std::string& path) {
    if (const Json* ref = schema.get("$ref")) {
      const std::string target = ref->as_string();
      const std::string prefix = "#/$defs/";
      if (target.rfind(prefix, 0) != 0) return errors.push_back(path + ": unsupported $ref " + target);
      return check(v, root_.at("$defs").at(target.substr(prefix.size())), path);
    }
    if (const Json* type = schema.get("type")) {
      bool ok = false;
      if (type->is_string()) ok = has_type(v, type->as_string());
      else
        for (const auto& t : type->as_array()) ok |= has_type(v, t.as_string());
      if (!ok) return errors.push_back(path + ": expected " + type->dump(-1) + ", found " + v.dump(-1).substr(0, 60));
    }
    if (const Json* options = schema.get("enum")) {
      bool ok = false;
      for (const auto& o : options->as_array()) ok |= equal(o, v);
      if (!ok) errors.push_back(path + ": " + v.dump(-1) + " is not one of " + options->dump(-1));
    }
    if (const Json* minimum = schema.get("minimum"))
      if (v.is_number() && v.as_number() < minimum->as_number())
        errors.push_back(path + ": " + v.dump(-1) + " is below the minimum " + minimum->dump(-1));
    if (v.is_object()) {
      if (const Json* required = schema.get("required"))
        for (const auto& key : required->as_array())
          if (!v.get(key.as_string())) errors.push_back(path + ": missing required key '" + key.as_string() + "'");
      const Json* props = schema.get("properties");
      const Json* extra = schema.get("additionalProperties");
      for (const auto& [key, value] : v.as_object()) {
        const Json* sub = props ? props->get(key) : nullptr;
        if (sub) check(value, *sub, path + "." + key);
        else if (extra && extra->is_bool() && !extra->as_bool())
          errors.push_back(path + ": key '" + key + "' is not in the documented schema");
        else if (extra && extra->is_object())
          check(value, *extra, path + "." + key);
      }
    }
    if (v.is_array())
      if (const Json* items = schema.get("items"))
        for (size_t i = 0; i < v.size(); ++i) check(v.as_array()[i], *items, path + "[" + std::to_string(i) + "]");
  }

 private:
  const Json& root_;
};
}  // namespace

std::vector<std::string> schema_violations(const reports::Json& doc, const reports::Json& schema) {
  Checker c(schema);
  c.check(doc, schema, "$");
  return c.errors;
}

reports::Json load_schema(const std::string& name) {
  return reports::Json::parse_file((source_dir() / "docs" / "schemas" / (name + ".schema.json")).string());
}

}  // namespace gpucast::test
