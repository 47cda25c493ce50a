#include "diagnose/counter_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/text.h"
#include "core/text_lines.h"

namespace ct {
namespace {

// 9999-12-31T23:59:59.999Z: keeps every difference of two timestamps far from overflow.
constexpr std::int64_t kMaxTimestampMs = 253402300799999;

struct MetricInfo {
  bool known = false;
  bool transmit = true;
  CounterKind kind = CounterKind::kNetdev;
  CounterWidth width = CounterWidth::k64;
  std::uint64_t unit = 1;  // octets per count
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

MetricInfo classify(std::string_view name) {
  if (name == "node_network_transmit_bytes_total") return {true, true, CounterKind::kNetdev, CounterWidth::k64, 1};
  if (name == "node_network_receive_bytes_total") return {true, false, CounterKind::kNetdev, CounterWidth::k64, 1};
  if (name == "node_infiniband_port_data_transmitted_bytes_total") return {true, true, CounterKind::kRdma, CounterWidth::k64, 1};
  if (name == "node_infiniband_port_data_received_bytes_total") return {true, false, CounterKind::kRdma, CounterWidth::k64, 1};
  if (ends_with(name, "port_xmit_data")) return {true, true, CounterKind::kRdma, CounterWidth::k64, 4};
  if (ends_with(name, "port_rcv_data")) return {true, false, CounterKind::kRdma, CounterWidth::k64, 4};
  if (name == "ifHCOutOctets") return {true, true, CounterKind::kSwitch, CounterWidth::k64, 1};
  if (name == "ifHCInOctets") return {true, false, CounterKind::kSwitch, CounterWidth::k64, 1};
  if (name == "ifOutOctets") return {true, true, CounterKind::kSwitch, CounterWidth::k32, 1};
  if (name == "ifInOctets") return {true, false, CounterKind::kSwitch, CounterWidth::k32, 1};
  return {};
}

// Metric, instance and device, each hashed whole (std::hash: eight bytes a step) and combined in
// order, so that ("ab", "c") and ("a", "bc") differ.
std::uint64_t series_hash(std::string_view metric, std::string_view instance, std::string_view device) {
  const std::hash<std::string_view> hash;
  std::uint64_t h = hash(metric);
  h = (h ^ hash(instance)) * 0x100000001B3ull + 0x1F;
  h = (h ^ hash(device)) * 0x100000001B3ull + 0x1F;
  return h;
}

// The format's metric and label names: [a-zA-Z_:][a-zA-Z0-9_:]*.
constexpr CharSet kNameFirst{"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_:"};
constexpr CharSet kNameRest{"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_:0123456789"};

class LineParser {
 public:
  LineParser(std::string_view line, const std::string& file, int line_no) : s_(line), file_(file), line_(line_no) {}

  Diagnostic error(std::string field, std::string message) const {
    return Diagnostic{SourceLocation{file_, line_, static_cast<int>(pos_) + 1}, std::move(field), std::move(message)};
  }
  void skip_blanks() {
    while (pos_ < s_.size() && kSpaceTab.contains(s_[pos_])) ++pos_;
  }
  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return s_[pos_]; }
  void advance() { ++pos_; }
  std::size_t pos() const { return pos_; }
  std::string_view slice(std::size_t from, std::size_t to) const { return s_.substr(from, to - from); }

