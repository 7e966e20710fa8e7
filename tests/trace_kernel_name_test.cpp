// Short kernel names for reports (workloads/trace/kernel_name.h): template arguments dropped, and
// for PyTorch's pointwise loops the loop's numbers, functor and element type kept.
#include <catch2/catch.hpp>

#include "workloads/trace/kernel_name.h"

using gpucast::trace::short_kernel_name;

SCENARIO("a pointwise loop keeps its numbers, functor and first element type") {
  CHECK(short_kernel_name(
            "void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda("
            "at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, ...)") ==
        "vectorized_elementwise_kernel<8> bfloat16_copy_kernel_cuda float");
  CHECK(short_kernel_name(
            "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::"
            "BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::"
            "MulFunctor<float> > >(at::TensorIteratorBase&, ...)::{lambda(int)#1}>(int, ...)") ==
        "elementwise_kernel<128, 4> BinaryFunctor BFloat16");
  CHECK(short_kernel_name(
            "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::"
            "TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda(float)#1}, std::array<"
            "char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int> >(int, ...)") ==
        "unrolled_elementwise_kernel direct_copy_kernel_cuda float");
}

SCENARIO("other kernels keep their name up to the template arguments, at most 60 characters") {
  CHECK(short_kernel_name("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float> >(...)") ==
        "reduce_kernel");
  CHECK(short_kernel_name("void at::native::(anonymous namespace)::CatArrayBatchedCopy<...>(...)") ==
        "CatArrayBatchedCopy");
  CHECK(short_kernel_name("Memset (Device)") == "Memset ");
  CHECK(short_kernel_name("nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_NNT") ==
        "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_NNT");
  CHECK(short_kernel_name(std::string(70, 'k')) == std::string(60, 'k'));
  CHECK(short_kernel_name("").empty());
}
