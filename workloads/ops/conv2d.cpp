#include "workloads/ops/conv2d.h"

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

std::vector<OpDef> OpFamily<Conv2dOp>::defs() {
  return {
      {"conv2d",
       {{"n", P::integer, kReq, "", {}, "batch"},
        {"c", P::integer, kReq, "", {}, "input channels"},
        {"h", P::integer, kReq, "", {}, "input height"},
        {"w", P::integer, kReq, "", {}, "input width"},
        {"k", P::integer, kReq, "", {}, "output channels"},
        {"r", P::integer, kReq, "", {}, "filter height", 1, 65536},
        {"s", P::integer, kReq, "", {}, "filter width", 1, 65536},
        {"stride", P::integer, kOpt, "1", {}, "stride", 1, 65536},
        {"pad", P::integer, kOpt, "0", {}, "zero padding", 0, 65536},
        {"dtype", P::dtype, kReq, "", {}, "operand type"},
        {"allow_tf32",
         P::boolean,
         kOpt,
         "true",
         {},
         "fp32 only: cuDNN may use TF32 tensor cores (PyTorch's torch.backends.cudnn.allow_tf32); false: FMA "
         "kernels"}},
       "2-D convolution, NHWC, as cuDNN runs it (GEMM, implicit GEMM or Winograd by shape and type)"}};
}

Conv2dOp OpFamily<Conv2dOp>::build(std::string_view, const ParamReader& p) {
  Conv2dOp c;
  c.n = p.integer("n", c.n);
  c.c = p.integer("c", c.c);
  c.h = p.integer("h", c.h);
  c.w = p.integer("w", c.w);
  c.k = p.integer("k", c.k);
  c.r = p.integer("r", c.r);
  c.s = p.integer("s", c.s);
  c.stride = p.integer("stride", c.stride);
  c.pad = p.integer("pad", c.pad);
  c.dtype = p.dtype("dtype", c.dtype);
  c.allow_tf32 = p.boolean("allow_tf32", c.allow_tf32);
  for (auto [name, v] : {std::pair{"n", c.n},
                         {"c", c.c},
                         {"h", c.h},
                         {"w", c.w},
                         {"k", c.k},
                         {"r", c.r},
                         {"s", c.s},
                         {"stride", c.stride}})
    p.positive(name, static_cast<double>(v));
  p.non_negative("pad", static_cast<double>(c.pad));
  if (c.p() < 1 || c.q() < 1) p.fail("r", "the filter is larger than the padded input");
  p.elements("h", {c.n, c.h, c.w, c.c}, "input");
  p.elements("k", {c.k, c.r, c.s, c.c}, "filter");
  p.elements("n", {c.n, c.p(), c.q(), c.k}, "output");
  p.elements("k", {c.n, c.p(), c.q(), c.k, c.r, c.s, c.c}, "implicit GEMM (n p q k r s c)");
  return c;
}

ParamList OpFamily<Conv2dOp>::params(const Conv2dOp& c) {
  ParamList v{{"n", integer(c.n)}, {"c", integer(c.c)}, {"h", integer(c.h)}, {"w", integer(c.w)},
              {"k", integer(c.k)}, {"r", integer(c.r)}, {"s", integer(c.s)}};
  if (c.stride != 1) v.emplace_back("stride", integer(c.stride));
  if (c.pad != 0) v.emplace_back("pad", integer(c.pad));
  v.emplace_back("dtype", dtype_value(c.dtype));
  if (!c.allow_tf32) v.emplace_back("allow_tf32", ParamValue{false});
  return v;
}

std::string OpFamily<Conv2dOp>::name(const Conv2dOp&) {
  return "conv2d";
}

std::string OpFamily<Conv2dOp>::shape(const Conv2dOp& c) {
  std::ostringstream s;
  s << c.n << "x" << c.h << "x" << c.w << "x" << c.c << " k" << c.k << " " << c.r << "x" << c.s;
  if (c.stride != 1) s << "/" << c.stride;
  s << " " << dt(c.dtype);
  if (c.dtype == DataType::fp32 && !c.allow_tf32) s << " no-tf32";
  return s.str();
}

double OpFamily<Conv2dOp>::flops(const Conv2dOp& c) {
  return 2.0 * c.n * c.p() * c.q() * c.k * c.c * c.r * c.s;
}

double OpFamily<Conv2dOp>::min_bytes(const Conv2dOp& c) {
  const double e = bytes_per_element(c.dtype);
  return e * (static_cast<double>(c.n) * c.h * c.w * c.c + static_cast<double>(c.k) * c.r * c.s * c.c +
              static_cast<double>(c.n) * c.p() * c.q() * c.k);
}

DataType OpFamily<Conv2dOp>::compute_dtype(const Conv2dOp& c) {
  return c.uses_tf32() ? DataType::tf32 : c.dtype;
}

bool OpFamily<Conv2dOp>::library_call(const Conv2dOp&) {
  return true;
}  // cuDNN

}  // namespace gpucast::wl
