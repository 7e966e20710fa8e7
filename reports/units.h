#pragma once
// Human formatting with units: durations in us/ms/s, bandwidths, rates, bytes, money.
#include <string>

namespace gpucast::reports {

[[nodiscard]] std::string fixed(double v, int decimals);
// 3 significant digits, e.g. 0.0123, 1.23, 123, 12300.
[[nodiscard]] std::string sig3(double v);
[[nodiscard]] std::string duration(double us);         // "850 ns", "12.3 us", "4.56 ms", "1.20 s"
[[nodiscard]] std::string bandwidth(double gb_per_s);  // "812 GB/s", "3.01 TB/s"
[[nodiscard]] std::string tflops(double tflop_per_s);  // "0.52 TFLOP/s"
[[nodiscard]] std::string bytes(double b);             // "512 B", "4.00 KB", "1.50 GB"
[[nodiscard]] std::string usd(double v);               // "$1,599", "$0.53"
[[nodiscard]] std::string percent(double fraction);    // "12.3%"
[[nodiscard]] std::string count(double v);             // "1.2k", "3.4M", "5.0G"

}  // namespace gpucast::reports
