// Per-kind library costs: a GEMM, an attention, a fused norm and an embedding each pay their own
// library.<kind>_us; a kind the host leaves out pays library.call_us.
#include <catch2/catch.hpp>

#include "sim/host_timeline.h"

using namespace gpucast;
using Kind = hw::HostSpec::LibraryKind;

namespace {
hw::HostSpec host() {
  hw::HostSpec h;
  h.library_call_us = 9;
  h.library_gemm_us = 3;
  h.library_attention_us = 20;
  return h;  // norm and embedding not given
}
wl::HostWork library_call() {
  wl::HostWork w;
  w.add(wl::HostCategory::library_call);
  return w;
}
double library_us(const hw::HostSpec& h, Kind kind) {
  return sim::host_cost(h, library_call(), 0, kind)[size_t(wl::HostCategory::library_call)];
}
}  // namespace

SCENARIO("a library call is priced by its kind, else by library.call_us") {
  const auto h = host();
  CHECK(library_us(h, Kind::gemm) == Approx(3));
  CHECK(library_us(h, Kind::attention) == Approx(20));
  CHECK(library_us(h, Kind::norm) == Approx(9));
  CHECK(library_us(h, Kind::embedding) == Approx(9));
  CHECK(library_us(h, Kind::other) == Approx(9));
  AND_WHEN("a kind's cost is zero, zero it is (not the fallback)") {
    auto z = h;
    z.library_gemm_us = 0;
    CHECK(library_us(z, Kind::gemm) == Approx(0));
  }
  AND_WHEN("the model factor scales it") {
    auto f = h;
    f.model_factor = 2;
    CHECK(library_us(f, Kind::gemm) == Approx(6));
  }
}

SCENARIO("ops map to their library kind") {
  CHECK(sim::library_kind(wl::GemmOp{}) == Kind::gemm);
  CHECK(sim::library_kind(wl::AttentionOp{}) == Kind::attention);
  CHECK(sim::library_kind(wl::EmbeddingOp{}) == Kind::embedding);
  wl::RowOp norm;
  norm.kind = wl::RowOpKind::layernorm;
  CHECK(sim::library_kind(norm) == Kind::norm);
  norm.kind = wl::RowOpKind::reduce;
  CHECK(sim::library_kind(norm) == Kind::other);
  CHECK(sim::library_kind(wl::ElementwiseOp{}) == Kind::other);
}
