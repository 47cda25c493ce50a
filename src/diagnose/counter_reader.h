// Interface byte counters as operators have them, read into one form: a Scrape is one snapshot of
// one file (Prometheus text exposition, as node_exporter, snmp_exporter or the /federate endpoint
// serve it), each sample naming the device (`instance` label), the interface (`device`, `ifName`
// or `ifDescr` label), the direction and what kind of counter it is.
//
// Prometheus text exposition format 0.0.4 (prometheus.io/docs/instrumenting/exposition_formats):
//   metric_name{label="value",...} value [timestamp_ms]
// Blanks may stand between the name and its `{` (`metric {labels} value ts`), as Prometheus' own
// text parser (model/textparse) accepts them.
// `#` starts a comment (HELP / TYPE lines); values are Go floats (NaN, +Inf, -Inf accepted by the
// format; a counter that is NaN, infinite or negative is reported and its sample dropped); label
// values escape \\, \" and \n. A sample without a timestamp takes the scrape's time, given by the
// caller (node_exporter output carries none; /federate output does).
//
// Metrics read (everything else is counted and ignored):
//   node_network_{transmit,receive}_bytes_total            kNetdev   node_exporter, /proc/net/dev
//   node_infiniband_port_data_{transmitted,received}_bytes_total  kRdma  node_exporter, already x4
//   *port_xmit_data / *port_rcv_data                        kRdma     the kernel's sysfs IB
//                               counters, in 4-octet units (IBTA PortCounters): multiplied by 4
//   ifHCOutOctets / ifHCInOctets                            kSwitch   IF-MIB Counter64 (snmp_exporter)
//   ifOutOctets / ifInOctets                                kSwitch   IF-MIB Counter32: wraps at 2^32
// Integral values are kept exact (uint64) so that a 64-bit wrap is computed without rounding.
//
// A series is (metric, instance, interface); other labels are not part of it. Two samples of one
// series in a scrape that differ only in `job` are one counter scraped by two jobs (a federation
// of two Prometheus servers, or an exporter in two jobs): equal counts are one sample, different
// counts an error naming both jobs. Any other repetition is a duplicate series, an error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/result.h"
#include "core/text_source.h"

namespace ct {

// kPhy: a NIC's physical port counter (ethtool_reader.h): netdev and RDMA traffic together.
enum class CounterKind : std::uint8_t { kNetdev, kRdma, kSwitch, kPhy };
enum class CounterWidth : std::uint8_t { k32, k64 };

struct CounterSample {
  std::string instance;  // the `instance` label ("" when absent)
  std::string device;    // interface name
  bool transmit = true;
  CounterKind kind = CounterKind::kNetdev;
  CounterWidth width = CounterWidth::k64;
  std::uint64_t count = 0;  // the counter as read (wraps in these units)
  std::uint32_t unit = 1;   // octets per count: 4 for the IB data counters, else 1
  std::int64_t time_ms = 0;
  SourceLocation where;
};

struct Scrape {
  std::string file;
  std::vector<CounterSample> samples;  // in file order
  std::size_t ignored_lines = 0;       // other metrics
  Diagnostics warnings;                // dropped samples (NaN, negative, non-integral)
  // Where the samples' times came from: their own timestamps, or the caller's scrape time (the
  // first of each kind; line 0 when there is none). Two clocks cannot be mixed (counter_inputs.h).
  SourceLocation first_stamped;
  SourceLocation first_unstamped;
};

// Parses one exposition text. `default_time_ms` is the time of samples without a timestamp; when
// it is negative such a sample is an error (the caller has no scrape time to give).
// Errors (located at file:line:column): malformed lines, a counter value that is not a number,
// the same series twice in one scrape (with the line of the first), and a scrape with no counter
// sample (empty, other metrics only, or every counter dropped) at file:1:1.
// The text is read a piece at a time (core/text_source.h): the reader stops after the first piece
// with an error, so a large file that is wrong early is not read to its end.
Result<Scrape> read_prometheus_text(TextSource& source, const std::string& file, std::int64_t default_time_ms);
Result<Scrape> read_prometheus_text(std::string_view text, const std::string& file, std::int64_t default_time_ms);

std::string_view counter_kind_name(CounterKind k);

}  // namespace ct

namespace ct {

// `snmpwalk -On` or symbolic (`IF-MIB::...`) output of the IF-MIB counters of one device:
//   .1.3.6.1.2.1.31.1.1.1.10.5 = Counter64: 123     ifHCOutOctets.5  (64 bits)
//   .1.3.6.1.2.1.31.1.1.1.6.5  = Counter64: 456     ifHCInOctets.5
//   .1.3.6.1.2.1.2.2.1.16.5    = Counter32: 789     ifOutOctets.5    (32 bits: wraps)
//   .1.3.6.1.2.1.2.2.1.10.5    = Counter32: 12      ifInOctets.5
//   .1.3.6.1.2.1.31.1.1.1.1.5  = STRING: Ethernet4  ifName.5 (ifDescr .1.3.6.1.2.1.2.2.1.2 when
//                                                    no ifName): the interface's name
// snmpwalk prints neither the device nor the time: `instance` and `time_ms` come from the caller
// (the command line's INSTANCE=FILE and --interval). An interface without a name is "ifIndex N".
// Output with no counter line (only names, or nothing) is an error at file:1:1.
Result<Scrape> read_snmpwalk(std::string_view text, const std::string& file, const std::string& instance,
                             std::int64_t time_ms);

// True when `text` looks like snmpwalk output (a "= Counter64:" or "= Counter32:" value).
bool looks_like_snmpwalk(std::string_view text);

}  // namespace ct

namespace ct {

// What a metric of the table above counts; known is false for every other metric.
struct CounterMetric {
  bool known = false;
  bool transmit = true;
  CounterKind kind = CounterKind::kNetdev;
  CounterWidth width = CounterWidth::k64;
  std::uint32_t unit = 1;  // octets per count
};
CounterMetric counter_metric(std::string_view name);

}  // namespace ct
