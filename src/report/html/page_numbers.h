// The numbers policy of every HTML page (issue 23, item 22): one place that turns a double into the
// text a page shows, in its facts tables, chart labels, axis ticks and tooltips.
//
//   * Integers as integers: a whole number below 10^15 prints whole, with thousands separators
//     ("32,768", "7"), never as "7.0" or a range.
//   * Significant figures by magnitude: anything else keeps three significant figures, but never
//     rounds away a digit left of the point (0.0694926 -> "0.0695", 12.345 -> "12.3",
//     1234.5 -> "1,235"); below 0.001 and from 10^15 on, scientific ("3.18e-4", "2.5e15").
//   * Units with SI prefixes: page_quantity(0.0412978, "s") -> "41.3 ms", (69.49e6, "b/s") ->
//     "69.5 Mb/s"; the prefix puts the mantissa in [1, 1000).
//   * No negative zero: a value that rounds to zero prints "0", whatever its sign.
// Data hooks (data-value=...) keep the exact double; only what a reader sees goes through here.
#pragma once

#include <string>
#include <string_view>

namespace ct {

// A plain number by the policy above; NaN prints "NaN", infinities "∞" and "-∞".
std::string page_number(double v);
// `v` in base units (s, b/s, B, Hz...) with the SI prefix that puts its mantissa in [1, 1000)
// (p to P), then a space and the unit: "41.3 ms", "0 s", "1.6 TB".
std::string page_quantity(double v, std::string_view unit);
// The SI prefix for a chart axis (or a column) whose largest magnitude is `largest` base units:
// values divided by `divisor` read in `unit` ("Mb/s"); the same prefix page_quantity would give
// the largest value.
struct UnitScale {
  double divisor = 1;
  std::string unit;
};
UnitScale unit_scale(double largest, std::string_view unit);
// A share (0.125) as a percentage with the policy's digits: "12.5%", "0%", "100%".
std::string page_percent(double share);

}  // namespace ct
