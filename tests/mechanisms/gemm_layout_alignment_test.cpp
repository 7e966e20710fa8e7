// Each operand's leading dimension follows its layout (models/gemm_alignment.h): A's is k (m when A
// is stored transposed), B's is n (k when B is stored transposed), C's is n; the GEMM is aligned
// only when all three are whole 16-byte vectors. The fallback's class follows the alignment left
// (odd: align1, even: align2) and, for 16-bit align1, the layout of B.
#include <catch2/catch.hpp>

#include "models/gemm_alignment.h"
#include "sim/op_predictor.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
wl::GemmOp gemm(wl::Count m, wl::Count n, wl::Count k, bool ta = false, bool tb = false,
                DataType t = DataType::bf16) {
  return test::gemm_builder{}.mnk(m, n, k).dtype(t).transpose_a(ta).transpose_b(tb).build();
}
}  // namespace

SCENARIO("A stored transposed has m as its leading dimension: m = 4,096 is aligned, 4,095 is not") {
  CHECK(models::gemm_operands_aligned(gemm(4096, 4096, 4096, true)));
  CHECK_FALSE(models::gemm_operands_aligned(gemm(4095, 4096, 4096, true)));
  CHECK(models::gemm_operands_aligned(gemm(4095, 4096, 4096, false)));  // plain A: m is no leading dim
}

SCENARIO("A stored transposed no longer has k as its leading dimension, B stored transposed does") {
  // k = 4,095 odd: plain A's rows and B^T's rows hold k elements; unaligned whenever either is used.
  CHECK_FALSE(models::gemm_operands_aligned(gemm(4096, 4096, 4095, false, false)));
  CHECK_FALSE(models::gemm_operands_aligned(gemm(4096, 4096, 4095, true, true)));
  // k only indexes B's rows (plain B: leading dim n) and A^T's rows (leading dim m): aligned.
  CHECK(models::gemm_operands_aligned(gemm(4096, 4096, 4095, true, false)));
}

SCENARIO(
    "C's leading dimension is n whatever the layout: x @ W^T over a 50,257-word vocabulary is "
    "unaligned through C alone, over 50,256 words aligned") {
  CHECK_FALSE(models::gemm_operands_aligned(gemm(8192, 50257, 768, false, true)));
  CHECK(models::gemm_operands_aligned(gemm(8192, 50256, 768, false, true)));
  const auto ld = models::gemm_leading_dims(gemm(8192, 50257, 768, false, true));
  CHECK(ld.a == 768);
  CHECK(ld.b == 768);
  CHECK(ld.c == 50257);
}

SCENARIO("the weight gradient g^T @ x of an odd vocabulary is unaligned through A^T alone") {
  const auto g = gemm(50257, 768, 8192, true, false);
  CHECK(models::gemm_leading_dims(g).a == 50257);
  CHECK_FALSE(models::gemm_operands_aligned(g));
  CHECK(models::gemm_operands_aligned(gemm(50256, 768, 8192, true, false)));
}

SCENARIO(
    "the alignment left is the largest power of two dividing every leading dimension: "
    "2,500 (bf16) is align4, 2,501 align1, 2,502 align2") {
  CHECK(models::gemm_alignment_elements(gemm(2500, 2500, 2500)) == 4);
  CHECK(models::gemm_alignment_elements(gemm(2500, 2500, 2501)) == 1);
  CHECK(models::gemm_alignment_elements(gemm(2502, 2502, 2502)) == 2);
  CHECK(models::gemm_alignment_elements(gemm(2504, 2504, 2504)) == 8);
}

SCENARIO("16-bit even-but-unaligned GEMMs run the align2 fallback, faster than align1") {
  const double even = models::gemm_alignment_efficiency(gemm(2502, 2502, 2502));
  const double odd = models::gemm_alignment_efficiency(gemm(2502, 2502, 2501));
  CHECK(even == Approx(models::kEvenUnaligned16BitEfficiency));
  CHECK(odd == Approx(models::kUnaligned16BitEfficiency));
  CHECK(even > odd);
  sim::OpPredictor p(test::gpu_builder{}.build());
  CHECK(p.predict(gemm(8190, 8190, 8190)).duration_us < p.predict(gemm(8190, 8190, 8191)).duration_us);
}

