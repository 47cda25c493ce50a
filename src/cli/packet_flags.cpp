#include "cli/packet_flags.h"

#include <fmt/format.h>

namespace ct::cli {

void add_packet_flags(CLI::App& app, PacketFlags& flags) {
  app.add_option("--mtu", flags.mtu, "Packet engine: payload bytes per packet (default 4096, InfiniBand's largest MTU)");
  add_unsigned_option(app, "--vls", flags.vls, "Packet engine: data virtual lanes (a flow's VL: its channel mod VLs)", 1, 15);
  app.add_option("--switch-latency", flags.switch_latency,
                 "Packet engine: switch port-to-port latency, e.g. 200ns (default: the catalog's)");
  app.add_option("--switch-buffer", flags.switch_buffer,
                 "Packet engine: input buffer per port and VL, e.g. 64KiB (credits of 64 B; default: the catalog's)");
  app.add_option("--forwarding", flags.forwarding, "Packet engine: cut-through | store-and-forward (default: the catalog's)")
      ->check(CLI::IsMember({"cut-through", "store-and-forward"}));
  app.add_option("--sharp-latency", flags.sharp_latency,
                 "Packet engine, SHARP: reduction latency per aggregating switch, e.g. 100ns (default: the catalog's)");
  add_unsigned_option(app, "--sharp-trees", flags.sharp_trees,
                      "Packet engine, SHARP: aggregation trees active at once per switch (default: the catalog's)", 1, 1 << 20);
}

Result<PacketOptions> packet_options(const PacketFlags& flags) {
  PacketOptions o;
  o.vls = static_cast<std::uint8_t>(flags.vls);
  if (!flags.mtu.empty()) {
    auto mtu = parse_size(flags.mtu);
    if (!mtu) return flag_error("--mtu", mtu.errors().front().message);
    if (mtu->value() < 64 || mtu->value() > 1024 * 1024) {
      return flag_error("--mtu", fmt::format("{} B is outside [64 B, 1 MiB]", mtu->value()));
    }
    o.mtu = mtu->value();
  }
  if (!flags.switch_latency.empty()) {
    auto latency = parse_duration(flags.switch_latency);
    if (!latency) return flag_error("--switch-latency", latency.errors().front().message);
    o.switch_latency = latency.value();
  }
  if (!flags.switch_buffer.empty()) {
    auto buffer = parse_size(flags.switch_buffer);
    if (!buffer) return flag_error("--switch-buffer", buffer.errors().front().message);
    if (buffer->value() > 10'000'000'000) return flag_error("--switch-buffer", "more than 10 GB per port and VL");
    o.buffer_bytes = buffer->value();
  }
  if (!flags.forwarding.empty()) o.cut_through = flags.forwarding == "cut-through";
  if (!flags.sharp_latency.empty()) {
    auto latency = parse_duration(flags.sharp_latency);
    if (!latency) return flag_error("--sharp-latency", latency.errors().front().message);
    o.sharp_latency = latency.value();
  }
  if (flags.sharp_trees > 0) o.sharp_trees = static_cast<std::uint32_t>(flags.sharp_trees);
  return o;
}

}  // namespace ct::cli