  std::string_view name() {
    const std::size_t start = pos_;
    if (pos_ >= s_.size() || !kNameFirst.contains(s_[pos_])) return {};
    ++pos_;
    while (pos_ < s_.size() && kNameRest.contains(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }
  // A quoted label value with the format's escapes; false on a missing closing quote.
  bool quoted(std::string& out) {
    if (at_end() || s_[pos_] != '"') return false;
    ++pos_;
    out.clear();
    // The common value has no escape: taken in one piece up to its closing quote.
    const std::size_t stop = s_.find('"', pos_);
    if (stop != std::string_view::npos && s_.substr(pos_, stop - pos_).find('\\') == std::string_view::npos) {
      out.assign(s_.substr(pos_, stop - pos_));
      pos_ = stop + 1;
      return true;
    }
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') return true;
      if (c == '\\' && pos_ < s_.size()) {
        const char e = s_[pos_++];
        out.push_back(e == 'n' ? '\n' : e);
      } else {
        out.push_back(c);
      }
    }
    return false;
  }
  std::string_view token() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && !kSpaceTab.contains(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

 private:
  std::string_view s_;
  const std::string& file_;
  int line_;
  std::size_t pos_ = 0;
};

// The label block `{name="value",...}` after the metric name: keeps `instance` and the interface
// (`device` or `ifName`; `ifDescr` only when neither came before it). False, with an error, when a
// label is malformed.
// `job`: the job label's value as written (escapes kept), a view into the line.
bool read_labels(LineParser& p, std::string_view metric, std::string& label, CounterSample& sample, std::string_view& job,
                 Diagnostics& errors) {
  bool have_device = false;
  p.advance();
  for (;;) {
    p.skip_blanks();
    if (!p.at_end() && p.peek() == '}') {
      p.advance();
      return true;
    }
    const std::string_view lname = p.name();
    p.skip_blanks();
    if (lname.empty() || p.at_end() || p.peek() != '=') {
      errors.push_back(p.error(std::string(metric), "expected label=\"value\""));
      return false;
    }
    p.advance();
    p.skip_blanks();
    const std::size_t value_at = p.pos();
    if (!p.quoted(label)) {
      errors.push_back(p.error(std::string(metric) + "." + std::string(lname), "expected a quoted label value"));
      return false;
    }
    if (lname == "instance") {
      sample.instance = label;
    } else if (lname == "job") {
      job = p.slice(value_at + 1, p.pos() - 1);
    } else if (lname == "device" || lname == "ifName" || (lname == "ifDescr" && !have_device)) {
      sample.device = label;
      have_device = true;
    }
    p.skip_blanks();
    if (!p.at_end() && p.peek() == ',') p.advance();
  }
}

// The optional timestamp after the value, in ms since 1970; `default_time_ms` when absent. False,
// with an error, when it is missing and there is no default, or malformed, or out of range.
bool read_timestamp(LineParser& p, std::string_view metric, std::int64_t default_time_ms, std::int64_t& time_ms,
                    Diagnostics& errors) {
  time_ms = default_time_ms;
  if (p.at_end() && default_time_ms < 0) {
    errors.push_back(p.error(std::string(metric), "sample has no timestamp; give the scrapes' spacing (--interval SECONDS, files in time order)"));
    return false;
  }
  if (p.at_end()) return true;
  const std::string_view ts = p.token();
  const auto [ptr, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), time_ms);
  if (ec != std::errc() || ptr != ts.data() + ts.size()) {
    errors.push_back(p.error(std::string(metric), "timestamp '" + std::string(ts) + "' is not an integer (ms)"));
    return false;
  }
  if (time_ms < 0 || time_ms > kMaxTimestampMs) {
    errors.push_back(p.error(std::string(metric), "timestamp " + std::string(ts) + " is outside 0 .. year 9999 (ms since 1970)"));
    return false;
  }
  p.skip_blanks();
  if (!p.at_end()) {
    errors.push_back(p.error(std::string(metric), "unexpected text after the timestamp"));
    return false;
  }
  return true;
}

// The counter value: an exact integer first, then the format's floats (floored). False when it
// is not a number (an error) or not a byte count (a warning: the sample is dropped).
bool read_count(std::string_view value, const SourceLocation& where, std::string_view metric, std::string& value_text,
                std::uint64_t& count, Scrape& scrape, Diagnostics& errors) {
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), count);
  if (ec == std::errc() && ptr == value.data() + value.size()) return true;
  value_text.assign(value);
  char* stop = nullptr;
  const double v = std::strtod(value_text.c_str(), &stop);
  if (stop != value_text.c_str() + value_text.size()) {
    errors.push_back(Diagnostic{where, std::string(metric), "value '" + value_text + "' is not a number"});
    return false;
  }
  if (!std::isfinite(v) || v < 0 || v >= 18446744073709551616.0) {
    scrape.warnings.push_back(Diagnostic{where, std::string(metric),
                                         "counter value " + value_text + " is not a byte count; sample dropped",
                                         Severity::kWarning});
    return false;
  }
  count = static_cast<std::uint64_t>(std::floor(v));
  return true;
}

// Series identity: (hash, sample index) per sample, sorted after the last line so that a
// duplicate is found without a hash map (the series are compared where hashes are equal).
struct Seen {
  std::uint64_t hash;
  std::uint32_t index;
  std::string_view metric;  // kept by the reader's NameStore
  std::string_view job;     // the `job` label as written, kept the same way ("" when absent)
};

// Each sample against the earlier ones of equal hash: a series seen twice is an error at its
// second line, naming the first, unless the two differ only in `job` (the header). The errors are
// then in line order.
// Returns the samples to drop: a counter's second report by another job with the same count.
std::vector<std::uint32_t> report_duplicates(std::vector<Seen>& seen, const std::vector<CounterSample>& samples,
                                             Diagnostics& errors) {
  std::sort(seen.begin(), seen.end(),
            [](const Seen& a, const Seen& b) { return a.hash != b.hash ? a.hash < b.hash : a.index < b.index; });
  auto same = [](const CounterSample& a, const CounterSample& b) {
    return a.instance == b.instance && a.device == b.device && a.transmit == b.transmit && a.kind == b.kind &&
           a.width == b.width && a.unit == b.unit;
  };
  bool duplicates = false;
  std::vector<std::uint32_t> repeated;  // samples of a counter another job reported with the same count
  for (std::size_t i = 0; i < seen.size();) {
    std::size_t j = i + 1;
    while (j < seen.size() && seen[j].hash == seen[i].hash) ++j;
    for (std::size_t b = i + 1; b < j; ++b) {
      const CounterSample& later = samples[seen[b].index];
      for (std::size_t a = i; a < b; ++a) {
        const CounterSample& first = samples[seen[a].index];
        if (!same(first, later)) continue;
        const bool jobs_differ = seen[a].job != seen[b].job;
        if (jobs_differ && first.count == later.count) {
          repeated.push_back(seen[b].index);
          break;
        }
        if (jobs_differ) {
          errors.push_back(Diagnostic{later.where, std::string(seen[b].metric),
                                      "jobs \"" + std::string(seen[a].job) + "\" (line " + std::to_string(first.where.line) +
                                          ") and \"" + std::string(seen[b].job) + "\" report one counter, instance=\"" + later.instance + "\" device=\"" +
                                          later.device + "\", with different counts: give each host its own instance label"});
          duplicates = true;
          break;
        }
        errors.push_back(Diagnostic{later.where, std::string(seen[b].metric),
                                    "duplicate series instance=\"" + later.instance + "\" device=\"" + later.device +
                                        "\" (first at line " + std::to_string(first.where.line) + ")"});
        duplicates = true;
        break;
      }
    }
    i = j;
  }
  if (duplicates) {
    std::stable_sort(errors.begin(), errors.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.where.line < b.where.line; });
  }
  return repeated;
}

}  // namespace

