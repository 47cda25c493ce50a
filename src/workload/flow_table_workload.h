// A flow table (traffic/flow_table.h) as workload flows (workload/workload.h), appended after
// what a scenario compiled, so that `simulate --flows FILE` runs file-given flows beside (or
// instead of) the scenario's collectives, under its faults, path model and seed.
//
// Mapping. Each operation of the table is one operation (reported as a transfer group: time =
// first start to last completion, algbw = its bytes / time, bus factor 1) and one phase, whose
// workers are the distinct senders (src) in order of first appearance. A flow with a pinned route
// gets exactly those hops (not routed, and not moved when routing converges after a fault: a
// pinned route is static). A flow between two ports without a route is routed by the fabric with
// the others of the table, in one batch. A flow between two GPUs of one host without a route is
// one NVLink flow (egress of src, ingress of dst). `after` rows become dependencies, `delay` the
// wait after them. The UDP source port, when not given, is the port of the row's connection
// (traffic/flow.h connection_source_port): its two ends (ports, or GPUs where it names GPUs) and
// QP index channel x Q + qp, Q = 1 + the largest qp among the rows between those ends, under the
// scenario's seed. So a row gets the port the scenario compiler gives the same flow (a transfer
// between two ports, QP qp; a mouse), whatever the row's place or id in the file.
#pragma once

#include <cstddef>
#include <vector>

#include "core/result.h"
#include "fabric/fabric.h"
#include "traffic/flow_table.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct {

// Errors (at the table's file:line): NVLink hops or flows when the catalog gives no NVLink figure
// for the node model.
// Returns the number of flows appended. When `max_min_weights` is given (compile_workload's, one
// per flow of `workload`), each row's `weight` is appended to it (the flow engine's alone).
Result<std::size_t> append_flow_table(const Fabric& fabric, const Scenario& scenario, const FlowTable& table,
                                      Workload& workload, std::vector<double>* max_min_weights = nullptr);

}  // namespace ct
