// The dialect of HTTPRoute RegularExpression matches (path, header and query param values). The
// Gateway API leaves it to the implementation ("Since RegularExpression HTTPPathMatch has
// implementation-specific conformance, implementations can support POSIX, PCRE or any other
// dialects of regular expressions. Please read the implementation's documentation to determine the
// supported dialect." -- apis/v1/httproute_types.go). clustertwin uses RE2 (Debian libre2-dev),
// the dialect of Envoy's safe_regex, on which most Gateway API implementations run: linear time in
// the input, no backreferences or lookaround. A value matches when the WHOLE of it matches (RE2
// FullMatch, Envoy's semantics): the path without its query string, a header's or a query
// parameter's value.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace ct {

class RouteRegex {
 public:
  explicit RouteRegex(const std::string& pattern);
  ~RouteRegex();
  RouteRegex(const RouteRegex&) = delete;
  RouteRegex& operator=(const RouteRegex&) = delete;

  [[nodiscard]] bool ok() const { return error_.empty(); }
  // RE2's message when the pattern does not compile.
  [[nodiscard]] const std::string& error() const { return error_; }
  // PRECONDITION: ok(). True when the whole of `text` matches.
  [[nodiscard]] bool full_match(std::string_view text) const;

 private:
  std::unique_ptr<re2::RE2> re_;
  std::string error_;
};

}  // namespace ct
