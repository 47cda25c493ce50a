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
  std::vector<TextInput> scrapes;        // Prometheus text or snmpwalk output, one file a scrape
  std::vector<std::string> instances;    // per scrape (may be shorter): the device an snmpwalk file came from
  double interval_s = 0;                 // spacing of scrapes without timestamps (0: they must have them)
  std::optional<TextInput> map;          // port map CSV (port_map.h)
  std::vector<TextInput> flows;          // iperf3 --json (a .json file) or a flows CSV
};

// Every diagnostic of every file at once.
Result<Counters> read_counter_inputs(const CounterInputs& inputs, const Fabric& fabric);

}  // namespace ct
