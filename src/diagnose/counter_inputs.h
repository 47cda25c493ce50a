// The inputs of `diagnose` and `traffic` as text already read (no I/O here): counter scrapes, the
// port map and the flow results, parsed and checked together into Counters (diagnosis.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/text_source.h"
#include "diagnose/diagnosis.h"

namespace ct {

// An input's text: in memory, or (when `source` is set) read a piece at a time by the readers that
// stream (Prometheus text, perftest output, a flows CSV, the port map; the other formats take the
// whole text from it).
struct TextInput {
  std::string path;
  std::string text;
  std::shared_ptr<TextSource> source = nullptr;
};

struct CounterInputs {
  // Prometheus text, snmpwalk or `ethtool -S` output (one file a scrape), or gnmic JSON (a file
  // may hold a whole series: its notifications carry their times).
  std::vector<TextInput> scrapes;
  // Per scrape (may be shorter): the device an snmpwalk file came from, the host of a Prometheus
  // file's samples without an `instance` label, or "INSTANCE,DEVICE" for ethtool -S output (the
  // host and interface).
  std::vector<std::string> instances;
  double interval_s = 0;                 // spacing of one name's scrapes without timestamps (0: they must have them)
  std::optional<TextInput> map;          // port map CSV (port_map.h)
  std::vector<TextInput> lldp;           // lldpctl -f json, one device each
  std::vector<std::string> lldp_devices; // per lldp file: "[INSTANCE@]VERTEX", the device it ran on
  std::vector<TextInput> flows;          // iperf3 --json, perftest report text or a flows CSV (told apart by the first piece)
  // Rates measured already (a live Prometheus: prometheus_source.h), in place of scrapes; giving
  // both is an error (one window, one clock).
  std::optional<CounterRates> measured;
};

// The scrapes of `inputs`, each read by its format, every diagnostic of every file at once.
// Hosts: `instances[i]` (HOST=FILE on the command line) is the host of every sample of a
// Prometheus file that has no `instance` label; a sample whose label names another host is an
// error, and so is a sample with neither (node_exporter's own output names no host): the series
// key holds the host, so two hosts' equal device names (`eth0`) can never become one series.
// Clocks: the samples' times are all their own timestamps (Prometheus with timestamps, gnmic) or
// all the scrape times that --interval gives (snmpwalk, ethtool -S, Prometheus without
// timestamps); a mix is refused, naming a sample of each, since --interval counts from 0 and a
// timestamp from 1970. With --interval the k-th file (from 0) given for one name (HOST=,
// INSTANCE= or INSTANCE,DEVICE=) is at k x interval, so several hosts' scrapes may be given in any
// interleaving; files given without a name count among themselves.
Result<std::vector<Scrape>> read_scrapes(const CounterInputs& inputs);

// The bound on a plausible counter wrap: the fabric's fastest link, in bytes per second.
RateOptions rate_options_for(const Fabric& fabric);

// Every diagnostic of every file at once.
Result<Counters> read_counter_inputs(const CounterInputs& inputs, const Fabric& fabric);

}  // namespace ct
