// gNMI interface counters as gnmic prints them with --format json, read as switch counter
// samples (counter_reader.h): openconfig-interfaces `out-octets` / `in-octets` (counter64).
//
// Shape (gnmic's formatters.NotificationRspMsg): a notification is an object
//   {"source": "leaf0:57400", "timestamp": 1764770400000000000, "time": "...",
//    "prefix": "openconfig-interfaces:interfaces/interface[name=Ethernet8]/state/counters",
//    "updates": [{"Path": "out-octets", "values": {"out-octets": 123}}]}
// `gnmic get` prints an array of them, `gnmic subscribe` a stream of objects one after the other;
// both are read (any mix of top-level objects and arrays). The update's path, joined to the prefix,
// names the interface (`interface[name=...]`) and the leaf. A leaf value is a JSON number or, in
// JSON_IETF encoding (RFC 7951: 64-bit integers as strings), a string of digits. A path ending in
// `state/counters` carries the container: an object whose keys are the leaves, with or without the
// module prefix (`openconfig-interfaces:out-octets`). Subinterface counters are ignored.
// `source` is the instance (required); `timestamp` (ns since the epoch, required, > 0) the time, so
// one subscribe file can hold a whole series.
// Errors (file:line of the notification, field): not JSON, a notification without source or
// timestamp, a counter that is negative, fractional, past 2^64 or not a number; no interface
// counter in the whole file (file:1:1).
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "diagnose/counter_reader.h"

namespace ct {

Result<Scrape> read_gnmi_json(std::string_view text, const std::string& file);

// True when `text` starts (after blanks) with '{' or '[' and mentions an "updates" key.
bool looks_like_gnmi(std::string_view text);

}  // namespace ct
