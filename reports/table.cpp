#include "reports/table.h"

#include <algorithm>

#include "common/errors.h"

namespace gpucast::reports {
namespace {
// Display width in code points, so that "µ" and "×" count as one column.
size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}
std::string pad(const std::string& s, size_t width, Align align) {
  const size_t w = display_width(s);
  if (w >= width) return s;
  const std::string fill(width - w, ' ');
  return align == Align::left ? s + fill : fill + s;
}
}  // namespace

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw Error("table row has " + std::to_string(cells.size()) + " cells, expected " +
                std::to_string(columns_.size()));
  rows_.push_back(std::move(cells));
}

void Table::add_separator() { separators_before_.push_back(rows_.size()); }

std::string Table::to_text() const {
  std::vector<size_t> widths(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = display_width(columns_[c].title);
    for (const auto& row : rows_) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  auto rule = [&] {
    std::string line;
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (c) line += "  ";
      line += std::string(widths[c], '-');
    }
    return line + "\n";
  };
  std::string out;
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (c) out += "  ";
    out += pad(columns_[c].title, widths[c], columns_[c].align);
  }
  out += "\n" + rule();
  for (size_t r = 0; r < rows_.size(); ++r) {
    if (std::find(separators_before_.begin(), separators_before_.end(), r) != separators_before_.end()) out += rule();
    std::string line;
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (c) line += "  ";
      line += pad(rows_[r][c], widths[c], columns_[c].align);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string Table::to_markdown() const {
  auto cell = [](std::string s) {
    std::string out;
    for (char ch : s) {
      if (ch == '|') out += "\\|";
      else out += ch;
    }
    return out;
  };
  std::string out = "|";
  for (const auto& col : columns_) out += " " + cell(col.title) + " |";
  out += "\n|";
  for (const auto& col : columns_) out += col.align == Align::right ? " ---: |" : " --- |";
  out += "\n";
  for (const auto& row : rows_) {
    out += "|";
    for (const auto& c : row) out += " " + cell(c) + " |";
    out += "\n";
  }
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string Table::to_csv() const {
  std::string out;
  for (size_t c = 0; c < columns_.size(); ++c) out += (c ? "," : "") + csv_field(columns_[c].title);
  out += "\n";
  for (const auto& row : rows_) {
    for (size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_field(row[c]);
    out += "\n";
  }
  return out;
}

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Table::to_html() const {
  std::string out = "<table>\n<thead><tr>";
  for (const auto& col : columns_)
    out += std::string(col.align == Align::right ? "<th class=\"num\">" : "<th>") + html_escape(col.title) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < rows_.size(); ++r) {
    const bool rule = std::find(separators_before_.begin(), separators_before_.end(), r) != separators_before_.end();
    out += rule ? "<tr class=\"rule\">" : "<tr>";
    for (size_t c = 0; c < columns_.size(); ++c)
      out += std::string(columns_[c].align == Align::right ? "<td class=\"num\">" : "<td>") + html_escape(rows_[r][c]) +
             "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace gpucast::reports
