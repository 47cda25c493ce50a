// Which counter is which port of the topology. A counter series is named by the device that
// exports it (`instance`) and its interface (`device`); the map says which cable that interface
// terminates and at which end, so a transmit counter becomes the rate of one direction of one
// link (routing/path_walker.h: directed link 2 x link + (down ? 1 : 0)).
//
// CSV (core/csv_cursor.h: a cell may be quoted, and a quoted cell may hold a ',' or a line break,
// as csv_cell() writes it), one interface a record, `#` comments, an optional header that can only
// be the first record and reads exactly, cell by cell (a row whose instance merely begins with
// "instance", such as GCE's `instance-1`, is data):
//   instance,device,vertex,peer[,cable]
//   leaf0-exporter,swp1,p0/leaf/0,p0/spine/1
// vertex: the topology name of the switch or NIC port that owns the interface; peer: the
// topology name at the cable's other end; cable: which of several parallel cables between the two
// (0-based, in link id order; required when there are several). Every name goes through the
// fabric's name directory (did-you-mean on a typo). A series whose (instance, device) is not in
// the map is listed as unmapped by diagnose, never guessed.
#pragma once

#include <functional>
#include <unordered_map>
#include <string>
#include <string_view>
#include <utility>

#include "core/ids.h"
#include "core/result.h"
#include "core/text_source.h"
#include "fabric/name_directory.h"

namespace ct {

struct MappedPort {
  LinkId link;
  VertexId vertex;  // the end that owns the interface
  SourceLocation where;
};


// Keyed by instance, then interface, with string_view look-ups (no key built per look-up: diagnose
// looks up every series of every scrape).
class PortMap {
 public:
  // Returns false (and leaves the map unchanged) when (instance, device) is already mapped.
  bool add(std::string_view instance, std::string_view device, MappedPort port);
  [[nodiscard]] const MappedPort* find(std::string_view instance, std::string_view device) const;
  [[nodiscard]] std::size_t size() const { return size_; }
  // Calls f(instance, device, port) for every mapped interface, in no particular order (the views
  // live as long as the map).
  void for_each(const std::function<void(std::string_view, std::string_view, const MappedPort&)>& f) const;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  template <typename T>
  using ByName = std::unordered_map<std::string, T, Hash, std::equal_to<>>;
  ByName<ByName<MappedPort>> ports_;
  std::size_t size_ = 0;
};

// Reads the CSV above; every problem located at file:line:column. Read from a TextSource the map
// is taken a piece at a time (core/text_source.h) and the reading stops at the end of the first
// piece with an error: a map of any size that is wrong early is refused after one piece. A map
// with no row (empty, comments only, or a header alone) is an error at file:1:1.
Result<PortMap> read_port_map_csv(TextSource& source, const std::string& file, const NameDirectory& names);
Result<PortMap> read_port_map_csv(std::string_view text, const std::string& file, const NameDirectory& names);

// LLDP neighbours of one device, `lldpctl -f json` (lldpd's `show neighbors`), added to `map`:
//   {"lldp": {"interface": {"swp1": {"via": "LLDP", "chassis": {"p0/pod0/spine/0": {"id": ...}},
//                                    "port": {"id": {...}, "descr": "swp1"}}}}}
// With several neighbours "interface" is an array of one-key objects ([{"swp1": {...}}, ...]);
// both shapes are read. The output names the neighbours, not the device it ran on: `local` is that
// device's topology name, `instance` the instance its counters carry. Each local interface maps
// to the one cable between `local` and the neighbour's system name (the chassis key), both through
// the name directory (did-you-mean). A neighbour without a system name (chassis id only), a
// neighbour joined by parallel cables (LLDP cannot say which; the CSV's cable column can) and an
// interface mapped twice are errors (file:line of the interface). Returns the interfaces mapped.
Result<std::size_t> read_lldp_neighbours(std::string_view text, const std::string& file, const std::string& instance,
                                  const std::string& local, const NameDirectory& names, PortMap& map);

}  // namespace ct