std::string_view counter_kind_name(CounterKind k) {
  switch (k) {
    case CounterKind::kNetdev: return "netdev";
    case CounterKind::kRdma: return "rdma";
    case CounterKind::kSwitch: return "switch";
    case CounterKind::kPhy: return "phy";
  }
  return "?";
}

namespace {

// Names that outlive the piece of text they were read from (a metric's, a job's), each kept once.
class NameStore {
 public:
  // Inline, and the common case (the line's name is the last line's) one length test and one memcmp.
  [[gnu::always_inline]] std::string_view keep(std::string_view name) {
    if (name.size() == last_.size() && (name.empty() || std::memcmp(name.data(), last_.data(), name.size()) == 0)) return last_;
    return keep_new(name);
  }

 private:
  [[gnu::noinline]] std::string_view keep_new(std::string_view name) {
    auto at = names_.find(name);
    if (at == names_.end()) at = names_.emplace(name).first;
    last_ = *at;
    return last_;
  }

  std::set<std::string, std::less<>> names_;
  std::string_view last_;
};

// A scrape that gave no counter sample is refused at file:1:1, saying why: nothing in it, only
// other metrics, or every counter dropped (its warnings come first). A rate over it would find no
// series, and a report on it an all-clear of nothing.
Diagnostics no_samples(const Scrape& s) {
  Diagnostics out = s.warnings;
  const SourceLocation top{s.file, 1, 1};
  if (!s.warnings.empty()) {
    out.push_back(Diagnostic{top, "samples", "no usable counter: every interface byte counter of the scrape was dropped (above)"});
  } else if (s.ignored_lines > 0) {
    out.push_back(Diagnostic{top, "samples", std::to_string(s.ignored_lines) +
                                                 " sample(s), none an interface byte counter: expected node_network_transmit_bytes_total, "
                                                 "node_infiniband_port_data_transmitted_bytes_total, port_xmit_data, ifHCOutOctets or "
                                                 "ifOutOctets (and their receive twins)"});
  } else {
    out.push_back(Diagnostic{top, "samples", "no samples: an empty scrape (expected lines such as "
                                             "node_network_transmit_bytes_total{device=\"eth0\"} 1234)"});
  }
  return out;
}

// One exposition text read a line at a time (read_prometheus_text).
class PrometheusTextReader {
 public:
  PrometheusTextReader(const std::string& file, std::int64_t default_time_ms)
      : file_(file), default_time_ms_(default_time_ms) {
    scrape_.file = file;
  }
  // At most one sample a line: room for `lines` more, reserved at once.
  void expect(std::size_t lines) {
    seen_.reserve(seen_.size() + lines);
    scrape_.samples.reserve(scrape_.samples.size() + lines);
  }
  void read_line(std::string_view line, int line_no);
  Result<Scrape> finish();
  Diagnostics& errors() { return errors_; }

