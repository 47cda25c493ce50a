#include "report/html/html_document.h"

#include <algorithm>
#include <cassert>

namespace ct {
namespace {

// Print-friendly, light, system fonts only (nothing to fetch).
constexpr const char* kStyle =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:72em;"
    "padding:0 1em;color:#222;line-height:1.4}"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:2em}"
    ".ct-command-line{font-family:monospace;background:#f4f4f4;padding:.4em .6em;white-space:pre-wrap;"
    "word-break:break-all}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "caption{text-align:left;font-weight:600;padding-bottom:.3em}"
    "th,td{border:1px solid #ddd;padding:.2em .6em;vertical-align:top}th{background:#f4f4f4;text-align:left}"
    "td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}"
    "pre{background:#f8f8f8;padding:.6em;overflow-x:auto}"
    "@media print{pre{white-space:pre-wrap;overflow-wrap:anywhere}}"
    "svg.ct-plot{display:block;margin:1em 0;max-width:100%;height:auto}"
    "footer{margin-top:3em;font-size:.85em;color:#555}"
    "figure{margin:0}@media print{body{margin:0;max-width:none}figure,table{break-inside:avoid}}";

[[maybe_unused]] bool valid_id(const std::string& id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
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

HtmlDocument::HtmlDocument(std::string title, std::string command_line)
    : title_(std::move(title)), command_line_(std::move(command_line)) {}

HtmlDocument::Section& HtmlDocument::current() {
  if (sections_.empty()) sections_.push_back(Section{"", "summary", ""});
  return sections_.back();
}

void HtmlDocument::add_section(std::string heading, std::string id) {
  assert(valid_id(id));
  sections_.push_back(Section{std::move(heading), std::move(id), ""});
}

void HtmlDocument::add_paragraph(const std::string& text) { current().body += "<p>" + html_escape(text) + "</p>\n"; }

void HtmlDocument::add_preformatted(const std::string& text) {
  current().body += "<pre>" + html_escape(text) + "</pre>\n";
}

void HtmlDocument::add_facts(const std::string& id, const std::vector<std::pair<std::string, std::string>>& facts,
                             const std::string& caption) {
  assert(valid_id(id));
  std::string& b = current().body;
  b += "<table class=\"ct-table ct-facts\" data-table=\"" + id + "\">\n";
  if (!caption.empty()) b += "<caption>" + html_escape(caption) + "</caption>\n";
  b += "<tr><th>quantity</th><th>value</th></tr>\n";
  for (const auto& [key, value] : facts) b += "<tr><td>" + html_escape(key) + "</td><td>" + html_escape(value) + "</td></tr>\n";
  b += "</table>\n";
}

void HtmlDocument::add_table(const TextTable& table, const std::string& id) {
  assert(valid_id(id));
  std::string& b = current().body;
  b += "<table class=\"ct-table\" data-table=\"" + id + "\">\n";
  if (!table.title().empty()) b += "<caption>" + html_escape(table.title()) + "</caption>\n";
  auto cls = [&](std::size_t c) { return table.column(c).align == Align::kRight ? " class=\"r\"" : ""; };
  b += "<tr>";
  for (std::size_t c = 0; c < table.columns(); ++c) b += std::string("<th") + cls(c) + ">" + html_escape(table.column(c).header) + "</th>";
  b += "</tr>\n";
  for (std::size_t r = 0; r < table.rows(); ++r) {
    b += "<tr>";
    for (std::size_t c = 0; c < table.columns(); ++c) b += std::string("<td") + cls(c) + ">" + html_escape(table.cell(r, c)) + "</td>";
    b += "</tr>\n";
  }
  b += "</table>\n";
}

void HtmlDocument::add_figure(std::string svg) { current().body += "<figure>\n" + svg + "</figure>\n"; }

void HtmlDocument::add_footnote(const std::string& text) { footnotes_.push_back(text); }

std::string HtmlDocument::render() const {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"clustertwin\">\n<title>" +
      html_escape(title_) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<header>\n<h1>" +
      html_escape(title_) + "</h1>\n<div class=\"ct-command-line\" data-command-line>$ " + html_escape(command_line_) +
      "</div>\n</header>\n";
  for (const auto& s : sections_) {
    out += "<section data-section=\"" + s.id + "\" id=\"" + s.id + "\">\n";
    if (!s.heading.empty()) out += "<h2>" + html_escape(s.heading) + "</h2>\n";
    out += s.body + "</section>\n";
  }
  out += "<footer>\n";
  if (!footnotes_.empty()) {
    out += "<ol class=\"ct-footnotes\">\n";
    for (const auto& f : footnotes_) out += "<li>" + html_escape(f) + "</li>\n";
    out += "</ol>\n";
  }
  out += "<p>Written by clustertwin. Self-contained: no scripts, no external resources.</p>\n</footer>\n</body>\n</html>\n";
  return out;
}

}  // namespace ct
