// `gpucast compare`: one workload on several GPUs, side by side: time, speed against a baseline,
// memory fit, price, throughput per dollar and per watt, and cost per result owned and rented.
#include <algorithm>
#include <memory>

#include "cli/commands.h"
#include "cli/cost_options.h"
#include "cli/output.h"
#include "cli/run_summary.h"
#include "cli/system_source.h"
#include "reports/parallel_report.h"
#include "common/errors.h"
#include "models/cost/ranking.h"
#include "reports/units.h"
#include "reports/whatif_charts.h"

namespace gpucast::cli {
namespace {
namespace cost = models::cost;
using reports::Json;
using reports::Table;

struct CompareOptions {
  std::vector<std::string> gpus;
  std::string baseline;
  std::string rank = "time";
  std::vector<std::string> sets;
  WorkloadSourceOptions source;
  CostFlags flags;
  OutputOptions out;
};

// A GPU name as the catalog resolves it, or a multi-GPU system (NxGPU or a system id) as given.
std::string resolve_gpu_or_system(const std::string& name, const hw::Catalog& catalog) {
  if (is_system_shorthand(name)) return name;
  const auto systems = hw::SystemCatalog(catalog).ids();
  if (std::find(systems.begin(), systems.end(), name) != systems.end()) return name;
  return catalog.resolve(name);  // aliases and typed names ("h100" -> ask which; "4090")
}

std::vector<std::string> gpu_list(const std::vector<std::string>& items, const hw::Catalog& catalog) {
  std::vector<std::string> out;
  for (const auto& part : split_commas(items)) {
    if (part == "all") {
      for (const auto& id : catalog.ids()) out.push_back(id);
    } else {
      out.push_back(resolve_gpu_or_system(part, catalog));
    }
  }
  if (out.empty()) throw UsageError("--gpus needs at least one GPU");
  return out;
}

std::string optional_usd(const std::optional<double>& v) { return v ? reports::usd(*v) : "-"; }

reports::Report build_report(const CompareOptions& o, const std::vector<cost::ComparisonRow>& rows,
                             const std::string& workload, const std::string& result, const std::string& baseline) {
  reports::Report r;
  r.title = "Comparing " + std::to_string(rows.size()) + " GPUs on " + workload;
  r.summary.push_back("Ranked by " + o.rank + "; speed relative to " + baseline + ". Owned cost assumes " +
                      reports::percent(o.flags.utilization) + " utilization over " + reports::fixed(o.flags.years, 1) +
                      " years at $" + reports::fixed(o.flags.usd_per_kwh, 3) +
                      "/kWh (gpucast cost shows every input); rented uses the cheapest on-demand price in the catalog.");
  const std::string tp_unit = rows.empty() ? "" : rows.front().throughput_unit;
  std::vector<reports::Column> columns{{"#", reports::Align::right},
                                       {"gpu"},
                                       {"time/step", reports::Align::right},
                                       {tp_unit, reports::Align::right},
                                       {"speed", reports::Align::right},
                                       {"bound"},
                                       {"fits"},
                                       {"price", reports::Align::right},
                                       {tp_unit + " per $1k", reports::Align::right},
                                       {tp_unit + " per W", reports::Align::right},
                                       {"owned $/" + result, reports::Align::right},
                                       {"rented $/" + result, reports::Align::right}};
  // The columns the ranking reads come right after the GPU, so a wide table (--gpus all) never
  // hides them off-screen.
  std::vector<size_t> order{0, 1};
  const auto by = cost::parse_rank_by(o.rank);
  if (by == cost::RankBy::perf_per_usd) order.push_back(8);
  if (by == cost::RankBy::usd_per_result) order.insert(order.end(), {10, 11});
  for (size_t i = 2; i < columns.size(); ++i)
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
  auto permute = [&](std::vector<std::string> cells) {
    std::vector<std::string> out;
    for (size_t i : order) out.push_back(std::move(cells[i]));
    return out;
  };
  std::vector<reports::Column> ordered;
  for (size_t i : order) ordered.push_back(columns[i]);
  Table t(ordered);
  for (const auto& row : rows) {
    if (!row.error.empty()) {
      t.add_row(permute({std::to_string(row.rank), row.gpu, "-", "-", "-", "-", "cannot run", "-", "-", "-", "-", "-"}));
      continue;
    }
    const std::string fits = row.fits ? "yes"
                                      : "NO (" + reports::fixed(row.peak_gb, 0) + " of " +
                                            reports::fixed(row.capacity_gb, 0) + " GB)";
    t.add_row(permute({std::to_string(row.rank), row.gpu, reports::duration(row.time_us), reports::sig3(row.throughput),
                       reports::fixed(row.speedup, 2) + "x", row.bound, fits,
                       row.price_usd ? reports::usd(*row.price_usd) : "-",
                       row.throughput_per_kusd ? reports::sig3(*row.throughput_per_kusd) : "-",
                       reports::sig3(row.throughput_per_watt), optional_usd(row.owned_usd_per_result),
                       optional_usd(row.rented_usd_per_result)}));
  }
  r.sections.push_back({"", "", t});
  bool any_unfit = false;
  std::string cannot;
  for (const auto& row : rows) {
    any_unfit |= !row.fits && row.error.empty();
    if (!row.error.empty()) cannot += row.gpu + ": " + row.error + "\n";
  }
  if (any_unfit)
    r.sections.push_back({"", "GPUs marked NO cannot hold this workload; their speed assumes they could, and they rank last.",
                          std::nullopt});
  if (!cannot.empty()) r.sections.push_back({"Cannot run", cannot, std::nullopt});

  Table csv({{"rank"}, {"gpu"}, {"time_us"}, {"throughput"}, {"throughput_unit"}, {"speedup"}, {"bound"}, {"fits"},
             {"peak_gb"}, {"capacity_gb"}, {"price_usd"}, {"gpu_watts"}, {"throughput_per_kusd"},
             {"throughput_per_watt"}, {"result"}, {"owned_usd_per_result"}, {"rented_usd_per_result"},
             {"cloud_provider"}, {"error"}});
  auto num = [](double v) { return reports::format_number(v); };
  auto opt = [&](const std::optional<double>& v) { return v ? num(*v) : std::string(); };
  Json gpus = Json::array();
  for (const auto& row : rows) {
    csv.add_row({std::to_string(row.rank), row.gpu, num(row.time_us), num(row.throughput), row.throughput_unit,
                 num(row.speedup), row.bound, row.fits ? "true" : "false", num(row.peak_gb), num(row.capacity_gb),
                 opt(row.price_usd), num(row.gpu_watts), opt(row.throughput_per_kusd), num(row.throughput_per_watt),
                 result, opt(row.owned_usd_per_result), opt(row.rented_usd_per_result),
                 row.cloud ? row.cloud->provider + " " + row.cloud->instance : "", row.error});
    Json g = Json::object();
    g.set("rank", row.rank);
    g.set("gpu", row.gpu);
    g.set("name", row.name);
    g.set("time_us", row.time_us);
    g.set("throughput", row.throughput);
    g.set("throughput_unit", row.throughput_unit);
    g.set("results_per_s", row.results_per_s);
    g.set("speedup", row.speedup);
    g.set("bound", row.bound);
    g.set("fits", row.fits);
    g.set("peak_gb", row.peak_gb);
    g.set("capacity_gb", row.capacity_gb);
    g.set("price_usd", reports::number_or_null(row.price_usd));
    g.set("price_kind", row.price_kind);
    g.set("price_date", row.price_date);
    g.set("gpu_watts", row.gpu_watts);
    g.set("throughput_per_kusd", reports::number_or_null(row.throughput_per_kusd));
    g.set("throughput_per_watt", row.throughput_per_watt);
    g.set("owned_usd_per_result", reports::number_or_null(row.owned_usd_per_result));
    g.set("rented_usd_per_result", reports::number_or_null(row.rented_usd_per_result));
    if (row.cloud) {
      Json c = Json::object();
      c.set("provider", row.cloud->provider);
      c.set("instance", row.cloud->instance);
      c.set("usd_per_gpu_hour", row.cloud->usd_per_gpu_hour);
      c.set("date", row.cloud->date);
      g.set("cloud", c);
    } else {
      g.set("cloud", Json());
    }
    g.set("error", row.error.empty() ? Json() : Json(row.error));
    gpus.push(g);
  }
  r.csv = csv;
  Json j = Json::object();
  j.set("workload", workload);
  j.set("result_unit", result);
  j.set("rank_by", o.rank);
  j.set("baseline", baseline);
  Json a = Json::object();
  a.set("utilization", o.flags.utilization);
  a.set("years", o.flags.years);
  a.set("electricity_usd_per_kwh", o.flags.usd_per_kwh);
  j.set("cost_assumptions", a);
  j.set("gpus", gpus);
  r.json = j;
  r.charts = reports::compare_charts(rows, result);
  r.inputs = {{"workload", workload},
              {"result", result},
              {"rank by", o.rank},
              {"baseline", baseline},
              {"utilization", reports::percent(o.flags.utilization)},
              {"horizon", reports::fixed(o.flags.years, 1) + " years"},
              {"electricity", "$" + reports::fixed(o.flags.usd_per_kwh, 3) + "/kWh"}};
  for (const auto& row : rows)
    r.inputs.emplace_back(row.gpu + " price", row.price_usd ? reports::usd(*row.price_usd) + " (" + row.price_kind +
                                                                  (row.price_date.empty() ? "" : " " + row.price_date) + ")"
                                                            : "unknown");
  return r;
}
}  // namespace

void add_compare_command(CLI::App& app, AppContext& ctx) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare", "One workload on several GPUs: speed, fit, perf per dollar and watt, cost per result");
  cmd->add_option("--gpus", o->gpus,
                  "catalog ids or .toml files, comma separated; 'all' for the whole catalog; multi-GPU systems as "
                  "NxGPU (8xh100-sxm) or a system id (dgx-h100), with the layout flags (--tp ...)")
      ->required();
  cmd->add_option("--baseline", o->baseline, "GPU the speed column is relative to (default: the first listed)");
  cmd->add_option("--rank", o->rank, "time | perf-per-usd | usd-per-result (the cheaper of owning and renting)")
      ->check(CLI::IsMember({"time", "perf-per-usd", "usd-per-result"}));
  cmd->add_option("--set", o->sets, "override a hardware key on every GPU: key.path=value (repeatable)");
  add_workload_source_options(cmd, o->source);
  add_cost_flags(cmd, o->flags, false);
  add_output_options(cmd, o->out);
  cmd->callback([o, &ctx] {
    const auto ids = gpu_list(o->gpus, ctx.catalog);
    if (o->flags.gpu_usd && ids.size() > 1) throw UsageError("--gpu-usd sets one GPU's price; use it with `gpucast cost`");
    const std::string baseline = o->baseline.empty() ? ids.front() : resolve_gpu_or_system(o->baseline, ctx.catalog);
    if (std::find(ids.begin(), ids.end(), baseline) == ids.end())
      throw UsageError("--baseline " + baseline + " is not among --gpus");
    const auto source = resolve_workload(o->source, ctx.catalog, *ctx.outputs);
    const auto overrides = hw::split_overrides(hw::split_host_overrides(o->sets).gpu).gpu;
    const auto host = load_host(ctx, o->source, o->sets);
    const auto unit = result_unit(source);
    const auto prices = read_price_flags(o->flags, ctx.catalog);

    std::vector<cost::ComparisonRow> rows;
    std::vector<std::string> warnings;
    double baseline_us = 0;
    const hw::SystemCatalog systems(ctx.catalog);
    const auto system_ids = systems.ids();
    for (const auto& id : ids) {
      // A multi-GPU system (NxGPU or a system id): the workload is one rank's; the row costs the
      // GPUs the job uses (the layout's, or every GPU of the system for a workload file).
      const bool is_system = is_system_shorthand(id) ||
                             std::find(system_ids.begin(), system_ids.end(), id) != system_ids.end();
      std::optional<hw::SystemSpec> system;
      if (is_system) system = load_system(ctx, id, o->sets);
      auto gpu = system ? system->gpu : ctx.catalog.load(id, overrides);
      if (prices) hw::apply_price_file(*prices, gpu);
      int gpus_used = 1;
      if (system) gpus_used = source.model ? source.options.parallel.world() : system->total_gpus();
      std::optional<sim::Simulator> simulator;
      if (system) simulator.emplace(*system, host);
      else simulator.emplace(gpu, host);
      std::optional<sim::Prediction> prediction;
      try {
        if (system && source.model) check_layout_fits(*system, source.options.parallel);
        prediction = simulator->predict(source.workload);
      } catch (const Error& e) {
        if (!dynamic_cast<const UnsupportedError*>(&e) && !(system && dynamic_cast<const InputError*>(&e))) throw;
        // Not a mistake in the input: this GPU lacks what the workload needs. Say so in its row.
        cost::ComparisonRow row;
        row.gpu = id;
        row.name = gpu.name;
        row.error = e.what();
        row.fits = false;
        rows.push_back(row);
        continue;
      }
      const auto& p = *prediction;
      auto s = summarize(source, gpu, p);
      if (system && source.model && source.options.parallel.pp > 1) {
        // Pipeline: the step comes from the 1F1B schedule, not the one-microbatch prediction.
        const auto run = model_run(source, gpu);
        const auto pr = reports::analyze_parallel(*system, source.workload, p, &run, source.options.parallel);
        const double scale = p.total_us / pr.step_us;
        s.time_us = pr.step_us;
        s.results_per_s *= scale;
        s.items_per_s *= scale;
        s.mfu *= scale;
      }
      auto rc = resolve_cost(o->flags, &gpu);
      rc.gpu_price_usd *= gpus_used;
      rc.gpu_watts *= gpus_used;
      const auto owned = cost::compare_costs(rc.inputs);
      for (auto& w : price_warnings(o->flags, gpu, rc)) warnings.push_back(std::move(w));

      cost::ComparisonRow row;
      row.gpu = id;
      row.name = system ? system->name + " (" + std::to_string(gpus_used) + " GPUs used)" : gpu.name;
      row.time_us = s.time_us;
      row.results_per_s = s.results_per_s;
      row.throughput = source.model ? s.items_per_s : s.results_per_s;
      row.throughput_unit = source.model ? s.items_name : "runs/s";
      row.bound = s.bound;
      row.fits = s.fits;
      row.peak_gb = s.peak_gb;
      row.capacity_gb = s.capacity_gb;
      row.price_usd = rc.gpu_price_usd;
      row.price_kind = gpu.price.kind;
      row.price_date = gpu.price.date;
      row.gpu_watts = rc.gpu_watts;
      if (rc.gpu_price_usd > 0) row.throughput_per_kusd = row.throughput / (rc.gpu_price_usd / 1000);
      if (rc.gpu_watts > 0) row.throughput_per_watt = row.throughput / rc.gpu_watts;
      const double results_per_hour = s.results_per_s * 3600;
      if (results_per_hour > 0 && o->flags.utilization > 0)
        row.owned_usd_per_result = owned.owned_usd_per_busy_hour * gpus_used / results_per_hour;
      if (results_per_hour > 0 && rc.on_demand) {
        row.rented_usd_per_result = rc.on_demand->usd_per_gpu_hour * gpus_used / results_per_hour;
        row.cloud = rc.on_demand;
      }
      if (id == baseline) baseline_us = s.time_us;
      rows.push_back(row);
    }
    if (baseline_us <= 0) throw UsageError("the baseline " + baseline + " cannot run this workload; pick another with --baseline");
    for (auto& row : rows) row.speedup = row.time_us > 0 ? baseline_us / row.time_us : 0;
    cost::rank_rows(rows, cost::parse_rank_by(o->rank));
    auto report = build_report(*o, rows, source.workload.name(), unit.name, baseline);
    add_warnings(report, warnings);
    write_report(ctx, report, o->out);
  });
}

}  // namespace gpucast::cli
