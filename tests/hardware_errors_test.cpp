// Bad hardware files: each error kind names the file, the line and column, and the key.
#include <catch2/catch.hpp>

#include "hardware/catalog.h"
#include "support/temp_dir.h"

using namespace gpucast;
using test::GpuFileBuilder;
using test::HardwareFixture;

namespace {
// Loads `id` and returns the InputError it must raise.
InputError load_error(const HardwareFixture& fx, const std::string& id) {
  try {
    (void)fx.catalog().load(id);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError loading " << id);
  throw;  // unreachable
}
}  // namespace

SCENARIO("a valid minimal file loads") {
  HardwareFixture fx;
  fx.add_gpu("good", GpuFileBuilder{}.text());
  const auto gpu = fx.catalog().load("good");
  CHECK(gpu.sm.count == 100);
  CHECK(gpu.sm.sustained_clock_mhz == Approx(2000));  // defaults to the boost clock
}

SCENARIO("a TOML syntax error points at its line") {
  HardwareFixture fx;
  fx.add_gpu("broken", "name = \"x\"\nvendor = \n");
  const auto e = load_error(fx, "broken");
  CHECK(e.where().file.find("broken.toml") != std::string::npos);
  CHECK(e.where().line == 2);
  CHECK(std::string(e.what()).find("TOML syntax error") != std::string::npos);
}

SCENARIO("an unknown key is an error with a did-you-mean") {
  HardwareFixture fx;
  fx.add_gpu("typo", GpuFileBuilder{}.raw("\n[memory2]\nx = 1\n").text());
  GIVEN("a misspelled leaf key") {
    fx.add_gpu("leaf", GpuFileBuilder{}.remove("sm.count").set("sm.cout", "100").text());
    const auto e = load_error(fx, "leaf");
    CHECK(e.key() == "sm.cout");
    CHECK(e.where().line > 0);
    CHECK(std::string(e.what()).find("did you mean 'sm.count'") != std::string::npos);
  }
  GIVEN("an unknown section") {
    const auto e = load_error(fx, "typo");
    CHECK(e.key() == "memory2");
    CHECK(std::string(e.what()).find("unknown key") != std::string::npos);
  }
}

SCENARIO("a value of the wrong type is an error") {
  HardwareFixture fx;
  fx.add_gpu("wrong", GpuFileBuilder{}.set("sm.count", "\"many\"").text());
  const auto e = load_error(fx, "wrong");
  CHECK(e.key() == "sm.count");
  CHECK(std::string(e.what()).find("expected an integer, found a string") != std::string::npos);
  fx.add_gpu("float_count", GpuFileBuilder{}.set("sm.count", "100.5").text());
  CHECK(load_error(fx, "float_count").key() == "sm.count");
}

SCENARIO("a missing required key is an error") {
  HardwareFixture fx;
  fx.add_gpu("missing", GpuFileBuilder{}.remove("memory.bandwidth_gbps").text());
  const auto e = load_error(fx, "missing");
  CHECK(e.key() == "memory.bandwidth_gbps");
  CHECK(std::string(e.what()).find("missing required key") != std::string::npos);
}

SCENARIO("non-positive rates and sizes are errors") {
  HardwareFixture fx;
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"memory.bandwidth_gbps", "0.0"}, {"sm.count", "-4"}, {"compute.tensor_tflops.bf16", "-1.0"}}) {
    INFO(key);
    fx.add_gpu("bad", GpuFileBuilder{}.set(key, value).text());
    const auto e = load_error(fx, "bad");
    CHECK(e.key() == key);
    CHECK(e.where().line > 0);
    CHECK(std::string(e.what()).find("must be > 0") != std::string::npos);
  }
  GIVEN("an efficiency above one") {
    fx.add_gpu("eff", GpuFileBuilder{}.set("efficiency.dram_bandwidth", "1.5").text());
    CHECK(std::string(load_error(fx, "eff").what()).find("must be in (0, 1]") != std::string::npos);
  }
}

