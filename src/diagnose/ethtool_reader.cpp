#include "diagnose/ethtool_reader.h"

#include <charconv>
#include <optional>
#include <unordered_map>

#include "core/text.h"
#include "core/text_lines.h"

namespace ct {
namespace {

constexpr std::string_view kHeader = "NIC statistics:";
constexpr std::size_t kMaxNameLength = 32;  // ETH_GSTRING_LEN

// "tx3_bytes" (mlx5) or "tx_queue_3_bytes" (virtio, veth, ena): a per-queue byte counter.
std::optional<bool> queue_bytes(std::string_view name) {
  for (const bool tx : {true, false}) {
    const std::string_view dir = tx ? "tx" : "rx";
    if (!name.starts_with(dir) || !name.ends_with("_bytes")) continue;
    std::string_view mid = name.substr(2, name.size() - 2 - 6);
    if (mid.starts_with("_queue_")) mid.remove_prefix(7);
    if (all_digits(mid)) return tx;
  }
  return std::nullopt;
}

struct Known {
  bool transmit;
  CounterKind kind;
};

std::optional<Known> classify(std::string_view name) {
  if (name == "tx_bytes") return Known{true, CounterKind::kNetdev};
  if (name == "rx_bytes") return Known{false, CounterKind::kNetdev};
  if (name == "tx_vport_rdma_unicast_bytes") return Known{true, CounterKind::kRdma};
  if (name == "rx_vport_rdma_unicast_bytes") return Known{false, CounterKind::kRdma};
  if (name == "tx_bytes_phy") return Known{true, CounterKind::kPhy};
  if (name == "rx_bytes_phy") return Known{false, CounterKind::kPhy};
  return std::nullopt;
}

}  // namespace

bool looks_like_ethtool(std::string_view text) {
  LineCursor lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view t = trim(line);
    if (!t.empty()) return t == kHeader;
  }
  return false;
}

Result<Scrape> read_ethtool_stats(std::string_view text, const std::string& file, const std::string& instance,
                                  const std::string& device, std::int64_t time_ms) {
  Scrape scrape;
  scrape.file = file;
  Diagnostics errors;
  LineCursor lines(text);
  std::string_view line;
  bool header = false;
  std::unordered_map<std::string, int> seen;  // statistic -> line
  // Per-queue sums: [transmit] -> (sum, first line, overflowed).
  struct QueueSum {
    std::uint64_t sum = 0;
    int line = 0;
    bool any = false;
    bool overflow = false;
  } queues[2];
  bool total[2] = {false, false};
  auto add = [&](bool transmit, CounterKind kind, std::uint64_t v, int line_no) {
    CounterSample c;
    c.instance = instance;
    c.device = device;
    c.transmit = transmit;
    c.kind = kind;
    c.count = v;
    c.time_ms = time_ms;
    c.where = SourceLocation{file, line_no, 1};
    scrape.samples.push_back(std::move(c));
  };
  while (lines.next(line)) {
    const int line_no = lines.number();
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    if (!header) {
      if (t != kHeader) {
        errors.push_back(Diagnostic{SourceLocation{file, line_no, 1}, "header",
                                    "expected \"NIC statistics:\" (ethtool -S output), got '" + std::string(t.substr(0, 40)) + "'"});
        break;
      }
      header = true;
      continue;
    }
    const std::size_t colon = t.rfind(": ");
    const int column = static_cast<int>(t.data() - line.data()) + 1;
    if (colon == std::string_view::npos || colon == 0) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, column}, "statistic",
                                  "expected 'name: value', got '" + std::string(t.substr(0, 60)) + "'"});
      continue;
    }
    const std::string_view name = trim(t.substr(0, colon));
    const std::string_view value = trim(t.substr(colon + 2));
    const int value_column = column + static_cast<int>(colon) + 2;
    if (name.size() > kMaxNameLength) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, column}, "statistic",
                                  "name longer than ethtool's 32 characters: '" + std::string(name.substr(0, 40)) + "...'"});
      continue;
    }
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || ptr != value.data() + value.size()) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, value_column}, std::string(name),
                                  "'" + std::string(value.substr(0, 40)) + "' is not an unsigned 64-bit count (0.." +
                                      std::to_string(UINT64_MAX) + ")"});
      continue;
    }
    const auto [it, fresh] = seen.emplace(std::string(name), line_no);
    if (!fresh) {
      errors.push_back(Diagnostic{SourceLocation{file, line_no, column}, std::string(name),
                                  "statistic given twice (first at line " + std::to_string(it->second) + ")"});
      continue;
    }
    if (const auto k = classify(name)) {
      if (k->kind == CounterKind::kNetdev) total[k->transmit ? 1 : 0] = true;
      add(k->transmit, k->kind, v, line_no);
    } else if (const auto q = queue_bytes(name)) {
      QueueSum& s = queues[*q ? 1 : 0];
      if (!s.any) s.line = line_no;
      s.any = true;
      if (v > UINT64_MAX - s.sum) s.overflow = true;
      s.sum += v;
    } else {
      ++scrape.ignored_lines;
    }
  }
  if (!header && errors.empty()) {
    errors.push_back(Diagnostic{SourceLocation{file, 1, 1}, "header", "empty: no \"NIC statistics:\" line (ethtool -S output)"});
  }
  for (const int tx : {1, 0}) {
    const QueueSum& s = queues[tx];
    if (!s.any || total[tx]) continue;
    if (s.overflow) {
      errors.push_back(Diagnostic{SourceLocation{file, s.line, 1}, tx ? "tx queues" : "rx queues",
                                  "the per-queue byte counters sum past 2^64"});
      continue;
    }
    add(tx == 1, CounterKind::kNetdev, s.sum, s.line);
  }
  if (errors.empty() && scrape.samples.empty()) {
    errors.push_back(Diagnostic{SourceLocation{file, 1, 1}, "statistic",
                                "no byte counter: expected rx_bytes / tx_bytes (or per-queue, RDMA or physical-port byte "
                                "statistics) under \"NIC statistics:\""});
  }
  if (!errors.empty()) return errors;
  return scrape;
}

}  // namespace ct
