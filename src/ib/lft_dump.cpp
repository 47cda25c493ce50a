#include "ib/lft_dump.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <map>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "core/text_lines.h"

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
  std::vector<std::uint32_t> order(routing.switches.size());
  for (std::uint32_t s = 0; s < order.size(); ++s) order[s] = s;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return fabric.guid[routing.switches[a].value()] < fabric.guid[routing.switches[b].value()];
  });
  for (const std::uint32_t s : order) {
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

namespace {

// One table being read: entries seen (all, and routed ones) until its "N lids dumped" footer.
struct OpenBlock {
  bool unicast = false;  // inside a "Unicast lids" table whose footer has not come yet
  bool multicast = false;
  std::size_t all = 0;
  std::size_t routed = 0;
  std::uint64_t first = 0;  // the header's LID range [first-top]
  std::uint64_t top = 0;
};

// The "[first-top]" range of a "Unicast lids" header: hexadecimal with "0x" (dump_fts), else
// decimal (OpenSM). False when malformed.
bool header_range(std::string_view line, std::uint64_t& first, std::uint64_t& top) {
  const auto open = line.find('[');
  const auto dash = line.find('-', open);
  const auto close = line.find(']', dash);
  if (open == std::string_view::npos || dash == std::string_view::npos || close == std::string_view::npos) return false;
  auto number = [](std::string_view s, std::uint64_t& v) {
    const bool hex = s.substr(0, 2) == "0x" || s.substr(0, 2) == "0X";
    if (hex) s.remove_prefix(2);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, hex ? 16 : 10);
    return ec == std::errc() && ptr == s.data() + s.size() && ptr != s.data();
  };
  return number(line.substr(open + 1, dash - open - 1), first) && number(line.substr(dash + 1, close - dash - 1), top) &&
         first <= top;
}

// "N [valid ]lids dumped": N, or nullopt when the line is not a unicast footer.
std::optional<std::uint64_t> footer_count(std::string_view line) {
  if (line.find("lids dumped") == std::string_view::npos || line.find("mlids") != std::string_view::npos) return std::nullopt;
  std::uint64_t n = 0;
  const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), n);
  if (ec != std::errc() || ptr == line.data()) return std::nullopt;
  return n;
}

// The output port after the LID: decimal, ending the token (a space, ':', '#' or the line's end).
std::optional<unsigned> entry_port(std::string_view rest) {
  while (!rest.empty() && (rest[0] == ' ' || rest[0] == '\t')) rest.remove_prefix(1);
  unsigned port = 0;
  const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), port);
  if (ec != std::errc() || ptr == rest.data() || port > 255) return std::nullopt;
  const char* tail = rest.data() + rest.size();
  if (ptr != tail && *ptr != ' ' && *ptr != '\t' && *ptr != ':' && *ptr != '#' && *ptr != '\r') return std::nullopt;
  return port;
}

}  // namespace

