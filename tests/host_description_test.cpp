// Host descriptions: loading, extends, --set host.KEY overrides, and bad files that must name
// file:line:key.
#include <catch2/catch.hpp>

#include "hardware/host_catalog.h"
#include "support/temp_dir.h"

using namespace gpucast;
using test::TempDir;

namespace {
const char* kValid = R"(name = "test host"
[framework]
module_call_us = 3
op_dispatch_us = 5
autograd_node_us = 10
[cuda]
launch_us = 4
[library]
call_us = 9
[optimizer]
step_us = 50
param_us = 10
foreach_tensor_us = 0.2
fused_tensor_us = 4
[sync]
item_us = 10
[graph]
replay_us = 5
per_kernel_us = 0.2
[compile]
guard_us = 30
launch_us = 5
)";

InputError load_error(const hw::HostCatalog& c, const std::string& id,
                      const std::vector<hw::Override>& o = {}) {
  try {
    (void)c.load(id, o);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError loading " << id);
  throw;
}
}  // namespace

SCENARIO("a valid host file loads with its figures") {
  TempDir dir;
  dir.write("hosts/good.toml", kValid);
  const hw::HostCatalog catalog(dir.path() / "hosts");
  const auto h = catalog.load("good");
  CHECK(h.launch_us == 4);
  CHECK(h.autograd_node_us == 10);
  CHECK(h.model_factor == 1);
  CHECK(h.grad_record_us == 0);                                               // optional, default 0
  CHECK(h.library_us(hw::HostSpec::LibraryKind::gemm) == h.library_call_us);  // falls back
}

SCENARIO("a host file that extends another overrides only what it sets") {
  TempDir dir;
  dir.write("hosts/base.toml", kValid);
  dir.write("hosts/fast.toml", "extends = \"base\"\nname = \"fast\"\n[cuda]\nlaunch_us = 2\n");
  const auto h = hw::HostCatalog(dir.path() / "hosts").load("fast");
  CHECK(h.launch_us == 2);
  CHECK(h.op_dispatch_us == 5);
}

SCENARIO("bad host files name file, line and key") {
  TempDir dir;
  const hw::HostCatalog catalog(dir.path() / "hosts");
  WHEN("a key is unknown") {
    dir.write("hosts/bad.toml", std::string(kValid) + "[cuda.extra]\nlaunchus = 3\n");
    const auto e = load_error(catalog, "bad");
    CHECK(e.key() == "cuda.extra");
    CHECK(e.where().line == 23);  // the appended [cuda.extra] header
  }
  WHEN("a cost is negative") {
    std::string text = kValid;
    text.replace(text.find("launch_us = 4"), 13, "launch_us = -4");
    dir.write("hosts/neg.toml", text);
    const auto e = load_error(catalog, "neg");
    CHECK(e.key() == "cuda.launch_us");
    CHECK(e.where().line == 7);
    CHECK(std::string(e.what()).find("neg.toml:7") != std::string::npos);
  }
  WHEN("a cost is text") {
    std::string text = kValid;
    text.replace(text.find("item_us = 10"), 12, "item_us = \"ten\"");
    dir.write("hosts/text.toml", text);
    const auto e = load_error(catalog, "text");
    CHECK(e.key() == "sync.item_us");
    CHECK(e.where().line == 16);
  }
  WHEN("a per-kind library cost is negative") {
    std::string text = kValid;
    text.replace(text.find("call_us = 9\n"), 12, "call_us = 9\ngemm_us = -2\n");
    dir.write("hosts/gemm.toml", text);
    const auto e = load_error(catalog, "gemm");
    CHECK(e.key() == "library.gemm_us");
    CHECK(e.where().line == 10);
  }
  WHEN("framework.fsdp_group_us is negative") {
    std::string text = kValid;
    text.replace(text.find("autograd_node_us = 10\n"), 22, "autograd_node_us = 10\nfsdp_group_us = -5\n");
    dir.write("hosts/fsdp.toml", text);
    const auto e = load_error(catalog, "fsdp");
    CHECK(e.key() == "framework.fsdp_group_us");
    CHECK(e.where().line == 6);
  }
  WHEN("framework.grad_record_us is text") {
    std::string text = kValid;
    text.replace(text.find("autograd_node_us = 10\n"), 22, "autograd_node_us = 10\ngrad_record_us = \"x\"\n");
    dir.write("hosts/grad.toml", text);
    const auto e = load_error(catalog, "grad");
    CHECK(e.key() == "framework.grad_record_us");
    CHECK(e.where().line == 6);
  }
  WHEN("a required key is missing") {
    std::string text = kValid;
    text.erase(text.find("[library]"), std::string("[library]\ncall_us = 9\n").size());
    dir.write("hosts/missing.toml", text);
    CHECK(load_error(catalog, "missing").key() == "library.call_us");
  }
  WHEN("the host is not in the catalog") {
    const auto e = load_error(catalog, "nope");
    CHECK(e.key() == "host");
  }
}

SCENARIO("--set host.KEY overrides the host; host.pcie_gbps stays a GPU key") {
  TempDir dir;
  dir.write("hosts/good.toml", kValid);
  const auto split =
      hw::split_host_overrides({"host.cuda.launch_us=1.5", "host.pcie_gbps=32", "sm.count=10"});
  REQUIRE(split.host.size() == 1);
  CHECK(split.gpu == std::vector<std::string>{"host.pcie_gbps=32", "sm.count=10"});
  const auto h = hw::HostCatalog(dir.path() / "hosts").load("good", split.host);
  CHECK(h.launch_us == 1.5);
  WHEN("the key is unknown or the value bad") {
    CHECK_THROWS_AS(hw::split_host_overrides({"host.cuda.lunch_us=1"}), InputError);
    CHECK_THROWS_AS(hw::split_host_overrides({"host.cuda.launch_us=-1"}), InputError);
    CHECK_THROWS_AS(hw::split_host_overrides({"host.cuda.launch_us=fast"}), InputError);
  }
}

SCENARIO("the catalog's host files load") {
  const hw::HostCatalog catalog(test::source_dir() / "hardware" / "catalog" / "hosts");
  for (const auto& id : catalog.ids()) CHECK_NOTHROW(catalog.load(id));
  CHECK(catalog.ids().size() >= 3);
}
