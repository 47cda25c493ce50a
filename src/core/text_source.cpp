#include "core/text_source.h"

namespace ct {

Result<std::string> drain(TextSource& source) {
  std::string text;
  std::string_view piece;
  while (source.next(piece)) text.append(piece);
  if (source.failed()) return *source.failed();
  return text;
}

}  // namespace ct
