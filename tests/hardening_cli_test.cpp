// Hostile input, as a user (or a fuzzer) would give it: every class of bad file, flag and --set
// value ends in a typed error with a non-zero exit, a message naming the file, line and key (or the
// flag), and no output file left behind.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "support/cli_runner.h"
#include "support/gpu_builder.h"
#include "support/temp_dir.h"

using namespace gpucast;
using test::CliResult;
using test::run_gpucast;
namespace fs = std::filesystem;

namespace {

const std::string kGemm = "[[kernel]]\nname = \"g\"\nop = \"gemm\"\nm = 8\nn = 8\nk = 8\ndtype = \"bf16\"\n";

// Runs a command that must fail, writing its report to an empty folder; returns what it printed
// and checks that the folder is still empty afterwards (no report, no temporary).
CliResult run_failing(std::vector<std::string> args, int expected_exit = 1) {
  test::TempDir out;
  args.push_back("-o");
  args.push_back((out.path() / "report.txt").string());
  const CliResult r = run_gpucast(args);
  INFO(r.err);
  CHECK(r.exit_code == expected_exit);
  CHECK(fs::is_empty(out.path()));
  CHECK(r.err.find("internal error") == std::string::npos);
  return r;
}

// A workload file with `body`, predicted on a catalog GPU; the error must name the file, the line
// and the key.
void check_bad_workload(const std::string& body, int line, const std::string& key) {
  test::TempDir dir;
  const auto file = dir.write("w.toml", body);
  const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--workload", file.string()});
  INFO(r.err);
  CHECK(r.err.find(file.string() + ":" + std::to_string(line) + ":") != std::string::npos);
  if (!key.empty()) CHECK(r.err.find("'" + key + "'") != std::string::npos);
}

// A GPU file built from the minimal valid one with one key changed.
void check_bad_gpu(const std::string& key, const std::string& toml_value, const std::string& expect) {
  test::TempDir dir;
  const auto file = dir.write("gpu.toml", test::GpuFileBuilder{}.set(key, toml_value).text());
  const auto r = run_failing({"hw", "show", file.string()});
  INFO(r.err);
  CHECK(r.err.find(file.string() + ":") != std::string::npos);
  CHECK(r.err.find("'" + key + "'") != std::string::npos);
  CHECK(r.err.find(expect) != std::string::npos);
}

}  // namespace

SCENARIO("workload files: each class of bad value names the file, line and key") {
  const std::string gemm_head = "[[kernel]]\nname = \"g\"\nop = \"gemm\"\nn = 8\nk = 8\ndtype = \"bf16\"\n";
  WHEN("syntax") { check_bad_workload("[[kernel]\nop = 1\n", 1, ""); }
  WHEN("unknown key") { check_bad_workload(kGemm + "mm = 4\n", 8, "mm"); }
  WHEN("wrong type") { check_bad_workload(gemm_head + "m = \"8\"\n", 7, "m"); }
  WHEN("zero") { check_bad_workload(gemm_head + "m = 0\n", 7, "m"); }
  WHEN("negative") { check_bad_workload(gemm_head + "m = -5\n", 7, "m"); }
  WHEN("huge") { check_bad_workload(gemm_head + "m = 4611686018427387904\n", 7, "m"); }
  WHEN("fractional integer") { check_bad_workload(gemm_head + "m = 8.5\n", 7, "m"); }
  WHEN("a product of sizes past 2^48 elements") {
    check_bad_workload(gemm_head.substr(0, gemm_head.find("n = 8")) + "n = 2000000000\nk = 8\nm = 2000000000\n"
                           "dtype = \"bf16\"\n",
                       6, "m");
  }
  WHEN("inf flops") {
    check_bad_workload("[[kernel]]\nop = \"custom\"\nbytes = 8\nflops = inf\n", 4, "flops");
  }
  WHEN("nan bytes") { check_bad_workload("[[kernel]]\nop = \"custom\"\nflops = 8\nbytes = nan\n", 4, "bytes"); }
  WHEN("inf flops_per_element") {
    check_bad_workload("[[kernel]]\nop = \"elementwise\"\nelements = 8\ndtype = \"fp32\"\nflops_per_element = inf\n",
                       5, "flops_per_element");
  }
  WHEN("pad = 2^62") {
    check_bad_workload("[[kernel]]\nop = \"conv2d\"\nn = 1\nc = 8\nh = 8\nw = 8\nk = 8\nr = 3\ns = 3\n"
                       "dtype = \"bf16\"\npad = 4611686018427387904\n",
                       11, "pad");
  }
  WHEN("stream = 2147483647") { check_bad_workload(kGemm + "stream = 2147483647\n", 8, "stream"); }
  WHEN("input_from_back = 0") {
    check_bad_workload(kGemm + "input_from_back = 0\n", 8, "input_from_back");
  }
  WHEN("input_from_back = 2^31 - 1") {
    check_bad_workload(kGemm + "input_from_back = 2147483647\n", 8, "input_from_back");
  }
  WHEN("input_from_back = 1.5") {
    check_bad_workload(kGemm + "input_from_back = 1.5\n", 8, "input_from_back");
  }
  WHEN("host_launch_us = inf") {
    check_bad_workload("[workload]\nhost_launch_us = inf\n" + kGemm, 2, "workload.host_launch_us");
  }
  WHEN("a dependency cycle") {
    check_bad_workload("[[kernel]]\nname = \"a\"\nop = \"custom\"\nflops = 1\nbytes = 1\nafter = [\"b\"]\n"
                       "[[kernel]]\nname = \"b\"\nop = \"custom\"\nflops = 1\nbytes = 1\nstream = 1\nafter = [\"a\"]\n",
                       1, "after");
  }
  WHEN("an unknown kernel name") { check_bad_workload(kGemm + "after = [\"nope\"]\n", 1, "after"); }
}

