#include "core/diagnostic.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "core/text.h"

namespace ct {
namespace {

bool opens_quote(std::string_view s, std::size_t i) {
  return i == 0 || std::string_view(" ([{=:,").find(s[i - 1]) != std::string_view::npos;
}
bool closes_quote(std::string_view s, std::size_t j) {
  return j + 1 == s.size() || std::string_view(" ,.;:)]}!?").find(s[j + 1]) != std::string_view::npos;
}

// The message with every quoted text ('...', "..." or `...`) longer than an excerpt cut to one,
// and the whole as one excerpt of at most kMaxMessageCharacters: a reader that quoted a 10 MB
// line whole still prints a short one.
std::string shortened(std::string_view message) {
  std::string out;
  std::size_t i = 0;
  while (i < message.size()) {
    const char q = message[i];
    if ((q == '\'' || q == '"' || q == '`') && opens_quote(message, i)) {
      std::size_t j = message.find(q, i + 1);
      while (j != std::string_view::npos && !closes_quote(message, j)) j = message.find(q, j + 1);
      if (j != std::string_view::npos && j - i - 1 > kExcerptLength + 3) {
        out += q;
        out += excerpt(message.substr(i + 1, j - i - 1));
        out += q;
        i = j + 1;
        continue;
      }
    }
    out += message[i++];
  }
  return excerpt(out, kMaxMessageCharacters);
}

}  // namespace

std::string format_diagnostic(const Diagnostic& d) {
  std::string out = d.where.file.empty() ? std::string("<input>") : excerpt(d.where.file, kMaxMessageCharacters);
  if (d.where.line > 0) out += fmt::format(":{}", d.where.line);
  if (d.where.column > 0) out += fmt::format(":{}", d.where.column);
  out += d.severity == Severity::kError ? ": error: " : ": warning: ";
  if (!d.field.empty()) out += excerpt(d.field, kMaxMessageCharacters) + ": ";
  out += shortened(d.message);
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
