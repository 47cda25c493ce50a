#include "report/html/svg_chart.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/table.h"

namespace ct {

const char* const kOkabeIto[8] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                  "#56B4E9", "#D55E00", "#F0E442", "#000000"};

namespace {

constexpr double kWidth = 720;
constexpr double kLeft = 84, kRight = 700;      // plot area, x
constexpr double kTop = 64;                     // plot area top (below title and legend)
constexpr double kPlotHeight = 250;

const char* colour(std::size_t i) { return kOkabeIto[i % 8]; }

// Pixel coordinates to 0.1 px; "-0.0" never printed.
std::string px(double v) {
  const double r = std::round(v * 10) / 10;
  return fmt::format("{:.1f}", r == 0 ? 0.0 : r);
}
// A data value as written in data-* hooks: shortest text that reads back to the same double.
std::string value_text(double v) {
  if (std::isnan(v)) return "NaN";
  return fmt::format("{}", v == 0 ? 0.0 : v);
}
std::string attr(const std::string& text) { return html_escape(text); }

// Heckbert's nice number: 1, 2, 5 or 10 times a power of ten, at least `x`.
double nice_step(double x) {
  if (!(x > 0) || !std::isfinite(x)) return 1;
  const double e = std::floor(std::log10(x));
  const double f = x / std::pow(10.0, e);
  const double nf = f <= 1 ? 1 : (f <= 2 ? 2 : (f <= 5 ? 5 : 10));
  return nf * std::pow(10.0, e);
}

// A value axis mapped to pixels [p0, p1] (p0 at lo).
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double p0 = 0, p1 = 1;
  std::vector<double> ticks;

  [[nodiscard]] double map(double v) const {
    if (log) {
      const double l = std::log10(std::max(v, lo));
      return p0 + (p1 - p0) * (l - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    }
    return p0 + (p1 - p0) * (v - lo) / (hi - lo);
  }
};

// Ticks span [min, max] (about five of them), widened to nice values; a log axis spans whole decades.
Axis make_axis(double min, double max, bool log, double p0, double p1, bool from_zero, bool integer = false) {
  Axis a;
  a.log = log;
  a.p0 = p0;
  a.p1 = p1;
  if (!std::isfinite(min) || !std::isfinite(max)) min = 0, max = 1;
  if (log) {
    if (!(min > 0)) min = 1;
    if (!(max > 0)) max = 10;
    const double e0 = std::floor(std::log10(min));
    double e1 = std::ceil(std::log10(max));
    if (e1 <= e0) e1 = e0 + 1;
    a.lo = std::pow(10.0, e0);
    a.hi = std::pow(10.0, e1);
    const double every = std::max(1.0, std::ceil((e1 - e0) / 8));
    for (double e = e0; e <= e1 + 1e-9; e += every) a.ticks.push_back(std::pow(10.0, e));
    return a;
  }
  if (from_zero) min = std::min(min, 0.0), max = std::max(max, 0.0);
  if (max <= min) max = min + 1;
  const double step = integer ? std::max(1.0, nice_step((max - min) / 5)) : nice_step((max - min) / 5);
  a.lo = std::floor(min / step + 1e-9) * step;
  a.hi = std::ceil(max / step - 1e-9) * step;
  if (a.hi <= a.lo) a.hi = a.lo + step;
  for (long long i = 0;; ++i) {
    const double t = a.lo + static_cast<double>(i) * step;
    if (t > a.hi + step * 1e-6) break;
    a.ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
  }
  return a;
}

std::string open_svg(const PlotFrame& f, const char* kind, double height, double width = kWidth) {
  assert(!f.id.empty());
  return fmt::format(
      "<svg class=\"ct-plot\" data-plot=\"{0}\" data-kind=\"{1}\" xmlns=\"http://www.w3.org/2000/svg\" "
      "viewBox=\"0 0 {2} {3}\" width=\"{2}\" height=\"{3}\" role=\"img\" aria-labelledby=\"{0}-title\" "
      "font-family=\"system-ui,sans-serif\" font-size=\"12\">\n"
      "<title id=\"{0}-title\">{4}</title>\n<desc>{5}</desc>\n"
      "<rect x=\"0\" y=\"0\" width=\"{2}\" height=\"{3}\" fill=\"#fff\"/>\n"
      "<text class=\"ct-title\" x=\"{6}\" y=\"20\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"600\">{4}</text>\n",
      attr(f.id), kind, px(width), px(height), attr(f.title), attr("$ " + f.command_line), px(width / 2));
}

// The vertical layout of one chart: legend items flow into rows under the title (each extra row
// pushes the plot down 18 px); the command line wraps at spaces into lines of at most 120
// characters at the bottom (each extra line adds 11 px).
struct Layout {
  std::vector<double> legend_x, legend_y;  // per legend item
  std::vector<std::string> command_lines;
  double top = 64;           // plot area top
  double extra_bottom = 0;   // below the usual bottom margin
};

Layout make_layout(const PlotFrame& f, const std::vector<std::string>& legend_names) {
  Layout l;
  double x = kLeft, y = 38;
  for (const auto& name : legend_names) {
    const double w = 40 + 6.5 * static_cast<double>(display_width(name));
    if (x > kLeft && x + w - 16 > kRight) x = kLeft, y += 18;
    l.legend_x.push_back(x);
    l.legend_y.push_back(y);
    x += w;
  }
  l.top = kTop + (y - 38);
  l.command_lines = wrap_words("$ " + f.command_line, 120);
  l.extra_bottom = 11.0 * static_cast<double>(l.command_lines.size() - 1);
  return l;
}

// A chart with a y axis: its name gets a line of its own between the legend and the plot.
constexpr double kYLabelLine = 14;
Layout make_axes_layout(const PlotFrame& f, const std::vector<std::string>& legend_names) {
  Layout l = make_layout(f, legend_names);
  l.top += kYLabelLine;
  return l;
}

std::string close_svg(const Layout& l, double height) {
  std::string out;
  const std::size_t n = l.command_lines.size();
  for (std::size_t i = 0; i < n; ++i) {
    out += fmt::format(
        "<text class=\"ct-command\" x=\"8\" y=\"{}\" font-family=\"monospace\" font-size=\"9\" fill=\"#555\">{}</text>\n",
        px(height - 8 - 11.0 * static_cast<double>(n - 1 - i)), attr(l.command_lines[i]));
  }
  return out + "</svg>\n";
}

// The legend: a swatch and the series name per item, placed by the layout; item i takes colour i
// unless `colours` says otherwise.
// `dashes`: a dash pattern per item ("" or missing: a solid swatch).
std::string legend(const Layout& l, const std::vector<std::string>& names, const std::vector<std::string>& dashes = {},
                   const std::vector<int>& colours = {}) {
  std::string out = "<g class=\"ct-legend\">\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string pattern = i < dashes.size() ? dashes[i] : "";
    const bool dash = !pattern.empty();
    const double x = l.legend_x[i], y = l.legend_y[i];
    out += fmt::format(
        "<g class=\"ct-legend-item\" data-series=\"{}\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" "
        "stroke-width=\"{}\"{}/><text x=\"{}\" y=\"{}\">{}</text></g>\n",
        attr(names[i]), px(x), px(y), px(x + 18), px(y),
        colour(i < colours.size() ? static_cast<std::size_t>(std::max(colours[i], 0)) : i), dash ? "2" : "8",
        dash ? " stroke-dasharray=\"" + pattern + "\"" : "", px(x + 24), px(y + 4), attr(names[i]));
  }
  return out + "</g>\n";
}