SCENARIO("workload files: missing keys, empty files and garbage") {
  test::TempDir dir;
  WHEN("a required parameter is missing") {
    const auto file = dir.write("w.toml", "[[kernel]]\nop = \"gemm\"\nm = 8\nn = 8\ndtype = \"bf16\"\n");
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--workload", file.string()});
    CHECK(r.err.find(file.string() + ":1:") != std::string::npos);
    CHECK(r.err.find("'k'") != std::string::npos);
  }
  WHEN("the file is empty") {
    const auto file = dir.write("w.toml", "");
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--workload", file.string()});
    CHECK(r.err.find(file.string()) != std::string::npos);
    CHECK(r.err.find("no [[kernel]]") != std::string::npos);
  }
  WHEN("the file is binary garbage") {
    std::string garbage;
    for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) % 256);
    const auto file = dir.write("w.toml", garbage);
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--workload", file.string()});
    CHECK(r.err.find(file.string() + ":") != std::string::npos);
  }
}

SCENARIO("input files must be regular files of bounded size") {
  test::TempDir dir;
  auto check = [](const std::string& path, const std::string& expect) {
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--workload", path});
    INFO(r.err);
    CHECK(r.err.find(path) != std::string::npos);
    CHECK(r.err.find(expect) != std::string::npos);
  };
  WHEN("/dev/zero") { check("/dev/zero", "not a regular file"); }
  WHEN("a FIFO") {
    const auto fifo = dir.path() / "fifo.toml";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    check(fifo.string(), "not a regular file");
  }
  WHEN("a directory") { check(dir.path().string(), "directory"); }
  WHEN("a file over 64 MB (sparse, so the test writes nothing)") {
    const auto big = dir.write("big.toml", "");
    fs::resize_file(big, (64ull << 20) + 1);
    check(big.string(), "--max-input-mb");
  }
  WHEN("a missing file") { check((dir.path() / "nope.toml").string(), "cannot open"); }
  WHEN("the limit is raised, the size check passes") {
    const auto big = dir.write("big.toml", "");
    fs::resize_file(big, (64ull << 20) + 1);
    const auto r = run_gpucast({"--max-input-mb", "100", "predict", "--gpu", "h100-sxm", "--workload", big.string()});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("--max-input-mb") == std::string::npos);  // read, then rejected as TOML
  }
}

