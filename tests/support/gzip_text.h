// gzip data (RFC 1952, by zlib at `level`, 1 fastest to 9 smallest) of a text, for the tests of
// the readers that inflate it.
#pragma once

#include <zlib.h>

#include <string>

namespace ct::test {

inline std::string gzip_text(const std::string& text, int level = 9) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string gz(deflateBound(&zs, static_cast<uLong>(text.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(gz.data());
  zs.avail_out = static_cast<uInt>(gz.size());
  const int done = deflate(&zs, Z_FINISH);
  gz.resize(zs.total_out);
  deflateEnd(&zs);
  return done == Z_STREAM_END ? gz : std::string();
}

}  // namespace ct::test
