// An InfiniBand subnet as the subnet manager sees it: nodes (switches and channel adapters, CAs)
// with a GUID, a node description and numbered physical ports; each port is either unconnected or
// cabled to one port of another node. Switch port 0 is the management port (it carries the
// switch's LID) and has no cable; physical ports are numbered 1..port_count, as on the wire.
//
// Port GUIDs follow the IB convention ibsim also uses: a switch has one port GUID, its node GUID
// (all its ports share the LID of port 0); a CA's port p has its own GUID, node GUID + p unless
// the input named another.
//
// Stored as a struct of dense arrays indexed by IbNodeId; the ports of all nodes in one CSR array
// (port p of node n at port_begin[n] + p - 1), so routing engines walk neighbours without pointers.
//
// Where it came from, for diagnostics: `source` names the input (an ibnetdiscover file, or the
// cluster spec), `source_context` narrows it ("plane 0" of a spec), and each node keeps the line of
// its block in that file (0 when it has none, e.g. built from a spec). LIDs the input states (an
// ibnetdiscover file's "lid N" comments, as ibsim presets them) are kept per port with their line;
// the LID assignment honours them (lid_assignment.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/strong_id.h"
#include "core/units.h"

namespace ct {

using IbNodeId = StrongId<struct IbNodeTag>;

enum class IbNodeType : std::uint8_t { kSwitch, kCa };

// One end of a cable: (node, port). port 0 with an invalid node means "unconnected".
struct IbPortRef {
  IbNodeId node;
  int port = 0;
  [[nodiscard]] bool connected() const { return node.valid(); }
};

// A port's active link width and speed as ibnetdiscover prints them at the end of a port line
// ("4xNDR": 4 lanes at NDR). The data rate is lanes x the speed's rate per lane after line
// encoding, as the InfiniBand Trade Association's roadmap publishes it (InfiniBand Architecture
// Specification vol. 2, rel. 1.5, ch. 5, for SDR..HDR; IBTA roadmap for NDR and XDR): SDR 2, DDR 4,
// QDR 8, FDR10 10, FDR 13.64, EDR 25, HDR 50, NDR 100, XDR 200 Gb/s per lane, so 4xNDR is 400 Gb/s.
// Widths 1x, 2x, 4x, 8x and 12x.
struct IbLinkRate {
  std::uint8_t width = 0;  // lanes; 0: the input states no rate
  std::uint8_t speed = 0;  // index into the speeds above, SDR = 0
  [[nodiscard]] bool known() const { return width != 0; }
  [[nodiscard]] BitsPerSecond rate() const;
  [[nodiscard]] std::string text() const;  // "4xNDR"
};
// The rate a token names ("4xNDR", "12xEDR"), or nullopt when it names none.
std::optional<IbLinkRate> parse_ib_link_rate(std::string_view token);

class IbFabric {
 public:
  static constexpr int kMaxPorts = 254;  // IB: port numbers 1..254 (255 is reserved)

  // ---- nodes (size node_count()) ----
  std::vector<IbNodeType> type;
  std::vector<std::uint64_t> guid;      // node GUID
  std::vector<std::string> name;        // the node's id in the net file ("S-0002c9...", "Switch1")
  std::vector<std::string> description; // NodeDescription ("p0/leaf/3", "host7/nic2")
  std::vector<std::uint8_t> port_count; // physical ports, excluding switch port 0
  // Tier of a switch when the fabric came from a clustertwin Topology (1 leaf, 2 spine, 3 core);
  // 0 = unknown (imported from ibnetdiscover). CAs: 0.
  std::vector<std::uint8_t> tier;

  [[nodiscard]] std::size_t node_count() const { return type.size(); }
  [[nodiscard]] bool is_switch(IbNodeId n) const { return type[n.value()] == IbNodeType::kSwitch; }
  [[nodiscard]] int ports(IbNodeId n) const { return port_count[n.value()]; }

