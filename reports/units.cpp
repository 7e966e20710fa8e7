#include "reports/units.h"

#include <cmath>
#include <cstdio>

namespace gpucast::reports {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string sig3(double v) {
  const double a = std::fabs(v);
  if (a == 0) return "0";
  if (a >= 100) return fixed(v, 0);
  if (a >= 10) return fixed(v, 1);
  if (a >= 1) return fixed(v, 2);
  const int decimals = 2 - static_cast<int>(std::floor(std::log10(a)));
  return fixed(v, decimals);
}

std::string duration(double us) {
  if (!std::isfinite(us)) return "-";
  if (us < 1) return sig3(us * 1e3) + " ns";
  if (us < 1e3) return sig3(us) + " us";
  if (us < 1e6) return sig3(us / 1e3) + " ms";
  return sig3(us / 1e6) + " s";
}

std::string bandwidth(double gbps) {
  if (gbps >= 1e3) return sig3(gbps / 1e3) + " TB/s";
  return sig3(gbps) + " GB/s";
}

std::string tflops(double v) { return sig3(v) + " TFLOP/s"; }

std::string bytes(double b) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int i = 0;
  while (std::fabs(b) >= 1000 && i < 4) {
    b /= 1000;
    ++i;
  }
  return (i == 0 ? fixed(b, 0) : sig3(b)) + " " + units[i];
}

std::string usd(double v) {
  if (std::fabs(v) >= 1000) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", std::round(v));
    std::string digits = buf;
    std::string out;
    const bool negative = digits[0] == '-';
    if (negative) digits = digits.substr(1);
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return (negative ? "-$" : "$") + out;
  }
  if (std::fabs(v) >= 10) return "$" + fixed(v, 0);
  if (std::fabs(v) >= 0.01) return "$" + fixed(v, 2);
  return "$" + sig3(v);
}

std::string percent(double fraction) { return fixed(fraction * 100, 1) + "%"; }

std::string count(double v) {
  const double a = std::fabs(v);
  if (a >= 1e12) return sig3(v / 1e12) + "T";
  if (a >= 1e9) return sig3(v / 1e9) + "G";
  if (a >= 1e6) return sig3(v / 1e6) + "M";
  if (a >= 1e3) return sig3(v / 1e3) + "k";
  return sig3(v);
}

}  // namespace gpucast::reports