// The y axis (ticks, grid, label) of a plot area [kLeft, kRight] x [top, top + kPlotHeight].
std::string y_axis(const Axis& a, const std::string& label, double top) {
  std::string out = "<g class=\"ct-axis ct-y-axis\">\n";
  for (const double t : a.ticks) {
    const double y = a.map(t);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#e5e5e5\"/><text x=\"{3}\" y=\"{4}\" "
        "text-anchor=\"end\">{5}</text>\n",
        px(kLeft), px(y), px(kRight), px(kLeft - 6), px(y + 4), page_number(t));
  }
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333\"/>\n", px(kLeft), px(top),
                     px(top + kPlotHeight));
  // The axis' name above it, left-aligned: a rotated name beside the ticks meets wide tick labels
  // ("1,000,000").
  out += fmt::format("<text class=\"ct-y-label\" x=\"8\" y=\"{}\" font-style=\"italic\" fill=\"#333\">{}</text>\n",
                     px(top - 10), attr(label));
  return out + "</g>\n";
}

// `drop`: how much lower than usual the label sits (below slanted category labels).
std::string x_label_and_baseline(const std::string& label, double top, double drop = 0) {
  const double base = top + kPlotHeight;
  return fmt::format(
      "<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"#333\"/>\n"
      "<text class=\"ct-x-label\" x=\"{3}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>\n",
      px(kLeft), px(kRight), px(base), px((kLeft + kRight) / 2), px(base + 38 + drop), attr(label));
}

std::string x_axis_numeric(const Axis& a, const std::string& label, double top) {
  std::string out = "<g class=\"ct-axis ct-x-axis\">\n";
  const double base = top + kPlotHeight;
  for (const double t : a.ticks) {
    const double x = a.map(t);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333\"/><text x=\"{0}\" y=\"{3}\" "
        "text-anchor=\"middle\">{4}</text>\n",
        px(x), px(base), px(base + 5), px(base + 18), page_number(t));
  }
  out += x_label_and_baseline(label, top);
  return out + "</g>\n";
}

// Reference lines across the plot, each with its own dash pattern; their labels are legend items
// (reference_keys), so a label never lies over a bar or a curve.
const char* reference_dash(std::size_t i) {
  static const char* const kDashes[] = {"6 4", "2 3", "10 3 2 3"};
  return kDashes[i % 3];
}

std::string references(const std::vector<ReferenceLine>& refs, const Axis& y) {
  std::string out;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const ReferenceLine& r = refs[i];
    const double py = y.map(std::clamp(r.value, y.lo, y.hi));
    out += fmt::format(
        "<line class=\"ct-ref\" data-value=\"{0}\" x1=\"{1}\" y1=\"{3}\" x2=\"{2}\" y2=\"{3}\" stroke=\"#000\" "
        "stroke-width=\"1.5\" stroke-dasharray=\"{5}\"><title>{4}</title></line>\n",
        value_text(r.value), px(kLeft), px(kRight), px(py), attr(r.label), reference_dash(i));
  }
  return out;
}

// The reference lines' legend items, after the `first` series items of the layout.
std::string reference_keys(const Layout& l, const std::vector<ReferenceLine>& refs, std::size_t first) {
  std::string out;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const double x = l.legend_x[first + i], y = l.legend_y[first + i];
    out += fmt::format(
        "<g class=\"ct-ref-key\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\" stroke-width=\"2\" "
        "stroke-dasharray=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text></g>\n",
        px(x), px(y), px(x + 18), px(y), reference_dash(i), px(x + 24), px(y + 4), attr(refs[i].label));
  }
  return out;
}

