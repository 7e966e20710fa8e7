#include "support/cli_runner.h"

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "support/temp_dir.h"

#ifndef GPUCAST_BINARY
#define GPUCAST_BINARY "gpucast"
#endif

namespace gpucast::test {
namespace {
std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

CliResult run_gpucast(const std::vector<std::string>& args) {
  TempDir dir;
  // From the source tree, so that example paths read as the docs write them.
  std::string cmd = "cd " + quote(source_dir().string()) + " && GPUCAST_HOME=" + quote(source_dir().string()) + " " +
                    quote(GPUCAST_BINARY);
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " >" + quote((dir.path() / "out").string()) + " 2>" + quote((dir.path() / "err").string());
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir.path() / "out");
  r.err = slurp(dir.path() / "err");
  return r;
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field), field.clear();
    } else if (c == '\n') {
      row.push_back(field), field.clear();
      rows.push_back(row), row.clear();
      any = false;
      continue;
    } else if (c != '\r') {
      field += c;
    }
    any = true;
  }
  if (any) row.push_back(field), rows.push_back(row);
  return rows;
}

}  // namespace gpucast::test
