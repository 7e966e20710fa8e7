// common/huge_pages.h is a hint to the OS: it must change nothing a caller can see.
#include <catch2/catch.hpp>

#include "common/huge_pages.h"

using namespace gpucast;

SCENARIO("Advising huge pages changes neither contents nor capacity") {
  GIVEN("a vector reserved large (8 MiB) and one too small to hold a huge page") {
    std::vector<double> large, small;
    reserve_large(large, size_t(1) << 20);
    reserve_large(small, 10);
    large.assign(size_t(1) << 20, 1.5);
    small.assign(10, 2.5);
    THEN("both hold what was written, with at least the asked capacity") {
      CHECK(large.capacity() >= (size_t(1) << 20));
      CHECK(large.back() == 1.5);
      CHECK(small.capacity() >= 10);
      CHECK(small.front() == 2.5);
    }
  }
  GIVEN("a null pointer or an empty range") {
    THEN("the hint is ignored") {
      prefer_huge_pages(nullptr, 1 << 30);
      const int dummy = 0;
      prefer_huge_pages(&dummy, 0);
      SUCCEED();
    }
  }
}