 private:
  const std::string& file_;
  std::int64_t default_time_ms_;
  Scrape scrape_;
  Diagnostics errors_;
  std::vector<Seen> seen_;
  NameStore metrics_, jobs_;
  std::string label_, value_text_;
};

void PrometheusTextReader::read_line(std::string_view line, int line_no) {
  LineParser p(line, file_, line_no);
  p.skip_blanks();
  if (p.at_end() || p.peek() == '#') return;
  const std::string_view metric = p.name();
  if (metric.empty()) {
    errors_.push_back(p.error("metric", "expected a metric name"));
    return;
  }
  const MetricInfo info = classify(metric);
  CounterSample sample;
  std::string_view job;
  p.skip_blanks();
  if (!p.at_end() && p.peek() == '{' && !read_labels(p, metric, label_, sample, job, errors_)) return;
  p.skip_blanks();
  const std::size_t value_col = p.pos();
  const std::string_view value = p.token();
  if (value.empty()) {
    errors_.push_back(p.error(std::string(metric), "expected a sample value"));
    return;
  }
  p.skip_blanks();
  std::int64_t time_ms = 0;
  const bool stamped = !p.at_end();
  if (!read_timestamp(p, metric, default_time_ms_, time_ms, errors_)) return;
  if (!info.known) {
    ++scrape_.ignored_lines;
    return;
  }
  sample.where = SourceLocation{file_, line_no, static_cast<int>(value_col) + 1};
  std::uint64_t count = 0;
  if (!read_count(value, sample.where, metric, value_text_, count, scrape_, errors_)) return;
  sample.transmit = info.transmit;
  sample.kind = info.kind;
  sample.width = info.width;
  sample.count = count;
  sample.unit = static_cast<std::uint32_t>(info.unit);
  sample.time_ms = time_ms;
  SourceLocation& first_of_clock = stamped ? scrape_.first_stamped : scrape_.first_unstamped;
  if (first_of_clock.line == 0) first_of_clock = sample.where;
  const auto index = static_cast<std::uint32_t>(scrape_.samples.size());
  seen_.push_back(Seen{series_hash(metric, sample.instance, sample.device), index, metrics_.keep(metric), jobs_.keep(job)});
  scrape_.samples.push_back(std::move(sample));
}

Result<Scrape> PrometheusTextReader::finish() {
  const std::vector<std::uint32_t> repeated = report_duplicates(seen_, scrape_.samples, errors_);
  if (!errors_.empty()) return errors_;
  if (!repeated.empty()) {
    std::vector<bool> drop(scrape_.samples.size(), false);
    for (const std::uint32_t i : repeated) drop[i] = true;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < scrape_.samples.size(); ++i) {
      if (!drop[i]) scrape_.samples[kept++] = std::move(scrape_.samples[i]);
    }
    scrape_.samples.resize(kept);
  }
  if (scrape_.samples.empty()) return no_samples(scrape_);
  return std::move(scrape_);
}

}  // namespace

