#include "core/diagnostic.h"

#include <algorithm>

#include <fmt/format.h>

namespace ct {

std::string format_diagnostic(const Diagnostic& d) {
  std::string out = d.where.file.empty() ? std::string("<input>") : d.where.file;
  if (d.where.line > 0) out += fmt::format(":{}", d.where.line);
  if (d.where.column > 0) out += fmt::format(":{}", d.where.column);
  out += d.severity == Severity::kError ? ": error: " : ": warning: ";
  if (!d.field.empty()) out += d.field + ": ";
  out += d.message;
  return out;
}

std::string format_diagnostics(const Diagnostics& ds) {
  std::string out;
  for (const auto& d : ds) out += format_diagnostic(d) + "\n";
  return out;
}

bool has_errors(const Diagnostics& ds) {
  return std::any_of(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

}  // namespace ct
