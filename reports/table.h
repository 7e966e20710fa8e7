#pragma once
// A table of preformatted cells rendered as aligned text, Markdown or CSV.
#include <string>
#include <vector>

namespace gpucast::reports {

enum class Align { left, right };

struct Column {
  std::string title;
  Align align = Align::left;
};

class Table {
 public:
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<std::string> cells);
  // A horizontal rule before the next row (text rendering only), e.g. above a total line.
  void add_separator();

  [[nodiscard]] const std::vector<Column>& columns() const { return columns_; }
  [[nodiscard]] size_t row_count() const { return rows_.size(); }

  [[nodiscard]] std::string to_text() const;
  [[nodiscard]] std::string to_markdown() const;
  [[nodiscard]] std::string to_csv() const;
  // An HTML <table> (text escaped; right-aligned columns get class "num").
  [[nodiscard]] std::string to_html() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<size_t> separators_before_;
};

// Escapes &, <, >, " and ' for HTML text and attribute values.
[[nodiscard]] std::string html_escape(const std::string& text);

// Quotes a CSV field when it holds a comma, quote or newline.
[[nodiscard]] std::string csv_field(const std::string& text);

}  // namespace gpucast::reports
