#include "diagnose/connection_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <tuple>

#include "analysis/birthday.h"
#include "core/text.h"
#include "core/text_source.h"

namespace ct {
namespace {

bool parse_u64(std::string_view s, std::uint64_t& v) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// "231.7Mbps", "1.2Gbps", "800bps", "12Kbps" -> bits/s; -1 when malformed.
double parse_rate(std::string_view s) {
  static const std::pair<std::string_view, double> kUnits[] = {{"Gbps", 1e9}, {"Mbps", 1e6}, {"Kbps", 1e3}, {"bps", 1}};
  for (const auto& [suffix, scale] : kUnits) {
    if (s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix) {
      const std::string number(s.substr(0, s.size() - suffix.size()));
      char* end = nullptr;
      const double v = std::strtod(number.c_str(), &end);
      if (end != number.c_str() + number.size() || !std::isfinite(v) || v < 0) return -1;
      return v * scale;
    }
  }
  return -1;
}

// Each line of `source` with its number, a piece at a time; no piece is taken after one that
// gave an error (a huge table wrong early is not read on). The source's own error ends the list.
template <class F>
void for_lines(TextSource& source, Diagnostics& errors, F&& f) {
  SourceLines lines(source);
  std::string_view line;
  while (lines.next_piece()) {
    while (lines.next(line)) f(line, lines.number());
    if (!errors.empty()) break;
  }
  if (source.failed()) errors.push_back(*source.failed());
}

bool is_number(std::string_view s) {
  std::uint64_t v = 0;
  return parse_u64(s, v);
}

}  // namespace

Result<std::vector<Connection>> read_ss(std::string_view text, const std::string& file) {
  TextInMemory source(text);
  return read_ss(source, file);
}

Result<std::vector<Connection>> read_ss(TextSource& source, const std::string& file) {
  std::vector<Connection> out;
  Diagnostics errors;
  bool info_expected = false;
  for_lines(source, errors, [&](std::string_view line, int line_no) {
    if (line.find_first_not_of(" \t") == std::string_view::npos || line.front() == '#') return;
    const bool indented = line.front() == ' ' || line.front() == '\t';
    const auto w = words(line);
    // ss's header (without -H): "State Recv-Q Send-Q Local Address:Port Peer Address:Port Process",
    // without "State" under a state filter, with "Netid" first when more than TCP is listed.
    if (!indented && (w[0] == "State" || w[0] == "Recv-Q" || w[0] == "Netid")) return;
    if (!indented) {
      // State Recv-Q Send-Q Local Peer [Process], or without State.
      const std::size_t first = is_number(w[0]) ? 0 : 1;
      if (w.size() < first + 4 || !is_number(w[first]) || !is_number(w[first + 1])) {
        errors.push_back(Diagnostic{SourceLocation{file, line_no, 1}, "ss",
                                    "expected a socket line '[State] Recv-Q Send-Q Local:Port Peer:Port [Process]' (ss -tin output), "
                                    "got '" + std::string(line.substr(0, 60)) + "'"});
        return;
      }
      Connection c;
      c.protocol = "tcp";
      c.local = std::string(w[first + 2]);
      c.peer = std::string(w[first + 3]);
      c.where = SourceLocation{file, line_no, 1};
      c.bytes_known = false;
      out.push_back(c);
      info_expected = true;
      return;
    }
    if (!info_expected || out.empty()) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, 1}, "ss", "tcp_info line without a socket line before it"});
      return;
    }
    info_expected = false;
    Connection& c = out.back();
    std::uint64_t sent = 0, received = 0;
    bool have_sent = false, have_received = false;
    for (std::size_t i = 0; i < w.size(); ++i) {
      const std::string_view t = w[i];
      const std::size_t colon = t.find(':');
      const std::string_view key = t.substr(0, colon);
      const std::string_view value = colon == std::string_view::npos ? std::string_view() : t.substr(colon + 1);
      if (key == "bytes_sent" || key == "bytes_acked") {
        std::uint64_t v = 0;
        if (!parse_u64(value, v)) {
          errors.push_back(Diagnostic{SourceLocation{file, line_no, static_cast<int>(t.data() - line.data()) + 1}, std::string(key),
                                      "'" + std::string(value) + "' is not a byte count"});
          return;
        }
        if (key == "bytes_sent" || !have_sent) sent = v;
        have_sent = true;
      } else if (key == "bytes_received") {
        if (!parse_u64(value, received)) {
          errors.push_back(Diagnostic{SourceLocation{file, line_no, static_cast<int>(t.data() - line.data()) + 1}, "bytes_received",
                                      "'" + std::string(value) + "' is not a byte count"});
          return;
        }
        have_received = true;
      } else if (t == "delivery_rate" && i + 1 < w.size()) {
        const double r = parse_rate(w[i + 1]);
        if (r >= 0) c.bits_per_second = r;
      }
    }
    c.bytes = sent + received;
    c.bytes_known = have_sent || have_received;
  });
  if (!errors.empty()) return errors;
  if (out.empty()) {
    return Diagnostic{SourceLocation{file, 1, 1}, "ss",
                      "no connections: the file lists no socket (expected ss -tin output: a line "
                      "'[State] Recv-Q Send-Q Local:Port Peer:Port' per socket, then its tcp_info line)"};
  }
  return out;
}