std::vector<std::string> with_references(std::vector<std::string> names, const std::vector<ReferenceLine>& refs) {
  for (const auto& r : refs) names.push_back(r.label);
  return names;
}

bool all_whole(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v) && v == std::round(v); });
}

// About how wide a label of `text` is at `font_size` px (digits and most letters of a sans-serif
// face are under 0.6 em).
double text_width(const std::string& text, double font_size) {
  return 0.6 * font_size * static_cast<double>(display_width(text));
}

double chart_height(const Layout& l) { return l.top + kPlotHeight + 72 + l.extra_bottom; }

}  // namespace

namespace {
std::string fit(const std::string& text, std::size_t width);
}  // namespace

std::string render_bar_chart(const BarChart& chart) {
  std::vector<std::string> names;
  std::vector<double> all_values;
  std::vector<int> colours;
  for (const auto& s : chart.series) {
    names.push_back(s.name), all_values.insert(all_values.end(), s.values.begin(), s.values.end());
    colours.push_back(s.colour >= 0 ? s.colour : static_cast<int>(colours.size()));
  }
  const Layout l = make_axes_layout(chart.frame, with_references(names, chart.references));
  // Slanted labels at 60 degrees: the longest (6.5 px a character) reaches sin(60) of its length
  // down; each is cut to what fits left of its category's centre (cos(60) x 6.5 = 3.25 px a character).
  // Labels wider than their category's slot are slanted too, whatever the caller asked.
  std::size_t longest = 0;
  for (const auto& c : chart.categories) longest = std::max(longest, display_width(c));
  const double slot = (kRight - kLeft) / static_cast<double>(std::max<std::size_t>(chart.categories.size(), 1));
  bool slant = chart.slant_labels;
  for (const auto& c : chart.categories) slant = slant || text_width(c, 12) + 6 > slot;
  const double drop = slant ? std::ceil(6.5 * static_cast<double>(longest) * 0.866) : 0;
  const double height = chart_height(l) + drop, top = l.top;
  double max = 0, min_positive = std::numeric_limits<double>::infinity();
  for (const auto& s : chart.series) {
    assert(s.values.size() == chart.categories.size());
    for (const double v : s.values) {
      max = std::max(max, v);
      if (v > 0) min_positive = std::min(min_positive, v);
    }
  }
  for (const auto& r : chart.references) {
    max = std::max(max, r.value);
    if (r.value > 0) min_positive = std::min(min_positive, r.value);
  }
  const Axis y = make_axis(chart.log_y ? min_positive : 0, max, chart.log_y, top + kPlotHeight, top, true, all_whole(all_values));
  std::string out = open_svg(chart.frame, "bar", height) + legend(l, names, {}, colours) +
                    reference_keys(l, chart.references, names.size()) + y_axis(y, chart.frame.y_label, top);
  const std::size_t n = chart.categories.size(), m = chart.series.size();
  const double group = (kRight - kLeft) / static_cast<double>(std::max<std::size_t>(n, 1));
  const double bar = group * 0.8 / static_cast<double>(std::max<std::size_t>(m, 1));
  const bool labels = n * m <= 24;
  out += "<g class=\"ct-bars\">\n";
  for (std::size_t c = 0; c < n; ++c) {
    const double gx = kLeft + group * static_cast<double>(c) + group * 0.1;
    for (std::size_t si = 0; si < m; ++si) {
      const double v = chart.series[si].values[c];
      const double bar_top = (chart.log_y && v <= 0) ? y.p0 : y.map(std::max(v, y.lo));
      const double x = gx + bar * static_cast<double>(si);
      const double h = std::max(0.0, y.p0 - bar_top);
      out += fmt::format(
          "<rect class=\"ct-bar\" data-series=\"{}\" data-category=\"{}\" data-value=\"{}\" x=\"{}\" y=\"{}\" "
          "width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}, {}: {}</title></rect>\n",
          attr(chart.series[si].name), attr(chart.categories[c]), value_text(v), px(x), px(bar_top), px(bar * 0.92), px(h),
          colour(static_cast<std::size_t>(colours[si])), attr(chart.series[si].name), attr(chart.categories[c]), page_number(v));
      // A value label only where it fits over its own bar, with a gap to the next one.
      if (labels && text_width(page_number(v), 10) + 4 <= bar) {
        out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">{}</text>\n",
                           px(x + bar * 0.46), px(bar_top - 3), page_number(v));
      }
    }
    const double cx = kLeft + group * (static_cast<double>(c) + 0.5);
    if (slant) {
      const auto fits = static_cast<std::size_t>(std::max(4.0, (cx - 4) / 3.25));
      out += fmt::format(
          "<text class=\"ct-category\" x=\"{0}\" y=\"{1}\" text-anchor=\"end\" transform=\"rotate(-60 {0} {1})\">{2}<title>{3}</title></text>\n",
          px(cx), px(top + kPlotHeight + 14), attr(fit(chart.categories[c], fits)), attr(chart.categories[c]));
    } else {
      out += fmt::format("<text class=\"ct-category\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px(cx),
                         px(top + kPlotHeight + 18), attr(chart.categories[c]));
    }
  }
  out += "</g>\n" + references(chart.references, y) + x_label_and_baseline(chart.frame.x_label, top, drop);
  return out + close_svg(l, height);
}

