// IPv4 addresses of the backend NIC ports, the source and destination addresses of flow keys.
//
// Scheme (deterministic, one address per logical port, host h, rail r, plane p of a fabric with H
// hosts, R rails and P planes):
//   compact  H <= 65,536, R <= 16, P <= 16:  10 . (16 p + r) . (h / 256) . (h mod 256)
//            one /16 per (plane, rail), hosts numbered inside it. The second octet makes the rail
//            and plane readable: 10.1.0.7 is host 7's NIC 1 on plane 0; 10.17.0.7 the same NIC's
//            port on plane 1.
//   dense    otherwise:  10.0.0.0 + ((p R + r) H + h), modulo 2^32
//            every port numbered plane by plane, rail by rail; distinct while P R H <= 2^32.
// The compact scheme is kept wherever it fits, so the addresses (and the hashes of every flow key)
// of those fabrics never change. Every fabric a topology can hold fits the dense scheme: its ports
// are vertices, numbered by 32-bit ids. Real fabrics number their point-to-point subnets in many
// ways; the hash only needs distinct, stable addresses, and the addresses of the two ends of a flow
// enter its key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/ids.h"
#include "topology/topology.h"

namespace ct {

// True when every backend port of the topology has an address under the scheme above
// (planes x rails x hosts <= 2^32).
bool addressable(const Topology& topology);
// True when the topology's ports fit the compact scheme.
bool compact_addresses(const Topology& topology);

// PRECONDITION: addressable(topology); v is a backend port.
std::uint32_t port_address(const Topology& topology, VertexId port);

// The backend port that owns `address`, if any.
std::optional<VertexId> port_of_address(const Topology& topology, std::uint32_t address);

// "10.1.0.7".
std::string format_ipv4(std::uint32_t address);
// Parses a dotted quad; nullopt when `text` is not one.
std::optional<std::uint32_t> parse_ipv4(const std::string& text);

}  // namespace ct
