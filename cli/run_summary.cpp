#include "cli/run_summary.h"

namespace gpucast::cli {

ResultUnit result_unit(const ResolvedWorkload& w) {
  if (!w.model) return {"run", 1};
  if (w.options.mode == wl::Mode::train) return {"training step", 1};
  if (w.model->items_are_tokens) return {"1M tokens", w.model->items / 1e6};
  return {"image", w.model->items};
}

reports::RunSummary summarize(const ResolvedWorkload& w, const hw::GpuSpec& gpu, const sim::Prediction& p) {
  reports::RunSummary s;
  reports::set_bounds(s, p);
  const ResultUnit unit = result_unit(w);
  s.result_name = unit.name;
  const double seconds = p.total_us * 1e-6;
  s.results_per_s = seconds > 0 ? unit.per_step / seconds : 0;
  s.capacity_gb = gpu.memory.capacity_gb;
  if (w.model) {
    const auto run = model_run(w, gpu);
    s.items_per_s = reports::items_per_second(run, p);
    s.items_name = w.model->items_are_tokens ? "tokens/s" : "samples/s";
    s.fits = run.fit.fits;
    s.peak_gb = run.fit.peak_bytes / 1e9;
    s.capacity_gb = run.fit.capacity_bytes / 1e9;
    s.mfu = reports::mfu(run, p);
  }
  return s;
}

}  // namespace gpucast::cli
