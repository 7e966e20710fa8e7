// `gpucast cost`: owning against renting, with every input visible and overridable. With --gpu it
// reads prices and power from the catalog; with a workload it adds the cost per result; alone it is
// a calculator.
#include <cmath>
#include <memory>

#include "cli/commands.h"
#include "cli/cost_options.h"
#include "cli/output.h"
#include "cli/run_summary.h"
#include "cli/system_run.h"
#include "cli/system_source.h"
#include "common/errors.h"
#include "models/cost/power_limit.h"
#include "reports/units.h"
#include "reports/whatif_charts.h"

namespace gpucast::cli {
namespace {
namespace cost = models::cost;
using reports::Json;
using reports::Table;

struct CostOptions {
  std::string gpu;
  std::string gpus;    // NxGPU: one node of N catalog GPUs
  std::string system;  // a system id or file
  std::vector<std::string> sets;
  WorkloadSourceOptions source;
  CostFlags flags;
  OutputOptions out;
};

struct PowerCap {
  double limit_w = 0;
  double clock_fraction = 1;
  std::optional<double> slowdown;  // predicted time ratio - 1 for the workload
};

struct PerResult {
  std::string unit;
  double results_per_hour = 0;
};

std::string years_text(double years) {
  return reports::fixed(years, years == std::floor(years) ? 0 : 1) + (years == 1 ? " year" : " years");
}

std::string days_text(double days) {
  if (days < 60) return reports::fixed(days, 0) + " days";
  if (days < 730) return reports::fixed(days, 0) + " days (" + reports::fixed(days / 30.44, 1) + " months)";
  return reports::fixed(days, 0) + " days (" + reports::fixed(days / 365, 1) + " years)";
}

std::string answer(const cost::CostComparison& c, const cost::CostInputs& in, bool has_cloud, double years, int gpus) {
  const std::string util = reports::percent(in.utilization);
  const std::string horizon = years_text(years);
  if (!has_cloud)
    return "No cloud price is known for this GPU (pass --cloud-usd-per-hour); owning costs " +
           reports::usd(c.owned_usd_per_year) + " per year at " + util + " utilization.";
  if (in.utilization == 0)
    return "At 0% utilization renting costs nothing, while owning costs the " + reports::usd(in.owned.purchase_usd) +
           " purchase: rent.";
  const std::string rate = "$" + reports::fixed(in.cloud_usd_per_hour, 2) +
                           (gpus > 1 ? "/hour for " + std::to_string(gpus) + " GPUs" : "/GPU-hour");
  if (!c.break_even_days)
    return "Renting is cheaper at any horizon: at " + util + " utilization the electricity alone ($" +
           reports::fixed(c.electricity_usd_per_busy_hour, 2) + " per working hour) costs as much as renting at " +
           rate + ".";
  const std::string totals = "over " + horizon + " owning costs " + reports::usd(c.owned_total_usd) +
                             " and renting " + reports::usd(c.cloud_total_usd) + ".";
  if (c.owning_cheaper_over_horizon())
    return "Buying pays off: at " + util + " utilization the " + reports::usd(in.owned.purchase_usd) + " machine (plus " +
           reports::usd(c.electricity_usd_per_year) + "/year of electricity) costs less than renting at " + rate +
           " after " + days_text(*c.break_even_days) + "; " + totals;
  return "Renting is cheaper over your " + horizon + " horizon: at " + util + " utilization owning pays off only after " +
         days_text(*c.break_even_days) + "; " + totals;
}

Json comparison_json(const cost::CostComparison& c) {
  Json j = Json::object();
  j.set("owned_usd_per_year", c.owned_usd_per_year);
  j.set("electricity_usd_per_year", c.electricity_usd_per_year);
  j.set("cloud_usd_per_year", c.cloud_usd_per_year);
  j.set("break_even_days", reports::number_or_null(c.break_even_days));
  j.set("owned_total_usd", c.owned_total_usd);
  j.set("cloud_total_usd", c.cloud_total_usd);
  j.set("busy_hours_per_year", c.busy_hours_per_year);
  j.set("cheaper", c.owning_cheaper_over_horizon() ? "owned" : "cloud");
  return j;
}

reports::Report build_report(const CostOptions& o, const hw::GpuSpec* gpu, const hw::SystemSpec* system, const ResolvedCost& rc,
                             const std::optional<PowerCap>& cap, const std::optional<PerResult>& per) {
  const auto& in = rc.inputs;
  const auto on_demand = cost::compare_costs(in);
  std::optional<cost::CostComparison> spot;
  if (rc.spot) {
    auto s = in;
    s.cloud_usd_per_hour = rc.spot->usd_per_gpu_hour * rc.gpus;
    spot = cost::compare_costs(s);
  }
  const bool has_cloud = rc.on_demand.has_value();
  const double years = o.flags.years;

  reports::Report r;
  r.title = gpu ? "Owning vs renting: " + gpu->id + " (" + gpu->name + ")" : "Owning vs renting";
  if (system)
    r.title = "Owning vs renting: " + std::to_string(rc.gpus) + " GPUs of " + system->id + " (" + system->name + ")";
  r.summary.push_back(answer(on_demand, in, has_cloud, years, rc.gpus));
  if (cap) {
    std::string line = "Power limit " + reports::fixed(cap->limit_w, 0) + " W: SM clock at " +
                       reports::percent(cap->clock_fraction) + "; compute-bound work slows by up to " +
                       reports::percent(1 / cap->clock_fraction - 1);
    if (cap->slowdown) line += ", this workload by " + reports::percent(*cap->slowdown) + " (predicted)";
    r.summary.push_back(line + ".");
  }

  Table inputs({{"input"}, {"value", reports::Align::right}, {"from"}});
  for (const auto& i : rc.shown) {
    inputs.add_row({i.name, i.value, i.from});
  }
  r.sections.push_back({"Inputs", "", inputs});

  std::vector<reports::Column> cols{{""}, {"owned", reports::Align::right}};
  if (has_cloud) cols.push_back({"cloud on-demand", reports::Align::right});
  if (spot) cols.push_back({"cloud spot", reports::Align::right});
  Table costs(cols);
  auto row = [&](const std::string& name, double owned, double cloud, std::optional<double> spot_value) {
    std::vector<std::string> cells{name, reports::usd(owned)};
    if (has_cloud) cells.push_back(reports::usd(cloud));
    if (spot) cells.push_back(reports::usd(*spot_value));
    costs.add_row(cells);
  };
  row("per year", on_demand.owned_usd_per_year, on_demand.cloud_usd_per_year,
      spot ? std::optional<double>(spot->cloud_usd_per_year) : std::nullopt);
  row("over " + years_text(years), on_demand.owned_total_usd, on_demand.cloud_total_usd,
      spot ? std::optional<double>(spot->cloud_total_usd) : std::nullopt);
  const bool used = in.utilization > 0;
  if (used)
    row("per working hour", on_demand.owned_usd_per_busy_hour, in.cloud_usd_per_hour,
        rc.spot ? std::optional<double>(rc.spot->usd_per_gpu_hour * rc.gpus) : std::nullopt);
  if (per && used && per->results_per_hour > 0)
    row("per " + per->unit, on_demand.owned_usd_per_busy_hour / per->results_per_hour,
        in.cloud_usd_per_hour / per->results_per_hour,
        rc.spot ? std::optional<double>((rc.spot->usd_per_gpu_hour * rc.gpus) / per->results_per_hour) : std::nullopt);
  if (has_cloud) {
    std::vector<std::string> cells{"break-even", "-",
                                   on_demand.break_even_days ? days_text(*on_demand.break_even_days) : "never"};
    if (spot) cells.push_back(spot->break_even_days ? days_text(*spot->break_even_days) : "never");
    costs.add_row(cells);
  }
  r.sections.push_back({"Costs", "", costs});

  // CSV: one row per way of paying.
  Table csv({{"option"}, {"usd_per_year"}, {"usd_over_horizon"}, {"usd_per_busy_hour"}, {"usd_per_result"},
             {"result"}, {"break_even_days"}});
  auto num = [](double v) { return reports::format_number(v); };
  auto csv_row = [&](const std::string& option, double per_year, double total, double per_hour,
                     std::optional<double> be) {
    const bool per_ok = per && used && per->results_per_hour > 0;
    csv.add_row({option, num(per_year), num(total), used ? num(per_hour) : "",
                 per_ok ? num(per_hour / per->results_per_hour) : "", per ? per->unit : "", be ? num(*be) : ""});
  };
  csv_row("owned", on_demand.owned_usd_per_year, on_demand.owned_total_usd, on_demand.owned_usd_per_busy_hour,
          std::nullopt);
  if (has_cloud)
    csv_row("cloud", on_demand.cloud_usd_per_year, on_demand.cloud_total_usd, in.cloud_usd_per_hour,
            on_demand.break_even_days);
  if (spot)
    csv_row("cloud_spot", spot->cloud_usd_per_year, spot->cloud_total_usd, (rc.spot->usd_per_gpu_hour * rc.gpus),
            spot->break_even_days);
  r.csv = csv;

  Json j = Json::object();
  j.set("gpu", gpu ? Json(gpu->id) : Json());
  j.set("system", system ? Json(system->id) : Json());
  j.set("gpus", rc.gpus);
  Json ij = Json::object();
  ij.set("purchase_usd", in.owned.purchase_usd);
  ij.set("machine_usd", rc.machine_usd);
  ij.set("gpu_usd", rc.gpu_price_usd);
  ij.set("gpu_watts", rc.gpu_watts);
  ij.set("host_watts", rc.host_watts);
  ij.set("utilization", in.utilization);
  ij.set("electricity_usd_per_kwh", in.owned.usd_per_kwh);
  ij.set("years", years);
  ij.set("cloud_usd_per_hour", has_cloud ? Json(in.cloud_usd_per_hour) : Json());
  ij.set("cloud_source", rc.on_demand ? Json(rc.on_demand->provider + " " + rc.on_demand->instance) : Json());
  ij.set("spot_usd_per_hour", rc.spot ? Json(rc.spot->usd_per_gpu_hour * rc.gpus) : Json());
  j.set("inputs", ij);
  const Json totals = comparison_json(on_demand);
  for (const auto& [k, v] : totals.as_object()) j.set(k, v);
  if (!has_cloud) {
    j.set("cloud_usd_per_year", Json());
    j.set("cloud_total_usd", Json());
    j.set("cheaper", Json());
  }
  j.set("spot", spot ? comparison_json(*spot) : Json());
  if (cap) {
    Json pj = Json::object();
    pj.set("limit_w", cap->limit_w);
    pj.set("clock_fraction", cap->clock_fraction);
    pj.set("slowdown", reports::number_or_null(cap->slowdown));
    j.set("power_limit", pj);
  } else {
    j.set("power_limit", Json());
  }
  if (per && used && per->results_per_hour > 0) {
    Json pr = Json::object();
    pr.set("unit", per->unit);
    pr.set("results_per_hour", per->results_per_hour);
    pr.set("owned_usd", on_demand.owned_usd_per_busy_hour / per->results_per_hour);
    pr.set("cloud_usd", has_cloud ? Json(in.cloud_usd_per_hour / per->results_per_hour) : Json());
    pr.set("spot_usd", rc.spot ? Json((rc.spot->usd_per_gpu_hour * rc.gpus) / per->results_per_hour) : Json());
    j.set("per_result", pr);
  } else {
    j.set("per_result", Json());
  }
  j.set("answer", r.summary.front());
  r.json = j;

  std::vector<reports::CostLine> lines{
      {"owned", in.owned.purchase_usd, on_demand.electricity_usd_per_year / 365}};
  if (has_cloud) lines.push_back({"cloud on-demand", 0, on_demand.cloud_usd_per_year / 365});
  if (spot) lines.push_back({"cloud spot", 0, spot->cloud_usd_per_year / 365});
  r.charts.push_back(reports::cost_chart(lines, years * 365, has_cloud ? on_demand.break_even_days : std::nullopt));
  return r;
}
}  // namespace

void add_cost_command(CLI::App& app, AppContext& ctx) {
  auto o = std::make_shared<CostOptions>();
  auto* cmd = app.add_subcommand("cost", "Owning a GPU against renting one: cost per year, break-even, cost per result");
  cmd->add_option("--gpu", o->gpu, "catalog id or .toml file (omit for a plain calculator)");
  cmd->add_option("--gpus", o->gpus, "N GPUs of one node, e.g. 8xh100-sxm: prices, power and rent of the GPUs the job uses");
  cmd->add_option("--system", o->system, "multi-GPU system: id in hardware/catalog/systems or a .toml file");
  add_workload_source_options(cmd, o->source);
  cmd->add_option("--set", o->sets, "override a hardware key: key.path=value (repeatable)");
  add_cost_flags(cmd, o->flags, true);
  add_output_options(cmd, o->out);
  cmd->callback([o, &ctx] {
    const bool has_workload = !o->source.workload.empty() || !o->source.model.empty() || !o->source.trace.empty();
    const int given = !o->gpu.empty() + !o->gpus.empty() + !o->system.empty();
    if (given > 1) throw UsageError("give one of --gpu, --gpus NxGPU and --system");
    if (has_workload && given == 0) throw UsageError("a workload needs --gpu (or --gpus/--system) to predict its speed");
    std::optional<hw::SystemSpec> system;
    if (!o->gpus.empty() || !o->system.empty())
      system = load_system(ctx, o->system.empty() ? o->gpus : o->system, o->sets);
    std::optional<hw::GpuSpec> gpu;
    if (system) gpu = system->gpu;
    else if (!o->gpu.empty()) gpu = ctx.catalog.load(o->gpu, gpu_overrides(o->sets));
    if (!o->flags.price_file.empty() && !gpu) throw UsageError("--price-file needs --gpu (it holds prices per GPU)");
    if (const auto prices = read_price_flags(o->flags, ctx.catalog); prices && gpu) hw::apply_price_file(*prices, *gpu);
    ResolvedCost rc = resolve_cost(o->flags, gpu ? &*gpu : nullptr);

    std::optional<PowerCap> cap;
    if (o->flags.power_limit_w && gpu) {
      cap = PowerCap{*o->flags.power_limit_w,
                     cost::clock_fraction_under_cap(gpu->power.tdp_w, *o->flags.power_limit_w), std::nullopt};
    }
    std::optional<PerResult> per;
    if (system) {
      // Several GPUs: the job's GPUs (the layout's, or the whole system for a workload file or none).
      int gpus = system->total_gpus();
      if (has_workload) {
        const auto source = resolve_workload(o->source, ctx.catalog, *ctx.outputs);
        const auto host = load_host(ctx, o->source, o->sets);
        auto run = run_on_system(source, *system, host);
        gpus = run.gpus_used;
        if (cap && cap->clock_fraction < 1) {
          auto capped = *system;
          capped.gpu = cost::at_clock_fraction(system->gpu, cap->clock_fraction);
          const auto slow = run_on_system(source, capped, host);
          cap->slowdown = slow.summary.time_us / run.summary.time_us - 1;
          run = slow;
        }
        per = PerResult{run.summary.result_name, run.summary.results_per_s * 3600};
      }
      scale_to_gpus(rc, o->flags, gpus, *system);
    } else if (has_workload) {
      const auto source = resolve_workload(o->source, ctx.catalog, *ctx.outputs);
      const auto host = load_host(ctx, o->source, o->sets);
      sim::Simulator full(*gpu, host);
      const auto p = full.predict(source.workload);
      auto s = summarize(source, *gpu, p);
      if (cap && cap->clock_fraction < 1) {
        sim::Simulator capped(cost::at_clock_fraction(*gpu, cap->clock_fraction), host);
        const auto pc = capped.predict(source.workload);
        cap->slowdown = pc.total_us / p.total_us - 1;
        s = summarize(source, *gpu, pc);
      }
      per = PerResult{s.result_name, s.results_per_s * 3600};
    }
    auto report = build_report(*o, gpu ? &*gpu : nullptr, system ? &*system : nullptr, rc, cap, per);
    add_warnings(report, gpu ? price_warnings(o->flags, *gpu, rc) : std::vector<std::string>{});
    write_report(ctx, report, o->out);
  });
}

}  // namespace gpucast::cli
