// The HTML document and SVG charts (html_document.h, svg_chart.h): escaping, the hooks tests read,
// axis ticks worked by hand, and byte-for-byte determinism.

#include <gtest/gtest.h>

#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"

namespace ct {
namespace {

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(HtmlEscape, EveryMarkupCharacter) {
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(html_escape("µs → 1,024"), "µs → 1,024");
}

TEST(HtmlDocument, SelfContainedWithEscapedTextsAndTableHooks) {
  HtmlDocument doc("plan: <x>", "clustertwin plan 'a b.yaml' --html -");
  doc.add_section("Tiers", "tiers");
  TextTable t({{"tier"}, {"switches", Align::kRight}}, "per tier");
  t.add_row({"leaf", "4"});
  t.add_row({"spine & core", "2"});
  doc.add_table(t, "tiers");
  doc.add_footnote("n < 3");
  const std::string html = doc.render();
  EXPECT_NE(html.find("<title>plan: &lt;x&gt;</title>"), std::string::npos);
  EXPECT_NE(html.find("$ clustertwin plan &#39;a b.yaml&#39; --html -"), std::string::npos);
  EXPECT_NE(html.find("<table class=\"ct-table\" data-table=\"tiers\">"), std::string::npos);
  EXPECT_NE(html.find("<td>spine &amp; core</td><td class=\"r\">2</td>"), std::string::npos);
  EXPECT_EQ(count(html, "<tr>"), 3U);
  EXPECT_NE(html.find("<li>n &lt; 3</li>"), std::string::npos);
  // Nothing that would fetch: no script, no link, no src= attribute, no url( in the style.
  for (const char* bad : {"<script", "<link", "src=", "url(", "@import"}) EXPECT_EQ(html.find(bad), std::string::npos) << bad;
  EXPECT_EQ(html, doc.render());
}

// The numbers policy (page_numbers.h), worked by hand: three significant figures, integer digits
// never rounded away, integers whole, SI prefixes, no negative zero.
TEST(PageNumber, SignificantFiguresByMagnitudeIntegersWholeNoNegativeZero) {
  EXPECT_EQ(page_number(32768), "32,768");
  EXPECT_EQ(page_number(0), "0");
  EXPECT_EQ(page_number(-0.0), "0");
  EXPECT_EQ(page_number(-1e-7 * 0), "0");
  EXPECT_EQ(page_number(-0.0004), "-4e-4");
  EXPECT_EQ(page_number(-1500), "-1,500");
  EXPECT_EQ(page_number(7), "7");
  EXPECT_EQ(page_number(0.78125), "0.781");
  EXPECT_EQ(page_number(0.515625), "0.516");
  EXPECT_EQ(page_number(0.0694926), "0.0695");
  EXPECT_EQ(page_number(1.5), "1.5");
  EXPECT_EQ(page_number(12.345), "12.3");
  EXPECT_EQ(page_number(1234.5), "1,235");
  EXPECT_EQ(page_number(0.000318), "3.18e-4");
  EXPECT_EQ(page_number(2.5e15), "2.5e15");
  EXPECT_EQ(page_number(0.99996), "1");
}

TEST(PageNumber, QuantitiesTakeTheSiPrefixThatKeepsTheMantissaUnderAThousand) {
  EXPECT_EQ(page_quantity(0.0412978, "s"), "41.3 ms");
  EXPECT_EQ(page_quantity(69.4926e6, "b/s"), "69.5 Mb/s");
  EXPECT_EQ(page_quantity(400e9, "b/s"), "400 Gb/s");
  EXPECT_EQ(page_quantity(0.9999996, "s"), "1 s");
  EXPECT_EQ(page_quantity(999.96e-6, "s"), "1 ms");
  EXPECT_EQ(page_quantity(2.5e-6, "s"), "2.5 \u00b5s");
  EXPECT_EQ(page_quantity(0, "s"), "0 s");
  EXPECT_EQ(page_quantity(-0.0, "B"), "0 B");
  EXPECT_EQ(page_percent(0.125), "12.5%");
  EXPECT_EQ(page_percent(1), "100%");
}

// Three schemes x two categories: six bars, each with its series, category and exact value.
TEST(BarChart, OneBarPerSeriesAndCategoryWithHooks) {
  BarChart c;
  c.frame = {"schemes", "Busiest link", "scheme", "flows on the busiest link", "clustertwin hash x.yaml"};
  c.categories = {"leaf", "spine"};
  c.series = {{"crc16", {3, 2}}, {"xor", {4, 1}}, {"random <a>", {2.5, 0}}};
  c.references = {{3.5, "bound"}};
  const std::string svg = render_bar_chart(c);
  EXPECT_EQ(count(svg, "class=\"ct-bar\""), 6U);
  EXPECT_NE(svg.find("data-plot=\"schemes\" data-kind=\"bar\""), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"xor\" data-category=\"leaf\" data-value=\"4\""), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"random &lt;a&gt;\" data-category=\"leaf\" data-value=\"2.5\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"ct-legend-item\""), 3U);
  EXPECT_NE(svg.find("class=\"ct-ref\" data-value=\"3.5\""), std::string::npos);
  EXPECT_NE(svg.find(">$ clustertwin hash x.yaml</text>"), std::string::npos);
  // Heckbert ticks for [0, 4]: step nice(4/5 = 0.8) = 1, so 0, 1, 2, 3, 4 label the y axis.
  for (const char* tick : {">0</text>", ">1</text>", ">2</text>", ">3</text>", ">4</text>"}) {
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  }
  EXPECT_EQ(svg.find(">5</text>"), std::string::npos);
  // Layout by hand: the plot spans x 84..700 (616 px), so each category gets 308 px, its bars 80 %
  // of it shared by 3 series: 82.13 px each (drawn 92 % wide: 75.6). xor is the second series of
  // the first group: x = 84 + 30.8 + 82.13 = 196.9. The y axis spans 250 px from 0 to 4 (top at
  // y = 64 + 14 = 78, below the line of the axis' name), so the bar of 4 is 250 px high and the bar
  // of 2 half of it.
  EXPECT_NE(svg.find("data-value=\"4\" x=\"196.9\" y=\"78.0\" width=\"75.6\" height=\"250.0\""), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"crc16\" data-category=\"spine\" data-value=\"2\" x=\"422.8\" y=\"203.0\" "
                     "width=\"75.6\" height=\"125.0\""), std::string::npos);
  EXPECT_EQ(svg, render_bar_chart(c));
}

