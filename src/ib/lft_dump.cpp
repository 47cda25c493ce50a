#include "ib/lft_dump.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

namespace ct {
namespace {

bool parse_hex(std::string_view s, std::uint64_t& value, std::size_t& used) {
  std::size_t skip = 0;
  if (s.substr(0, 2) == "0x" || s.substr(0, 2) == "0X") skip = 2;
  const auto [ptr, ec] = std::from_chars(s.data() + skip, s.data() + s.size(), value, 16);
  if (ec != std::errc() || ptr == s.data() + skip) return false;
  used = static_cast<std::size_t>(ptr - s.data());
  return true;
}

std::string destination_info(const IbFabric& fabric, const IbRouting& routing, std::uint32_t lid) {
  const IbNodeId owner = routing.lids.owner_node[lid];
  const bool sw = fabric.is_switch(owner);
  return fmt::format("({} portguid {}: '{}')", sw ? "Switch" : "Channel Adapter",
                     format_guid(fabric.port_guid(owner, routing.lids.owner_port[lid])), fabric.label(owner));
}

}  // namespace

std::string write_lft_dump(const IbFabric& fabric, const IbRouting& routing) {
  std::string out;
  const std::uint32_t max_lid = routing.lids.max_lid();
  for (std::uint32_t s = 0; s < routing.switches.size(); ++s) {
    const IbNodeId n = routing.switches[s];
    out += fmt::format("Unicast lids [0x0-0x{:x}] of switch Lid {} guid {} ({}):\n", max_lid, routing.lids.base_lid(n, 0),
                       format_guid(fabric.guid[n.value()]), fabric.label(n));
    out += "  Lid  Out   Destination\n       Port     Info \n";
    std::size_t count = 0;
    for (std::uint32_t lid = 1; lid <= max_lid; ++lid) {
      const std::uint8_t port = routing.port(s, lid);
      if (port == IbRouting::kNoPath || !routing.lids.owner_node[lid].valid()) continue;
      out += fmt::format("0x{:04x} {:03} : {}\n", lid, port, destination_info(fabric, routing, lid));
      ++count;
    }
    out += fmt::format("{} valid lids dumped \n", count);
  }
  return out;
}

Result<std::vector<LftDumpSwitch>> parse_lft_dump(std::string_view text, const std::string& file) {
  std::vector<LftDumpSwitch> out;
  auto fail = [&](int line, std::string message) {
    return Diagnostic{{file, line, 0}, "lft", std::move(message)};
  };
  std::size_t begin = 0;
  int line_no = 0;
  while (begin < text.size()) {
    auto end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_no;
    if (line.rfind("Unicast lids", 0) == 0) {
      const auto at = line.find(" guid ");
      std::uint64_t guid = 0;
      std::size_t used = 0;
      if (at == std::string_view::npos || !parse_hex(line.substr(at + 6), guid, used)) {
        return fail(line_no, "switch block header without \"guid 0x...\"");
      }
      out.push_back({guid, {}, line_no});
      continue;
    }
    if (line.rfind("0x", 0) != 0) continue;  // column titles, "N lids dumped", ibwarn lines
    if (out.empty()) return fail(line_no, "LFT entry before any \"Unicast lids ... of switch\" header");
    std::uint64_t lid = 0;
    std::size_t used = 0;
    if (!parse_hex(line, lid, used) || lid == 0 || lid > 0xFFFF) return fail(line_no, "expected \"0xLID PORT\"");
    std::string_view rest = line.substr(used);
    while (!rest.empty() && (rest[0] == ' ' || rest[0] == '\t')) rest.remove_prefix(1);
    unsigned port = 0;
    const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), port);
    if (ec != std::errc() || port > 255) return fail(line_no, "expected the output port number after the LID");
    if (port == 255) continue;
    LftDumpEntry entry{static_cast<std::uint32_t>(lid), static_cast<std::uint8_t>(port), 0};
    if (const auto g = line.find("portguid "); g != std::string_view::npos) {
      if (!parse_hex(line.substr(g + 9), entry.dest_port_guid, used)) return fail(line_no, "malformed destination portguid");
    }
    out.back().entries.push_back(entry);
  }
  if (out.empty()) return fail(line_no, "no \"Unicast lids ... of switch\" block: not an LFT dump");
  return out;
}

Result<IbRouting> routing_from_lft_dump(const IbFabric& fabric, const std::vector<LftDumpSwitch>& dump,
                                        const std::string& file) {
  std::unordered_map<std::uint64_t, IbPortRef> ports;
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    const IbNodeId n(i);
    if (fabric.is_switch(n)) {
      ports[fabric.guid[i]] = {n, 0};
      continue;
    }
    for (int p = 1; p <= fabric.ports(n); ++p) ports[fabric.port_guid(n, p)] = {n, p};
  }
  // LIDs of each destination port, from every entry that names one.
  std::map<std::uint32_t, std::uint64_t> lid_owner;
  for (const auto& sw : dump) {
    for (const auto& e : sw.entries) {
      if (e.dest_port_guid != 0 && e.lid <= LidAssignment::kMaxUnicastLid) lid_owner.emplace(e.lid, e.dest_port_guid);
    }
  }
  std::map<std::uint64_t, std::vector<std::uint32_t>> lids_of;
  for (const auto& [lid, guid] : lid_owner) lids_of[guid].push_back(lid);
  int lmc = 0;
  for (const auto& [guid, lids] : lids_of) {
    const auto it = ports.find(guid);
    if (it != ports.end() && !fabric.is_switch(it->second.node)) {
      lmc = std::max(lmc, static_cast<int>(std::bit_width(lids.size())) - 1);
    }
  }
  IbRouting routing;
  routing.lids.reset(fabric, lmc);
  for (const auto& [guid, lids] : lids_of) {
    const auto it = ports.find(guid);
    if (it == ports.end()) {
      return Diagnostic{{file, 0, 0}, "lft", fmt::format("destination port GUID {} is not in the fabric", format_guid(guid))};
    }
    // Assigned last, the lowest LID becomes the port's base LID.
    for (auto l = lids.rbegin(); l != lids.rend(); ++l) routing.lids.assign(it->second.node, it->second.port, *l, 1, fabric);
  }
  routing.reset_tables(fabric);
  for (const auto& sw : dump) {
    const auto it = ports.find(sw.guid);
    if (it == ports.end() || !fabric.is_switch(it->second.node)) {
      return Diagnostic{{file, sw.line, 0}, "lft", fmt::format("switch GUID {} is not in the fabric", format_guid(sw.guid))};
    }
    const auto s = routing.switch_index(it->second.node);
    for (const auto& e : sw.entries) {
      if (e.lid <= routing.lids.max_lid()) routing.set_port(s, e.lid, e.port);
    }
  }
  return routing;
}

}  // namespace ct