SCENARIO("GPU files: out-of-range, non-finite and malformed values name the file, line and key") {
  WHEN("zero SMs") { check_bad_gpu("sm.count", "0", "must be > 0"); }
  WHEN("negative bandwidth") { check_bad_gpu("memory.bandwidth_gbps", "-1.0", "must be > 0"); }
  WHEN("inf bandwidth") { check_bad_gpu("memory.bandwidth_gbps", "inf", "finite"); }
  WHEN("nan clock") { check_bad_gpu("sm.boost_clock_mhz", "nan", "finite"); }
  WHEN("1e308 bandwidth") { check_bad_gpu("memory.bandwidth_gbps", "1e308", "out of range"); }
  WHEN("5e-324 latency") { check_bad_gpu("latency.dram_cycles", "5e-324", "out of range"); }
  WHEN("2^63-1 SMs") { check_bad_gpu("sm.count", "9223372036854775807", "out of range"); }
  WHEN("a fractional SM count") { check_bad_gpu("sm.count", "100.5", "expected an integer"); }
  WHEN("a price of inf") { check_bad_gpu("price.usd", "inf", "finite"); }
  WHEN("compute_capability = \"x.0\"") { check_bad_gpu("compute_capability", "\"x.0\"", "MAJOR.MINOR"); }
  WHEN("an architecture that walks out of its folder") {
    check_bad_gpu("architecture", "\"../h100-sxm\"", "plain name");
  }
  WHEN("a 5000-byte name") { check_bad_gpu("name", "\"" + std::string(5000, 'x') + "\"", "too long"); }
  WHEN("extends that walks out of its folder") {
    test::TempDir dir;
    const auto file = dir.write("gpu.toml", "extends = \"../../etc/h100.toml\"\n");
    const auto r = run_failing({"hw", "show", file.string()});
    CHECK(r.err.find(file.string() + ":1:") != std::string::npos);
    CHECK(r.err.find("leaves its folder") != std::string::npos);
  }
  WHEN("too many [sources] entries") {
    std::string sources = "\n[sources]\n";
    for (int i = 0; i <= 10000; ++i) sources += "k" + std::to_string(i) + " = \"s\"\n";
    test::TempDir dir;
    const auto file = dir.write("gpu.toml", test::GpuFileBuilder{}.raw(sources).text());
    const auto r = run_failing({"hw", "show", file.string()});
    CHECK(r.err.find(file.string() + ":") != std::string::npos);
    CHECK(r.err.find("[sources]") != std::string::npos);
  }
}

SCENARIO("a GPU file with a bad compute capability cannot reach sweep") {
  test::TempDir dir;
  const auto file = dir.write("gpu.toml", test::GpuFileBuilder{}.set("compute_capability", "\"x.0\"").text());
  const auto r = run_failing({"sweep", "--gpu", file.string(), "--model", "gpt2", "--vary", "batch=1,2"});
  CHECK(r.err.find("compute_capability") != std::string::npos);
}

SCENARIO("--set values must be finite and in range; the message names the flag") {
  for (const std::string v : {"inf", "nan", "1e308", "5e-324", "-1", "0"}) {
    INFO(v);
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--set",
                                "memory.bandwidth_gbps=" + v});
    CHECK(r.err.find("--set memory.bandwidth_gbps=" + v) != std::string::npos);
  }
  const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--set", "sm.count=9223372036854775808"});
  CHECK(r.err.find("--set sm.count") != std::string::npos);
}