// A log axis spans whole decades: values 300 and 2,000,000 give ticks 100 ... 10,000,000.
TEST(BarChart, LogAxisTicksAtPowersOfTen) {
  BarChart c;
  c.frame = {"limits", "GPUs", "tiers", "GPUs", "cmd"};
  c.categories = {"2 tiers", "3 tiers"};
  c.series = {{"1 plane", {300, 2e6}}};
  c.log_y = true;
  const std::string svg = render_bar_chart(c);
  for (const char* tick : {">100</text>", ">1,000</text>", ">10,000,000</text>"}) EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  EXPECT_EQ(svg.find(">10</text>"), std::string::npos);
}

TEST(LineChart, StepSeriesCountsItsPointsAndLeavesOutNonPositiveOnLogAxes) {
  LineChart c;
  c.frame = {"cdf", "CDF", "time (ms)", "fraction", "cmd"};
  c.series = {{"measured", {{1, 0.25}, {2, 0.5}, {4, 1}}, true, true, false},
              {"closed form", {{0, 0.1}, {1, 0.3}, {3, 1}}, false, false, true}};
  c.log_x = true;
  const std::string svg = render_line_chart(c);
  EXPECT_NE(svg.find("class=\"ct-line\" data-series=\"measured\" data-points=\"3\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"ct-line\" data-series=\"closed form\" data-points=\"2\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"ct-point\""), 3U);
  EXPECT_NE(svg.find("stroke-dasharray=\"6 4\""), std::string::npos);
}