std::string render_line_chart(const LineChart& chart) {
  std::vector<std::string> names;
  // Series that may coincide: the first widest and solid, each next narrower with its own dashes.
  static const char* const kPatterns[] = {"", "12 4", "6 4", "2 3", "12 3 2 3"};
  const std::size_t n_series = chart.series.size();
  std::vector<std::string> dashes;
  std::vector<double> widths;
  for (std::size_t i = 0; i < n_series; ++i) {
    const bool stacked = chart.may_coincide && n_series > 1;
    dashes.emplace_back(chart.series[i].dashed ? "6 4" : (stacked ? kPatterns[i % 5] : ""));
    widths.push_back(stacked ? 2.0 + 2.0 * static_cast<double>(n_series - 1 - i) : 2.0);
  }
  for (const auto& s : chart.series) names.push_back(s.name);
  const Layout l = make_axes_layout(chart.frame, with_references(names, chart.references));
  const double height = chart_height(l), top = l.top;
  const double inf = std::numeric_limits<double>::infinity();
  double x0 = inf, x1 = -inf, y0 = inf, y1 = -inf;
  auto kept = [&](double x, double y) { return std::isfinite(x) && std::isfinite(y) && (!chart.log_x || x > 0) && (!chart.log_y || y > 0); };
  for (const auto& s : chart.series) {
    for (const auto& [x, y] : s.points) {
      if (!kept(x, y)) continue;
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
  }
  for (const auto& r : chart.references) {
    if (!chart.log_y || r.value > 0) y0 = std::min(y0, r.value), y1 = std::max(y1, r.value);
  }
  if (x0 > x1) x0 = 0, x1 = 1;
  if (y0 > y1) y0 = 0, y1 = 1;
  const Axis xa = make_axis(x0, x1, chart.log_x, kLeft, kRight, false);
  const Axis ya = make_axis(y0, y1, chart.log_y, top + kPlotHeight, top, !chart.log_y && y0 >= 0);
  std::string out = open_svg(chart.frame, "line", height) + legend(l, names, dashes) +
                    reference_keys(l, chart.references, names.size()) +
                    y_axis(ya, chart.frame.y_label, top) + x_axis_numeric(xa, chart.frame.x_label, top) +
                    "<g class=\"ct-lines\">\n";
  std::string highlighted;
  for (std::size_t si = 0; si < chart.series.size(); ++si) {
    const LineSeries& s = chart.series[si];
    std::string d;
    std::string markers;
    std::size_t n = 0;
    double prev_y = 0;
    for (std::size_t k = 0; k < s.points.size(); ++k) {
      const auto [x, y] = s.points[k];
      if (!kept(x, y)) continue;
      const double px_x = xa.map(x), px_y = ya.map(y);
      if (n == 0) {
        d += "M" + px(px_x) + " " + px(px_y);
      } else if (s.step) {
        d += "H" + px(px_x) + "V" + px(px_y);
      } else {
        d += "L" + px(px_x) + " " + px(px_y);
      }
      prev_y = px_y;
      if (s.markers || s.scatter) {
        const std::string tip = k < s.labels.size() ? attr(s.labels[k])
                                                    : attr(s.name) + ": (" + page_number(x) + ", " + page_number(y) + ")";
        markers += fmt::format(
            "<circle class=\"ct-point\" data-series=\"{}\" data-x=\"{}\" data-y=\"{}\"{} cx=\"{}\" cy=\"{}\" r=\"{}\" "
            "fill=\"{}\"{}><title>{}</title></circle>\n",
            attr(s.name), value_text(x), value_text(y), s.faded ? " data-faded=\"1\" fill-opacity=\"0.3\"" : "", px(px_x),
            px(px_y), s.highlight ? "7" : s.scatter ? "5" : "3", colour(si),
            s.highlight ? " stroke=\"#000\" stroke-width=\"2\"" : "", tip);
      }
      ++n;
    }
    (void)prev_y;
    if (s.scatter) {
      out += markers;
      continue;
    }
    out += fmt::format(
        "<path class=\"ct-line\" data-series=\"{}\" data-points=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"{}\"{}/>\n",
        attr(s.name), n, d.empty() ? "M0 0" : d, colour(si), px(widths[si]),
        dashes[si].empty() ? "" : " stroke-dasharray=\"" + dashes[si] + "\"");
    (s.highlight ? highlighted : out) += markers;
  }
  out += highlighted + "</g>\n" + references(chart.references, ya);
  return out + close_svg(l, height);
}

std::string render_histogram(const Histogram& chart) {
  std::vector<std::string> names;
  for (const auto& s : chart.series) names.push_back(s.name);
  const Layout l = make_axes_layout(chart.frame, with_references(names, chart.references));
  const double height = chart_height(l), top = l.top;
  const double inf = std::numeric_limits<double>::infinity();
  double x0 = inf, x1 = -inf, y1 = 0;
  // Whole-number bins [k, k + 1): each is the value k, ticked at its centre and named "k".
  bool unit_bins = true;
  for (const auto& s : chart.series) {
    for (const auto& b : s.bins) {
      x0 = std::min(x0, b.lo), x1 = std::max(x1, b.hi), y1 = std::max(y1, b.count);
      unit_bins = unit_bins && b.lo == std::round(b.lo) && b.hi == b.lo + 1;
    }
  }
  for (const auto& r : chart.references) y1 = std::max(y1, r.value);
  if (x0 > x1) x0 = 0, x1 = 1;
  const Axis xa = make_axis(x0, x1, false, kLeft, kRight, false, unit_bins);
  const Axis ya = make_axis(0, y1, false, top + kPlotHeight, top, true, true);
  std::string x_axis;
  if (unit_bins) {
    x_axis = "<g class=\"ct-axis ct-x-axis\">\n";
    for (const double t : xa.ticks) {
      if (t >= xa.hi) continue;
      const double x = (xa.map(t) + xa.map(t + 1)) / 2;
      x_axis += fmt::format(
          "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333\"/><text x=\"{0}\" y=\"{3}\" "
          "text-anchor=\"middle\">{4}</text>\n",
          px(x), px(top + kPlotHeight), px(top + kPlotHeight + 5), px(top + kPlotHeight + 18), page_number(t));
    }
    x_axis += x_label_and_baseline(chart.frame.x_label, top) + "</g>\n";
  } else {
    x_axis = x_axis_numeric(xa, chart.frame.x_label, top);
  }
  std::string out = open_svg(chart.frame, "histogram", height) + legend(l, names) +
                    reference_keys(l, chart.references, names.size()) + y_axis(ya, chart.frame.y_label, top) + x_axis +
                    "<g class=\"ct-bins\">\n";
  // Several series share each bin side by side (no translucent blend: every colour is a legend's).
  const double share = 1.0 / static_cast<double>(std::max<std::size_t>(chart.series.size(), 1));
  for (std::size_t si = 0; si < chart.series.size(); ++si) {
    for (const auto& b : chart.series[si].bins) {
      const double span = xa.map(b.hi) - xa.map(b.lo);
      const double left = xa.map(b.lo) + span * share * static_cast<double>(si), bin_top = ya.map(b.count);
      const std::string range = unit_bins ? page_number(b.lo) : fmt::format("[{}, {})", page_number(b.lo), page_number(b.hi));
      out += fmt::format(
          "<rect class=\"ct-bin\" data-series=\"{}\" data-lo=\"{}\" data-hi=\"{}\" data-value=\"{}\" x=\"{}\" y=\"{}\" "
          "width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.5\"><title>{}: {}: {}</title></rect>\n",
          attr(chart.series[si].name), value_text(b.lo), value_text(b.hi), value_text(b.count), px(left), px(bin_top),
          px(std::max(0.0, span * share)), px(std::max(0.0, ya.p0 - bin_top)), colour(si), attr(chart.series[si].name), range,
          page_number(b.count));
    }
  }
  out += "</g>\n" + references(chart.references, ya);
  return out + close_svg(l, height);
}

namespace {
// White (0) to vermillion (1), linear in sRGB components.
std::string heat_colour(double t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0);
  auto mix = [&](int to) { return static_cast<int>(std::lround(255.0 + (to - 255.0) * t)); };
  return fmt::format("#{:02X}{:02X}{:02X}", mix(0xD5), mix(0x5E), mix(0x00));
}
}  // namespace