SCENARIO("bf16 align1 with B stored transposed runs below the plain layout; align2 does not") {
  using models::gemm_alignment_efficiency;
  CHECK(gemm_alignment_efficiency(gemm(8192, 50257, 768, false, true)) ==
        Approx(models::kUnaligned16BitEfficiency * models::kTransposedBBf16FallbackShare));
  CHECK(gemm_alignment_efficiency(gemm(8192, 50257, 768, false, false)) ==
        Approx(models::kUnaligned16BitEfficiency));
  CHECK(gemm_alignment_efficiency(gemm(8192, 50258, 768, false, true)) ==
        Approx(models::kEvenUnaligned16BitEfficiency));
}

SCENARIO("fp16 align1 with B stored transposed runs at its own share, whatever k; A^T and align2 do not") {
  using models::gemm_alignment_efficiency;
  const double b_t = models::kUnaligned16BitEfficiency * models::kTransposedBFp16FallbackShare;
  CHECK(gemm_alignment_efficiency(gemm(8192, 50257, 768, false, true, DataType::fp16)) == Approx(b_t));
  CHECK(gemm_alignment_efficiency(gemm(1021, 2039, 2039, false, true, DataType::fp16)) == Approx(b_t));
  CHECK(gemm_alignment_efficiency(gemm(1021, 2039, 2039, false, false, DataType::fp16)) ==
        Approx(models::kUnaligned16BitEfficiency));
  CHECK(gemm_alignment_efficiency(gemm(1021, 2039, 2039, true, false, DataType::fp16)) ==
        Approx(models::kUnaligned16BitEfficiency));
  CHECK(gemm_alignment_efficiency(gemm(8192, 50258, 768, false, true, DataType::fp16)) ==
        Approx(models::kEvenUnaligned16BitEfficiency));
}

SCENARIO("bf16 B^T with its own rows unaligned (odd k) runs the common align1 rate") {
  using models::gemm_alignment_efficiency;
  CHECK(gemm_alignment_efficiency(gemm(509, 8191, 8191, false, true)) ==
        Approx(models::kUnaligned16BitEfficiency));
  CHECK(gemm_alignment_efficiency(gemm(509, 8191, 8192, false, true)) ==
        Approx(models::kUnaligned16BitEfficiency * models::kTransposedBBf16FallbackShare));
}

SCENARIO("layouts only matter when they change a leading dimension's alignment") {
  sim::OpPredictor p(test::gpu_builder{}.build());
  // Every dimension a multiple of 8: the four layouts predict the same fast kernel.
  const double nn = p.predict(gemm(4096, 4096, 4096)).duration_us;
  CHECK(p.predict(gemm(4096, 4096, 4096, true, true)).duration_us == Approx(nn));
  // The weight gradient of an odd vocabulary: several times the aligned one.
  const double odd = p.predict(gemm(50257, 768, 8192, true, false)).duration_us;
  const double even = p.predict(gemm(50256, 768, 8192, true, false)).duration_us;
  CHECK(odd > 3 * even);
}

SCENARIO("workload files take transpose_a and transpose_b as booleans; other values name file:line:key") {
  const std::string head = "[[kernel]]\nop = \"gemm\"\nm = 50257\nn = 768\nk = 8192\ndtype = \"bf16\"\n";
  const auto w = wl::read_workload_text(head + "transpose_a = true\n", "w.toml");
  const auto& g = std::get<wl::GemmOp>(w.kernels()[0].op);
  CHECK(g.transpose_a);
  CHECK_FALSE(g.transpose_b);
  try {
    (void)wl::read_workload_text(head + "transpose_b = \"yes\"\n", "w.toml");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.key() == "transpose_b");
    CHECK(e.where().file == "w.toml");
    CHECK(e.where().line == 7);
  }
}