  // PRECONDITION: 1 <= ports <= kMaxPorts.
  IbNodeId add_node(IbNodeType node_type, std::uint64_t node_guid, std::string node_name,
                    std::string node_description, int ports);
  // Cables (a, pa) to (b, pb). PRECONDITION: both ports exist and are unconnected, a != b.
  void connect(IbNodeId a, int pa, IbNodeId b, int pb);
  // Removes the cable on (n, p) (both ends). No effect when it is unconnected.
  void disconnect(IbNodeId n, int p);

  // The far end of port p of n (unconnected: invalid node). PRECONDITION: 1 <= p <= ports(n).
  [[nodiscard]] IbPortRef remote(IbNodeId n, int p) const {
    const auto i = port_begin_[n.value()] + static_cast<std::uint32_t>(p) - 1;
    return {peer_node_[i], peer_port_[i]};
  }
  // Port GUID of (n, p); for a switch, any p (including 0) gives the node GUID.
  [[nodiscard]] std::uint64_t port_guid(IbNodeId n, int p) const;
  void set_port_guid(IbNodeId n, int p, std::uint64_t port_guid_value);

  // Lookups by exact node name, description or GUID (first match in node order), or by a string
  // that is one of them ("0x..." is read as a GUID). Linear: for command lines and files, not loops.
  [[nodiscard]] std::optional<IbNodeId> find(std::string_view key) const;
  [[nodiscard]] std::optional<IbNodeId> find_by_guid(std::uint64_t node_guid) const;
  // The node owning this port GUID (CA port or switch), with its port (0 for a switch).
  [[nodiscard]] std::optional<IbPortRef> find_port_by_guid(std::uint64_t port_guid_value) const;

  [[nodiscard]] std::size_t switch_count() const;
  [[nodiscard]] std::size_t ca_count() const { return node_count() - switch_count(); }
  // Cables (each counted once).
  [[nodiscard]] std::size_t cable_count() const;
  // "desc" when set, else the name; for messages.
  [[nodiscard]] const std::string& label(IbNodeId n) const {
    return description[n.value()].empty() ? name[n.value()] : description[n.value()];
  }

  // ---- provenance (diagnostics) ----
  std::string source;          // file the fabric was read from, or the spec it was built from
  std::string source_context;  // e.g. "plane 0" (a spec); empty for a file
  std::vector<int> line;       // per node: line of its block in `source` (0 = none)

  // A LID the input states for a switch (port 0, any p) or a CA port; 0 when none, with the
  // line that states it.
  struct StatedLid {
    std::uint16_t lid = 0;
    int line = 0;
  };
  [[nodiscard]] StatedLid stated_lid(IbNodeId n, int p) const {
    return is_switch(n) || p < 1 ? switch_lid_[n.value()] : port_lid_[port_begin_[n.value()] + static_cast<std::uint32_t>(p) - 1];
  }
  void set_stated_lid(IbNodeId n, int p, StatedLid lid);

  // The rate the input states for port p of n (ibnetdiscover's "4xNDR"; unknown when none).
  // PRECONDITION: 1 <= p <= ports(n).
  [[nodiscard]] IbLinkRate link_rate(IbNodeId n, int p) const { return port_rate_[port_begin_[n.value()] + static_cast<std::uint32_t>(p) - 1]; }
  void set_link_rate(IbNodeId n, int p, IbLinkRate rate) { port_rate_[port_begin_[n.value()] + static_cast<std::uint32_t>(p) - 1] = rate; }

 private:
  std::vector<std::uint32_t> port_begin_{0};  // size node_count() + 1
  std::vector<IbNodeId> peer_node_;
  std::vector<std::uint8_t> peer_port_;
  std::vector<std::uint64_t> port_guid_;  // CA ports; 0 = default (node GUID + port)
  std::vector<StatedLid> switch_lid_;     // per node
  std::vector<StatedLid> port_lid_;       // per CA port
  std::vector<IbLinkRate> port_rate_;     // per port
};

// An error about the fabric, located at node `at`'s line in its source (invalid `at`, or a node
// without a line: the source alone), the message prefixed with the source's context.
Diagnostic fabric_diagnostic(const IbFabric& fabric, IbNodeId at, std::string field, std::string message);

// "0x0002c90300a0b0c0" style, 16 hex digits.
std::string format_guid(std::uint64_t guid);

}  // namespace ct
