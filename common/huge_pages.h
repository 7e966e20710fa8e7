#pragma once
// Large per-kernel arrays (a million-kernel workload's records are hundreds of megabytes) are
// faulted in 4 KiB at a time unless the kernel backs them with 2 MiB pages. With transparent huge
// pages in `madvise` mode (Debian's default) that takes an madvise per array: on the 2-core build
// VM it cut `gpucast bench --kernels 1000000` from 2.1 s to about 0.4 s of CPU (docs/robustness.md).
// A hint only: it changes no result, and does nothing where huge pages are unavailable.
#include <cstddef>
#include <vector>

namespace gpucast {

// Advises the kernel to back the whole 2 MiB pages inside [data, data + bytes) with huge pages.
void prefer_huge_pages(const void* data, std::size_t bytes) noexcept;

// v.reserve(n), with the reserved storage advised for huge pages when it is large.
template <class T>
void reserve_large(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
  prefer_huge_pages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace gpucast