std::string render_heat_strip(const HeatStrip& chart) {
  constexpr double kLabelWidth = 200, kRow = 24;
  std::size_t cells = 1;
  double max = chart.max_value;
  for (const auto& r : chart.rows) {
    cells = std::max(cells, r.values.size());
    if (chart.max_value <= 0) {
      for (const double v : r.values) max = std::max(max, v);
    }
  }
  if (!(max > 0)) max = 1;
  const Layout l = make_layout(chart.frame, {});
  const double top = kTop + 6;
  const double height = top + kRow * static_cast<double>(chart.rows.size()) + 96 + l.extra_bottom;
  const double cell = (kRight - kLabelWidth) / static_cast<double>(cells);
  std::string out = open_svg(chart.frame, "heat", height);
  // Colour key: five swatches from 0 to max, in the unit of y_label; whole-number cells (flow
  // counts) get whole-number swatches (0 to max, at most five).
  bool whole = true;
  for (const auto& r : chart.rows) whole = whole && all_whole(r.values);
  whole = whole && max == std::round(max);
  std::vector<double> key;
  for (int i = 0; i <= 4; ++i) {
    const double v = whole ? std::round(max * i / 4.0) : max * i / 4.0;
    if (key.empty() || v != key.back()) key.push_back(v);
  }
  out += "<g class=\"ct-legend ct-heat-key\">\n";
  for (std::size_t i = 0; i < key.size(); ++i) {
    const double x = kLabelWidth + 90.0 * static_cast<double>(i);
    out += fmt::format(
        "<rect x=\"{0}\" y=\"30\" width=\"14\" height=\"12\" fill=\"{1}\" stroke=\"#999\"/><text x=\"{2}\" y=\"40\">{3}</text>\n",
        px(x), heat_colour(key[i] / max), px(x + 18), page_number(key[i]));
  }
  out += fmt::format("<text class=\"ct-y-label\" x=\"{}\" y=\"40\" text-anchor=\"end\">{}</text>\n</g>\n", px(kLabelWidth - 8),
                     attr(chart.frame.y_label));
  for (std::size_t r = 0; r < chart.rows.size(); ++r) {
    const HeatRow& row = chart.rows[r];
    const double y = top + kRow * static_cast<double>(r);
    out += fmt::format("<g class=\"ct-heat-row\" data-row=\"{}\" data-cells=\"{}\">\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                       attr(row.label), row.values.size(), px(kLabelWidth - 8), px(y + kRow / 2 + 4), attr(row.label));
    for (std::size_t c = 0; c < row.values.size(); ++c) {
      const double v = row.values[c];
      const double x = kLabelWidth + cell * static_cast<double>(c);
      const std::string tip = c < row.cell_labels.size() ? row.cell_labels[c] + ": " : "";
      out += fmt::format(
          "<rect class=\"ct-cell\" data-row=\"{}\" data-column=\"{}\" data-value=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
          "height=\"{}\" fill=\"{}\" stroke=\"#999\" stroke-width=\"0.5\"><title>{}{}</title></rect>\n",
          attr(row.label), c, value_text(v), px(x), px(y + 1), px(cell), px(kRow - 2), heat_colour(v / max), attr(tip),
          page_number(v));
      if (cell >= 30) {
        out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\"{}>{}</text>\n", px(x + cell / 2),
                           px(y + kRow / 2 + 4), v / max > 0.6 ? " fill=\"#fff\"" : "", page_number(v));
      }
    }
    out += "</g>\n";
  }
  const double base = top + kRow * static_cast<double>(chart.rows.size());
  out += fmt::format("<text class=\"ct-x-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     px((kLabelWidth + kRight) / 2), px(base + 22), attr(chart.frame.x_label));
  return out + close_svg(l, height);
}

std::string render_timeline(const Timeline& chart) {
  // The lane names' column widens to the longest name (7.2 px a character), from 170 px up to
  // 340 px; a longer name is cut there, whole in its tooltip.
  constexpr double kRow = 24, kChar = 7.2;
  std::size_t longest = 0;
  for (const auto& r : chart.rows) longest = std::max(longest, r.name.size());
  const double names_w = std::clamp(16 + kChar * static_cast<double>(longest), 170.0, 340.0);
  const Layout l = make_layout(chart.frame, {});
  const double top = kTop - 16;
  const double rows_height = kRow * static_cast<double>(std::max<std::size_t>(chart.rows.size(), 1));
  const double base = top + rows_height;
  const double height = base + 72 + l.extra_bottom;
  const double inf = std::numeric_limits<double>::infinity();
  double x1 = -inf;
  for (const auto& r : chart.rows) {
    for (const auto& s : r.spans) x1 = std::max(x1, s.end);
  }
  if (!(x1 > 0)) x1 = 1;
  const Axis xa = make_axis(0, x1, false, names_w, kRight, true);
  std::string out = open_svg(chart.frame, "timeline", height);
  out += "<g class=\"ct-axis ct-x-axis\">\n";
  for (const double t : xa.ticks) {
    const double x = xa.map(t);
    // A tick's number centred on it, or ending at it where centred it would leave the drawing.
    const std::string text = page_number(t);
    const bool overflows = x + 3.6 * static_cast<double>(text.size()) > kWidth - 2;
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e5e5e5\"/><text x=\"{0}\" y=\"{3}\" "
        "text-anchor=\"{5}\">{4}</text>\n",
        px(x), px(top), px(base + 5), px(base + 18), text, overflows ? "end" : "middle");
  }
  out += fmt::format(
      "<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"#333\"/>\n"
      "<text class=\"ct-x-label\" x=\"{3}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>\n"
      "<text class=\"ct-y-label\" x=\"8\" y=\"{6}\" font-style=\"italic\" fill=\"#555\">{7}</text>\n</g>\n",
      px(names_w), px(kRight), px(base), px((names_w + kRight) / 2), px(base + 38), attr(chart.frame.x_label), px(top - 6),
      attr(chart.frame.y_label));
  const auto name_chars = static_cast<std::size_t>((names_w - 16) / kChar);
  out += "<g class=\"ct-spans\">\n";
  for (std::size_t r = 0; r < chart.rows.size(); ++r) {
    const TimelineRow& row = chart.rows[r];
    const double y = top + kRow * static_cast<double>(r);
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}<title>{}</title></text>\n", px(names_w - 8),
                       px(y + kRow / 2 + 4), attr(fit(row.name, name_chars)), attr(row.name));
    for (std::size_t k = 0; k < row.spans.size(); ++k) {
      const TimelineSpan& s = row.spans[k];
      const double x = xa.map(s.start), w = std::max(1.0, xa.map(s.end) - x);
      out += fmt::format(
          "<rect class=\"ct-span\" data-row=\"{}\" data-span=\"{}\" data-start=\"{}\" data-end=\"{}\" data-open=\"{}\" "
          "x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1\"{}>"
          "<title>{}, {}: {} to {}</title></rect>\n",
          attr(row.name), k, value_text(s.start), value_text(s.end), s.open ? 1 : 0, px(x), px(y + 3), px(w), px(kRow - 6),
          colour(r), s.open ? "#000" : "#fff", s.open ? " stroke-dasharray=\"4 2\"" : "", attr(row.name), attr(s.label),
          page_number(s.start), s.open ? std::string("not finished") : page_number(s.end));
    }
  }
  out += "</g>\n";
  return out + close_svg(l, height);
}

