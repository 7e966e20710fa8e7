#include "reports/html.h"

#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>

#include "common/errors.h"

namespace gpucast::reports {
namespace {
namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string package_version(const fs::path& package_dir) {
  static const std::regex kVersion(R"re("version"\s*:\s*"([^"]+)")re");
  std::smatch m;
  const std::string text = read_file(package_dir / "package.json");
  return std::regex_search(text, m, kVersion) ? m[1].str() : "?";
}

// JSON inside <script> must not close the element early: "</" only occurs inside JSON strings,
// where "<\/" means the same.
std::string json_script_safe(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    out += json[i];
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') out += '\\';
  }
  return out;
}

// Library code may hold "</" in regular expressions; only "</script" would end the element, and
// the pinned libraries have none. Refuse rather than corrupt the code if a future version does.
const std::string& checked_script(const std::string& code, const char* name) {
  for (size_t at = code.find("</"); at != std::string::npos; at = code.find("</", at + 2)) {
    std::string tag = code.substr(at + 2, 6);
    for (auto& c : tag) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (tag == "script") throw Error(std::string(name) + " contains '</script' and cannot be inlined");
  }
  return code;
}

const char* kStyle = R"css(
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #222; background: #fafafa; }
header, main, footer { max-width: 1100px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 32px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.meta { color: #666; font-size: 13px; margin: 0; }
.meta code { font-size: 12px; }
ul.summary { padding-left: 20px; margin: 8px 0; }
ul.summary li { margin: 2px 0; }
figure { background: #fff; border: 1px solid #e3e3e3; border-radius: 6px; margin: 16px 0; padding: 12px 16px; }
figcaption { color: #555; font-size: 13px; margin-top: 6px; max-width: 860px; }
.chart { min-height: 60px; overflow-x: auto; }
table { border-collapse: collapse; font-size: 13px; margin: 6px 0 12px; background: #fff; }
th, td { border-bottom: 1px solid #e6e6e6; padding: 3px 10px; text-align: left; white-space: nowrap; }
th { background: #f0f0f0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.rule td { border-top: 2px solid #bbb; }
details { margin: 12px 0; }
summary { cursor: pointer; font-weight: 600; }
.tablewrap { overflow-x: auto; }
#gpucast-errors { color: #b00; white-space: pre-wrap; }
footer { color: #777; font-size: 12px; padding: 24px; }
)css";

const char* kDriver = R"js(
(function () {
  var errors = [];
  function record(message) {
    errors.push(String(message));
    document.body.setAttribute('data-errors', String(errors.length));
    var box = document.getElementById('gpucast-errors');
    box.textContent = errors.join('\n');
    box.hidden = false;
  }
  window.addEventListener('error', function (e) { record(e.message); });
  window.addEventListener('unhandledrejection', function (e) { record(e.reason); });
  var originalError = console.error;
  console.error = function () {
    record(Array.prototype.join.call(arguments, ' '));
    originalError.apply(console, arguments);
  };
  var charts = document.querySelectorAll('div.chart');
  var pending = charts.length;
  function done() {
    pending -= 1;
    if (pending <= 0) document.body.setAttribute('data-charts-done', 'true');
  }
  if (pending === 0) document.body.setAttribute('data-charts-done', 'true');
  charts.forEach(function (div) {
    var id = div.getAttribute('data-chart');
    var spec = JSON.parse(document.getElementById('spec-' + id).textContent);
    vegaEmbed(div, spec, { actions: false, renderer: 'svg' }).then(function () {
      // A chart is drawn when every mark layer that holds items shows at least one visible item
      // (a bar of zero or NaN size, as on a log scale starting at 0, is not drawn).
      // Bars and areas need both a width and a height; lines, rules and points either.
      function visible(el, layer) {
        if (el.tagName === 'text') return el.textContent.trim().length > 0;
        var d = el.getAttribute('d');
        if (el.tagName === 'path' && (!d || d.indexOf('NaN') >= 0)) return false;
        var box = el.getBBox();
        var filled = /mark-(rect|area|arc)/.test(layer.getAttribute('class') || '');
        return filled ? box.width > 0.5 && box.height > 0.5 : box.width > 0.5 || box.height > 0.5;
      }
      var total = 0, emptyLayers = 0;
      div.querySelectorAll('svg g.role-mark').forEach(function (layer) {
        var items = layer.querySelectorAll(':scope > path, :scope > text, :scope > line');
        if (items.length === 0) return;
        var shown = Array.prototype.filter.call(items, function (el) { return visible(el, layer); }).length;
        total += shown;
        if (shown === 0) emptyLayers += 1;
      });
      div.setAttribute('data-marks', String(total));
      div.setAttribute('data-rendered', total > 0 && emptyLayers === 0 ? 'true' : 'empty');
      done();
    }).catch(function (err) {
      div.setAttribute('data-rendered', 'error');
      record('chart ' + id + ': ' + err);
      done();
    });
  });
})();
)js";
}  // namespace

ChartLibraries load_chart_libraries(const fs::path& node_modules) {
  ChartLibraries libs;
  libs.vega = read_file(node_modules / "vega" / "build" / "vega.min.js");
  libs.vega_lite = read_file(node_modules / "vega-lite" / "build" / "vega-lite.min.js");
  libs.vega_embed = read_file(node_modules / "vega-embed" / "build" / "vega-embed.min.js");
  if (libs.vega.empty() || libs.vega_lite.empty() || libs.vega_embed.empty())
    throw Error("the chart libraries for --html are not installed under '" + node_modules.string() +
                "': run `npm ci` in reports/web (./quickstart.sh does it)");
  libs.versions = "Vega " + package_version(node_modules / "vega") + ", Vega-Lite " +
                  package_version(node_modules / "vega-lite") + ", vega-embed " +
                  package_version(node_modules / "vega-embed");
  return libs;
}

std::string render_html(const std::vector<Report>& reports, const ChartLibraries& libs, const HtmlContext& ctx) {
  const std::string title = reports.size() == 1 ? reports.front().title : "gpucast report";
  std::string html = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>gpucast: " +
                     html_escape(title) + "</title>\n<style>" + kStyle + "</style>\n";
  html += "<script>" + checked_script(libs.vega, "vega.min.js") + "</script>\n";
  html += "<script>" + checked_script(libs.vega_lite, "vega-lite.min.js") + "</script>\n";
  html += "<script>" + checked_script(libs.vega_embed, "vega-embed.min.js") + "</script>\n";
  html += "</head>\n<body>\n<header>\n<h1>" + html_escape(title) + "</h1>\n<p class=\"meta\"><code>" +
          html_escape(ctx.command) + "</code><br>generated " + html_escape(ctx.generated) + " by gpucast " +
          html_escape(ctx.version) + "</p>\n<pre id=\"gpucast-errors\" hidden></pre>\n</header>\n<main>\n";
  std::string specs;
  for (size_t r = 0; r < reports.size(); ++r) {
    const Report& rep = reports[r];
    html += "<section class=\"report\">\n";
    if (reports.size() > 1) html += "<h2>" + html_escape(rep.title) + "</h2>\n";
    if (!rep.summary.empty()) {
      html += "<ul class=\"summary\">\n";
      for (const auto& line : rep.summary) html += "<li>" + html_escape(line) + "</li>\n";
      html += "</ul>\n";
    }
    for (const auto& chart : rep.charts) {
      const std::string id = "r" + std::to_string(r) + "-" + chart.id;
      html += "<figure>\n<h3>" + html_escape(chart.title) + "</h3>\n<div class=\"chart\" id=\"chart-" + id +
              "\" data-chart=\"" + id + "\"></div>\n<figcaption>" + html_escape(chart.caption) +
              "</figcaption>\n</figure>\n";
      specs += "<script type=\"application/json\" id=\"spec-" + id + "\">" + json_script_safe(chart.spec.dump(-1)) +
               "</script>\n";
    }
    for (const auto& s : rep.sections) {
      if (!s.heading.empty()) html += "<h3>" + html_escape(s.heading) + "</h3>\n";
      if (!s.text.empty()) html += "<p>" + html_escape(s.text) + "</p>\n";
      if (s.table) html += "<div class=\"tablewrap\">" + s.table->to_html() + "</div>\n";
    }
    if (!rep.inputs.empty()) {
      html += "<details open>\n<summary>Inputs</summary>\n<table>\n<tbody>\n";
      for (const auto& [name, value] : rep.inputs)
        html += "<tr><th>" + html_escape(name) + "</th><td>" + html_escape(value) + "</td></tr>\n";
      html += "</tbody>\n</table>\n</details>\n";
    }
    html += "</section>\n";
  }
  html += "</main>\n<footer>Charts drawn with " + html_escape(libs.versions) +
          ", inlined: this file needs no network. Hover a mark for its details.</footer>\n";
  html += specs + "<script>" + kDriver + "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace gpucast::reports
