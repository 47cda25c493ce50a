// The report of `clustertwin trace`: one request through the eight hops, as text and JSON.
#pragma once

#include <string>

#include "frontend/request_trace.h"

namespace ct {

std::string trace_text(const RequestTrace& t);
std::string trace_json(const RequestTrace& t);

}  // namespace ct
