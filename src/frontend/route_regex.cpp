#include "frontend/route_regex.h"

#include <re2/re2.h>

namespace ct {

RouteRegex::RouteRegex(const std::string& pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  re_ = std::make_unique<re2::RE2>(pattern, options);
  if (!re_->ok()) error_ = re_->error().empty() ? "invalid regular expression" : re_->error();
}

RouteRegex::~RouteRegex() = default;

bool RouteRegex::full_match(std::string_view text) const {
  return re_->ok() && RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace ct