Result<Scrape> read_prometheus_text(TextSource& source, const std::string& file, std::int64_t default_time_ms) {
  PrometheusTextReader reader(file, default_time_ms);
  std::string_view piece;
  int lines_before = 0;
  bool first = true;
  while (reader.errors().empty() && source.next(piece)) {
    if (first) {
      // The first piece's lines, scaled to the whole text where its size is known and the piece
      // is a fair sample of it (a long line ends a piece early), up to kMaxReserved.
      constexpr std::size_t kMaxReserved = std::size_t{1} << 22;
      std::size_t lines = 1;
      for (std::size_t at = piece.find('\n'); at != std::string_view::npos; at = piece.find('\n', at + 1)) ++lines;
      if (source.size_hint() > piece.size() && piece.size() >= kTextPiece / 2) {
        lines += lines * (source.size_hint() - piece.size()) / piece.size() + lines / 16;
      }
      reader.expect(std::min(lines, kMaxReserved));
      first = false;
    }
    LineCursor cursor(piece, lines_before);
    std::string_view line;
    while (cursor.next(line)) reader.read_line(line, cursor.number());
    lines_before = cursor.number();
  }
  if (source.failed()) reader.errors().push_back(*source.failed());
  return reader.finish();
}

Result<Scrape> read_prometheus_text(std::string_view text, const std::string& file, std::int64_t default_time_ms) {
  TextInMemory source(text);
  return read_prometheus_text(source, file, default_time_ms);
}

}  // namespace ct

