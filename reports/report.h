#pragma once
// A command's result as one document that every output format renders: a title, headline lines,
// sections of text and tables, charts (Vega-Lite specifications, drawn in the HTML report), the
// inputs that produced it, a CSV table with stable raw-number columns for scripts, and its JSON.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reports/json.h"
#include "reports/table.h"

namespace gpucast::reports {

struct Section {
  std::string heading;
  std::string text;            // paragraphs before the table; may be empty
  std::optional<Table> table;
  bool table_in_text = true;   // false: the terminal output leaves the table out (too long to read)
};

struct Chart {
  std::string id;       // unique within the report, [a-z0-9-]
  std::string title;
  std::string caption;  // how to read it
  Json spec;            // Vega-Lite specification with its data inlined
};

struct Report {
  std::string title;
  std::vector<std::string> summary;  // headline lines
  std::vector<Section> sections;
  std::vector<Chart> charts;
  std::vector<std::pair<std::string, std::string>> inputs;  // name -> value, for the HTML report
  std::optional<Table> csv;          // raw columns for scripts
  Json json;                         // the documented JSON schema of the command
};

enum class Format { table, json, csv, markdown };

// "table" | "json" | "csv" | "markdown"; throws UsageError otherwise.
[[nodiscard]] Format parse_format(const std::string& text);

[[nodiscard]] std::string render_text(const Report& r);
[[nodiscard]] std::string render_markdown(const Report& r);
// The CSV table; throws Error when the report has none.
[[nodiscard]] std::string render_csv(const Report& r);
[[nodiscard]] std::string render_json(const Report& r);
[[nodiscard]] std::string render(const Report& r, Format f);

// Several reports (one per GPU, ...) in one output: text and Markdown one after another, CSV rows
// under one header (the tables must share columns), JSON as an array.
[[nodiscard]] std::string render_all(const std::vector<Report>& reports, Format f);

}  // namespace gpucast::reports
