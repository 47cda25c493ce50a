#include "io/gzip_reader.h"

#include <zlib.h>

#include <array>

#include <fmt/format.h>

namespace ct {

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

struct GzipReader::Stream {
  z_stream zs{};
  bool open = false;
  std::array<unsigned char, 64 * 1024> out{};
};

GzipReader::GzipReader(std::string file, std::uint64_t limit, std::string over_limit)
    : stream_(std::make_unique<Stream>()), file_(std::move(file)), limit_(limit), over_limit_(std::move(over_limit)) {
  stream_->open = inflateInit2(&stream_->zs, 16 + MAX_WBITS) == Z_OK;  // 16: the gzip wrapper
  if (!stream_->open) failed_ = Diagnostic{{file_, 0, 0}, "", "cannot start zlib"};
}

GzipReader::~GzipReader() {
  if (stream_->open) inflateEnd(&stream_->zs);
}

Result<Unit> GzipReader::feed(std::string_view compressed, std::string& text) {
  if (failed_) return *failed_;
  z_stream& zs = stream_->zs;
  // PRECONDITION: the loader feeds chunks far below 4 GiB (zlib's uInt).
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  zs.avail_in = static_cast<uInt>(compressed.size());
  while (true) {
    if (ended_) {
      if (zs.avail_in == 0) break;
      inflateReset(&zs);  // another member follows
      ended_ = false;
    }
    zs.next_out = stream_->out.data();
    zs.avail_out = static_cast<uInt>(stream_->out.size());
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t got = stream_->out.size() - zs.avail_out;
    if (text.size() + got > limit_) {
      failed_ = Diagnostic{{file_, 0, 0}, "", over_limit_};
      return *failed_;
    }
    text.append(reinterpret_cast<const char*>(stream_->out.data()), got);
    if (rc == Z_STREAM_END) {
      ended_ = true;
      continue;
    }
    if (rc == Z_BUF_ERROR) break;  // every byte given is used: the next chunk goes on
    if (rc != Z_OK) {
      failed_ = Diagnostic{{file_, 0, 0}, "",
                           fmt::format("not valid gzip data ({}after {} bytes of text)",
                                       zs.msg != nullptr ? std::string(zs.msg) + ", " : "", text.size())};
      return *failed_;
    }
    if (zs.avail_in == 0 && zs.avail_out != 0) break;
  }
  return Unit{};
}

Result<Unit> GzipReader::finish(const std::string& text) const {
  if (failed_) return *failed_;
  if (!ended_) {
    return Diagnostic{{file_, 0, 0}, "",
                      fmt::format("not valid gzip data (it ends inside a member, after {} bytes of text)", text.size())};
  }
  return Unit{};
}

}  // namespace ct
