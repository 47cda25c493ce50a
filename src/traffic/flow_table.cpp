#include "traffic/flow_table.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "core/csv_cursor.h"
#include "core/suggest.h"
#include "core/text.h"
#include "fabric/route_pins.h"

namespace ct {
namespace {

constexpr std::size_t kMaxErrors = 100;
constexpr std::uint32_t kMaxId = 0xFFFF'FFFEU;
constexpr double kMaxWeight = 1e6;

enum class Column : std::uint8_t {
  kFlow, kSrc, kDst, kBytes, kStart, kOperation, kAfter, kDelay, kWeight, kUdpPort, kPath,
  kInstance, kIteration, kStep, kChannel, kQp, kEnd, kRate, kReroutes, kStatus, kBytesLeft,
  kEcnMarks, kCnps, kOutOfOrder, kCount
};

constexpr std::array<std::string_view, static_cast<std::size_t>(Column::kCount)> kColumnNames = {
    "flow", "src", "dst", "bytes", "start_s", "operation", "after", "delay_s", "weight", "udp_src_port", "path",
    "instance", "iteration", "step", "channel", "qp", "end_s", "rate_gbps", "reroutes", "status", "bytes_left",
    "ecn_marks", "cnps", "out_of_order"};

// A cell drops spaces and tabs in front, and a CRLF file's '\r' too at its end.
[[gnu::always_inline]] inline std::string_view trim_cell(std::string_view s) { return trim(s, kSpaceTab, kSpaceTabCr); }

// Eight ASCII digits at `p` as their value, or -1 when a byte is not a digit: all eight at once in
// one 64-bit word (little-endian, the first digit in the low byte). A byte is a digit when
// subtracting '0' leaves no borrow and adding 0x46 (0x80 - ':') no carry into its top bit; the
// digits then pair up into 2-, 4- and 8-digit values by three multiply-adds (the technique of
// D. Lemire, "Fast float parsing in practice", 2020, and simdjson's number parser).
[[gnu::always_inline]] inline std::int64_t eight_digits(const char* p) {
  std::uint64_t x = 0;
  std::memcpy(&x, p, 8);
  constexpr std::uint64_t kTops = 0x8080'8080'8080'8080ULL;
  if ((((x + 0x4646'4646'4646'4646ULL) | (x - 0x3030'3030'3030'3030ULL)) & kTops) != 0) return -1;
  x -= 0x3030'3030'3030'3030ULL;
  x = x * 10 + (x >> 8);  // each even byte: two digits, 0..99
  constexpr std::uint64_t kPairs = 0x0000'00FF'0000'00FFULL;
  x = ((x & kPairs) * (100 + (std::uint64_t{1000000} << 32)) + ((x >> 16) & kPairs) * (1 + (std::uint64_t{10000} << 32))) >> 32;
  return static_cast<std::int64_t>(x & 0xFFFF'FFFFU);
}

// Seconds as written ("0.000123456789", "12", "1e-3") to picoseconds: a plain decimal is read
// exactly (digits past the 12th decimal round half up); an exponent form goes through a double.
// nullopt: not a number, negative, or above 10^6 s.
std::optional<std::int64_t> seconds_to_ps(std::string_view s) {
  constexpr std::int64_t kMax = 1'000'000'000'000'000'000;  // 10^6 s
  if constexpr (std::endian::native == std::endian::little) {
    // The form --csv-flows writes, whole seconds and exactly twelve decimals ("0.000012345678"):
    // the decimals in two eight-digit words (digits 0-7, then 4-11 for the last four).
    if (s.size() >= 14 && s.size() <= 20 && s[s.size() - 13] == '.') {
      const char* frac = s.data() + s.size() - 12;
      const std::int64_t high = eight_digits(frac);
      const std::int64_t low = eight_digits(frac + 4);
      std::int64_t whole = 0;
      bool digits = high >= 0 && low >= 0;
      for (const char* p = s.data(); digits && p + 1 < frac; ++p) {
        digits = *p >= '0' && *p <= '9';
        whole = whole * 10 + (*p - '0');
      }
      if (digits) {
        const std::int64_t ps = whole * 1'000'000'000'000 + high * 10'000 + low % 10'000;
        if (whole > 1'000'000 || ps > kMax) return std::nullopt;
        return ps;
      }
    }
  }
  // One pass over a plain decimal: up to 7 whole digits, a '.', any fraction digits.
  std::int64_t whole = 0;
  std::size_t whole_digits = 0;
  std::size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++whole_digits) {
    if (whole_digits < 7) whole = whole * 10 + (s[i] - '0');
  }
  std::int64_t frac = 0;
  std::size_t frac_digits = 0;
  bool round_up = false;
  const bool dot = i < s.size() && s[i] == '.';
  if (dot) {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++frac_digits) {
      if (frac_digits < 12) {
        frac = frac * 10 + (s[i] - '0');
      } else if (frac_digits == 12) {
        round_up = s[i] >= '5';  // digits past the 12th round half up
      }
    }
  }
  if (i != s.size()) {
    // Not a plain decimal: an exponent form goes through a double; anything else is refused.
    if (s.find_first_of("eE") == std::string_view::npos) return std::nullopt;
    double x = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(x) || x < 0 || x > 1e6) return std::nullopt;
    return std::llround(x * 1e12);
  }
  if ((whole_digits == 0 && frac_digits == 0) || whole_digits > 7 || whole > 1'000'000) return std::nullopt;
  for (std::size_t k = std::min<std::size_t>(frac_digits, 12); k < 12; ++k) frac *= 10;
  const std::int64_t ps = whole * 1'000'000'000'000 + frac + (round_up ? 1 : 0);
  if (ps > kMax) return std::nullopt;
  return ps;
}

