// The ids of the whole project, one tag each. A "host" is a server (an HGX node); a "vertex" is a
// network element of the topology graph (a NIC port or a switch); a "link" is a full-duplex cable.
#pragma once

#include "core/strong_id.h"

namespace ct {

using HostId = StrongId<struct HostTag>;
using VertexId = StrongId<struct VertexTag>;
using LinkId = StrongId<struct LinkTag>;
using FlowId = StrongId<struct FlowTag>;
using PlaneId = StrongId<struct PlaneTag, std::uint16_t>;

}  // namespace ct