// Nine series of 30-character names cannot share one legend row of 616 px (each item is
// 40 + 6.5 x 30 = 235 px, two per row): five rows, so the plot starts 4 x 18 = 72 px lower
// (y = 64 + 14 + 72 = 150, under the line of the axis' name) and the chart is 72 px taller. A
// command line of 200 characters wraps at spaces into lines of at most 120.
TEST(Layout, LegendRowsAndCommandLinesGrowTheChart) {
  BarChart c;
  c.frame = {"many", "many series", "x", "y", "clustertwin hash " + std::string(100, 'a') + " " + std::string(80, 'b')};
  c.categories = {"one"};
  for (int i = 0; i < 9; ++i) c.series.push_back({"series number " + std::to_string(i) + std::string(15, '.'), {1}});
  const std::string svg = render_bar_chart(c);
  EXPECT_EQ(count(svg, "class=\"ct-legend-item\""), 9U);
  EXPECT_NE(svg.find("y1=\"110.0\""), std::string::npos);  // the fifth legend row: 38 + 4 x 18
  EXPECT_NE(svg.find("x1=\"84.0\" y1=\"150.0\" x2=\"84.0\" y2=\"400.0\""), std::string::npos);  // y axis
  EXPECT_EQ(count(svg, "class=\"ct-command\""), 2U);
  // 64 + 14 (axis name) + 72 (legend) + 250 (plot) + 72 (bottom margin) + 11 (second command line) = 483.
  EXPECT_NE(svg.find("viewBox=\"0 0 720.0 483.0\""), std::string::npos);
}

TEST(Histogram, OneRectPerBin) {
  Histogram h;
  h.frame = {"hist", "destinations per uplink", "destinations", "uplinks", "cmd"};
  h.series = {{"ftree", {{0, 1, 2}, {1, 2, 5}, {2, 3, 1}}}};
  const std::string svg = render_histogram(h);
  EXPECT_EQ(count(svg, "class=\"ct-bin\""), 3U);
  EXPECT_NE(svg.find("data-lo=\"1\" data-hi=\"2\" data-value=\"5\""), std::string::npos);
}

