#include "diagnose/port_map.h"

#include <algorithm>
#include <charconv>
#include <vector>

#include "core/text_lines.h"

namespace ct {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

struct Cell {
  std::string_view text;
  int column = 1;
};

std::vector<Cell> split(std::string_view line) {
  std::vector<Cell> cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    const std::string_view raw = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    cells.push_back(Cell{trim(raw), static_cast<int>(start) + 1});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return cells;
}

}  // namespace

bool PortMap::add(std::string instance, std::string device, MappedPort port) {
  return ports_.emplace(key(instance, device), port).second;
}

const MappedPort* PortMap::find(const std::string& instance, const std::string& device) const {
  const auto it = ports_.find(key(instance, device));
  return it == ports_.end() ? nullptr : &it->second;
}

Result<PortMap> read_port_map_csv(std::string_view text, const std::string& file, const NameDirectory& names) {
  PortMap map;
  map.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  Diagnostics errors;
  LineCursor lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const int line_no = lines.number();
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#' || t.starts_with("instance")) continue;
    const std::vector<Cell> cells = split(line);
    auto where = [&](std::size_t i) { return SourceLocation{file, line_no, i < cells.size() ? cells[i].column : 1}; };
    if (cells.size() < 4 || cells.size() > 5) {
      errors.push_back(Diagnostic{where(0), "map", "expected instance,device,vertex,peer[,cable], got " +
                                                       std::to_string(cells.size()) + " fields"});
      continue;
    }
    auto vertex = names.vertex(cells[2].text, where(2), "vertex");
    auto peer = names.vertex(cells[3].text, where(3), "peer");
    if (!vertex || !peer) {
      if (!vertex) errors.insert(errors.end(), vertex.errors().begin(), vertex.errors().end());
      if (!peer) errors.insert(errors.end(), peer.errors().begin(), peer.errors().end());
      continue;
    }
    // The parallel cables between the two, in link id order (neighbors() is in link id order).
    std::vector<LinkId> cables;
    for (const Adjacency& a : names.topology().neighbors(vertex.value())) {
      if (a.neighbor == peer.value()) cables.push_back(a.link);
    }
    if (cables.empty()) {
      errors.push_back(Diagnostic{where(3), "peer", "no cable joins '" + std::string(cells[2].text) + "' and '" +
                                                        std::string(cells[3].text) + "'"});
      continue;
    }
    const std::vector<LinkId>* links = &cables;
    std::size_t cable = 0;
    if (cells.size() == 5) {
      const std::string_view c = cells[4].text;
      const auto [ptr, ec] = std::from_chars(c.data(), c.data() + c.size(), cable);
      if (ec != std::errc() || ptr != c.data() + c.size() || cable >= links->size()) {
        errors.push_back(Diagnostic{where(4), "cable", "cable '" + std::string(c) + "' is not one of 0.." +
                                                           std::to_string(links->size() - 1)});
        continue;
      }
    } else if (links->size() > 1) {
      errors.push_back(Diagnostic{where(3), "cable", std::to_string(links->size()) +
                                                         " parallel cables join these two; give the cable (0-based) as a 5th field"});
      continue;
    }
    if (!map.add(std::string(cells[0].text), std::string(cells[1].text),
                 MappedPort{(*links)[cable], vertex.value(), where(0)})) {
      errors.push_back(Diagnostic{where(1), "device", "interface " + std::string(cells[1].text) + " of '" +
                                                          std::string(cells[0].text) + "' is mapped twice"});
    }
  }
  if (!errors.empty()) return errors;
  return map;
}

}  // namespace ct
