// One self-contained HTML report (`--html FILE`): a title, the command line that produced it, then
// sections of paragraphs, key figures, tables and SVG figures, then footnotes. Nothing external: no
// script, no font, no image, no link; one small inline stylesheet; every text escaped. Rendering is a
// pure function of what was added: same document, same bytes.
//
// API (for the commands' pages; the plan page, report/plan_report.cpp to_html, is the worked example):
//
//   HtmlDocument doc("plan: lab-32", context.command_line);   // <title>, <h1>, command line shown
//   doc.add_section("Scale limits", "scale-limits");          // <section data-section="scale-limits">
//   doc.add_paragraph("32 GPUs need 2 tiers.");               // escaped text
//   doc.add_facts("summary", {{"GPUs", "32"}, ...});           // <table class="ct-facts" data-table=..>
//   doc.add_table(text_table, "tiers");                         // report/table.h TextTable as <table>
//   doc.add_figure(render_bar_chart(chart));                    // an SVG from report/html/svg_chart.h
//   doc.add_footnote("Prices are list prices.");
//   std::string html = doc.render();
//
// Test hooks (tests/html/browser_check.py reads them): every table is
// <table class="ct-table" data-table="ID"> with <th> headers and one <td> per cell holding exactly
// the cell's text; every section is <section data-section="ID">; figures are the charts' own hooks
// (svg_chart.h). The CLI side: cli/command.h add_html_option() and emit_report().
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/table.h"

namespace ct {

// `text` with &, <, >, " and ' replaced by entities: safe in element text and quoted attributes.
std::string html_escape(const std::string& text);

class HtmlDocument {
 public:
  HtmlDocument(std::string title, std::string command_line);

  // Starts a section (<h2>); what is added next goes into it. `id` is the test hook and anchor:
  // lower-case letters, digits and '-' only (PRECONDITION, asserted).
  void add_section(std::string heading, std::string id);
  void add_paragraph(const std::string& text);
  // Preformatted text (<pre>), e.g. a note kept as the text report prints it.
  void add_preformatted(const std::string& text);
  // Key figures as a two-column table (quantity, value), data-table=`id`, with a caption if given.
  void add_facts(const std::string& id, const std::vector<std::pair<std::string, std::string>>& facts,
                 const std::string& caption = "");
  // A table with the text report's cells, title as caption; right-aligned columns stay right-aligned.
  void add_table(const TextTable& table, const std::string& id);
  // An SVG element as rendered by svg_chart.h (trusted markup: it escapes its own texts).
  void add_figure(std::string svg);
  void add_footnote(const std::string& text);

  [[nodiscard]] std::string render() const;

 private:
  struct Section {
    std::string heading, id, body;
  };
  Section& current();
  std::string title_, command_line_;
  std::vector<Section> sections_;
  std::vector<std::string> footnotes_;
};

}  // namespace ct
