// The packet engine's flags of `simulate --engine packet` (sim/engine.h PacketOptions): --mtu,
// --vls, --switch-latency, --switch-buffer, --forwarding, --sharp-latency, --sharp-trees. A switch figure not given comes from the
// catalog's switch model; where the catalog has none, the engine names the flag to give.
#pragma once

#include <string>

#include "cli/command.h"
#include "sim/engine.h"

namespace ct::cli {

struct PacketFlags {
  std::string mtu;
  std::uint64_t vls = 1;
  std::string switch_latency;
  std::string switch_buffer;
  std::string forwarding;
  std::string sharp_latency;
  std::uint64_t sharp_trees = 0;  // 0: the catalog's
};

void add_packet_flags(CLI::App& app, PacketFlags& flags);

// The options the flags give; errors (exit 1) name the flag: a size or duration that does not
// parse, an MTU outside [64 B, 1 MiB].
Result<PacketOptions> packet_options(const PacketFlags& flags);

}  // namespace ct::cli
