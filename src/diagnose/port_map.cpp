#include "diagnose/port_map.h"

#include <algorithm>
#include <charconv>
#include <span>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/csv_cursor.h"
#include "core/text.h"

namespace ct {

bool PortMap::add(std::string_view instance, std::string_view device, MappedPort port) {
  auto by_instance = ports_.find(instance);
  if (by_instance == ports_.end()) by_instance = ports_.emplace(std::string(instance), ByName<MappedPort>{}).first;
  const bool added = by_instance->second.emplace(std::string(device), std::move(port)).second;
  if (added) ++size_;
  return added;
}

void PortMap::for_each(const std::function<void(std::string_view, std::string_view, const MappedPort&)>& f) const {
  for (const auto& [instance, devices] : ports_) {
    for (const auto& [device, port] : devices) f(instance, device, port);
  }
}

const MappedPort* PortMap::find(std::string_view instance, std::string_view device) const {
  const auto by_instance = ports_.find(instance);
  if (by_instance == ports_.end()) return nullptr;
  const auto it = by_instance->second.find(device);
  return it == by_instance->second.end() ? nullptr : &it->second;
}

namespace {

bool is_header(const std::vector<CsvCell>& cells) {
  static constexpr std::string_view kColumns[] = {"instance", "device", "vertex", "peer", "cable"};
  if (cells.size() < 4 || cells.size() > 5) return false;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].text != kColumns[i]) return false;
  }
  return true;
}

// A map's name: the printed spelling straight through the topology's numbering (no index of every
// name is built, no location made), any other through the directory's look-up and its did-you-mean.
Result<VertexId> resolve(const NameDirectory& names, const CsvCell& cell, const std::string& file, int line,
                         std::string_view field) {
  const VertexId v = names.printed_vertex(cell.text);
  if (v != VertexId::invalid()) return v;
  return names.vertex(cell.text, SourceLocation{file, line, cell.column}, field);
}

}  // namespace

Result<PortMap> read_port_map_csv(std::string_view text, const std::string& file, const NameDirectory& names) {
  TextInMemory source(text);
  return read_port_map_csv(source, file, names);
}

Result<PortMap> read_port_map_csv(TextSource& source, const std::string& file, const NameDirectory& names) {
  PortMap map;
  Diagnostics errors;
  CsvCursor csv(file, source);
  std::string_view line;
  bool first_row = true;
  while (true) {
    if (!csv.next_record(line)) {
      if (!errors.empty() || !csv.next_piece()) break;  // an error: no piece after its own
      continue;
    }
    const int line_no = csv.line_number();
    const std::string_view t = trim(line, kSpaceTab, kSpaceTabCr);
    if (t.empty() || t.front() == '#') continue;
    if (!csv.split(line)) {
      errors.push_back(csv.error());
      errors.back().field = "map";
      continue;
    }
    const std::vector<CsvCell>& cells = csv.cells();
    // The header, when there is one, is the first row and reads exactly so, cell by cell.
    if (std::exchange(first_row, false) && is_header(cells)) continue;
    auto where = [&](std::size_t i) { return SourceLocation{file, line_no, cells[i].column}; };
    if (cells.size() < 4 || cells.size() > 5) {
      errors.push_back(Diagnostic{where(0), "map", "expected instance,device,vertex,peer[,cable], got " +
                                                       std::to_string(cells.size()) + " fields"});
      continue;
    }
    auto vertex = resolve(names, cells[2], file, line_no, "vertex");
    auto peer = resolve(names, cells[3], file, line_no, "peer");
    if (!vertex || !peer) {
      if (!vertex) errors.insert(errors.end(), vertex.errors().begin(), vertex.errors().end());
      if (!peer) errors.insert(errors.end(), peer.errors().begin(), peer.errors().end());
      continue;
    }
    // The parallel cables between the two, in link id order.
    const std::span<const Adjacency> links = names.cable_index().cables(vertex.value(), peer.value());
    if (links.empty()) {
      errors.push_back(Diagnostic{where(3), "peer", "no cable joins '" + std::string(cells[2].text) + "' and '" +
                                                        std::string(cells[3].text) + "'"});
      continue;
    }
    std::size_t cable = 0;
    if (cells.size() == 5) {
      const std::string_view c = cells[4].text;
      const auto [ptr, ec] = std::from_chars(c.data(), c.data() + c.size(), cable);
      if (ec != std::errc() || ptr != c.data() + c.size() || cable >= links.size()) {
        errors.push_back(Diagnostic{where(4), "cable", "cable '" + std::string(c) + "' is not one of 0.." +
                                                           std::to_string(links.size() - 1)});
        continue;
      }
    } else if (links.size() > 1) {
      errors.push_back(Diagnostic{where(3), "cable", std::to_string(links.size()) +
                                                         " parallel cables join these two; give the cable (0-based) as a 5th field"});
      continue;
    }
    if (!map.add(cells[0].text, cells[1].text, MappedPort{links[cable].link, vertex.value(), where(0)})) {
      errors.push_back(Diagnostic{where(1), "device", "interface " + std::string(cells[1].text) + " of '" +
                                                          std::string(cells[0].text) + "' is mapped twice"});
    }
  }
  if (source.failed()) errors.push_back(*source.failed());
  if (!errors.empty()) return errors;
  // A map of no rows would leave every series unmapped and the report an all-clear of nothing.
  if (map.size() == 0) {
    return Diagnostic{SourceLocation{file, 1, 1}, "map",
                      "no port-map rows: the map names no link (expected rows instance,device,vertex,peer[,cable])"};
  }
  return map;
}

