// Reading the spec's `routing:` block into RoutingSpec (spec.h): every field with the place it came
// from.
//
//   routing:
//     ecmp:
//       hash: crc32               # a hash function of routing/hash_function.h, or `linux`
//       fields: [src_ip, dst_ip, protocol, src_port, dst_port]   # the header fields hashed
//       seed: 0x5EED              # base seed (decimal or 0x hex, 0 .. 2^64-1)
//       seed_mode: same           # same | per-tier | per-switch (routing/seed_policy.h)
//       seed_input: prepend       # prepend | init (routing/hash_function.h)
//       selection: hash-threshold # modulo | hash-threshold (routing/member_select.h)
//       linux_policy: 0           # hash: linux only, net.ipv4.fib_multipath_hash_policy 0..3
//     flowlet_gap_us: 500         # flowlet scheme: an idle gap this long starts a new flowlet
//     qps_per_connection: 1       # RDMA queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION)
//
// The spec layer checks the shape (types, unknown and repeated keys, numeric ranges); the names
// of functions, fields and modes are resolved by the routing layer (routing/ecmp_config.h), which
// owns them, with the same file:line:field diagnostics.
#pragma once

#include <string>

#include "core/diagnostic.h"
#include "spec/spec.h"
#include "yaml/yaml_reader.h"

namespace ct {

// Reads the value of the `routing:` key into `out` through the spec's reader, which records every
// problem (unknown or repeated fields with a suggestion, wrong types, numbers out of range).
void read_routing_spec(YamlReader& reader, const YamlNode& key, const YamlNode& value, RoutingSpec& out);

// Checks that need no routing knowledge: linux_policy in 0..3, flowlet_gap_us > 0,
// qps_per_connection in 1..65536, fields not repeated.
void check_routing_spec(const RoutingSpec& spec, Diagnostics& errors);

}  // namespace ct