// The idle twin: a group of four uplinks where one carries nothing shows a white cell (value 0)
// beside the full-colour one (the maximum, vermillion #D55E00).
TEST(HeatStrip, CellsPerGroupAndColourScale) {
  HeatStrip h;
  h.frame = {"heat", "uplink load", "member link", "flows", "cmd"};
  h.rows = {{"p0/leaf/0", {2, 0, 1, 1}, {}}, {"p0/leaf/1", {1, 1}, {}}};
  const std::string svg = render_heat_strip(h);
  EXPECT_EQ(count(svg, "class=\"ct-cell\""), 6U);
  EXPECT_NE(svg.find("data-row=\"p0/leaf/0\" data-column=\"1\" data-value=\"0\""), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#FFFFFF\""), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#D55E00\""), std::string::npos);
}

TEST(NodeLink, NodesAndEdgesCarryTheirCounts) {
  NodeLinkDiagram d;
  d.frame = {"fabric", "fabric", "groups", "", "cmd"};
  d.layer_names = {"hosts", "leaf"};
  d.nodes = {{"hosts", "4 hosts", "32 NICs", 0, 4, 7}, {"p0-leaf", "p0 leaf", "4 x Q", 1, 4, 0}};
  d.edges = {{"hosts", "p0-leaf", "32 x 400G", 32}};
  const std::string svg = render_node_link(d);
  EXPECT_EQ(count(svg, "class=\"ct-node\""), 2U);
  EXPECT_NE(svg.find("class=\"ct-edge\" data-from=\"hosts\" data-to=\"p0-leaf\" data-count=\"32\""), std::string::npos);
}

// Long category names slant at 60 degrees: the chart grows by the longest label's drop, by hand
// ceil(6.5 px x 20 characters x sin 60 (0.866)) = ceil(112.58) = 113 px: 64 + 14 + 250 + 72 + 113 = 513.
// The first category's centre is at 84 + 308 / 2 = 238 px: (238 - 4) / 3.25 = 72 characters fit.
TEST(BarChart, SlantedLabelsRotateAndGrowTheChart) {
  BarChart c;
  c.frame = {"hosts", "rules per hostname", "hostname", "rules", "cmd"};
  c.categories = {"a.apps.example.com.x", "b"};
  c.series = {{"entries", {2, 1}}};
  c.slant_labels = true;
  const std::string svg = render_bar_chart(c);
  EXPECT_NE(svg.find("viewBox=\"0 0 720.0 513.0\""), std::string::npos);
  EXPECT_EQ(count(svg, "transform=\"rotate(-60 "), 2U);
  EXPECT_NE(svg.find(">a.apps.example.com.x<title>"), std::string::npos);
  c.slant_labels = false;
  EXPECT_EQ(render_bar_chart(c).find("rotate(-60"), std::string::npos);
}

// Three steps on 720 px: columns of (720 - 16) / 3 = 234.67 px, boxes 18 px narrower (216.67),
// the second box at x = 8 + 234.67 = 242.7; two arrows. A choice of 14 options shows 12 of them
// and "+2 more", but the step's hook counts all 14 (and the 3 taken).
TEST(StepDiagram, StepsOptionsAndArrowsCarryTheirHooks) {
  StepDiagram d;
  d.frame = {"hops", "a request", "hops", "", "cmd"};
  d.steps.push_back({"dns", "1. DNS", "ok", "a -> b", 2, false, {{"view", {{"internal", "", true}, {"external", "", false}}}}});
  StepChoice endpoints{"endpoint", {}};
  for (int i = 0; i < 14; ++i) endpoints.options.push_back({"pod-" + std::to_string(i), "", i < 3});
  d.steps.push_back({"svc", "2. Service and endpoints of a long name", "warning", "", 1, false, {endpoints}});
  d.steps.push_back({"pod", "3. pod", "not reached", "", 7, true, {}});
  d.legend = {{"ok", 2}, {"warning", 1}, {"not reached", 7}};
  const std::string svg = render_step_diagram(d);
  EXPECT_NE(svg.find("data-plot=\"hops\" data-kind=\"steps\""), std::string::npos);
  EXPECT_NE(svg.find("viewBox=\"0 0 720.0 "), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"ct-step\""), 3U);
  EXPECT_EQ(count(svg, "class=\"ct-arrow\""), 2U);
  EXPECT_NE(svg.find("data-from=\"dns\" data-to=\"svc\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"ct-option\""), 2U + 12U);
  EXPECT_NE(svg.find(">+2 more</text>"), std::string::npos);
  EXPECT_NE(svg.find("data-step=\"svc\" data-group=\"1\" data-status=\"warning\" data-options=\"14\" data-taken=\"3\""),
            std::string::npos);
  EXPECT_NE(svg.find("data-step=\"dns\" data-choice=\"view\" data-option=\"internal\" data-taken=\"1\""), std::string::npos);
  EXPECT_NE(svg.find("<rect x=\"242.7\" y=\"54.0\" width=\"216.7\""), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray=\"5 3\""), std::string::npos);  // the step not reached
  // The legend takes the steps' colours, not the series order: warning (after "ok", 40 + 6.5 x 2 =
  // 53 px wide, at x = 84 + 53 = 137) is orange (#E69F00).
  EXPECT_NE(svg.find("data-series=\"warning\"><line x1=\"137.0\" y1=\"38.0\" x2=\"155.0\" y2=\"38.0\" stroke=\"#E69F00\""),
            std::string::npos);
  EXPECT_EQ(svg, render_step_diagram(d));
  // More than six steps: 120 px each, 2 x 8 px margins.
  for (int i = 0; i < 5; ++i) d.steps.push_back({"x" + std::to_string(i), "x", "ok", "", 2, false, {}});
  EXPECT_NE(render_step_diagram(d).find("viewBox=\"0 0 976.0 "), std::string::npos);
}


