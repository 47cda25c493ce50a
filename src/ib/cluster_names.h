// The names a user types for the IB model's nodes (fabric_edits.h), on a subnet built from a
// spec's fabric (topology_to_ib.h): cluster names. A name the subnet knows (a node description,
// which is the vertex name, a node id or a GUID) is taken as is; any other goes through the
// fabric's name directory (fabric/name_directory.h: "host3" is host3/nic0, as in every command),
// which also gives the did-you-mean. A port suffix (NODE:PORT) and, where the caller allows one, a
// destination LID pass through. On a subnet read from an ibnetdiscover file there is no directory
// (null) and every name passes through to the IB model's own lookup.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/name_directory.h"
#include "ib/ib_fabric.h"

namespace ct {

// One node (NODE or NODE:PORT; with `lid_allowed`, also a LID), as the IB model names it.
// Errors are at `where`, with `field` (the option or argument that gave the name).
Result<std::string> ib_node_name(const IbFabric& subnet, const NameDirectory* names, const std::string& name,
                                 const SourceLocation& where, const std::string& field, bool lid_allowed);

// Failures (NODE, NODE:PORT or NODE,NODE; fabric_edits.h) with their node names translated as
// above; every bad name is reported, at `where` with the field "--fail".
Result<std::vector<std::string>> ib_failure_names(const IbFabric& subnet, const NameDirectory* names,
                                                  const std::vector<std::string>& failures, const SourceLocation& where);

}  // namespace ct
