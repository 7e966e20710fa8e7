#include "reports/report.h"

#include "common/errors.h"

namespace gpucast::reports {

Format parse_format(const std::string& text) {
  if (text == "table") return Format::table;
  if (text == "json") return Format::json;
  if (text == "csv") return Format::csv;
  if (text == "markdown") return Format::markdown;
  throw UsageError("--format takes table, json, csv or markdown, not '" + text + "'");
}

std::string render_text(const Report& r) {
  // The headline often starts with the title already; print it once.
  const bool repeated = !r.summary.empty() && r.summary.front().rfind(r.title, 0) == 0;
  std::string out = repeated ? "" : r.title + "\n";
  for (const auto& line : r.summary) out += line + "\n";
  for (const auto& s : r.sections) {
    out += "\n";
    if (!s.heading.empty()) out += s.heading + ":\n";
    if (!s.text.empty()) out += s.text + (s.text.back() == '\n' ? "" : "\n");
    if (s.table && s.table_in_text) out += s.table->to_text();
  }
  return out;
}

std::string render_markdown(const Report& r) {
  std::string out = "## " + r.title + "\n\n";
  for (const auto& line : r.summary) out += line + "  \n";
  for (const auto& s : r.sections) {
    out += "\n";
    if (!s.heading.empty()) out += "### " + s.heading + "\n\n";
    if (!s.text.empty()) out += s.text + (s.text.back() == '\n' ? "\n" : "\n\n");
    if (s.table) out += s.table->to_markdown();
  }
  return out;
}

std::string render_csv(const Report& r) {
  if (!r.csv) throw Error("this result has no CSV form");
  return r.csv->to_csv();
}

std::string render_json(const Report& r) { return r.json.dump(2) + "\n"; }

std::string render(const Report& r, Format f) {
  switch (f) {
    case Format::json: return render_json(r);
    case Format::csv: return render_csv(r);
    case Format::markdown: return render_markdown(r);
    default: return render_text(r);
  }
}

std::string render_all(const std::vector<Report>& reports, Format f) {
  if (reports.size() == 1) return render(reports.front(), f);
  std::string out;
  if (f == Format::json) {
    Json all = Json::array();
    for (const auto& r : reports) all.push(r.json);
    return all.dump(2) + "\n";
  }
  for (size_t i = 0; i < reports.size(); ++i) {
    if (f == Format::csv) {
      const std::string csv = render_csv(reports[i]);
      out += i == 0 ? csv : csv.substr(csv.find('\n') + 1);
    } else {
      out += (i ? "\n" : "") + render(reports[i], f);
    }
  }
  return out;
}

}  // namespace gpucast::reports
