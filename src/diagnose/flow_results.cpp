#include "diagnose/flow_results.h"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include "routing/port_address.h"
#include "core/text_lines.h"

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

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
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
  std::vector<FlowResult> flows;
  Diagnostics errors;
  static const char* kFields[] = {"src_ip", "dst_ip", "protocol", "src_port", "dst_port", "bits_per_second"};
  LineCursor lines(text);
  std::string_view raw;
  while (lines.next(raw)) {
    const int line_no = lines.number();
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#' || line.starts_with("src_ip")) continue;
    std::vector<std::string_view> cells;
    std::vector<int> columns;
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = line.find(',', start);
      cells.push_back(trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
      columns.push_back(static_cast<int>(start) + 1);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    auto where = [&](std::size_t i) { return SourceLocation{file, line_no, columns[std::min(i, columns.size() - 1)]}; };
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
  if (!errors.empty()) return errors;
  return flows;
}

}  // namespace ct
