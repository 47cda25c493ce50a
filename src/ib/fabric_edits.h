// Naming nodes and removing cables from the command line or a file.
//
// A node is named by its node id ("S-0002c9..."), its description ("p0/leaf/3") or its GUID
// ("0x0002c90200000001"; a CA port GUID names the CA). Node lists (OpenSM's root_guid_file and
// cn_guid_file) hold one name per line; '#' starts a comment.
// A failure names what to unplug:
//   NODE:PORT   the cable on that port          NODE   every cable of the node (a dead host/switch)
//   NODE,NODE   every cable between the two nodes
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "ib/ib_fabric.h"

namespace ct {

// Errors are located on the command line (field "node"), where such names come from.
Result<IbNodeId> find_node(const IbFabric& fabric, std::string_view key);
// One node per line. With `required`, a node of the other type is an error at its line (a roots
// file, OpenSM's root_guid_file, names switches; a compute-node file, cn_guid_file, names CAs),
// never silently dropped; so is a file that names no node at all (line 1).
Result<std::vector<IbNodeId>> parse_node_list(const IbFabric& fabric, std::string_view text, const std::string& file,
                                              std::optional<IbNodeType> required = std::nullopt);
// Removes the cables named by each failure, in order. Returns the number of cables removed;
// errors name the failure that matches nothing ("command line: error: --fail: ...").
Result<std::size_t> apply_failures(IbFabric& fabric, const std::vector<std::string>& failures);

}  // namespace ct
