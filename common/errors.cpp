#include "common/errors.h"

namespace gpucast {

std::string SourceLocation::str() const {
  if (file.empty()) return {};
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

namespace {
std::string compose(const SourceLocation& where, const std::string& key, const std::string& message) {
  std::string out;
  if (!where.file.empty()) out += where.str() + ": ";
  out += "error: ";
  if (!key.empty()) out += "'" + key + "': ";
  out += message;
  return out;
}
}  // namespace

InputError::InputError(SourceLocation where, std::string key, const std::string& message)
    : Error(compose(where, key, message)), where_(std::move(where)), key_(std::move(key)), detail_(message) {}

}  // namespace gpucast