// A cell of decimal digits only, up to 19 of them (below 2^64), as its value; nullopt for anything
// else, where the caller's std::from_chars gives the verdict.
[[gnu::always_inline]] inline std::optional<std::uint64_t> short_digits(std::string_view s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  std::uint64_t v = 0;
  for (const char ch : s) {
    const auto d = static_cast<unsigned>(static_cast<unsigned char>(ch) - '0');
    if (d > 9) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

struct ResolvedEndpoint {
  bool ok = false;
  std::uint32_t gpu = kNoTableGpu;
  VertexId port;
};

class FlowTableParser {
 public:
  // The text whole, or (`source` given) a piece at a time.
  FlowTableParser(const std::string& file, std::string_view text, TextSource* source, const NameDirectory& names)
      : file_(file), size_(source != nullptr ? source->size_hint() : text.size()), source_(source), names_(names),
        t_(names.topology()), pinner_(names, file, "path"),
        csv_(source != nullptr ? CsvCursor(file, *source) : CsvCursor(file, text)) {
    table_.file = file;
  }

  Result<FlowTable> parse() {
    // Room for the rows of a text of this size (rows are 40 bytes or more, but for tiny fabrics),
    // up to a million, so the array rarely moves; pages never written are never touched.
    table_.flows.reserve(std::min<std::size_t>(size_ / 40 + 16, std::size_t{1} << 20));
    // Likewise the pinned hops: each takes 24 bytes of text or more ("A -- B up | ", the shortest
    // names), so this is room for all of them but in tables of short names.
    table_.hops.reserve(std::min<std::size_t>(size_ / 24 + 16, std::size_t{1} << 23));
    bool header = false;
    std::string_view line;
    while (errors_.size() < kMaxErrors) {
      if (!csv_.next_line(line)) {
        // The end of a piece: a table wrong already is not read on (its size may be anything).
        if (!errors_.empty() || !csv_.next_piece()) break;
        continue;
      }
      line_no_ = csv_.line_number();
      if (trim_cell(line).empty() || trim_cell(line).front() == '#') continue;
      if (!csv_.split(line)) {
        error(csv_.error().where.line, csv_.error().where.column, "", csv_.error().message);
        continue;
      }
      if (!header) {
        header = true;
        read_header();
        if (!errors_.empty()) break;
        continue;
      }
      read_row();
    }
    if (source_ != nullptr && source_->failed()) take({*source_->failed()});
    if (!header && errors_.empty()) error(1, 1, "", "no header line: expected a line such as 'flow,src,dst,bytes,start_s'");
    if (header && table_.flows.empty() && errors_.empty()) {
      error(line_no_, 1, "", "no flows: the table has a header but no rows");
    }
    if (!errors_.empty()) return errors_;
    return std::move(table_);
  }

 private:
  using Cell = CsvCell;

  void error(int line, int column, std::string_view field, std::string message) {
    if (errors_.size() < kMaxErrors) errors_.push_back(Diagnostic{{file_, line, column}, std::string(field), std::move(message)});
  }
  void error(const Cell& c, Column col, std::string message) {
    error(line_no_, c.column, kColumnNames[static_cast<std::size_t>(col)], std::move(message));
  }

  void read_header() {
    column_of_cell_.assign(csv_.cells().size(), Column::kCount);
    std::array<bool, static_cast<std::size_t>(Column::kCount)> seen{};
    for (std::size_t i = 0; i < csv_.cells().size(); ++i) {
      const std::string_view name = csv_.cells()[i].text;
      const auto it = std::find(kColumnNames.begin(), kColumnNames.end(), name);
      if (it == kColumnNames.end()) {
        const std::vector<std::string> all(kColumnNames.begin(), kColumnNames.end());
        error(line_no_, csv_.cells()[i].column, "header",
              fmt::format("unknown column '{}'{}", name, did_you_mean(std::string(name), all)));
        continue;
      }
      const auto k = static_cast<std::size_t>(it - kColumnNames.begin());
      if (seen[k]) error(line_no_, csv_.cells()[i].column, "header", fmt::format("column '{}' appears twice", name));
      seen[k] = true;
      column_of_cell_[i] = static_cast<Column>(k);
    }
    for (const Column c : {Column::kFlow, Column::kSrc, Column::kDst, Column::kBytes}) {
      if (!seen[static_cast<std::size_t>(c)]) {
        error(line_no_, 1, "header", fmt::format("missing column '{}' (required: flow, src, dst, bytes)",
                                                 kColumnNames[static_cast<std::size_t>(c)]));
      }
    }
  }

  // ---- cells ----
  [[gnu::always_inline]] std::optional<std::uint64_t> unsigned_cell(const Cell& c, Column col, std::uint64_t max) {
    if (const auto d = short_digits(c.text); d && *d <= max) return d;
    return unsigned_cell_slow(c, col, max);
  }
  // unsigned_cell() past its common case: std::from_chars's verdict, and the diagnostic.
  [[gnu::noinline]] std::optional<std::uint64_t> unsigned_cell_slow(const Cell& c, Column col, std::uint64_t max) {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(c.text.data(), c.text.data() + c.text.size(), v);
    if (c.text.empty() || ec != std::errc() || p != c.text.data() + c.text.size() || v > max) {
      error(c, col, fmt::format("'{}': expected an integer in 0..{}", excerpt(c.text), max));
      return std::nullopt;
    }
    return v;
  }

  std::optional<std::int64_t> seconds_cell(const Cell& c, Column col) {
    if (auto ps = seconds_to_ps(c.text)) return ps;
    error(c, col, fmt::format("'{}': expected seconds in [0, 1e6] (e.g. 0.000125)", excerpt(c.text)));
    return std::nullopt;
  }

  ResolvedEndpoint endpoint(const Cell& c, Column col) {
    // A port by its printed name: parsed and indexed, no cache (most rows' src and dst).
    if (const VertexId port = names_.printed_vertex(c.text); port.valid() && t_.kind[port.value()] == VertexKind::kPort) {
      return {true, kNoTableGpu, port};
    }
    if (auto it = endpoints_.find(c.text); it != endpoints_.end()) {
      if (!it->second.ok) error(c, col, fmt::format("'{}': see the first use of this name", excerpt(c.text)));
      return it->second;
    }
    ResolvedEndpoint r;
    const std::string_view field = kColumnNames[static_cast<std::size_t>(col)];
    if (c.text.find("gpu") != std::string_view::npos || all_digits(c.text)) {
      auto g = names_.gpu(c.text, SourceLocation{file_, line_no_, c.column}, field);
      if (g) {
        r.gpu = g.value();
        r.ok = true;
      } else {
        take(g.errors());
      }
    } else if (const auto port = names_.nic_port_spelled(c.text)) {
      r.port = *port;
      r.ok = true;
    } else {
      auto p = names_.backend_port(c.text, SourceLocation{file_, line_no_, c.column}, field);
      if (p) {
        r.port = p.value();
        r.ok = true;
      } else {
        take(p.errors());
      }
    }
    endpoints_.emplace(kept_.keep(c.text), r);
    return r;
  }

  void take(const Diagnostics& ds) {
    for (const Diagnostic& d : ds) {
      if (errors_.size() < kMaxErrors) errors_.push_back(d);
    }
  }

  void read_row() {
    TableFlow f;
    f.line = line_no_;
    const std::size_t errors_before = errors_.size();
    if (csv_.cells().size() != column_of_cell_.size()) {
      error(line_no_, 1, "", fmt::format("{} cells, but the header names {} columns", csv_.cells().size(), column_of_cell_.size()));
      return;
    }
    const auto row = static_cast<std::uint32_t>(table_.flows.size());
    const Cell* path = nullptr;
    const Cell* after = nullptr;
    const Cell* src = nullptr;
    const Cell* dst = nullptr;
    std::string_view operation = "flows";
    const Cell* operation_cell = nullptr;
    for (std::size_t i = 0; i < csv_.cells().size(); ++i) {
      const Cell& c = csv_.cells()[i];
      const Column col = column_of_cell_[i];
      switch (col) {
        case Column::kFlow:
          if (auto v = unsigned_cell(c, col, kMaxId)) {
            f.id = static_cast<std::uint32_t>(*v);
            if (!record_id(f.id, row)) error(c, col, fmt::format("flow id {} appears twice", f.id));
          } else {
            leave_dense_ids(row);
          }
          break;
        case Column::kSrc: src = &c; break;
        case Column::kDst: dst = &c; break;
        case Column::kBytes:
          if (all_digits(c.text)) {
            if (auto v = unsigned_cell(c, col, static_cast<std::uint64_t>(kMaxBytes.value()))) {
              f.bytes = Bytes(static_cast<std::int64_t>(*v));
            }
          } else if (auto b = parse_size(c.text)) {
            f.bytes = b.value();
          } else {
            error(c, col, b.errors().front().message);
          }
          break;
        case Column::kStart:
          if (!c.text.empty()) {
            if (auto ps = seconds_cell(c, col)) f.start = TimePs(*ps);
          }
          break;
        case Column::kDelay:
          if (!c.text.empty()) {
            if (auto ps = seconds_cell(c, col)) f.delay = TimePs(*ps);
          }
          break;
        case Column::kOperation:
          if (!c.text.empty()) operation = c.text;
          operation_cell = &c;
          break;
        case Column::kAfter: after = &c; break;
        case Column::kWeight:
          if (const auto d = c.text.size() <= 6 ? short_digits(c.text) : std::nullopt; d && *d > 0) {
            f.weight = static_cast<double>(*d);  // 1..999999, exact
          } else if (!c.text.empty()) {
            double w = 0;
            const auto [p, ec] = std::from_chars(c.text.data(), c.text.data() + c.text.size(), w);
            if (ec != std::errc() || p != c.text.data() + c.text.size() || !std::isfinite(w) || w <= 0 || w > kMaxWeight) {
              error(c, col, fmt::format("'{}': expected a number in (0, 1e6]", excerpt(c.text)));
            } else {
              f.weight = w;
            }
          }
          break;
        case Column::kUdpPort:
          if (!c.text.empty()) {
            if (auto v = unsigned_cell(c, col, 65535)) {
              f.has_udp_port = true;
              f.udp_src_port = static_cast<std::uint16_t>(*v);
            }
          }
          break;
        case Column::kPath: path = &c; break;
        case Column::kInstance:
        case Column::kIteration:
        case Column::kStep:
        case Column::kChannel:
        case Column::kQp:
          if (!c.text.empty()) {
            if (auto v = unsigned_cell(c, col, kMaxId)) {
              const auto x = static_cast<std::uint32_t>(*v);
              (col == Column::kInstance ? f.instance
               : col == Column::kIteration ? f.iteration
               : col == Column::kStep ? f.step
               : col == Column::kChannel ? f.channel
                                         : f.qp) = x;
            }
          }
          break;
        case Column::kEnd:
        case Column::kRate:
        case Column::kReroutes:
        case Column::kStatus:
        case Column::kBytesLeft:
        case Column::kEcnMarks:
        case Column::kCnps:
        case Column::kOutOfOrder:
        case Column::kCount: break;
      }
    }
    f.operation = operation_index(operation, operation_cell);
    finish_row(f, {src, dst, path, after}, row, errors_before);
  }

  // The cells a row's endpoints and route are read from, once the other cells are read.
  struct RowEnds {
    const Cell* src = nullptr;
    const Cell* dst = nullptr;
    const Cell* path = nullptr;
    const Cell* after = nullptr;
  };

  // The row's endpoints, its `after` list and its route (pinned, or checked routable), then the row
  // itself, appended with errors too (later rows' `after` count rows). Inlined into read_row: one
  // step of it, kept apart to be read apart.
  [[gnu::always_inline]] void finish_row(TableFlow& f, const RowEnds& cells, std::uint32_t row, std::size_t errors_before) {
    const auto [src, dst, path, after] = cells;
    const bool pinned = path != nullptr && !path->text.empty();
    for (const auto& [cell, col, gpu, port] :
         {std::tuple{src, Column::kSrc, &f.src_gpu, &f.src_port}, std::tuple{dst, Column::kDst, &f.dst_gpu, &f.dst_port}}) {
      if (cell->text.empty()) {
        if (!pinned) error(*cell, col, "missing: a port or GPU (it may be empty only when the path is given)");
        continue;
      }
      const ResolvedEndpoint e = endpoint(*cell, col);
      *gpu = e.gpu;
      *port = e.port;
    }
    if (after != nullptr && !after->text.empty()) read_after(*after, f, row);
    if (errors_.size() == errors_before) {
      if (pinned) {
        f.route_begin = static_cast<std::uint32_t>(table_.hops.size());
        pinner_.pin(path->text, {f.src_port, f.dst_port, src->text}, line_no_, path->column, table_.hops, errors_, kMaxErrors);
        f.route_size = static_cast<std::uint32_t>(table_.hops.size() - f.route_begin);
      } else {
        check_routable(f, *src);
      }
    }
    table_.flows.push_back(f);  // with errors too: later rows' `after` count rows
  }

  // Flow ids. While every row's id is its row number (as --csv-flows writes them) the map is the
  // identity and stays empty; the first other id fills it with the rows before.
  bool record_id(std::uint32_t id, std::uint32_t row) {
    if (ids_dense_ && id == row) return true;
    leave_dense_ids(row);
    return row_of_id_.emplace(id, row).second;
  }
  void leave_dense_ids(std::uint32_t row) {
    if (!ids_dense_) return;
    ids_dense_ = false;
    for (std::uint32_t r = 0; r < row; ++r) row_of_id_.emplace(r, r);
  }
  // The row of flow `id`, or kNoRow.
  [[nodiscard]] std::uint32_t row_of(std::uint32_t id) const {
    if (ids_dense_) return id < table_.flows.size() ? id : kNoRow;
    const auto it = row_of_id_.find(id);
    return it == row_of_id_.end() ? kNoRow : it->second;
  }

  std::uint32_t operation_index(std::string_view name, const Cell* cell) {
    if (!table_.operations.empty() && table_.operations.back() == name) {
      return static_cast<std::uint32_t>(table_.operations.size() - 1);
    }
    if (std::find(table_.operations.begin(), table_.operations.end(), name) != table_.operations.end()) {
      error(line_no_, cell == nullptr ? 1 : cell->column, "operation",
            fmt::format("operation '{}' appeared before, then others: the rows of one operation must be contiguous",
                        excerpt(name)));
    }
    table_.operations.emplace_back(name);
    return static_cast<std::uint32_t>(table_.operations.size() - 1);
  }

  void read_after(const Cell& c, TableFlow& f, std::uint32_t row) {
    f.after_begin = static_cast<std::uint32_t>(table_.after.size());
    std::string_view rest = c.text;
    while (!rest.empty()) {
      const std::size_t space = rest.find(' ');
      const std::string_view id = rest.substr(0, space);
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
      if (id.empty()) continue;
      std::uint64_t v = 0;
      const auto [p, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
      if (ec != std::errc() || p != id.data() + id.size() || v > kMaxId) {
        error(c, Column::kAfter, fmt::format("'{}': expected flow ids separated by spaces", excerpt(id)));
        return;
      }
      const std::uint32_t earlier = row_of(static_cast<std::uint32_t>(v));
      if (earlier >= row) {
        error(c, Column::kAfter, fmt::format("flow {} is not an earlier row (a flow waits only for flows above it)", v));
        return;
      }
      table_.after.push_back(earlier);
    }
    f.after_size = static_cast<std::uint32_t>(table_.after.size() - f.after_begin);
  }

  // Without a pinned path: two ports of one plane (routed), or two GPUs of one host (NVLink).
  void check_routable(const TableFlow& f, const Cell& src) {
    if (f.src_port.valid() && f.dst_port.valid()) {
      if (f.src_port == f.dst_port) {
        error(src, Column::kSrc, "src and dst are the same port");
      } else if (t_.plane[f.src_port.value()] != t_.plane[f.dst_port.value()]) {
        error(src, Column::kSrc,
              fmt::format("{} and {} are on different planes: no path joins them", t_.vertex_name(f.src_port),
                          t_.vertex_name(f.dst_port)));
      }
      return;
    }
    if (f.src_gpu != kNoTableGpu && f.dst_gpu != kNoTableGpu) {
      const auto g = static_cast<std::uint32_t>(std::max(t_.gpus_per_host, 1));
      if (f.src_gpu == f.dst_gpu) {
        error(src, Column::kSrc, "src and dst are the same GPU");
      } else if (f.src_gpu / g != f.dst_gpu / g) {
        error(src, Column::kSrc, "GPUs on different hosts: give their ports (hostH/nicN/pP) or a path");
      }
      return;
    }
    error(src, Column::kSrc, "src and dst must both be ports or both GPUs of one host (or give a path)");
  }

  const std::string& file_;
  std::size_t size_;     // the text's size, where known (0: a gzip or a pipe's)
  TextSource* source_;  // or none: the text was given whole
  const NameDirectory& names_;
  const Topology& t_;
  FlowTable table_;
  Diagnostics errors_;
  int line_no_ = 0;
  std::vector<Column> column_of_cell_;
  std::unordered_map<std::string_view, ResolvedEndpoint> endpoints_;  // keys in kept_
  KeptTexts kept_;
  static constexpr std::uint32_t kNoRow = 0xFFFF'FFFFU;
  bool ids_dense_ = true;  // every id so far is its row: row_of_id_ is empty
  std::unordered_map<std::uint32_t, std::uint32_t> row_of_id_;
  RoutePinner pinner_;
  CsvCursor csv_;
};

}  // namespace

Result<FlowTable> parse_flow_table(const std::string& file, std::string_view text, const NameDirectory& names) {
  return FlowTableParser(file, text, nullptr, names).parse();
}

Result<FlowTable> parse_flow_table(const std::string& file, TextSource& source, const NameDirectory& names) {
  return FlowTableParser(file, {}, &source, names).parse();
}

}  // namespace ct