Result<std::vector<Connection>> read_conntrack(std::string_view text, const std::string& file) {
  TextInMemory source(text);
  return read_conntrack(source, file);
}

Result<std::vector<Connection>> read_conntrack(TextSource& source, const std::string& file) {
  std::vector<Connection> out;
  Diagnostics errors;
  for_lines(source, errors, [&](std::string_view line, int line_no) {
    const auto w = words(line);
    if (w.empty() || w[0].front() == '#') return;
    if (line.find("flow entries have been shown") != std::string_view::npos) return;  // conntrack's stderr summary
    if (w.size() < 3 || !is_number(w[1])) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, 1}, "conntrack", "expected 'proto number timeout ...' (conntrack -L output)"});
      return;
    }
    Connection c;
    c.protocol = std::string(w[0]);
    c.where = SourceLocation{file, line_no, 1};
    std::string src, dst, sport, dport;
    int direction = 0;  // 0 original, 1 reply
    bool have_bytes = false;
    for (std::size_t i = 2; i < w.size(); ++i) {
      const std::size_t eq = w[i].find('=');
      if (eq == std::string_view::npos) continue;
      const std::string_view key = w[i].substr(0, eq), value = w[i].substr(eq + 1);
      if (key == "src") {
        if (!src.empty()) direction = 1;
        if (direction == 0) src = value;
      } else if (direction == 0 && key == "dst") {
        dst = value;
      } else if (direction == 0 && key == "sport") {
        sport = value;
      } else if (direction == 0 && key == "dport") {
        dport = value;
      } else if (key == "bytes") {
        std::uint64_t v = 0;
        if (!parse_u64(value, v)) {
          errors.push_back(Diagnostic{SourceLocation{file, line_no, static_cast<int>(w[i].data() - line.data()) + 1}, "bytes",
                                      "'" + std::string(value) + "' is not a byte count"});
          return;
        }
        c.bytes += v;
        have_bytes = true;
      }
    }
    if (src.empty() || dst.empty()) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, 1}, "src", "entry without src= and dst="});
      return;
    }
    c.local = src + (sport.empty() ? "" : ":" + sport);
    c.peer = dst + (dport.empty() ? "" : ":" + dport);
    c.bytes_known = have_bytes;
    out.push_back(c);
  });
  if (!errors.empty()) return errors;
  if (out.empty()) {
    return Diagnostic{SourceLocation{file, 1, 1}, "conntrack",
                      "no connections: the file lists no entry (expected conntrack -L output, 'proto number timeout ... "
                      "src= dst= ...' per connection)"};
  }
  return out;
}

