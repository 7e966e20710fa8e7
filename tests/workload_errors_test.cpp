// Bad workload files: every error names the file and line and the key.
#include <catch2/catch.hpp>

#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
InputError error_of(const std::string& text) {
  try {
    (void)wl::read_workload_text(text, "w.toml");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw;
}
const std::string kGemm = "[[kernel]]\nname = \"g\"\nop = \"gemm\"\nm = 8\nn = 8\nk = 8\ndtype = \"bf16\"\n";
}  // namespace

SCENARIO("a valid workload builds its graph") {
  const auto w =
      wl::read_workload_text("[workload]\nname = \"x\"\n" + kGemm +
                                 "[[kernel]]\nop = \"softmax\"\nrows = 4\ncols = 8\ndtype = \"fp32\"\n",
                             "w.toml");
  CHECK(w.name() == "x");
  REQUIRE(w.size() == 2);
  CHECK(w.kernels()[1].name == "softmax_1");           // default name: <op>_<index>
  CHECK(w.predecessors(1) == std::vector<size_t>{0});  // default: previous kernel of the stream
  CHECK(boost::num_edges(w.graph()) == 1);
}

SCENARIO("the workload name defaults to the file stem") {
  CHECK(wl::read_workload_text(kGemm, "dir/my-run.toml").name() == "my-run");
}

SCENARIO("each bad input is reported with its line and key") {
  GIVEN("an unknown op") {
    const auto e = error_of("[[kernel]]\nop = \"gemn\"\n");
    CHECK(e.key() == "op");
    CHECK(e.where().line == 2);
    CHECK(std::string(e.what()).find("did you mean 'gemm'") != std::string::npos);
  }
  GIVEN("an unknown parameter") {
    const auto e =
        error_of(kGemm + "[[kernel]]\nop = \"softmax\"\nrows = 4\ncolumns = 8\ndtype = \"fp32\"\n");
    CHECK(e.key() == "columns");
    CHECK(e.where().line == 11);
  }
  GIVEN("a missing parameter") {
    const auto e = error_of("[[kernel]]\nop = \"gemm\"\nm = 8\nn = 8\ndtype = \"bf16\"\n");
    CHECK(e.key() == "k");
    CHECK(std::string(e.what()).find("missing required parameter") != std::string::npos);
  }
  GIVEN("a bad value") {
    CHECK(error_of("[[kernel]]\nop = \"gemm\"\nm = -8\nn = 8\nk = 8\ndtype = \"bf16\"\n").key() == "m");
    CHECK(error_of("[[kernel]]\nop = \"gemm\"\nm = 8\nn = 8\nk = 8\ndtype = \"bf17\"\n").key() == "dtype");
    CHECK(error_of("[[kernel]]\nop = \"gemm\"\nm = \"8\"\nn = 8\nk = 8\ndtype = \"bf16\"\n").key() == "m");
    CHECK(error_of("[[kernel]]\nop = \"copy\"\nbytes = 8\nkind = \"h2h\"\n").key() == "kind");
    CHECK(error_of("[workload]\nlaunch = \"lazy\"\n" + kGemm).key() == "workload.launch");
  }
  GIVEN("a value out of its range, checked after the file is read") {
    // A parameter keeps only its line and column; the error still names the file.
    const auto e = error_of("[[kernel]]\nop = \"gemm\"\nm = 8\nn = 0\nk = 8\ndtype = \"bf16\"\n");
    CHECK(e.key() == "n");
    CHECK(e.where().file == "w.toml");
    CHECK(e.where().line == 4);
    CHECK(e.where().column == 5);
  }
  GIVEN("a duplicate name") {
    const auto e = error_of(kGemm + kGemm);
    CHECK(e.key() == "name");
    CHECK(std::string(e.what()).find("duplicate kernel name 'g'") != std::string::npos);
  }
  GIVEN("an unknown dependency") {
    const auto e = error_of(
        kGemm + "[[kernel]]\nop = \"softmax\"\nrows = 4\ncols = 8\ndtype = \"fp32\"\nafter = [\"h\"]\n");
    CHECK(e.key() == "after");
    CHECK(std::string(e.what()).find("unknown kernel 'h'") != std::string::npos);
  }
  GIVEN("a cycle") {
    const auto e = error_of(
        "[[kernel]]\nname = \"a\"\nop = \"custom\"\nflops = 1\nbytes = 1\nafter = [\"b\"]\n"
        "[[kernel]]\nname = \"b\"\nop = \"custom\"\nflops = 1\nbytes = 1\nstream = 1\nafter = [\"a\"]\n");
    CHECK(std::string(e.what()).find("dependency cycle: ") != std::string::npos);
    CHECK(std::string(e.what()).find("a -> b -> a") != std::string::npos);
  }
  GIVEN("an unknown top-level key") {
    CHECK(error_of("[workloads]\nname = \"x\"\n" + kGemm).key() == "workloads");
  }
  GIVEN("no kernels") {
    CHECK(error_of("[workload]\nname = \"x\"\n").key() == "kernel");
  }
  GIVEN("a TOML syntax error") {
    CHECK(error_of("[[kernel]\nop = \"gemm\"\n").where().line == 1);
  }
}

SCENARIO("writing a workload and reading it back gives the same kernels") {
  const auto w = wl::read_workload_text("[workload]\nname = \"rt\"\nlaunch = \"graph\"\n" + kGemm +
                                            "[[kernel]]\nop = \"attention\"\nbatch = 2\nheads = 8\nkv_heads "
                                            "= 2\nseq_q = 16\nseq_kv = 64\nhead_dim = 64\n"
                                            "causal = true\ndtype = \"bf16\"\nstream = 1\nafter = [\"g\"]\n",
                                        "rt.toml");
  const auto back = wl::read_workload_text(wl::write_workload(w), "rt2.toml");
  REQUIRE(back.size() == 2);
  CHECK(back.launch() == wl::LaunchMode::graph);
  CHECK(wl::op_shape(back.kernels()[1].op) == wl::op_shape(w.kernels()[1].op));
  CHECK(back.kernels()[1].stream == 1);
  CHECK(back.kernels()[1].after == std::vector<std::string>{"g"});
}

SCENARIO("a strided kernel's index_dims outside 0..25 names its line and key") {
  const std::string pointwise =
      "[[kernel]]\nop = \"elementwise\"\nelements = 1024\ndtype = \"bf16\"\ncontiguous = false\n";
  CHECK_NOTHROW(wl::read_workload_text(pointwise + "index_dims = 25\n", "w.toml"));
  const auto e = error_of(pointwise + "index_dims = 26\n");
  CHECK(e.key() == "index_dims");
  CHECK(e.where().line == 6);
  CHECK(error_of(pointwise + "index_dims = -1\n").key() == "index_dims");
}
