// _gpucast: the commands of the gpucast binary, run in-process for the Python package. Each call
// returns the command's --format json text, or a typed error the package turns into its exceptions
// (file, line, column and key for bad input).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "cli/app.h"
#include "cli/context.h"
#include "common/errors.h"

namespace py = pybind11;

namespace {
// (kind, text, details): kind "ok" with the command's stdout, or "input", "unsupported", "usage",
// "error" with the message and, for input errors, file/line/column/key.
py::tuple run(const std::vector<std::string>& args) {
  py::dict details;
  try {
    std::string out;
    {
      py::gil_scoped_release release;
      out = gpucast::cli::run_captured(args, "gpucast (python)");
    }
    return py::make_tuple("ok", out, details);
  } catch (const gpucast::InputError& e) {
    details["file"] = e.where().file;
    details["line"] = e.where().line;
    details["column"] = e.where().column;
    details["key"] = e.key();
    details["detail"] = e.detail();
    return py::make_tuple("input", std::string(e.what()), details);
  } catch (const gpucast::UnsupportedError& e) {
    return py::make_tuple("unsupported", std::string(e.what()), details);
  } catch (const gpucast::UsageError& e) {
    return py::make_tuple("usage", std::string(e.what()), details);
  } catch (const std::exception& e) {
    return py::make_tuple("error", std::string(e.what()), details);
  }
}
}  // namespace

PYBIND11_MODULE(_gpucast, m) {
  m.doc() = "gpucast's commands in-process (use the gpucast package, not this module)";
  m.def("run", &run, py::arg("args"),
        "Runs `gpucast ARGS...`; returns (kind, text, details): kind 'ok' with stdout, else an error.");
  m.def(
      "data_dir", [] { return gpucast::cli::find_data_dir().string(); },
      "Where gpucast reads its catalog and chart libraries.");
  m.attr("__version__") = gpucast::cli::kVersion;
}
