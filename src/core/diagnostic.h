// Errors are values at the edges: parsers and validators return Diagnostics, each naming the file,
// the line and column (1-based) and the field it concerns, never throwing across the library's
// boundary. The CLI prints them as "file:line:col: error: field: message" and exits non-zero.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ct {

struct SourceLocation {
  std::string file;  // as the user named it
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based; 0 = unknown
};

enum class Severity { kError, kWarning };

struct Diagnostic {
  SourceLocation where;
  std::string field;  // dotted path of the field, e.g. "backend.planes"
  std::string message;
  Severity severity = Severity::kError;
};

using Diagnostics = std::vector<Diagnostic>;

// "file:line:col: error: field: message", printable whatever a reader put in it: control
// characters escaped (core/text.h excerpt()), each quoted text in the message cut to an excerpt,
// the file, the field and the message each at most kMaxMessageCharacters characters.
inline constexpr std::size_t kMaxMessageCharacters = 1000;
std::string format_diagnostic(const Diagnostic& d);
std::string format_diagnostics(const Diagnostics& ds);
bool has_errors(const Diagnostics& ds);

}  // namespace ct
