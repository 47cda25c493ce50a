// `clustertwin spof`: the ranking of single points of failure (survival/spof.h) as text, JSON and
// one self-contained HTML page, and `--compare`: two designs side by side (what a change buys).
//   text  the ranked elements that down an app (cost, apps, why), the SPOFs named per layer (or
//         "none", or why the layer is not modelled), the pairs, the totals
//   html  a bar chart of the ranked elements' app-seconds (apps down for ever drawn apart), the
//         tables of the text, and the text itself. Numbers by page_numbers.h.
// Test hooks: plot "ranking"; tables "summary", "ranking", "layers", "pairs", "compare".
#pragma once

#include <string>

#include "survival/spof.h"

namespace ct {

std::string spof_text(const SpofReport& r, const SpofReport* compare = nullptr);
std::string spof_json(const SpofReport& r, const SpofReport* compare = nullptr);
std::string spof_html(const SpofReport& r, const SpofReport* compare, const std::string& command_line);

}  // namespace ct
