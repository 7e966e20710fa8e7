#include "reports/model_report.h"

#include "reports/units.h"

namespace gpucast::reports {

double items_per_second(const ModelRun& run, const sim::Prediction& p) {
  return p.total_us > 0 ? run.model.items / (p.total_us * 1e-6) : 0;
}

double mfu(const ModelRun& run, const sim::Prediction& p) {
  if (p.total_us <= 0 || run.peak_tflops <= 0) return 0;
  return run.model.useful_flops / (p.total_us * 1e-6) / (run.peak_tflops * 1e12);
}

Table memory_table(const ModelRun& run) {
  const auto& m = run.model.memory;
  Table t({{"memory"}, {"GB", Align::right}});
  auto row = [&](const char* name, double bytes) {
    if (bytes > 0) t.add_row({name, fixed(bytes / 1e9, 2)});
  };
  row("weights", m.weights);
  row("gradients", m.gradients);
  row("optimizer state", m.optimizer);
  row("activations", m.activations);
  row("KV cache", m.kv_cache);
  row("workspace", m.workspace);
  t.add_separator();
  t.add_row({"peak", fixed(m.peak() / 1e9, 2)});
  t.add_row({"capacity", fixed(run.fit.capacity_bytes / 1e9, 2)});
  return t;
}

std::string model_summary(const ModelRun& run, const sim::Prediction& p) {
  std::string s;
  if (!run.fit.fits) {
    s += "DOES NOT FIT: needs " + fixed(run.fit.peak_bytes / 1e9, 1) + " GB, the GPU has " +
         fixed(run.fit.capacity_bytes / 1e9, 1) + " GB (short by " +
         fixed((run.fit.peak_bytes - run.fit.capacity_bytes) / 1e9, 1) +
         " GB). The speed below assumes it did. To make it fit:\n";
    for (const auto& a : run.fit.advice) s += "  - " + a + "\n";
  } else {
    s += "Fits: peak " + fixed(run.fit.peak_bytes / 1e9, 1) + " of " + fixed(run.fit.capacity_bytes / 1e9, 1) + " GB\n";
  }
  const double rate = items_per_second(run, p);
  s += "Throughput: " + sig3(rate) + (run.model.items_are_tokens ? " tokens/s" : " samples/s") + ", MFU " +
       percent(mfu(run, p)) + " (" + count(run.model.parameters) + " parameters, " + count(run.model.useful_flops) +
       "FLOP of useful work per step)\n";
  return s;
}

Json memory_json(const ModelRun& run) {
  const auto& m = run.model.memory;
  Json j = Json::object();
  j.set("peak_gb", m.peak() / 1e9);
  j.set("capacity_gb", run.fit.capacity_bytes / 1e9);
  j.set("fits", run.fit.fits);
  j.set("weights_gb", m.weights / 1e9);
  j.set("gradients_gb", m.gradients / 1e9);
  j.set("optimizer_gb", m.optimizer / 1e9);
  j.set("activations_gb", m.activations / 1e9);
  j.set("kv_cache_gb", m.kv_cache / 1e9);
  j.set("workspace_gb", m.workspace / 1e9);
  Json advice = Json::array();
  for (const auto& a : run.fit.advice) advice.push(a);
  j.set("advice", advice);
  return j;
}

Json throughput_json(const ModelRun& run, const sim::Prediction& p) {
  Json j = Json::object();
  j.set(run.model.items_are_tokens ? "tokens_per_s" : "samples_per_s", items_per_second(run, p));
  j.set("mfu", mfu(run, p));
  j.set("parameters", run.model.parameters);
  j.set("useful_flops_per_step", run.model.useful_flops);
  j.set(run.model.items_are_tokens ? "tokens_per_step" : "samples_per_step", run.model.items);
  j.set("step_us", p.total_us);
  j.set("fits", run.fit.fits);
  return j;
}

}  // namespace gpucast::reports
