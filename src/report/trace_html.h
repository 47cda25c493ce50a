// `clustertwin trace --html FILE`: one request through the front door (frontend/request_trace.h)
// as one self-contained page (report/html/html_document.h). Figures, all read from the trace:
//   hops      a step diagram of the eight hops left to right, each box coloured by its verdict
//             (ok, warning, FAILED, skipped, not reached) with, under it, the alternatives the hop
//             chose among (views, next hops, Gateway pods, backends, endpoints, pods, replica
//             nodes), the taken ones marked; the hop table (verdict, the object that decided it,
//             its file:line, the summary) and every choice as a table;
//   survival  what the death of each node the request touches does to it (served or not, the
//             effect, the replicas left per claim);
// then the text report itself (trace_text), so the page holds every line the text does.
// Test hooks: plot "hops" (ct-step per hop, ct-option per alternative); tables "request", "hops",
// "choices", "survival". Pure function of the trace: same trace, same bytes.
#pragma once

#include <string>

#include "frontend/request_trace.h"

namespace ct {

std::string trace_html(const RequestTrace& trace, const std::string& command_line);

}  // namespace ct