Result<std::vector<LftDumpSwitch>> parse_lft_dump(std::string_view text, const std::string& file) {
  std::vector<LftDumpSwitch> out;
  auto fail = [&](int line, std::string message) {
    return Diagnostic{{file, line, 0}, "lft", std::move(message)};
  };
  auto unterminated = [&](int line) {
    return fail(line, fmt::format("the table of switch {} (from line {}) has no \"N lids dumped\" line: truncated file?",
                                  format_guid(out.back().guid), out.back().line));
  };
  OpenBlock block;
  LineCursor lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const int line_no = lines.number();
    const bool unicast_header = line.rfind("Unicast lids", 0) == 0;
    if (unicast_header || line.rfind("Multicast mlids", 0) == 0) {
      if (block.unicast) return unterminated(lines.number());
      block = OpenBlock{unicast_header, !unicast_header, 0, 0, 0, 0};
      if (!unicast_header) continue;
      if (!header_range(line, block.first, block.top) || block.top > 0xFFFF) {
        return fail(line_no, "switch block header without its LID range, e.g. \"Unicast lids [0-21]\" or \"[0x0-0x15]\"");
      }
      const auto at = line.find(" guid ");
      std::uint64_t guid = 0;
      std::size_t used = 0;
      if (at == std::string_view::npos || !parse_hex(line.substr(at + 6), guid, used)) {
        return fail(line_no, "switch block header without \"guid 0x...\"");
      }
      out.push_back({guid, {}, line_no});
      continue;
    }
    if (const auto n = footer_count(line); n && block.unicast) {
      // dump_fts counts the entries it printed ("N valid lids dumped"; with -a, "N lids dumped"
      // counting unrouted ones too); OpenSM's opensm-lfts.dump prints the table's top LID, the end
      // of its "Unicast lids [0-N]" header, whatever the number of routed entries.
      const bool valid = line.find("valid lids dumped") != std::string_view::npos;
      const bool counted = n.value() == block.routed || n.value() == block.all;
      if (!counted && (valid || n.value() != block.top)) {
        return fail(line_no, fmt::format("the table of switch {} says {} {}lids dumped but has {} entries{}: truncated or edited?",
                                         format_guid(out.back().guid), n.value(), valid ? "valid " : "", block.all,
                                         valid ? "" : fmt::format(" and its header's top LID is {}", block.top)));
      }
      block.unicast = false;
      continue;
    }
    if (line.rfind("0x", 0) != 0 || block.multicast) continue;  // column titles, ibwarn lines, multicast tables
    if (!block.unicast) return fail(line_no, "LFT entry outside a \"Unicast lids ... of switch\" table");
    std::uint64_t lid = 0;
    std::size_t used = 0;
    if (!parse_hex(line, lid, used) || lid > 0xFFFF) return fail(line_no, "expected \"0xLID PORT\"");
    if (lid < block.first || lid > block.top) {
      return fail(line_no, fmt::format("LID {} is outside the table's range [{}-{}] (its header, line {})", lid, block.first,
                                       block.top, out.back().line));
    }
    const auto port = entry_port(line.substr(used));
    if (!port) return fail(line_no, "expected the output port number (0..255) after the LID");
    ++block.all;
    if (port.value() == 255 || lid == 0) continue;  // unrouted; LID 0 is no destination
    ++block.routed;
    LftDumpEntry entry{static_cast<std::uint32_t>(lid), static_cast<std::uint8_t>(port.value()), 0, line_no};
    if (const auto g = line.find("portguid "); g != std::string_view::npos) {
      if (!parse_hex(line.substr(g + 9), entry.dest_port_guid, used)) return fail(line_no, "malformed destination portguid");
    }
    out.back().entries.push_back(entry);
  }
  if (out.empty()) {
    return fail(std::max(lines.number(), 1), text.empty() ? "the file is empty: expected an LFT dump (dump_fts output or opensm-lfts.dump)"
                                                   : "no \"Unicast lids ... of switch\" block: not an LFT dump");
  }
  if (block.unicast) return unterminated(lines.number());
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
  std::map<std::uint32_t, const LftDumpEntry*> lid_owner;
  for (const auto& sw : dump) {
    for (const auto& e : sw.entries) {
      if (e.dest_port_guid == 0 || e.lid > LidAssignment::kMaxUnicastLid) continue;
      if (!ports.contains(e.dest_port_guid)) {
        return Diagnostic{{file, e.line, 0}, "lft",
                          fmt::format("destination port GUID {} is not in the fabric", format_guid(e.dest_port_guid))};
      }
      const auto [it, fresh] = lid_owner.emplace(e.lid, &e);
      if (!fresh && it->second->dest_port_guid != e.dest_port_guid) {
        return Diagnostic{{file, e.line, 0}, "lft",
                          fmt::format("LID {} names port GUID {} here but {} on line {}", e.lid, format_guid(e.dest_port_guid),
                                      format_guid(it->second->dest_port_guid), it->second->line)};
      }
    }
  }
  std::map<std::uint64_t, std::vector<std::uint32_t>> lids_of;
  for (const auto& [lid, entry] : lid_owner) lids_of[entry->dest_port_guid].push_back(lid);
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
      if (e.port > fabric.ports(it->second.node)) {
        return Diagnostic{{file, e.line, 0}, "lft",
                          fmt::format("port {} out of range: switch {} ('{}') has ports 0..{}", e.port, format_guid(sw.guid),
                                      fabric.label(it->second.node), fabric.ports(it->second.node))};
      }
      if (e.lid <= routing.lids.max_lid()) routing.set_port(s, e.lid, e.port);
    }
  }
  return routing;
}

}  // namespace ct