namespace {

// The 1-based line of the first occurrence of `"key"` at or after `from` (a JSON text's key).
int line_of_key(std::string_view text, const std::string& key, std::size_t& from) {
  const std::size_t at = text.find("\"" + key + "\"", from);
  if (at == std::string_view::npos) return 1;
  from = at + 1;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

}  // namespace

Result<std::size_t> read_lldp_neighbours(std::string_view text, const std::string& file, const std::string& instance,
                                  const std::string& local, const NameDirectory& names, PortMap& map) {
  const SourceLocation top{file, 1, 1};
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Diagnostic{top, "lldp", "not lldpctl -f json output (not a JSON object)"};
  if (!j.contains("lldp") || !(j["lldp"].is_object() || j["lldp"].is_array())) {
    return Diagnostic{top, "lldp", "missing: no \"lldp\" object (lldpctl -f json)"};
  }
  auto local_vertex = names.vertex(local, top, "--lldp");
  if (!local_vertex) return local_vertex.errors();
  // One (interface, neighbour) per entry, in file order.
  std::vector<std::pair<std::string, const nlohmann::json*>> entries;
  const nlohmann::json& lldp = j["lldp"];
  if (lldp.is_object() && lldp.contains("interface")) {
    const nlohmann::json& ifs = lldp["interface"];
    if (ifs.is_object()) {
      for (const auto& [name, v] : ifs.items()) entries.emplace_back(name, &v);
    } else if (ifs.is_array()) {
      for (const nlohmann::json& one : ifs) {
        if (!one.is_object()) return Diagnostic{top, "lldp.interface", "an array entry that is not an object"};
        for (const auto& [name, v] : one.items()) entries.emplace_back(name, &v);
      }
    } else {
      return Diagnostic{top, "lldp.interface", "neither an object nor an array"};
    }
  }
  Diagnostics errors;
  std::size_t cursor = 0, mapped = 0;
  for (const auto& [ifname, entry] : entries) {
    const SourceLocation at{file, line_of_key(text, ifname, cursor), 1};
    if (!entry->is_object() || !entry->contains("chassis") || !(*entry)["chassis"].is_object()) {
      errors.push_back(Diagnostic{at, "chassis", "interface " + ifname + " has no neighbour chassis"});
      continue;
    }
    const nlohmann::json& chassis = (*entry)["chassis"];
    if (chassis.size() != 1 || chassis.contains("id") || !chassis.begin().value().is_object()) {
      errors.push_back(Diagnostic{at, "chassis", "the neighbour on " + ifname +
                                                     " sends no system name (chassis id only): name it in the CSV map"});
      continue;
    }
    const std::string peer_name = chassis.begin().key();
    auto peer = names.vertex(peer_name, at, "chassis");
    if (!peer) {
      errors.insert(errors.end(), peer.errors().begin(), peer.errors().end());
      continue;
    }
    std::vector<LinkId> cables;
    for (const Adjacency& a : names.topology().neighbors(local_vertex.value())) {
      if (a.neighbor == peer.value()) cables.push_back(a.link);
    }
    if (cables.empty()) {
      errors.push_back(Diagnostic{at, "chassis", "no cable joins '" + local + "' and its neighbour '" + peer_name + "'"});
      continue;
    }
    if (cables.size() > 1) {
      errors.push_back(Diagnostic{at, "chassis", std::to_string(cables.size()) + " parallel cables join '" + local + "' and '" +
                                                     peer_name + "': LLDP cannot say which one " + ifname +
                                                     " is; map it in the CSV (cable column)"});
      continue;
    }
    if (!map.add(instance, ifname, MappedPort{cables.front(), local_vertex.value(), at})) {
      errors.push_back(Diagnostic{at, "interface", "interface " + ifname + " of '" + instance + "' is mapped twice"});
      continue;
    }
    ++mapped;
  }
  if (!errors.empty()) return errors;
  return mapped;
}

}  // namespace ct
