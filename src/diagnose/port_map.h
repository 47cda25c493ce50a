// Which counter is which port of the topology. A counter series is named by the device that
// exports it (`instance`) and its interface (`device`); the map says which cable that interface
// terminates and at which end, so a transmit counter becomes the rate of one direction of one
// link (routing/path_walker.h: directed link 2 x link + (down ? 1 : 0)).
//
// CSV, one interface a line, `#` comments, an optional header line starting with "instance":
//   instance,device,vertex,peer[,cable]
//   leaf0-exporter,swp1,p0/leaf/0,p0/spine/1
// vertex: the topology name of the switch or NIC port that owns the interface; peer: the
// topology name at the cable's other end; cable: which of several parallel cables between the two
// (0-based, in link id order; required when there are several). Every name goes through the
// fabric's name directory (did-you-mean on a typo). A series whose (instance, device) is not in
// the map is listed as unmapped by diagnose, never guessed.
#pragma once

#include <unordered_map>
#include <string>
#include <string_view>
#include <utility>

#include "core/ids.h"
#include "core/result.h"
#include "fabric/name_directory.h"

namespace ct {

struct MappedPort {
  LinkId link;
  VertexId vertex;  // the end that owns the interface
  SourceLocation where;
};

class PortMap {
 public:
  // Returns false (and leaves the map unchanged) when (instance, device) is already mapped.
  bool add(std::string instance, std::string device, MappedPort port);
  void reserve(std::size_t ports) { ports_.reserve(ports); }
  [[nodiscard]] const MappedPort* find(const std::string& instance, const std::string& device) const;
  [[nodiscard]] std::size_t size() const { return ports_.size(); }

 private:
  static std::string key(const std::string& instance, const std::string& device) { return instance + '\x1f' + device; }
  std::unordered_map<std::string, MappedPort> ports_;
};

// Reads the CSV above; every problem located at file:line:column.
Result<PortMap> read_port_map_csv(std::string_view text, const std::string& file, const NameDirectory& names);

}  // namespace ct
