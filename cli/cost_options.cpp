#include "cli/cost_options.h"

#include <cmath>

#include "common/errors.h"
#include "models/cost/multi_gpu.h"
#include "models/cost/price_age.h"
#include "reports/json.h"
#include "reports/units.h"

namespace gpucast::cli {

namespace {
using models::cost::CostDefaults;
using models::cost::kDesktopMachine;
using models::cost::kServerShare;
std::string watts(double w) { return reports::fixed(w, 0) + " W"; }
std::string dollars(double v) { return reports::usd(v); }
std::string years_text(double y) {
  return reports::fixed(y, y == std::floor(y) ? 0 : 1) + (y == 1 ? " year" : " years");
}
}  // namespace

void add_cost_flags(CLI::App* cmd, CostFlags& f, bool with_cloud_and_power) {
  cmd->add_option("--desktop-usd", f.desktop_usd,
                  "the machine around the GPU (default: " + dollars(kDesktopMachine.machine_usd) + " desktop; " +
                      dollars(kServerShare.machine_usd) + " server share for SXM GPUs); without --gpu, the whole machine")
      ->check(CLI::Range(0.0, 1e12));
  cmd->add_option("--gpu-usd", f.gpu_usd, "GPU price (default: the catalog's price.usd)")->check(CLI::Range(0.0, 1e12));
  cmd->add_option("--gpu-watts", f.gpu_watts, "GPU power while working (default: the catalog's power.tdp_w)")
      ->check(CLI::Range(0.0, 1e12));
  cmd->add_option("--host-watts", f.host_watts, "rest of the machine while working (default: " + watts(kDesktopMachine.host_watts) + "; " +
                      watts(kServerShare.host_watts) + " for SXM)")
      ->check(CLI::Range(0.0, 1e12));
  cmd->add_option("--utilization", f.utilization, "fraction of the year the GPU works (default " + reports::format_number(CostDefaults::utilization) + ")")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--electricity-usd-kwh", f.usd_per_kwh, "electricity price, USD per kWh (default " + reports::format_number(CostDefaults::usd_per_kwh) + ")")
      ->check(CLI::Range(0.0, 1e12));
  cmd->add_option("--years", f.years, "horizon: years the machine is used and paid off over (default " + years_text(CostDefaults::years) + ")")
      ->check(CLI::Range(1e-6, 1e12));
  cmd->add_option("--price-file", f.price_file,
                  "TOML file of your own price quotes (purchase and cloud, per GPU); replaces the catalog's prices "
                  "for the GPUs it names (docs/hardware-format.md)")
      ->check(CLI::ExistingFile);
  if (with_cloud_and_power) {
    cmd->add_option("--cloud-usd-per-hour", f.cloud_usd_per_hour,
                    "rent per GPU-hour (default: the cheapest on-demand price in the catalog)")
        ->check(CLI::Range(0.0, 1e12));
    cmd->add_option("--power-limit-w", f.power_limit_w, "cap the GPU's board power (nvidia-smi -pl); slows the SM clock")
        ->check(CLI::Range(1e-6, 1e12));
  }
}

std::optional<hw::PriceFile> read_price_flags(const CostFlags& f, const hw::Catalog& catalog) {
  if (f.price_file.empty()) return std::nullopt;
  return hw::read_price_file(f.price_file, catalog);
}

std::vector<std::string> price_warnings(const CostFlags& f, const hw::GpuSpec& gpu, const ResolvedCost& rc) {
  const bool cloud_from_catalog = rc.on_demand && !f.cloud_usd_per_hour;
  std::optional<std::string> offer;
  std::optional<std::string> date;
  if (cloud_from_catalog) {
    offer = rc.on_demand->provider + " " + rc.on_demand->instance;
    date = rc.on_demand->date;
  }
  return models::cost::stale_price_warnings(gpu, !f.gpu_usd, offer, date, models::cost::today_utc());
}

void add_warnings(reports::Report& report, const std::vector<std::string>& warnings) {
  reports::Json list = reports::Json::array();
  std::string text;
  for (const auto& w : warnings) {
    list.push(reports::Json(w));
    text += "warning: " + w + "\n";
  }
  if (!warnings.empty()) report.sections.push_back({"Warnings", text, std::nullopt});
  if (report.json.is_object()) report.json.set("warnings", list);
}

void scale_to_gpus(ResolvedCost& rc, const CostFlags& f, int gpus, const hw::SystemSpec& system) {
  const bool whole = gpus == system.total_gpus();
  const bool priced = whole && system.price_usd && !f.gpu_usd && !f.desktop_usd;
  rc.inputs = models::cost::for_gpus(rc.inputs, gpus, priced ? system.price_usd : std::nullopt);
  rc.gpus = gpus;
  rc.shown.insert(rc.shown.begin(),
                  {"GPUs", std::to_string(gpus) + " of " + std::to_string(system.total_gpus()),
                   "system " + system.id + ": purchase, power and rent x " + std::to_string(gpus)});
  if (priced)
    rc.shown.insert(rc.shown.begin() + 1,
                    {"system price", reports::usd(*system.price_usd), "system " + system.id + ": price_usd"});
}

ResolvedCost resolve_cost(const CostFlags& f, const hw::GpuSpec* gpu) {
  ResolvedCost r;
  auto& shown = r.shown;
  if (!gpu) {
    if (!f.desktop_usd && !f.gpu_usd) throw UsageError("without --gpu, give the machine's price with --desktop-usd");
    if (!f.gpu_watts) throw UsageError("without --gpu, give the GPU's power with --gpu-watts");
    if (!f.cloud_usd_per_hour) throw UsageError("without --gpu, give the cloud price with --cloud-usd-per-hour");
    if (f.power_limit_w) throw UsageError("--power-limit-w needs --gpu (the slowdown depends on the GPU)");
    r.machine_kind = "machine";
    r.machine_usd = f.desktop_usd.value_or(0);
    r.gpu_price_usd = f.gpu_usd.value_or(0);
    r.gpu_watts = *f.gpu_watts;
    r.host_watts = f.host_watts.value_or(100);
    shown.push_back({"machine", reports::usd(r.machine_usd), "--desktop-usd"});
    if (f.gpu_usd) shown.push_back({"GPU", reports::usd(r.gpu_price_usd), "--gpu-usd"});
    shown.push_back({"GPU power", watts(r.gpu_watts), "--gpu-watts"});
    shown.push_back({"host power", watts(r.host_watts), f.host_watts ? "--host-watts" : "default: desktop host"});
  } else {
    const auto machine = models::cost::default_machine(*gpu);
    r.machine_kind = machine.kind;
    r.machine_usd = f.desktop_usd.value_or(machine.machine_usd);
    r.gpu_price_usd = f.gpu_usd.value_or(gpu->price.usd);
    r.gpu_watts = f.gpu_watts.value_or(gpu->power.tdp_w);
    r.host_watts = f.host_watts.value_or(machine.host_watts);
    shown.push_back({machine.kind, reports::usd(r.machine_usd), f.desktop_usd ? "--desktop-usd" : "default"});
    auto price_source = gpu->sources.find("price");
    const bool quoted = price_source != gpu->sources.end() && price_source->second.rfind("user quote", 0) == 0;
    shown.push_back({"GPU", reports::usd(r.gpu_price_usd),
                     f.gpu_usd ? "--gpu-usd"
                               : std::string(quoted ? "--price-file: " : "catalog: ") + gpu->price.kind +
                                     (gpu->price.date.empty() ? "" : " " + gpu->price.date)});
    shown.push_back({"GPU power", watts(r.gpu_watts), f.gpu_watts ? "--gpu-watts" : "catalog: power.tdp_w"});
    shown.push_back({"host power", watts(r.host_watts), f.host_watts ? "--host-watts" : "default: " + machine.kind});
    r.on_demand = models::cost::cheapest_on_demand(*gpu);
    r.spot = models::cost::cheapest_spot(*gpu);
  }
  if (f.power_limit_w && *f.power_limit_w < r.gpu_watts) {
    shown.push_back({"power limit", watts(*f.power_limit_w), "--power-limit-w"});
    r.gpu_watts = *f.power_limit_w;
  }
  r.inputs.owned.purchase_usd = r.machine_usd + r.gpu_price_usd;
  r.inputs.owned.busy_watts = r.gpu_watts + r.host_watts;
  r.inputs.owned.usd_per_kwh = f.usd_per_kwh;
  r.inputs.utilization = f.utilization;
  r.inputs.years = f.years;
  shown.push_back({"utilization", reports::percent(f.utilization), "--utilization (default " + reports::percent(CostDefaults::utilization) + ")"});
  shown.push_back({"electricity", "$" + reports::fixed(f.usd_per_kwh, 3) + "/kWh", "--electricity-usd-kwh (default $" + reports::fixed(CostDefaults::usd_per_kwh, 2) + ")"});
  shown.push_back({"horizon", years_text(f.years), "--years (default " + years_text(CostDefaults::years) + ")"});
  if (f.cloud_usd_per_hour) {
    r.on_demand = models::cost::CloudPrice{"(given)", "", "", "--cloud-usd-per-hour", *f.cloud_usd_per_hour, false};
    r.spot.reset();
    shown.push_back({"cloud", "$" + reports::fixed(*f.cloud_usd_per_hour, 2) + "/GPU-hour", "--cloud-usd-per-hour"});
  } else if (r.on_demand) {
    shown.push_back({"cloud on-demand", "$" + reports::fixed(r.on_demand->usd_per_gpu_hour, 2) + "/GPU-hour",
                     std::string(r.on_demand->source.rfind("user quote", 0) == 0 ? "--price-file: " : "catalog: ") +
                         r.on_demand->provider + " " + r.on_demand->instance + " (" + r.on_demand->date + ")"});
    if (r.spot)
      shown.push_back({"cloud spot", "$" + reports::fixed(r.spot->usd_per_gpu_hour, 2) + "/GPU-hour",
                       "catalog: " + r.spot->provider + " " + r.spot->instance + " (" + r.spot->date + ")"});
  }
  if (r.on_demand) r.inputs.cloud_usd_per_hour = r.on_demand->usd_per_gpu_hour;
  return r;
}

}  // namespace gpucast::cli
