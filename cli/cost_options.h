#pragma once
// The owning-versus-renting flags `compare` and `cost` share, and how they combine with a GPU's
// catalog entry. Every value remembers where it came from (flag, catalog or documented default),
// so reports can show their inputs.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "hardware/catalog.h"
#include "hardware/gpu_spec.h"
#include "hardware/price_file.h"
#include "hardware/system_spec.h"
#include "reports/report.h"
#include "models/cost/ownership.h"
#include "models/cost/pricing.h"

namespace gpucast::cli {

struct CostFlags {
  std::optional<double> desktop_usd;
  std::optional<double> gpu_usd;
  std::optional<double> gpu_watts;
  std::optional<double> host_watts;
  std::optional<double> cloud_usd_per_hour;
  std::optional<double> power_limit_w;
  double utilization = models::cost::CostDefaults::utilization;
  double years = models::cost::CostDefaults::years;
  double usd_per_kwh = models::cost::CostDefaults::usd_per_kwh;
  std::string price_file;  // --price-file: the user's own quotes (hardware/price_file.h)
};

// Defaults: models::cost::CostDefaults and the machine defaults beside default_machine.
void add_cost_flags(CLI::App* cmd, CostFlags& f, bool with_cloud_and_power);

// One input as shown in reports.
struct CostInput {
  std::string name;
  std::string value;
  std::string from;  // "--flag", "catalog: ...", "default: ..."
};

struct ResolvedCost {
  models::cost::CostInputs inputs;         // cloud price filled when known
  std::optional<models::cost::CloudPrice> on_demand;
  std::optional<models::cost::CloudPrice> spot;
  double gpu_price_usd = 0;
  double machine_usd = 0;
  double gpu_watts = 0;
  double host_watts = 0;
  std::string machine_kind;
  int gpus = 1;                           // GPUs owned or rented together (scale_to_gpus)
  std::vector<CostInput> shown;           // the inputs, for the report
};

// The user's quotes from --price-file, if given (read once per command).
[[nodiscard]] std::optional<hw::PriceFile> read_price_flags(const CostFlags& f, const hw::Catalog& catalog);

// Warnings for prices `resolve_cost` took from the catalog or a price file that are older than a
// year or undated (models/cost/price_age.h); prices given by flag are the user's and not flagged.
[[nodiscard]] std::vector<std::string> price_warnings(const CostFlags& f, const hw::GpuSpec& gpu,
                                                      const ResolvedCost& rc);

// Appends a "Warnings" section and a JSON "warnings" array (empty when there are none).
void add_warnings(reports::Report& report, const std::vector<std::string>& warnings);

// Several GPUs working together (a system's GPUs that a job uses): purchase, power and rent times
// `gpus` (models/cost/multi_gpu.h); the system's published price replaces the per-GPU prices when
// the job uses every GPU of it and no price flag is given. Adds the count to the shown inputs.
void scale_to_gpus(ResolvedCost& rc, const CostFlags& f, int gpus, const hw::SystemSpec& system);

// Combines flags with the GPU's catalog entry (when `gpu` is given). Without a GPU, --desktop-usd
// is the whole machine and --gpu-watts and --cloud-usd-per-hour are required.
[[nodiscard]] ResolvedCost resolve_cost(const CostFlags& f, const hw::GpuSpec* gpu);

}  // namespace gpucast::cli
