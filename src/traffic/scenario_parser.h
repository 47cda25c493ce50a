// YAML text -> Scenario (traffic/scenario.h), every name resolved against the built Topology. The
// `scenario:` key may be the whole of a scenario file or a block of the cluster spec itself.
//
//   scenario:
//     name: ring-1g                 # optional
//     seed: 1                       # mice endpoints and arrival times, QP source ports, random order
//     paths: ecmp                   # ecmp | spray | adaptive (traffic/scenario.h)
//     convergence: 0us              # default routing convergence after a link goes down or up
//     collectives:
//       - name: grad-sync
//         kind: all-reduce          # all-reduce | all-gather | reduce-scatter | all-to-all
//         algorithm: ring           # ring | tree | halving-doubling | hierarchical | sharp | direct
//         model: pipelined          # pipelined (default) | stepwise (traffic/collective.h "Models")
//         gpus: all                 # all | per-rail | per-host | [host0/gpu0, gpu9, 12] |
//                                   # {hosts: [0, 15], local: [0, 1], per: rail|host|none, order: in-order|random}
//         bytes: 1GiB
//         channels: 2               # default: one per NIC port of the group (planes x rails);
//                                   # halving-doubling, hierarchical: one per plane
//         qps: 1                    # default: routing.qps_per_connection
//         iterations: 3             # default 1
//         steps: 1                  # stepwise only: the first steps (a partial run), default all;
//                                   # implies model: stepwise when no model is given
//         compute: 5ms              # compute phase before each iteration's collective, default 0
//         start: 0us
//         weight: 1                 # max-min weight of each of its flows, > 0 (also on transfers and mice)
//     transfers:
//       - {name: t0, src: host0/gpu0, dst: host4/gpu0, bytes: 1GiB, start: 0us, group: story, weight: 2}
//     mice:
//       - {name: rpc, count: 2000, bytes: 64KiB, start: 0us, arrivals_per_s: 1e6, hosts: [0, 31]}
//     faults:
//       - {kind: degrade, port: host2/nic0, fraction: 0.52, at: 0us}
//       - {kind: down, link: "p0/leaf/0 -- p0/spine/3", parallel: 0, at: 2ms, convergence: 100us}
//       - {kind: down, switch: p0/spine/3, at: 2ms}
//       - {kind: repair, link: 1234, at: 9ms}
//
// Times are a number with a unit: ps, ns, us, ms, s; sizes 1GiB, 64KB (core/units.h, with their limits).
// GPUs: "host3/gpu2", "gpu26" or 26 (global id h x gpus_per_host + g). Ports: "host3/nic2/p1".
// Links: `link:` a LinkId or "A -- B" (Topology::link_name; every parallel cable unless
// `parallel:` picks one), `switch:` every link of a switch, `port:` a port's NIC link.
// Every problem is a diagnostic at file:line:column naming the field (scenario.faults[2].at); all
// of them are returned at once. This reader reads, resolves names and checks each value's type and
// range where it is read (limits from traffic/scenario_checks.h); the rules between values (a
// collective's shape, a transfer's two ends, mice hosts, a fault's fraction) are check_scenario's,
// judged on each item as it is read and reported at the line of the value they are about. The
// Scenario is put together by the one builder (traffic/scenario_builder.h), which also builds
// `simulate`'s flags (traffic/scenario_flags.h).
#pragma once

#include <string>

#include "core/result.h"
#include "fabric/fabric.h"
#include "fabric/name_directory.h"
#include "traffic/scenario.h"

namespace ct {

// Names are resolved by the fabric's name directory (fabric/name_directory.h). `default_seed`:
// the seed when the file gives no `seed:` (`simulate --seed`); it also orders `order: random`.
Result<Scenario> parse_scenario(const std::string& file, const std::string& text, const Fabric& fabric,
                                std::uint64_t default_seed = 1);
// The same on a bare topology's directory (tests on hand-built fixtures).
Result<Scenario> parse_scenario(const std::string& file, const std::string& text, const NameDirectory& names,
                                std::uint64_t default_seed = 1);

// A GPU selection in a list's or a mapping's form ("[0, host1/gpu2]", "{hosts: [0, 3], per: rail}"),
// text of its own (the --gpus flag): the collective {kind: all-reduce, bytes: 1GiB, gpus: TEXT} of
// a scenario with this seed, read and judged as a scenario file's would be. Only its groups and
// gpus_text are meant for the caller.
Result<CollectiveSpec> parse_gpu_selection(const std::string& file, const std::string& text, std::uint64_t seed,
                                           const NameDirectory& names);

// True when the YAML text parses and has a top-level `scenario:` key.
bool has_scenario_block(const std::string& text);

}  // namespace ct
