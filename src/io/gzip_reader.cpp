#include "io/gzip_reader.h"

#include <zlib.h>

#include <algorithm>

#include <fmt/format.h>

namespace ct {

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

struct GzipReader::Stream {
  z_stream zs{};
  bool open = false;
};

GzipReader::GzipReader(std::string file) : stream_(std::make_unique<Stream>()), file_(std::move(file)) {
  stream_->open = inflateInit2(&stream_->zs, 16 + MAX_WBITS) == Z_OK;  // 16: the gzip wrapper
  if (!stream_->open) failed_ = Diagnostic{{file_, 0, 0}, "", "cannot start zlib"};
}

GzipReader::~GzipReader() {
  if (stream_->open) inflateEnd(&stream_->zs);
}

void GzipReader::give(std::string_view compressed) {
  // PRECONDITION: the loader gives chunks far below 4 GiB (zlib's uInt).
  stream_->zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream_->zs.avail_in = static_cast<uInt>(compressed.size());
}

bool GzipReader::needs_input() const { return stream_->zs.avail_in == 0; }

Result<Unit> GzipReader::inflate(std::string& text, std::size_t at_most) {
  if (failed_) return *failed_;
  z_stream& zs = stream_->zs;
  const std::size_t start = text.size();
  while (text.size() - start < at_most) {
    if (ended_) {
      if (zs.avail_in == 0) break;
      inflateReset(&zs);  // another member follows
      ended_ = false;
    }
    const std::size_t before = text.size();
    const std::size_t room = std::min<std::size_t>(at_most - (before - start), std::size_t{64} << 10);
    text.resize(before + room);
    zs.next_out = reinterpret_cast<Bytef*>(text.data() + before);
    zs.avail_out = static_cast<uInt>(room);
    const int rc = ::inflate(&zs, Z_NO_FLUSH);
    text.resize(before + room - zs.avail_out);
    inflated_ += room - zs.avail_out;
    if (rc == Z_STREAM_END) {
      ended_ = true;
      continue;
    }
    if (rc == Z_BUF_ERROR) break;  // every byte given is used: the next chunk goes on
    if (rc != Z_OK) {
      failed_ = Diagnostic{{file_, 0, 0}, "",
                           fmt::format("not valid gzip data ({}after {} bytes of text)",
                                       zs.msg != nullptr ? std::string(zs.msg) + ", " : "", inflated_)};
      return *failed_;
    }
    if (zs.avail_in == 0 && zs.avail_out != 0) break;
  }
  return Unit{};
}

Result<Unit> GzipReader::finish() const {
  if (failed_) return *failed_;
  if (!ended_) {
    return Diagnostic{{file_, 0, 0}, "",
                      fmt::format("not valid gzip data (it ends inside a member, after {} bytes of text)", inflated_)};
  }
  return Unit{};
}

}  // namespace ct