SCENARIO("flags: huge and non-finite values are refused, naming the flag") {
  auto check = [](std::vector<std::string> args, const std::string& flag, int exit_code) {
    const auto r = run_failing(std::move(args), exit_code);
    INFO(r.err);
    CHECK(r.err.find(flag) != std::string::npos);
  };
  WHEN("--host-launch-us inf") {
    check({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--host-launch-us", "inf"}, "--host-launch-us", 105);
  }
  WHEN("--seq 2^40") { check({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--seq", "1099511627776"}, "--seq", 105); }
  WHEN("--layers 1000000") {
    check({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--layers", "1000000"}, "--layers", 105);
  }
  WHEN("more kernels than the limit") {
    check({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--layers", "20000"}, "--max-kernels", 1);
  }
  WHEN("--vary batch=1,99999999999999999999") {
    check({"sweep", "--gpu", "h100-sxm", "--model", "gpt2", "--vary", "batch=1,99999999999999999999"}, "--vary", 2);
  }
  WHEN("--vary layers=1,3000000000") {
    check({"sweep", "--gpu", "h100-sxm", "--model", "gpt2", "--vary", "layers=1,3000000000"}, "--vary", 2);
  }
  WHEN("--vary over a million bandwidths") {
    check({"sweep", "--gpu", "h100-sxm", "--model", "gpt2", "--vary", "memory.bandwidth_gbps=1:1000000:1"},
          "--max-points", 2);
  }
}

SCENARIO("model files: out-of-range integers name the file, line and key") {
  test::TempDir dir;
  auto check = [&](const std::string& line, const std::string& key) {
    const auto file = dir.write("m.toml", "[model]\ntype = \"llama\"\nlayers = 2\nd_model = 256\nheads = 4\n"
                                          "ffn = 512\nvocab = 1000\n" + line + "\n");
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--model", file.string()});
    INFO(r.err);
    CHECK(r.err.find(file.string() + ":8:") != std::string::npos);
    CHECK(r.err.find("'model." + key + "'") != std::string::npos);
  };
  WHEN("kv_heads = 2^62") { check("kv_heads = 4611686018427387904", "kv_heads"); }
  WHEN("max_positions = -1") { check("max_positions = -1", "max_positions"); }
  WHEN("heads = 2^62 (narrowed to 0 before)") {
    const auto file = dir.write("m.toml", "[model]\ntype = \"llama\"\nlayers = 2\nd_model = 256\n"
                                          "heads = 4611686018427387904\nffn = 512\nvocab = 1000\n");
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--model", file.string()});
    CHECK(r.err.find(file.string() + ":5:") != std::string::npos);
    CHECK(r.err.find("'model.heads'") != std::string::npos);
  }
  WHEN("layers = 10^8") {
    const auto file = dir.write("m.toml", "[model]\ntype = \"llama\"\nlayers = 100000000\nd_model = 256\nheads = 4\n"
                                          "ffn = 512\nvocab = 1000\n");
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--model", file.string()});
    CHECK(r.err.find(file.string() + ":3:") != std::string::npos);
    CHECK(r.err.find("'model.layers'") != std::string::npos);
  }
}

SCENARIO("a failing run leaves no --dump-workload, -o or --html file behind") {
  test::TempDir out;
  const auto dump = out.path() / "w.toml";
  WHEN("the prediction fails after the workload was generated") {
    // fp8 on a T4 (no fp8 tensor cores): generation succeeds, prediction fails.
    const auto r = run_gpucast({"predict", "--gpu", "t4", "--model", "gpt2", "--dtype", "fp8", "--dump-workload",
                                dump.string(), "-o", (out.path() / "r.txt").string()});
    CHECK(r.exit_code == 1);
    CHECK(fs::is_empty(out.path()));
  }
  WHEN("the report cannot be written (-o names a folder)") {
    fs::create_directories(out.path() / "folder");
    const auto r = run_gpucast({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--dump-workload", dump.string(),
                                "-o", (out.path() / "folder").string()});
    CHECK(r.exit_code == 1);
    CHECK(!fs::exists(dump));
    CHECK(fs::is_empty(out.path() / "folder"));
  }
  WHEN("the run succeeds, both files appear whole") {
    const auto r = run_gpucast({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--dump-workload", dump.string(),
                                "-o", (out.path() / "r.txt").string()});
    CHECK(r.exit_code == 0);
    CHECK(fs::file_size(dump) > 0);
    CHECK(fs::file_size(out.path() / "r.txt") > 0);
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(out.path())) ++files;
    CHECK(files == 2);  // no temporaries
  }
}

SCENARIO("outputs to special files are written in place, links are followed") {
  WHEN("-o /dev/null") {
    const auto r = run_gpucast({"hw", "show", "h100-sxm", "-o", "/dev/null"});
    CHECK(r.exit_code == 0);
    struct stat st {};
    REQUIRE(::stat("/dev/null", &st) == 0);
    CHECK(S_ISCHR(st.st_mode));  // still the device, not a file renamed over it
  }
  WHEN("-o names a symbolic link") {
    test::TempDir dir;
    const auto target = dir.write("real.txt", "old");
    fs::create_symlink(target, dir.path() / "link.txt");
    const auto r = run_gpucast({"hw", "show", "h100-sxm", "-o", (dir.path() / "link.txt").string()});
    CHECK(r.exit_code == 0);
    CHECK(fs::is_symlink(dir.path() / "link.txt"));
    CHECK(fs::file_size(target) > 3);
  }
}

SCENARIO("host and system values are range-checked like GPU values") {
  WHEN("a host launch cost of 1e308 us is set") {
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--set", "host.cuda.launch_us=1e308"});
    CHECK(r.err.find("'host.cuda.launch_us'") != std::string::npos);
    CHECK(r.err.find("out of range") != std::string::npos);
  }
  WHEN("a system's fabric bandwidth is set to inf") {
    const auto r = run_failing(
        {"predict", "--gpus", "8xh100-sxm", "--model", "llama-3-8b", "--tp", "8", "--set", "fabric.bandwidth_gbps=inf"});
    CHECK(r.err.find("'fabric.bandwidth_gbps'") != std::string::npos);
  }
}

SCENARIO("a trace must be a regular file") {
  WHEN("/dev/zero is given as the trace") {
    const auto r = run_failing({"predict", "--gpu", "h100-sxm", "--trace", "/dev/zero"});
    CHECK(r.err.find("/dev/zero") != std::string::npos);
    CHECK(r.err.find("not a regular file") != std::string::npos);
  }
}