// Issue 23 item 16: a heat strip of flow counts 0..2 keys 0, 1, 2 (never 0.5 or 1.5 flows).
TEST(HeatStrip, WholeNumberCellsGetWholeNumberKeys) {
  HeatStrip h;
  h.frame = {"heat", "uplink load", "member link", "flows on the link", "cmd"};
  h.rows = {{"p0/spine/0", {0, 1, 0, 2}, {}}};
  const std::string svg = render_heat_strip(h);
  const std::string key = svg.substr(svg.find("ct-heat-key"), svg.find("</g>", svg.find("ct-heat-key")) - svg.find("ct-heat-key"));
  for (const char* k : {">0</text>", ">1</text>", ">2</text>"}) EXPECT_NE(key.find(k), std::string::npos) << k;
  for (const char* k : {">0.5</text>", ">1.5</text>"}) EXPECT_EQ(key.find(k), std::string::npos) << k;
  EXPECT_EQ(count(key, "<rect"), 3U);
}

// Issue 23 items 16, 17: a value label is drawn only over a bar it fits (616 px / 10 categories
// x 0.8 / 2 series = 24.6 px a bar; "3.18e-4" at 10 px is about 42 px), so labels never run into
// the next bar; one bar per category keeps its label.
TEST(BarChart, ValueLabelsOnlyWhereTheyFitTheirBar) {
  BarChart c;
  c.frame = {"narrow", "shares", "member", "share (%)", "cmd"};
  for (int i = 0; i < 10; ++i) c.categories.push_back(std::to_string(i));
  c.series = {{"each", std::vector<double>(10, 0.000318)}, {"cumulative", std::vector<double>(10, 99.5)}};
  EXPECT_EQ(render_bar_chart(c).find(">3.18e-4</text>"), std::string::npos);
  BarChart wide;
  wide.frame = c.frame;
  wide.categories = {"a"};
  wide.series = {{"each", {0.000318}}};
  EXPECT_NE(render_bar_chart(wide).find(">3.18e-4</text>"), std::string::npos);
}

// Issue 23 item 21: whole-number bars tick at whole numbers: values 1 and 2 give nice(2/5) = 0.5,
// raised to 1, so ticks 0, 1, 2 and no 0.5.
TEST(BarChart, WholeNumberValuesTickAtWholeNumbers) {
  BarChart c;
  c.frame = {"counts", "rules per hostname", "hostname", "entries", "cmd"};
  c.categories = {"a", "b"};
  c.series = {{"entries", {1, 2}}};
  const std::string svg = render_bar_chart(c);
  for (const char* tick : {">0</text>", ">1</text>", ">2</text>"}) EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  EXPECT_EQ(svg.find(">0.5</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">1.5</text>"), std::string::npos);
}

// Issues 23 items 18, 20: a reference line's label is a legend item (a dashed key), not text over
// the plot where bars are.
TEST(BarChart, ReferenceLabelsAreLegendItems) {
  BarChart c;
  c.frame = {"refs", "members", "member", "Mb/s", "cmd"};
  c.categories = {"a", "b"};
  c.series = {{"rate", {0, 166}}};
  c.references = {{82.8, "group mean 82.8 Mb/s"}};
  const std::string svg = render_bar_chart(c);
  const std::size_t key = svg.find("class=\"ct-ref-key\"");
  ASSERT_NE(key, std::string::npos);
  EXPECT_LT(key, svg.find("class=\"ct-bar\""));
  EXPECT_NE(svg.find(">group mean 82.8 Mb/s</text>", key), std::string::npos);
  EXPECT_EQ(count(svg, ">group mean 82.8 Mb/s</text>"), 1U);
}

// Issue 23 item 19: two series share each whole-number bin side by side, each half its width, in
// opaque colours; the bin reads "7", not "[7, 8)". Bins 7 and 8 on an axis from 7 to 9 (616 px,
// 308 px a bin): series 0 at x = 84, series 1 at 84 + 154 = 238, each 154 px wide; the tick "7"
// at the bin's centre, 238, under the plot (64 + 14 + 250 + 18 = 346).
TEST(Histogram, SeriesSideBySideAndWholeNumberBinsNamedByTheirValue) {
  Histogram h;
  h.frame = {"hist", "destinations per uplink", "destinations", "uplinks", "cmd"};
  h.series = {{"healthy", {{7, 8, 256}, {8, 9, 0}}}, {"after failures", {{7, 8, 224}, {8, 9, 16}}}};
  const std::string svg = render_histogram(h);
  EXPECT_EQ(svg.find("fill-opacity"), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"healthy\" data-lo=\"7\" data-hi=\"8\" data-value=\"256\" x=\"84.0\""), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"after failures\" data-lo=\"7\" data-hi=\"8\" data-value=\"224\" x=\"238.0\""),
            std::string::npos);
  EXPECT_NE(svg.find("width=\"154.0\""), std::string::npos);
  EXPECT_NE(svg.find("<title>after failures: 7: 224</title>"), std::string::npos);
  EXPECT_NE(svg.find("x=\"238.0\" y=\"346.0\" text-anchor=\"middle\">7</text>"), std::string::npos);
}

