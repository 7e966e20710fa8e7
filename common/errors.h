#pragma once
// Typed errors thrown by library code. Only the CLI's main() prints them and picks the exit code.
#include <stdexcept>
#include <string>

namespace gpucast {

// Where a value came from: a file position (1-based line and column), or a description such as
// "--set sm.count=100" or "architecture defaults" when no file position applies.
// A line and column in a text whose file is known elsewhere (0: unknown).
struct SourcePosition {
  int line = 0;
  int column = 0;
};

struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  [[nodiscard]] bool has_position() const { return line > 0; }
  // "file:line:column", "file" or "" depending on what is known.
  [[nodiscard]] std::string str() const;
};

// Base of every error gpucast reports to a user.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input in a file or on the command line: carries the location and the offending key path.
class InputError : public Error {
 public:
  InputError(SourceLocation where, std::string key, const std::string& message);
  [[nodiscard]] const SourceLocation& where() const { return where_; }
  [[nodiscard]] const std::string& key() const { return key_; }
  [[nodiscard]] const std::string& detail() const { return detail_; }

 private:
  SourceLocation where_;
  std::string key_;
  std::string detail_;
};

// A request the model cannot answer, e.g. an fp8 GEMM on a GPU without fp8 tensor cores.
class UnsupportedError : public Error {
 public:
  using Error::Error;
};

// Command-line misuse that is not tied to a file (bad flag combinations, malformed --vary specs).
class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace gpucast
