#pragma once
// A user's own price quotes (`--price-file FILE` of `cost` and `compare`): per GPU, a purchase
// price and/or cloud offers that replace the catalog's. Format (docs/hardware-format.md):
//
//   [h100-sxm]                      # catalog id or alias
//   price = { usd = 22000.0, kind = "street", date = "2026-11", note = "reseller quote" }
//   [[h100-sxm.cloud]]
//   provider = "Acme"               # the [[cloud]] keys of a catalog file
//   instance = "1x H100 SXM"
//   gpus = 1
//   usd_per_hour = 1.95
//   date = "2026-11"
//
// Every price must be dated. Errors are InputErrors naming file:line and the key.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hardware/catalog.h"
#include "hardware/gpu_spec.h"

namespace gpucast::hw {

struct PriceQuote {
  std::optional<PriceSpec> price;                // replaces the catalog's [price]
  std::optional<std::vector<CloudOffer>> cloud;  // replaces the catalog's [[cloud]] offers
};

struct PriceFile {
  std::string file;
  std::map<std::string, PriceQuote> quotes;  // catalog id -> quote
};

[[nodiscard]] PriceFile read_price_file(const std::filesystem::path& path, const Catalog& catalog);

// Applies the quote for `gpu.id`, if the file has one; returns whether it did.
bool apply_price_file(const PriceFile& prices, GpuSpec& gpu);

}  // namespace gpucast::hw