void rates_between(std::vector<Connection>& later, const std::vector<Connection>& earlier, double seconds) {
  using Key = std::tuple<std::string_view, std::string_view, std::string_view>;
  std::map<Key, const Connection*> before;
  for (const Connection& c : earlier) before.emplace(Key(c.protocol, c.local, c.peer), &c);
  for (Connection& c : later) {
    const auto it = before.find(Key(c.protocol, c.local, c.peer));
    const bool both = it != before.end() && c.bytes_known && it->second->bytes_known && c.bytes >= it->second->bytes;
    c.bits_per_second = both ? static_cast<double>(c.bytes - it->second->bytes) * 8 / seconds : -1;
  }
}

TrafficSummary summarize_traffic(const std::vector<Connection>& connections, const CounterRates* rates,
                                 const TrafficOptions& options) {
  TrafficSummary s;
  s.connections = connections.size();
  std::vector<Connection> known;
  for (const Connection& c : connections) {
    if (!c.bytes_known) {
      ++s.bytes_unknown;
      continue;
    }
    known.push_back(c);
    s.total_bytes += static_cast<double>(c.bytes);
    if (c.bytes >= options.elephant_bytes) {
      ++s.elephants;
      s.elephant_bytes += static_cast<double>(c.bytes);
    }
  }
  std::sort(known.begin(), known.end(), [](const Connection& a, const Connection& b) {
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return std::tie(a.local, a.peer) < std::tie(b.local, b.peer);
  });
  // Size decades, from the smallest connection's to the largest's (known is sorted descending).
  if (!known.empty()) {
    auto decade_of = [](std::uint64_t b) {
      int k = 0;
      for (; b >= 10; b /= 10) ++k;
      return k;
    };
    const int lo = decade_of(known.back().bytes), hi = decade_of(known.front().bytes);
    for (int k = lo; k <= hi; ++k) {
      SizeDecade d;
      d.decade = k;
      std::uint64_t from = 1;
      for (int i = 0; i < k; ++i) from *= 10;
      d.from_bytes = k == 0 ? 0 : from;
      d.to_bytes = from <= UINT64_MAX / 10 ? from * 10 : UINT64_MAX;
      s.sizes.push_back(d);
    }
    for (const Connection& c : known) {
      SizeDecade& d = s.sizes[static_cast<std::size_t>(decade_of(c.bytes) - lo)];
      ++(c.bytes >= options.elephant_bytes ? d.elephants : d.mice);
      d.bytes += static_cast<double>(c.bytes);
    }
  }
  double top10 = 0;
  for (std::size_t i = 0; i < known.size() && i < 10; ++i) {
    top10 += static_cast<double>(known[i].bytes);
    s.top.push_back(known[i]);
  }
  if (s.total_bytes > 0) {
    s.top1_share = static_cast<double>(known.front().bytes) / s.total_bytes;
    s.top10_share = top10 / s.total_bytes;
  }
  s.width = options.width;
  if (s.width > 0) {
    s.connections_per_member = static_cast<double>(s.connections) / s.width;
    if (s.elephants > 0) {
      s.elephant_collision = p_any_collision(s.width, s.elephants);
      // The max-load recursion is O(n k^2) per load value: small cases only.
      if (static_cast<std::uint64_t>(s.width) * s.elephants <= 16384) {
        s.elephant_max_load = expected_max_load(s.width, static_cast<std::uint32_t>(s.elephants));
      }
    }
    const std::uint64_t points = std::min<std::uint64_t>(std::uint64_t{s.width} + 1, kCollisionCurvePoints);
    // max(0, p): one elephant's P is -expm1(0) = -0.0, printed "-0.0" in JSON.
    for (std::uint64_t k = 1; k <= points; ++k) s.collision_curve.push_back(std::max(0.0, p_any_collision(s.width, k)));
  }
  if (rates != nullptr) {
    for (const SeriesRate& r : rates->series) {
      if (!r.transmit) continue;
      double& total = r.kind == CounterKind::kRdma ? s.rdma_bps : s.netdev_bps;
      total = std::max(total, 0.0) + r.bytes_per_second * 8;
    }
  }
  return s;
}

}  // namespace ct
