#pragma once
// A traced kernel's name as a reader scans it: C++ kernel names run to hundreds of characters of
// template arguments, and the part that says what the kernel does (which PyTorch loop, which
// functor, which type) sits inside them.
#include <string>

namespace gpucast::trace {

// The kernel's name without `void `, namespaces and template arguments; for PyTorch's pointwise
// loops (vectorized_elementwise_kernel, elementwise_kernel, unrolled_elementwise_kernel) also the
// loop's leading template numbers (vector width, or threads and items per thread), the functor and
// its first element type: "vectorized_elementwise_kernel<8> bfloat16_copy_kernel_cuda float".
// Names of at most 60 characters; anything else is cut there.
[[nodiscard]] std::string short_kernel_name(const std::string& kernel);

}  // namespace gpucast::trace
