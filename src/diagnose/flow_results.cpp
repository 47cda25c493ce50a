#include "diagnose/flow_results.h"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "routing/port_address.h"
#include "core/csv_cursor.h"
#include "core/text.h"
#include "core/text_source.h"

namespace ct {
namespace {

Result<VertexId> port_by_address(const std::string& text, const Topology& topology, const SourceLocation& where,
                                 const std::string& field) {
  const auto address = parse_ipv4(text);
  if (!address) return Diagnostic{where, field, "'" + text + "' is not an IPv4 address"};
  const auto port = port_of_address(topology, *address);
  if (!port) return Diagnostic{where, field, "address " + text + " is no backend port of this fabric (10.<16p+r>.<h/256>.<h%256>)"};
  return *port;
}

}  // namespace

Result<std::vector<FlowResult>> read_iperf3_json(std::string_view text, const std::string& file, const Topology& topology) {
  const SourceLocation at{file, 1, 1};
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Diagnostic{at, "iperf3", "not iperf3 --json output (not a JSON object)"};
  if (j.contains("error")) return Diagnostic{at, "error", "iperf3 reported an error: " + j["error"].dump()};
  const auto& start = j.value("start", nlohmann::json::object());
  const auto& connected = start.value("connected", nlohmann::json::array());
  if (!connected.is_array() || connected.empty() || !connected[0].is_object()) {
    return Diagnostic{at, "start.connected", "missing: no connection in the iperf3 output"};
  }
  const auto& c = connected[0];
  for (const char* k : {"local_host", "remote_host"}) {
    if (!c.contains(k) || !c[k].is_string()) return Diagnostic{at, std::string("start.connected[0].") + k, "missing or not text"};
  }
  for (const char* k : {"local_port", "remote_port"}) {
    if (!c.contains(k) || !c[k].is_number_integer() || c[k].get<long long>() < 0 || c[k].get<long long>() > 65535) {
      return Diagnostic{at, std::string("start.connected[0].") + k, "missing or not a port 0..65535"};
    }
  }
  const auto& test = start.value("test_start", nlohmann::json::object());
  const std::string protocol = test.value("protocol", std::string("TCP"));
  const bool reverse = test.value("reverse", 0) != 0;
  const auto& end = j.value("end", nlohmann::json::object());
  const char* sum_key = protocol == "UDP" ? "sum" : "sum_received";
  const auto& sum = end.value(sum_key, nlohmann::json::object());
  if (!sum.contains("bits_per_second") || !sum["bits_per_second"].is_number()) {
    return Diagnostic{at, std::string("end.") + sum_key + ".bits_per_second", "missing: the test did not finish"};
  }
  const double bps = sum["bits_per_second"].get<double>();
  if (!std::isfinite(bps) || bps < 0) return Diagnostic{at, std::string("end.") + sum_key + ".bits_per_second", "not a rate >= 0"};
  auto local = port_by_address(c["local_host"].get<std::string>(), topology, at, "start.connected[0].local_host");
  auto remote = port_by_address(c["remote_host"].get<std::string>(), topology, at, "start.connected[0].remote_host");
  if (!local) return local.errors();
  if (!remote) return remote.errors();
  FlowResult f;
  const auto lport = static_cast<std::uint16_t>(c["local_port"].get<int>());
  const auto rport = static_cast<std::uint16_t>(c["remote_port"].get<int>());
  f.src = reverse ? remote.value() : local.value();
  f.dst = reverse ? local.value() : remote.value();
  f.key.src_ip = port_address(topology, f.src);
  f.key.dst_ip = port_address(topology, f.dst);
  f.key.protocol = protocol == "UDP" ? kIpProtoUdp : kIpProtoTcp;
  f.key.src_port = reverse ? rport : lport;
  f.key.dst_port = reverse ? lport : rport;
  f.bits_per_second = bps;
  f.where = at;
  return std::vector<FlowResult>{f};
}

Result<std::vector<FlowResult>> read_flows_csv(std::string_view text, const std::string& file, const Topology& topology) {
  TextInMemory source(text);
  return read_flows_csv(source, file, topology);
}

Result<std::vector<FlowResult>> read_flows_csv(TextSource& source, const std::string& file, const Topology& topology) {
  std::vector<FlowResult> flows;
  Diagnostics errors;
  static const char* kFields[] = {"src_ip", "dst_ip", "protocol", "src_port", "dst_port", "bits_per_second"};
  CsvCursor csv(file, source);
  std::string_view raw;
  while (true) {
    if (!csv.next_line(raw)) {
      if (!errors.empty() || !csv.next_piece()) break;  // no piece after one with an error
      continue;
    }
    const int line_no = csv.line_number();
    // Columns count from the line's first printing byte.
    const std::string_view line = trim(raw, kSpaceTab, kSpaceTabCr);
    if (line.empty() || line.front() == '#' || line.starts_with("src_ip")) continue;
    if (!csv.split(line)) {
      errors.push_back(csv.error());
      errors.back().field = "flow";
      continue;
    }
    std::vector<std::string_view> cells;
    for (const CsvCell& c : csv.cells()) cells.push_back(c.text);
    auto where = [&](std::size_t i) { return SourceLocation{file, line_no, csv.cells()[std::min(i, cells.size() - 1)].column}; };
    if (cells.size() != 6) {
      errors.push_back(Diagnostic{where(0), "flow", "expected src_ip,dst_ip,protocol,src_port,dst_port,bits_per_second"});
      continue;
    }
    FlowResult f;
    f.where = where(0);
    auto src = port_by_address(std::string(cells[0]), topology, where(0), kFields[0]);
    auto dst = port_by_address(std::string(cells[1]), topology, where(1), kFields[1]);
    if (!src || !dst) {
      if (!src) errors.insert(errors.end(), src.errors().begin(), src.errors().end());
      if (!dst) errors.insert(errors.end(), dst.errors().begin(), dst.errors().end());
      continue;
    }
    f.src = src.value();
    f.dst = dst.value();
    f.key.src_ip = port_address(topology, f.src);
    f.key.dst_ip = port_address(topology, f.dst);
    if (cells[2] == "udp") {
      f.key.protocol = kIpProtoUdp;
    } else if (cells[2] == "tcp") {
      f.key.protocol = kIpProtoTcp;
    } else {
      errors.push_back(Diagnostic{where(2), kFields[2], "'" + std::string(cells[2]) + "' is not udp or tcp"});
      continue;
    }
    bool good = true;
    for (std::size_t i = 3; i < 5; ++i) {
      unsigned v = 0;
      const auto [ptr, ec] = std::from_chars(cells[i].data(), cells[i].data() + cells[i].size(), v);
      if (ec != std::errc() || ptr != cells[i].data() + cells[i].size() || v > 65535) {
        errors.push_back(Diagnostic{where(i), kFields[i], "'" + std::string(cells[i]) + "' is not a port 0..65535"});
        good = false;
      } else {
        (i == 3 ? f.key.src_port : f.key.dst_port) = static_cast<std::uint16_t>(v);
      }
    }
    const std::string rate(cells[5]);
    char* stop = nullptr;
    f.bits_per_second = std::strtod(rate.c_str(), &stop);
    if (rate.empty() || stop != rate.c_str() + rate.size() || !std::isfinite(f.bits_per_second) || f.bits_per_second < 0) {
      errors.push_back(Diagnostic{where(5), kFields[5], "'" + rate + "' is not a rate >= 0 (bits/s)"});
      good = false;
    }
    if (good) flows.push_back(f);
  }
  if (source.failed()) return *source.failed();
  if (!errors.empty()) return errors;
  // A user who gave --flows meant some: a file of none would report "no flows given".
  if (flows.empty()) {
    return Diagnostic{SourceLocation{file, 1, 1}, "flows",
                      "the file lists no flows (expected rows src_ip,dst_ip,protocol,src_port,dst_port,bits_per_second)"};
  }
  return flows;
}

namespace {

struct QpAddress {
  std::uint32_t qpn = 0;
  std::uint32_t ipv4 = 0;
  bool has_gid = false;
  int line = 0;
};

constexpr std::uint32_t kMaxQpn = 0xFFFFFF;  // QPNs are 24 bits (IBTA)
constexpr std::uint16_t kRoceV2Port = 4791;

}  // namespace

std::uint16_t roce_udp_source_port(std::uint32_t local_qpn, std::uint32_t remote_qpn) {
  std::uint64_t v = static_cast<std::uint64_t>(local_qpn) * remote_qpn;
  v ^= v >> 20;
  v ^= v >> 40;
  const auto fl = static_cast<std::uint32_t>(v & 0xFFFFF);
  const std::uint32_t low = (fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14);
  return static_cast<std::uint16_t>(low | 0xC000);
}

bool looks_like_perftest(std::string_view text) { return text.find("BW average[") != std::string_view::npos; }

namespace {

// What read_perftest has gathered so far: the QP address pairs, the result header's unit and the
// last result row's average.
struct PerftestRun {
  Diagnostics errors;
  std::vector<QpAddress> local, remote;
  std::vector<QpAddress>* last = nullptr;  // the list the next GID line belongs to
  double factor = 0;                       // bits/s per reported unit
  int header_line = 0, row_line = 0;
  double average = -1;
  bool read_test = false;
};

// "local address: LID ... QPN 0x... PSN ..." or "remote address: ...".
void read_qp_address(std::string_view t, int n, const std::string& file, PerftestRun& run) {
  run.last = t.starts_with("local") ? &run.local : &run.remote;
  QpAddress a;
  a.line = n;
  const std::vector<std::string_view> w = words(t);
  const auto q = std::find(w.begin(), w.end(), "QPN");
  std::uint32_t qpn = 0;
  const bool ok = q != w.end() && q + 1 != w.end() && q[1].starts_with("0x") &&
                  std::from_chars(q[1].data() + 2, q[1].data() + q[1].size(), qpn, 16).ptr == q[1].data() + q[1].size();
  if (!ok || qpn > kMaxQpn) {
    run.errors.push_back(Diagnostic{SourceLocation{file, n, 1}, "QPN", "missing or not a 24-bit hex QP number (0x0..0xffffff)"});
    run.last = nullptr;
    return;
  }
  a.qpn = qpn;
  run.last->push_back(a);
}

// "GID: 00:00:...:255:255:a:b:c:d" after an address line: an IPv4-mapped GID gives the QP's address.
void read_gid(std::string_view t, int n, const std::string& file, PerftestRun& run) {
  const std::string_view g = trim(t.substr(4), kSpaceTab, kSpaceTabCr);
  std::uint32_t bytes[16];
  std::size_t count = 0, at = 0;
  bool good = true;
  while (good && at <= g.size() && count < 17) {
    const std::size_t colon = std::min(g.find(':', at), g.size());
    std::uint32_t b = 0;
    const auto r = std::from_chars(g.data() + at, g.data() + colon, b);
    good = r.ec == std::errc() && r.ptr == g.data() + colon && b <= 255;
    if (good && count < 16) bytes[count] = b;
    ++count;
    at = colon + 1;
  }
  if (!good || count != 16) {
    run.errors.push_back(Diagnostic{SourceLocation{file, n, 1}, "GID", "not 16 decimal bytes 0..255 separated by ':'"});
    return;
  }
  bool mapped = bytes[10] == 255 && bytes[11] == 255;
  for (int i = 0; i < 10; ++i) mapped = mapped && bytes[i] == 0;
  if (!mapped) {
    run.errors.push_back(Diagnostic{SourceLocation{file, n, 1}, "GID",
                                    "not an IPv4-mapped GID (RoCEv2): the flow's address in the fabric is unknown"});
    return;
  }
  run.last->back().ipv4 = (bytes[12] << 24) | (bytes[13] << 16) | (bytes[14] << 8) | bytes[15];
  run.last->back().has_gid = true;
}

// "#bytes #iterations BW peak[...] BW average[...] ...": the unit of the result rows.
void read_result_header(std::string_view t, int n, const std::string& file, PerftestRun& run) {
  run.header_line = n;
  if (t.find("BW average[Gb/sec]") != std::string_view::npos) {
    run.factor = 1e9;
  } else if (t.find("BW average[MB/sec]") != std::string_view::npos) {
    run.factor = 8.0 * 1048576.0;
  } else {
    run.errors.push_back(Diagnostic{SourceLocation{file, n, 1}, "BW average", "unit neither MB/sec nor Gb/sec"});
  }
}

// A result row under the header: #bytes #iterations BW-peak BW-average; the last one counts.
void read_result_row(std::string_view t, int n, const std::string& file, PerftestRun& run) {
  const std::vector<std::string_view> w = words(t);
  if (w.size() < 4) {
    run.errors.push_back(Diagnostic{SourceLocation{file, n, 1}, "result",
                                    "expected #bytes #iterations BW-peak BW-average, got " + std::to_string(w.size()) + " fields"});
    return;
  }
  std::uint64_t bytes = 0, iterations = 0;
  const bool ints = std::from_chars(w[0].data(), w[0].data() + w[0].size(), bytes).ptr == w[0].data() + w[0].size() &&
                    std::from_chars(w[1].data(), w[1].data() + w[1].size(), iterations).ptr == w[1].data() + w[1].size();
  const std::string avg(w[3]);
  char* stop = nullptr;
  const double a = std::strtod(avg.c_str(), &stop);
  if (!ints || bytes == 0 || stop != avg.c_str() + avg.size() || !std::isfinite(a) || a < 0) {
    run.errors.push_back(Diagnostic{SourceLocation{file, n, 1}, "BW average",
                                    "'" + std::string(t.substr(0, 60)) + "': #bytes > 0, #iterations and a BW average >= 0 expected"});
    return;
  }
  run.average = a;
  run.row_line = n;
}

// The whole output read: one flow per QP pair, the average shared evenly between them.
Result<std::vector<FlowResult>> perftest_flows(PerftestRun& run, const std::string& file, const Topology& topology) {
  Diagnostics& errors = run.errors;
  if (run.header_line == 0) errors.push_back(Diagnostic{SourceLocation{file, 1, 1}, "#bytes", "missing: no perftest result header"});
  else if (run.average < 0 && errors.empty()) {
    errors.push_back(
        Diagnostic{SourceLocation{file, run.header_line, 1}, "BW average", "missing: no result row (the test did not finish)"});
  }
  if (run.local.empty() || run.local.size() != run.remote.size()) {
    errors.push_back(Diagnostic{SourceLocation{file, 1, 1}, "address",
                                std::to_string(run.local.size()) + " local and " + std::to_string(run.remote.size()) +
                                    " remote QP addresses: one of each per QP expected"});
  }
  if (!errors.empty()) return errors;
  std::vector<FlowResult> out;
  for (std::size_t i = 0; i < run.local.size(); ++i) {
    const QpAddress& l = run.local[i];
    const QpAddress& r = run.remote[i];
    for (const QpAddress* q : {&l, &r}) {
      if (!q->has_gid) errors.push_back(Diagnostic{SourceLocation{file, q->line, 1}, "GID", "missing after this address line"});
    }
    if (!l.has_gid || !r.has_gid) continue;
    auto lp = port_by_address(format_ipv4(l.ipv4), topology, SourceLocation{file, l.line, 1}, "GID");
    auto rp = port_by_address(format_ipv4(r.ipv4), topology, SourceLocation{file, r.line, 1}, "GID");
    if (!lp || !rp) {
      if (!lp) errors.insert(errors.end(), lp.errors().begin(), lp.errors().end());
      if (!rp) errors.insert(errors.end(), rp.errors().begin(), rp.errors().end());
      continue;
    }
    FlowResult f;
    f.src = run.read_test ? rp.value() : lp.value();
    f.dst = run.read_test ? lp.value() : rp.value();
    f.key.src_ip = port_address(topology, f.src);
    f.key.dst_ip = port_address(topology, f.dst);
    f.key.protocol = kIpProtoUdp;
    f.key.src_port = roce_udp_source_port(l.qpn, r.qpn);
    f.key.dst_port = kRoceV2Port;
    f.bits_per_second = run.average * run.factor / static_cast<double>(run.local.size());
    f.where = SourceLocation{file, run.row_line, 1};
    out.push_back(f);
  }
  if (!errors.empty()) return errors;
  return out;
}

// One line of the output, numbered n, read into `run`.
void read_perftest_line(std::string_view line, int n, const std::string& file, PerftestRun& run) {
  const std::string_view t = trim(line, kSpaceTab, kSpaceTabCr);
  if (t.find("RDMA_Read") != std::string_view::npos) run.read_test = true;
  if (t.starts_with("local address:") || t.starts_with("remote address:")) {
    read_qp_address(t, n, file, run);
  } else if (t.starts_with("GID:") && run.last != nullptr && !run.last->empty() && !run.last->back().has_gid) {
    read_gid(t, n, file, run);
  } else if (t.starts_with("#bytes") && t.find("BW average[") != std::string_view::npos) {
    read_result_header(t, n, file, run);
  } else if (run.header_line > 0 && !t.empty() && t.front() >= '0' && t.front() <= '9') {
    read_result_row(t, n, file, run);
  }
}

}  // namespace

Result<std::vector<FlowResult>> read_perftest(std::string_view text, const std::string& file, const Topology& topology) {
  TextInMemory source(text);
  return read_perftest(source, file, topology);
}

Result<std::vector<FlowResult>> read_perftest(TextSource& source, const std::string& file, const Topology& topology) {
  PerftestRun run;
  SourceLines lines(source);
  std::string_view line;
  while (run.errors.empty() && lines.next_piece()) {
    while (lines.next(line)) read_perftest_line(line, lines.number(), file, run);
  }
  if (source.failed()) return *source.failed();
  return perftest_flows(run, file, topology);
}

}  // namespace ct
