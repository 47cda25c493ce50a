// An InfiniBand subnet read from the wire (ibnetdiscover output, ib/ibnetdiscover.h) as a Fabric
// the engines run (`clustertwin simulate --ibnetdiscover FILE --ib-routing ENGINE`), routed by the
// subnet manager's LFTs for that engine (fabric/lft_forwarding.h): the paths `ib route` checks and
// `ib trace` prints are the paths the flows take, so a credit loop the checker reports is a loop
// the packet engine's credits can close.
//
// Mapping:
//   hosts     one per cabled CA port, in node then port order; one GPU and one backend NIC each
//             (spec/valid_spec.h imported_spec). Named by the CA's node description ("HA"), or
//             "DESC:PORT" when the CA has several cabled ports; a description that two nodes share
//             gives way to the node id, so every name is unique.
//             Its GPU keeps the structural name host<h>/gpu0, h the host's place in that order
//             (the first CA's GPU is host0/gpu0), as --gpus and the workers' table spell GPUs.
//   switches  one vertex each (tier 1), named by its description (or id, as above).
//   cables    one link each: CA cables first (the NIC link of host h is link h), then switch to
//             switch cables in node then port order, the lower end the node that comes first.
//   rates     the cable's width x speed as the file states it ("4xNDR" = 400 Gb/s, ib/ib_fabric.h
//             IbLinkRate), the slower end's when both ends state one; a cable neither end states
//             a rate for is an error at its node's line.
//   latency   not in the file: 0 (not modelled), as a spec without link_latency_ns.
//   switches' figures (latency, buffer, forwarding): not in the file; the switch model has none,
//             so a packet run is given them by flag (--switch-latency, --switch-buffer, --forwarding).
//
// Errors: a CA cabled to another CA (no switch between), no CA at all, a cable without a rate. A
// host no LFT reaches is the engines' error ("no path from A to B"), when a flow goes there.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "core/result.h"
#include "fabric/fabric.h"
#include "ib/ib_fabric.h"
#include "ib/ib_routing.h"

namespace ct {

// `routing` is the subnet manager's for `subnet` (route_fabric, subnet_manager.h); `name`: the
// report's name of the fabric (the file's).
Result<Fabric> simulation_fabric(const IbFabric& subnet, const IbRouting& routing, const Catalog& catalog,
                                 const std::string& name);

}  // namespace ct