namespace ct {
namespace {

struct SnmpColumn {
  std::string_view numeric;   // OID prefix without the leading dot
  std::string_view symbolic;  // IF-MIB::name
  int role;                   // 0 name, 1 descr, 2 counter
  bool transmit;
  CounterWidth width;
};

constexpr SnmpColumn kSnmpColumns[] = {
    {"1.3.6.1.2.1.31.1.1.1.10", "IF-MIB::ifHCOutOctets", 2, true, CounterWidth::k64},
    {"1.3.6.1.2.1.31.1.1.1.6", "IF-MIB::ifHCInOctets", 2, false, CounterWidth::k64},
    {"1.3.6.1.2.1.2.2.1.16", "IF-MIB::ifOutOctets", 2, true, CounterWidth::k32},
    {"1.3.6.1.2.1.2.2.1.10", "IF-MIB::ifInOctets", 2, false, CounterWidth::k32},
    {"1.3.6.1.2.1.31.1.1.1.1", "IF-MIB::ifName", 0, true, CounterWidth::k64},
    {"1.3.6.1.2.1.2.2.1.2", "IF-MIB::ifDescr", 1, true, CounterWidth::k64},
};

}  // namespace

bool looks_like_snmpwalk(std::string_view text) {
  return text.find("= Counter64:") != std::string_view::npos || text.find("= Counter32:") != std::string_view::npos;
}

Result<Scrape> read_snmpwalk(std::string_view text, const std::string& file, const std::string& instance,
                             std::int64_t time_ms) {
  Scrape scrape;
  scrape.file = file;
  Diagnostics errors;
  std::unordered_map<std::uint64_t, std::string> names, descrs;
  struct Pending {
    std::uint64_t index;
    CounterSample sample;
  };
  std::vector<Pending> counters;
  std::unordered_map<std::string, int> seen;  // column.index -> line
  LineCursor lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const int line_no = lines.number();
    const std::size_t eq = line.find(" = ");
    if (line.find_first_not_of(" \t") == std::string_view::npos || line.front() == '#') continue;
    if (eq == std::string_view::npos) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, 1}, "snmpwalk", "expected 'OID = TYPE: VALUE'"});
      continue;
    }
    std::string_view oid = line.substr(0, eq);
    if (!oid.empty() && oid.front() == '.') oid.remove_prefix(1);
    const SnmpColumn* column = nullptr;
    std::string_view rest;
    for (const SnmpColumn& c : kSnmpColumns) {
      for (const std::string_view prefix : {c.numeric, c.symbolic}) {
        if (oid.size() > prefix.size() + 1 && oid.substr(0, prefix.size()) == prefix && oid[prefix.size()] == '.') {
          column = &c;
          rest = oid.substr(prefix.size() + 1);
        }
      }
    }
    if (column == nullptr) {
      ++scrape.ignored_lines;
      continue;
    }
    std::uint64_t index = 0;
    if (const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), index);
        ec != std::errc() || p != rest.data() + rest.size()) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, 1}, "ifIndex", "'" + std::string(rest) + "' is not an ifIndex"});
      continue;
    }
    std::string_view value = line.substr(eq + 3);
    const std::size_t colon = value.find(": ");
    const std::string_view type = colon == std::string_view::npos ? std::string_view() : value.substr(0, colon);
    value = colon == std::string_view::npos ? value : value.substr(colon + 2);
    const SourceLocation where{file, line_no, static_cast<int>(eq + 4)};
    if (column->role != 2) {
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      (column->role == 0 ? names : descrs)[index] = std::string(value);
      continue;
    }
    if (type != (column->width == CounterWidth::k64 ? "Counter64" : "Counter32")) {
      errors.push_back(Diagnostic{where, std::string(column->symbolic), "expected a " +
                                      std::string(column->width == CounterWidth::k64 ? "Counter64" : "Counter32") + " value"});
      continue;
    }
    std::uint64_t count = 0;
    if (const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), count);
        ec != std::errc() || p != value.data() + value.size() ||
        (column->width == CounterWidth::k32 && count > 0xFFFFFFFFull)) {
      errors.push_back(Diagnostic{where, std::string(column->symbolic), "'" + std::string(value) + "' is not a " +
                                      std::string(type) + " value"});
      continue;
    }
    const std::string key = std::string(column->symbolic) + "." + std::to_string(index);
    if (const auto [it, inserted] = seen.emplace(key, line_no); !inserted) {
      errors.push_back(Diagnostic{where, std::string(column->symbolic),
                                  "duplicate " + key + " (first at line " + std::to_string(it->second) + ")"});
      continue;
    }
    CounterSample s;
    s.instance = instance;
    s.transmit = column->transmit;
    s.kind = CounterKind::kSwitch;
    s.width = column->width;
    s.count = count;
    s.time_ms = time_ms;
    s.where = where;
    counters.push_back(Pending{index, s});
  }
  if (!errors.empty()) return errors;
  if (counters.empty()) {
    return Diagnostic{SourceLocation{file, 1, 1}, "snmpwalk",
                      "no interface counters: expected lines such as .1.3.6.1.2.1.31.1.1.1.10.5 = Counter64: 123 (ifHCOutOctets.5)"};
  }
  for (Pending& p : counters) {
    const auto n = names.find(p.index);
    const auto d = descrs.find(p.index);
    p.sample.device = n != names.end() ? n->second : d != descrs.end() ? d->second : "ifIndex " + std::to_string(p.index);
    scrape.samples.push_back(std::move(p.sample));
  }
  return scrape;
}

}  // namespace ct

namespace ct {

CounterMetric counter_metric(std::string_view name) {
  const MetricInfo m = classify(name);
  return CounterMetric{m.known, m.transmit, m.kind, m.width, static_cast<std::uint32_t>(m.unit)};
}

}  // namespace ct
