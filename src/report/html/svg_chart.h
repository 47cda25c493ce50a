// Small SVG charts for the HTML reports (html_document.h): grouped bars, lines and steps (CDFs,
// time series), histograms, heat strips (one row per ECMP group, one cell per member link),
// layered node-link drawings (aggregated fabrics) and step diagrams (a request hop by hop). Each render_* is a pure function of its input and
// returns one <svg> element: same chart, same bytes (coordinates to 0.1 px, data hooks in shortest
// round-trip form by fmt, which ignores the locale; the numbers a reader sees by page_numbers.h).
//
// Every chart carries a title, axis labels with units, a legend naming each series, and the command
// line that produced it (PlotFrame). Charts are 720 px wide; the legend flows into as many rows as
// it needs and a long command line wraps at spaces, each growing the chart's height. Colours are the Okabe-Ito palette (Okabe and Ito, "Color
// Universal Design", 2008), safe for the common colour-vision deficiencies; series take them in
// order. Axis ticks are Heckbert's "nice numbers" (Graphics Gems, 1990): steps of 1, 2 or 5 x 10^k;
// log axes tick at the powers of ten.
//
// Test hooks (tests/html/browser_check.py):
//   <svg class="ct-plot" data-plot="ID" data-kind="bar|line|histogram|heat|diagram|steps|timeline">
//   bars        <rect class="ct-bar" data-series="S" data-category="C" data-value="V">
//   lines       <path class="ct-line" data-series="S" data-points="N">, and per point
//               <circle class="ct-point" data-series="S" data-x="X" data-y="Y"> (when markers;
//               a scatter series has the circles alone, a faded one data-faded="1")
//   histogram   <rect class="ct-bin" data-series="S" data-lo="A" data-hi="B" data-value="N">
//   timeline    <rect class="ct-span" data-row="R" data-span="K" data-start="A" data-end="B" data-open="0|1">
//   heat cells  <rect class="ct-cell" data-row="R" data-column="I" data-value="V">
//   diagram     <g class="ct-node" data-node="ID" data-count="N">, <g class="ct-edge" data-from="A"
//               data-to="B" data-count="N">
//   steps       <g class="ct-step" data-step="ID" data-group="G" data-status="S" data-options="N"
//               data-taken="K"> (options and taken over all the step's choices), per option shown
//               <g class="ct-option" data-step="ID" data-choice="C" data-option="NAME" data-taken="1|0">,
//               and <line class="ct-arrow" data-from="A" data-to="B"> between consecutive steps
//   legend      <g class="ct-legend-item" data-series="S">; reference lines <line class="ct-ref"
//               data-value="V">; the command line <text class="ct-command"> (one per wrapped line).
// A gallery of every kind is tests/golden/expected/chart-gallery.html (html_report_test).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ct {

// Okabe-Ito colours, in the order series take them (black last).
extern const char* const kOkabeIto[8];

// What every plot shows besides its data.
struct PlotFrame {
  std::string id;            // data-plot hook: lower-case letters, digits and '-'
  std::string title;
  std::string x_label;       // with unit, e.g. "completion time (ms)"
  std::string y_label;
  std::string command_line;  // the command that produced the figure
};

// A horizontal line across the plot at `value` (a bound, this design's size), labelled.
struct ReferenceLine {
  double value = 0;
  std::string label;
};

struct BarSeries {
  std::string name;
  std::vector<double> values;  // one per category
  int colour = -1;             // a kOkabeIto index (5, vermillion: what fails); -1: the series' order
};

// Grouped bars: one group per category, one bar per series within it.
struct BarChart {
  PlotFrame frame;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;    // PRECONDITION: each has categories.size() values
  std::vector<ReferenceLine> references;
  bool log_y = false;               // log scale; values <= 0 draw no bar (still hooked, height 0)
  bool slant_labels = false;        // category labels at 60 degrees (long names; also whenever a label
                                    // is wider than its slot), cut to fit on the
                                    // left (the whole name in a <title>); the chart grows
};
std::string render_bar_chart(const BarChart& chart);

struct LineSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in the order given
  bool step = false;     // a step function (CDF, utilization over time): horizontal then vertical
  bool markers = false;  // a circle per point (hooked as ct-point)
  bool dashed = false;   // e.g. a closed form beside a measurement
  bool highlight = false;  // markers drawn larger and outlined, above every series (a point that
                           // lies on another series' curve, e.g. this host on the closed form)
  bool scatter = false;    // markers only, no line between them (a scatter plot): no ct-line path
  bool faded = false;      // markers at a third of their opacity (points another one dominates)
  std::vector<std::string> labels{};  // optional tooltips, one per point (default "series: (x, y)")
};