// Issue 23 item 15: a Gantt bar per operation and iteration, at its start and end.
TEST(Timeline, OneBarPerSpanAtItsTimes) {
  Timeline t;
  t.frame = {"timeline", "operations", "time (ms)", "operation", "cmd"};
  t.rows = {{"all-reduce", {{0, 4, "iteration 1", false}, {4, 9, "iteration 2", false}}}, {"rpc", {{1, 10, "iteration 1", true}}}};
  const std::string svg = render_timeline(t);
  EXPECT_NE(svg.find("data-kind=\"timeline\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"ct-span\""), 3U);
  EXPECT_NE(svg.find("data-row=\"all-reduce\" data-span=\"1\" data-start=\"4\" data-end=\"9\" data-open=\"0\""),
            std::string::npos);
  EXPECT_NE(svg.find("data-row=\"rpc\" data-span=\"0\" data-start=\"1\" data-end=\"10\" data-open=\"1\""), std::string::npos);
  EXPECT_EQ(svg, render_timeline(t));
}

// Issue 23 item 15: series that may coincide get distinct widths and dash patterns.
TEST(LineChart, CoincidingSeriesAreDrawnDistinctly) {
  LineChart c;
  c.frame = {"util", "hottest links", "time (ms)", "load (%)", "cmd"};
  c.may_coincide = true;
  for (const char* name : {"a", "b", "c"}) c.series.push_back({name, {{0, 100}, {1, 100}}, true, false, false});
  const std::string svg = render_line_chart(c);
  EXPECT_NE(svg.find("data-series=\"a\" data-points=\"2\" d=\"M84.0 78.0H700.0V78.0\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"6.0\"/>"),
            std::string::npos);
  EXPECT_NE(svg.find("stroke-width=\"4.0\" stroke-dasharray=\"12 4\""), std::string::npos);
  EXPECT_NE(svg.find("stroke-width=\"2.0\" stroke-dasharray=\"6 4\""), std::string::npos);
}

// Issue 23 item 20: a bundle's label sits on an opaque box over its line.
TEST(NodeLink, BundleLabelsSitOnABoxOverTheirLine) {
  NodeLinkDiagram d;
  d.frame = {"fabric", "two tiers", "shapes", "", "cmd"};
  d.nodes = {{"hosts", "hosts", "", 0, 4, 7}, {"leaf", "leaf", "", 1, 4, 0}};
  d.edges = {{"hosts", "leaf", "32 x 400G", 32}};
  const std::string svg = render_node_link(d);
  const std::size_t line = svg.find("<line", svg.find("class=\"ct-edge\""));
  const std::size_t box = svg.find("class=\"ct-label-bg\"");
  const std::size_t label = svg.find(">32 x 400G</text>");
  ASSERT_NE(box, std::string::npos);
  EXPECT_LT(line, box);
  EXPECT_LT(box, label);
}

}  // namespace
}  // namespace ct
