#include "hardware/price_file.h"

#include "common/suggest.h"
#include "hardware/description_reader.h"
#include "hardware/key_schema.h"

namespace gpucast::hw {
namespace {

const std::vector<std::string> kPriceKeys{"usd", "launch_usd", "kind", "date", "note"};

PriceSpec read_price(const toml::node& node, const std::string& file, const std::string& prefix) {
  const auto* table = node.as_table();
  if (!table)
    throw InputError(location_of(node, file), prefix + "price",
                     "expected a table: price = { usd = ..., date = \"YYYY-MM\" }");
  FlatTable values;
  for (auto&& [key, value] : *table) {
    const std::string name(key.str());
    const KeyDef* def = find_gpu_key("price." + name);
    if (!def)
      throw InputError(location_of(key, file), prefix + "price." + name,
                       "unknown key" + did_you_mean(name, kPriceKeys));
    values[name] = convert_value(*def, value, prefix + "price." + name, file);
  }
  for (const char* required : {"usd", "date"})
    if (!values.count(required))
      throw InputError(location_of(node, file), prefix + "price." + required,
                       "missing required key (quotes must be dated)");
  PriceSpec p;
  p.usd = *scalar_as_number(values.at("usd").value);
  if (values.count("launch_usd")) p.launch_usd = *scalar_as_number(values.at("launch_usd").value);
  auto text = [&](const char* k) {
    return values.count(k) ? std::get<std::string>(values.at(k).value) : std::string();
  };
  p.kind = values.count("kind") ? text("kind") : "quote";
  p.date = text("date");
  p.note = values.count("note") ? text("note") : "price file " + file;
  return p;
}

}  // namespace

PriceFile read_price_file(const std::filesystem::path& path, const Catalog& catalog) {
  PriceFile out;
  out.file = path.string();
  const toml::table root = parse_toml_file(path);
  for (auto&& [key, node] : root) {
    const std::string name(key.str());
    const SourceLocation where = location_of(key, out.file);
    std::string id;
    try {
      id = catalog.resolve(name);
    } catch (const InputError& e) {
      throw InputError(where, name, e.detail());
    }
    const auto* table = node.as_table();
    if (!table) throw InputError(where, name, "expected a table of prices for this GPU ([" + name + "])");
    PriceQuote quote;
    for (auto&& [field, value] : *table) {
      const std::string f(field.str());
      if (f == "price") {
        quote.price = read_price(value, out.file, name + ".");
      } else if (f == "cloud") {
        std::vector<CloudOffer> offers;
        for (const auto& raw : read_cloud_offers(value, out.file)) {
          if (!raw.values.count("date"))
            throw InputError(raw.where, name + ".cloud.date", "missing required key (quotes must be dated)");
          offers.push_back(build_cloud_offer(raw));
        }
        quote.cloud = offers;
      } else {
        throw InputError(location_of(field, out.file), name + "." + f,
                         "unknown key" + did_you_mean(f, {"price", "cloud"}) +
                             " (a GPU's quote holds price and [[cloud]])");
      }
    }
    out.quotes[id] = quote;
  }
  return out;
}

bool apply_price_file(const PriceFile& prices, GpuSpec& gpu) {
  auto it = prices.quotes.find(gpu.id);
  if (it == prices.quotes.end()) return false;
  if (it->second.price) {
    gpu.price = *it->second.price;
    gpu.sources["price"] = "user quote: " + prices.file;
  }
  if (it->second.cloud) {
    gpu.cloud = *it->second.cloud;
    for (auto& offer : gpu.cloud)
      if (offer.source.empty()) offer.source = "user quote: " + prices.file;
  }
  return true;
}

}  // namespace gpucast::hw