struct LineChart {
  PlotFrame frame;
  std::vector<LineSeries> series;
  std::vector<ReferenceLine> references;
  bool log_x = false, log_y = false;  // points with a coordinate <= 0 are left out on a log axis
  bool may_coincide = false;  // series may lie on one another (links pinned at 100 %): each is drawn
                              // narrower than the one before, with its own dash pattern, so all show
};
std::string render_line_chart(const LineChart& chart);

struct HistogramBin {
  double lo = 0, hi = 0;  // [lo, hi)
  double count = 0;
};
struct HistogramSeries {
  std::string name;
  std::vector<HistogramBin> bins;
};
// Histograms on a shared x axis; several series share each bin side by side. Bins all [k, k + 1)
// with whole k are whole numbers: ticked and named "k" at the bin's centre, not as a range.
struct Histogram {
  PlotFrame frame;
  std::vector<HistogramSeries> series;
  std::vector<ReferenceLine> references;
};
std::string render_histogram(const Histogram& chart);

struct HeatRow {
  std::string label;           // e.g. the ECMP group "p0/leaf/0 -> spine"
  std::vector<double> values;  // one cell per member; the same scale for every row
  std::vector<std::string> cell_labels;  // optional tooltips (<title>), one per value
};
// One row per group, one cell per member, colour from white (0) to vermillion (max); each cell also
// prints its value when it fits. x_label names the member, the colour key names the unit (y_label).
struct HeatStrip {
  PlotFrame frame;
  std::vector<HeatRow> rows;
  double max_value = 0;  // 0: the largest value shown
};
std::string render_heat_strip(const HeatStrip& chart);

// A Gantt-style timeline: one row per activity (an operation), one bar per span of it (an
// iteration) from its start to its end on a shared time axis; a span that never ended is drawn to
// the axis' end with a dashed outline. Row names sit left of the rows, cut to fit (the whole name
// in a <title>); rows take the palette's colours in order.
struct TimelineSpan {
  double start = 0, end = 0;  // x units (e.g. ms); PRECONDITION: start <= end
  std::string label;          // the tooltip, e.g. "iteration 2"
  bool open = false;          // never ended (end is where the run stopped)
};
struct TimelineRow {
  std::string name;
  std::vector<TimelineSpan> spans;
};
struct Timeline {
  PlotFrame frame;  // x_label: the time axis with unit; y_label names the rows
  std::vector<TimelineRow> rows;
};
std::string render_timeline(const Timeline& chart);

// A layered drawing: layer 0 at the bottom. Nodes of a layer spread evenly across the width in the
// order given; edges are straight lines whose width grows with log(count), labelled.
struct DiagramNode {
  std::string id;     // unique within the diagram
  std::string label;  // e.g. "leaf"
  std::string detail; // e.g. "64 x Q3400"
  int layer = 0;
  long long count = 0;  // members the shape stands for
  int group = 0;        // colour index (e.g. the plane)
};
struct DiagramEdge {
  std::string from, to;  // node ids
  std::string label;     // e.g. "4,096 x 800G"
  long long count = 0;
};
struct NodeLinkDiagram {
  PlotFrame frame;                  // x_label/y_label describe the layers (e.g. "tier (bottom: NICs)")
  std::vector<std::string> layer_names;  // printed at the left, layer 0 first
  std::vector<DiagramNode> nodes;
  std::vector<DiagramEdge> edges;   // PRECONDITION: from/to name nodes
  std::vector<std::string> legend;  // one name per group index used
};
std::string render_node_link(const NodeLinkDiagram& diagram);

// A step diagram: one box per step from left to right, joined by arrows, each coloured by its
// group (a verdict) and, under it, the alternatives of the step's decisions, one line each, the
// taken ones bold with a filled marker (at most kStepOptionsShown per choice, then "+N more").
// The chart is 720 px wide, or 120 px per step when there are more than six; labels that do not
// fit their column are cut with an ellipsis (the whole text is in the element's <title>).
inline constexpr std::size_t kStepOptionsShown = 12;
struct StepOption {
  std::string label;   // e.g. "node-0"
  std::string detail;  // e.g. "192.0.2.11" (in the tooltip)
  bool taken = false;
};
struct StepChoice {
  std::string label;   // e.g. "next hop"
  std::vector<StepOption> options;
};
struct Step {
  std::string id;      // unique within the diagram
  std::string label;   // e.g. "2. VIP (BGP + ECMP)", wrapped into two lines at most
  std::string status;  // printed in the box, e.g. "ok"
  std::string detail;  // the box's tooltip (e.g. the hop's summary)
  int group = 0;       // colour index into kOkabeIto
  bool dashed = false; // a dashed outline (a step not reached)
  std::vector<StepChoice> choices;
};
struct StepLegendItem {
  std::string name;
  int group = 0;
};
struct StepDiagram {
  PlotFrame frame;  // x_label says what the steps are; y_label is unused
  std::vector<Step> steps;
  std::vector<StepLegendItem> legend;  // one item per group used
};
std::string render_step_diagram(const StepDiagram& diagram);

}  // namespace ct