SCENARIO("a negative or non-numeric inline copy limit is an error at its line") {
  HardwareFixture fx;
  fx.add_gpu("inline_ok", GpuFileBuilder{}.set("host.inline_copy_max_bytes", "0").text());
  CHECK(fx.catalog().load("inline_ok").host_inline_copy_max_bytes == 0);
  for (const auto& value : {std::string("-1.0"), std::string("\"1 KB\"")}) {
    INFO(value);
    fx.add_gpu("inline_bad", GpuFileBuilder{}.set("host.inline_copy_max_bytes", value).text());
    const auto e = load_error(fx, "inline_bad");
    CHECK(e.key() == "host.inline_copy_max_bytes");
    CHECK(e.where().line > 0);
  }
}

SCENARIO("an L2 dirty fraction of 0 or less, above 1, or not a number is an error at its line") {
  HardwareFixture fx;
  fx.add_gpu("dirty_ok", GpuFileBuilder{}.set("cache.l2_dirty_fraction", "0.5").text());
  CHECK(fx.catalog().load("dirty_ok").cache.l2_dirty_fraction == 0.5);
  for (const auto& value : {std::string("1.5"), std::string("-0.1"), std::string("\"most\"")}) {
    INFO(value);
    fx.add_gpu("dirty_bad", GpuFileBuilder{}.set("cache.l2_dirty_fraction", value).text());
    const auto e = load_error(fx, "dirty_bad");
    CHECK(e.key() == "cache.l2_dirty_fraction");
    CHECK(e.where().line > 0);
  }
}

SCENARIO("a power limiter's full-duty clock above the boost clock is an error at its line") {
  HardwareFixture fx;
  fx.add_gpu("limited", GpuFileBuilder{}.set("power.matrix_clock_mhz", "1500").text());
  CHECK(fx.catalog().load("limited").power.matrix_clock_mhz == Approx(1500));
  fx.add_gpu("over", GpuFileBuilder{}.set("power.matrix_clock_mhz", "2001").text());  // boost is 2000
  const auto e = load_error(fx, "over");
  CHECK(e.key() == "power.matrix_clock_mhz");
  CHECK(e.where().line > 0);
  CHECK(std::string(e.what()).find("must not exceed sm.boost_clock_mhz") != std::string::npos);
}

SCENARIO("a cycle in extends is an error naming the chain") {
  HardwareFixture fx;
  fx.add_gpu("a", GpuFileBuilder{}.extends("b").text());
  fx.add_gpu("b", GpuFileBuilder{}.extends("a").text());
  const auto e = load_error(fx, "a");
  CHECK(e.key() == "extends");
  CHECK(std::string(e.what()).find("cycle in extends: a -> b -> a") != std::string::npos);
}

SCENARIO("extends to something that does not exist is an error at the extends line") {
  HardwareFixture fx;
  fx.add_gpu("orphan", GpuFileBuilder{}.extends("h100-sxn").text());
  const auto e = load_error(fx, "orphan");
  CHECK(e.key() == "extends");
  CHECK(e.where().line == 1);
}

SCENARIO("an unknown architecture is an error with a suggestion") {
  HardwareFixture fx;
  fx.add_gpu("arch", GpuFileBuilder{}.set("architecture", "\"hoper\"").text());
  const auto e = load_error(fx, "arch");
  CHECK(e.key() == "architecture");
  CHECK(std::string(e.what()).find("did you mean 'hopper'") != std::string::npos);
}

SCENARIO("cloud entries are checked like everything else") {
  HardwareFixture fx;
  fx.add_gpu("cloudy", GpuFileBuilder{}.raw("\n[[cloud]]\nprovider = \"AWS\"\ninstance = \"x\"\ngpus = 8\n").text());
  CHECK(load_error(fx, "cloudy").key() == "cloud.usd_per_hour");
  fx.add_gpu("cloudy2", GpuFileBuilder{}
                            .raw("\n[[cloud]]\nprovider = \"AWS\"\ninstance = \"x\"\ngpus = 8\nusd_per_hour = 3.0\n"
                                 "usd_per_hr = 2.0\n")
                            .text());
  CHECK(std::string(load_error(fx, "cloudy2").what()).find("did you mean 'usd_per_hour'") != std::string::npos);
}

SCENARIO("an unknown GPU id suggests the nearest catalog id") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  try {
    (void)catalog.load("h100-sxn");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("did you mean 'h100-sxm'") != std::string::npos);
  }
}
