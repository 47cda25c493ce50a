// The inputs of `diagnose` and `traffic` as text already read (no I/O here): counter scrapes, the
// port map and the flow results, parsed and checked together into Counters (diagnosis.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "diagnose/diagnosis.h"

namespace ct {

struct TextInput {
  std::string path;
  std::string text;
};

struct CounterInputs {
  // Prometheus text, snmpwalk or `ethtool -S` output (one file a scrape), or gnmic JSON (a file
  // may hold a whole series: its notifications carry their times).
  std::vector<TextInput> scrapes;
  // Per scrape (may be shorter): the device an snmpwalk file came from, or "INSTANCE,DEVICE" for
  // ethtool -S output (the host and interface).
  std::vector<std::string> instances;
  double interval_s = 0;                 // spacing of scrapes without timestamps (0: they must have them)
  std::optional<TextInput> map;          // port map CSV (port_map.h)
  std::vector<TextInput> lldp;           // lldpctl -f json, one device each
  std::vector<std::string> lldp_devices; // per lldp file: "[INSTANCE@]VERTEX", the device it ran on
  std::vector<TextInput> flows;          // iperf3 --json, perftest report text or a flows CSV
};

// Every diagnostic of every file at once.
Result<Counters> read_counter_inputs(const CounterInputs& inputs, const Fabric& fabric);

}  // namespace ct
