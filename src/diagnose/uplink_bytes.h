// The per-uplink byte table of two counter scrapes: what an operator computes by hand from a
// "before" and an "after" scrape to see which uplink carried what (`clustertwin lab counters
// --diff BEFORE AFTER`).
//
// Bytes: for every switch-to-switch link of the backend, the bytes that left its lower end upward
// between the first and the last scrape: the transmit counter of the lower end's interface
// (counter_rates.h: last minus first sample, wraps and resets accounted), else the receive
// counter of the upper end's; none when neither is mapped (port_map.h).
// Flows: the known flows (flow results: a flows CSV, iperf3, perftest) walked through the model
// (fabric.walker(): the spec's routing block), counted on each uplink they take. The two columns
// side by side are the comparison the lab makes: the kernel's counters against the twin's paths.
// Rows: every uplink of every switch whose up links moved any byte or carry any flow, by switch
// (vertex order) and link id; the switch's idle uplinks stay in, at 0, since the idle twin of a
// busy uplink is the point.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "diagnose/diagnosis.h"
#include "fabric/fabric.h"

namespace ct {

struct UplinkBytes {
  VertexId sw;     // the lower end
  VertexId upper;  // the upper end
  LinkId link;
  double bytes = -1;  // -1: no counter for this direction
  int flows = 0;      // known flows the model puts on it
};

struct UplinkTable {
  std::vector<UplinkBytes> rows;
  std::size_t flows = 0;        // known flows walked
  std::size_t unrouted = 0;     // of them, flows the model cannot route (other plane, no path)
  double seconds = 0;           // between the first and the last scrape (the longest series)
};

UplinkTable uplink_bytes(const Fabric& fabric, const Counters& counters);

}  // namespace ct