std::string render_node_link(const NodeLinkDiagram& d) {
  constexpr double kLayerGap = 96, kBoxHeight = 40, kNameWidth = 84;
  int layers = static_cast<int>(d.layer_names.size());
  for (const auto& n : d.nodes) layers = std::max(layers, n.layer + 1);
  const Layout l = make_layout(d.frame, d.legend);
  const double top = l.top + 10;
  const double height = top + kLayerGap * std::max(layers - 1, 0) + kBoxHeight + 84 + l.extra_bottom;
  auto layer_y = [&](int layer) { return top + kLayerGap * (layers - 1 - layer); };
  // Positions: each layer's nodes spread evenly over [kNameWidth, kRight].
  std::map<int, std::vector<std::size_t>> by_layer;
  for (std::size_t i = 0; i < d.nodes.size(); ++i) by_layer[d.nodes[i].layer].push_back(i);
  std::vector<double> cx(d.nodes.size()), box(d.nodes.size());
  for (const auto& [layer, members] : by_layer) {
    const double slot = (kRight - kNameWidth) / static_cast<double>(members.size());
    for (std::size_t k = 0; k < members.size(); ++k) {
      cx[members[k]] = kNameWidth + slot * (static_cast<double>(k) + 0.5);
      box[members[k]] = std::min(150.0, slot - 8);
    }
  }
  auto index_of = [&](const std::string& id) {
    for (std::size_t i = 0; i < d.nodes.size(); ++i) {
      if (d.nodes[i].id == id) return i;
    }
    assert(false && "edge names no node");
    return std::size_t{0};
  };
  std::string out = open_svg(d.frame, "diagram", height) + legend(l, d.legend);
  for (int k = 0; k < static_cast<int>(d.layer_names.size()); ++k) {
    out += fmt::format("<text class=\"ct-layer\" x=\"8\" y=\"{}\" font-weight=\"600\">{}</text>\n",
                       px(layer_y(k) + kBoxHeight / 2 + 4), attr(d.layer_names[static_cast<std::size_t>(k)]));
  }
  out += "<g class=\"ct-edges\">\n";
  for (const auto& e : d.edges) {
    const std::size_t a = index_of(e.from), b = index_of(e.to);
    const bool a_low = d.nodes[a].layer <= d.nodes[b].layer;
    const std::size_t lo = a_low ? a : b, hi = a_low ? b : a;
    const double x1 = cx[lo], y1 = layer_y(d.nodes[lo].layer), x2 = cx[hi], y2 = layer_y(d.nodes[hi].layer) + kBoxHeight;
    const double w = 1 + std::log10(static_cast<double>(std::max(e.count, 1LL)));
    // The label on an opaque box over the line's midpoint: the line stops at the box, never
    // striking through the text.
    const double label_w = text_width(e.label, 10) + 8, mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    out += fmt::format(
        "<g class=\"ct-edge\" data-from=\"{}\" data-to=\"{}\" data-count=\"{}\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" "
        "y2=\"{}\" stroke=\"#777\" stroke-width=\"{}\"/><rect class=\"ct-label-bg\" x=\"{}\" y=\"{}\" width=\"{}\" "
        "height=\"16\" rx=\"3\" fill=\"#fff\" stroke=\"#bbb\" stroke-width=\"0.5\"/><text x=\"{}\" y=\"{}\" "
        "text-anchor=\"middle\" font-size=\"10\">{}</text><title>{}</title></g>\n",
        attr(e.from), attr(e.to), e.count, px(x1), px(y1), px(x2), px(y2), px(w), px(mx - label_w / 2), px(my - 8),
        px(label_w), px(mx), px(my + 3.5), attr(e.label), attr(d.nodes[a].label + " - " + d.nodes[b].label + ": " + e.label));
  }
  out += "</g>\n<g class=\"ct-nodes\">\n";
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const DiagramNode& n = d.nodes[i];
    const double y = layer_y(n.layer);
    const char* c = colour(static_cast<std::size_t>(std::max(n.group, 0)));
    out += fmt::format(
        "<g class=\"ct-node\" data-node=\"{}\" data-count=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" "
        "fill=\"{}\" fill-opacity=\"0.18\" stroke=\"{}\" stroke-width=\"1.5\"/><text x=\"{}\" y=\"{}\" "
        "text-anchor=\"middle\" font-weight=\"600\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
        "font-size=\"10\">{}</text><title>{}</title></g>\n",
        attr(n.id), n.count, px(cx[i] - box[i] / 2), px(y), px(box[i]), px(kBoxHeight), c, c, px(cx[i]), px(y + 16),
        attr(n.label), px(cx[i]), px(y + 31), attr(n.detail), attr(n.label + ": " + n.detail));
  }
  out += "</g>\n";
  out += fmt::format("<text class=\"ct-x-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     px((kNameWidth + kRight) / 2), px(height - 30 - l.extra_bottom), attr(d.frame.x_label));
  return out + close_svg(l, height);
}

namespace {
// `text` cut to `width` code points, the last one an ellipsis when it was longer.
std::string fit(const std::string& text, std::size_t width) {
  if (display_width(text) <= width || width == 0) return text;
  std::string out;
  std::size_t points = 0;
  for (const char c : text) {
    const bool starts = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (starts && ++points == width) break;
    out += c;
  }
  return out + "\u2026";
}
}  // namespace

std::string render_step_diagram(const StepDiagram& d) {
  constexpr double kBox = 60, kLine = 14, kMargin = 8;
  const std::size_t n = std::max<std::size_t>(d.steps.size(), 1);
  const double width = std::max(kWidth, 120.0 * static_cast<double>(n) + 2 * kMargin);
  const double column = (width - 2 * kMargin) / static_cast<double>(n);
  const double box = column - 18;  // the rest is the arrow
  std::vector<std::string> names;
  std::vector<int> groups;
  for (const auto& item : d.legend) names.push_back(item.name), groups.push_back(item.group);
  const Layout l = make_layout(d.frame, names);
  const double top = l.top - 10;
  const auto label_chars = static_cast<std::size_t>(std::max(4.0, (box - 6) / 6.4));
  const auto option_chars = static_cast<std::size_t>(std::max(4.0, (box - 14) / 5.8));
  // A choice's heading wraps at spaces (never cut: "replica model-weights" on two lines).
  const auto heading = [&](const StepChoice& c) { return wrap_words(c.label, option_chars + 2); };
  // Lines under a box: per choice its heading, the options shown and "+N more".
  std::size_t lines = 0;
  for (const auto& step : d.steps) {
    std::size_t mine = 0;
    for (const auto& c : step.choices) {
      mine += heading(c).size() + std::min(c.options.size(), kStepOptionsShown) + (c.options.size() > kStepOptionsShown ? 1 : 0);
    }
    lines = std::max(lines, mine);
  }
  const double height = top + kBox + 16 + kLine * static_cast<double>(lines) + 56 + l.extra_bottom;
  std::string out = open_svg(d.frame, "steps", height, width) + legend(l, names, {}, groups);
  out += "<g class=\"ct-arrows\">\n";
  for (std::size_t i = 0; i + 1 < d.steps.size(); ++i) {
    const double x1 = kMargin + column * static_cast<double>(i) + box, x2 = kMargin + column * static_cast<double>(i + 1);
    const double y = top + kBox / 2;
    out += fmt::format(
        "<line class=\"ct-arrow\" data-from=\"{}\" data-to=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#555\" "
        "stroke-width=\"1.5\"/><path d=\"M{} {}L{} {}L{} {}Z\" fill=\"#555\"/>\n",
        attr(d.steps[i].id), attr(d.steps[i + 1].id), px(x1 + 2), px(y), px(x2 - 6), px(y), px(x2 - 1), px(y), px(x2 - 7),
        px(y - 4), px(x2 - 7), px(y + 4));
  }
  out += "</g>\n<g class=\"ct-steps\">\n";
  for (std::size_t i = 0; i < d.steps.size(); ++i) {
    const Step& s = d.steps[i];
    const double x = kMargin + column * static_cast<double>(i), cx = x + box / 2;
    const char* c = colour(static_cast<std::size_t>(std::max(s.group, 0)));
    std::size_t options = 0, taken = 0;
    for (const auto& ch : s.choices) {
      options += ch.options.size();
      for (const auto& o : ch.options) taken += o.taken ? 1 : 0;
    }
    out += fmt::format(
        "<g class=\"ct-step\" data-step=\"{}\" data-group=\"{}\" data-status=\"{}\" data-options=\"{}\" data-taken=\"{}\">"
        "<title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"{}\" fill-opacity=\"0.2\" "
        "stroke=\"{}\" stroke-width=\"2\"{}/>\n",
        attr(s.id), s.group, attr(s.status), options, taken, attr(s.label + (s.detail.empty() ? "" : ": " + s.detail)), px(x),
        px(top), px(box), px(kBox), c, c, s.dashed ? " stroke-dasharray=\"5 3\"" : "");
    std::vector<std::string> label = wrap_words(s.label, label_chars);
    if (label.size() > 2) {
      std::string rest;
      for (std::size_t k = 1; k < label.size(); ++k) rest += (k > 1 ? " " : "") + label[k];
      label = {label[0], fit(rest, label_chars)};
    }
    for (std::size_t k = 0; k < label.size(); ++k) {
      out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"600\">{}</text>\n", px(cx),
                         px(top + 16 + 13.0 * static_cast<double>(k)), attr(fit(label[k], label_chars)));
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">{}</text>\n", px(cx), px(top + kBox - 8),
                       attr(fit(s.status, label_chars)));
    double y = top + kBox + 16;
    for (const auto& ch : s.choices) {
      for (const std::string& line : heading(ch)) {
        out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" font-style=\"italic\" fill=\"#555\">{}</text>\n", px(x),
                           px(y), attr(fit(line, option_chars + 2)));
        y += kLine;
      }
      for (std::size_t k = 0; k < ch.options.size() && k < kStepOptionsShown; ++k) {
        const StepOption& o = ch.options[k];
        out += fmt::format(
            "<g class=\"ct-option\" data-step=\"{}\" data-choice=\"{}\" data-option=\"{}\" data-taken=\"{}\"><title>{}{}</title>"
            "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\" stroke=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"10\"{}>{}</text></g>\n",
            attr(s.id), attr(ch.label), attr(o.label), o.taken ? 1 : 0, attr(o.label), attr(o.detail.empty() ? "" : ": " + o.detail),
            px(x + 5), px(y - 3.5), o.taken ? c : "#fff", c, px(x + 12), px(y), o.taken ? " font-weight=\"600\"" : "",
            attr(fit(o.label, option_chars)));
        y += kLine;
      }
      if (ch.options.size() > kStepOptionsShown) {
        out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#555\">+{} more</text>\n", px(x + 12), px(y),
                           ch.options.size() - kStepOptionsShown);
        y += kLine;
      }
    }
    out += "</g>\n";
  }
  out += "</g>\n";
  out += fmt::format("<text class=\"ct-x-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px(width / 2),
                     px(height - 30 - l.extra_bottom), attr(d.frame.x_label));
  return out + close_svg(l, height);
}

}  // namespace ct
