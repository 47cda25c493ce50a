#include "cli/packet_flags.h"

#include <cstdlib>
#include <tuple>

#include <fmt/format.h>

#include "cli/choice_option.h"

namespace ct::cli {

void add_packet_flags(CLI::App& app, PacketFlags& flags) {
  app.add_option("--mtu", flags.mtu, "Packet engine: payload bytes per packet (default 4096, InfiniBand's largest MTU)");
  add_unsigned_option(app, "--vls", flags.vls, "Packet engine: data virtual lanes (a flow's VL: its channel mod VLs)", 1, 15);
  app.add_option("--switch-latency", flags.switch_latency,
                 "Packet engine: switch port-to-port latency, e.g. 200ns (default: the catalog's)");
  app.add_option("--switch-buffer", flags.switch_buffer,
                 "Packet engine: input buffer per port and VL, e.g. 64KiB (credits of 64 B; default: the catalog's)");
  add_choice_option(app, "--forwarding", flags.forwarding, {"cut-through", "store-and-forward"},
                    "Packet engine: cut-through | store-and-forward (default: the catalog's)");
  add_choice_option(app, "--dcqcn", flags.dcqcn, {"on", "off"},
                    "Packet engine, RoCE v2: ECN marking and DCQCN rate control, on | off (default on)");
  app.add_option("--ecn-kmin", flags.ecn_kmin, "Packet engine, RoCE v2: RED's Kmin per egress queue (default 5KB, DCQCN paper)");
  app.add_option("--ecn-kmax", flags.ecn_kmax, "Packet engine, RoCE v2: RED's Kmax (default 200KB, DCQCN paper)");
  app.add_option("--ecn-pmax", flags.ecn_pmax, "Packet engine, RoCE v2: RED's Pmax, marking probability at Kmax (default 0.01)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--dcqcn-param", flags.dcqcn_params,
                 "Packet engine, RoCE v2: a DCQCN parameter NAME=VALUE (g, alpha-timer, increase-timer, byte-counter, "
                 "fast-recovery, rai, rhai, min-rate, cnp-interval); repeatable");
  app.add_option("--csv-queues", flags.csv_queues,
                 "Packet engine: write the 8 output queues with the largest time-weighted mean occupancy over time "
                 "as CSV (mean and peak bytes per bin)");
  app.add_flag("--compare-engines", flags.compare_engines,
               "Run the flow and the packet engine on the scenario and report them side by side per operation");
  add_threads_option(app, flags.threads,
                     "Threads: --compare-engines runs its two engines at once; each engine runs on one thread (the "
                     "output does not depend on it)");
  app.add_option("--sharp-latency", flags.sharp_latency,
                 "Packet engine, SHARP: reduction latency per aggregating switch, e.g. 100ns (default: the catalog's)");
  add_unsigned_option(app, "--sharp-trees", flags.sharp_trees,
                      "Packet engine, SHARP: aggregation trees active at once per switch (default: the catalog's)", 1, 1 << 20);
}

namespace {

// One --dcqcn-param NAME=VALUE into the parameters; an error message, or empty.
std::string set_dcqcn_param(const std::string& item, DcqcnParams& p) {
  const auto eq = item.find('=');
  if (eq == std::string::npos) return fmt::format("'{}' is not NAME=VALUE", item);
  const std::string name = item.substr(0, eq);
  const std::string value = item.substr(eq + 1);
  const auto duration = [&](TimePs& out) -> std::string {
    auto d = parse_duration(value);
    if (!d || d->value() <= 0) return fmt::format("{}: '{}' is not a positive duration", name, value);
    out = d.value();
    return {};
  };
  const auto speed = [&](BitsPerSecond& out) -> std::string {
    auto s = parse_speed(value);
    if (!s || s->value() <= 0) return fmt::format("{}: '{}' is not a positive rate", name, value);
    out = s.value();
    return {};
  };
  if (name == "alpha-timer") return duration(p.alpha_timer);
  if (name == "increase-timer") return duration(p.increase_timer);
  if (name == "cnp-interval") return duration(p.cnp_interval);
  if (name == "rai") return speed(p.additive);
  if (name == "rhai") return speed(p.hyper);
  if (name == "min-rate") return speed(p.min_rate);
  if (name == "byte-counter") {
    auto b = parse_size(value);
    if (!b || b->value() <= 0) return fmt::format("byte-counter: '{}' is not a positive size", value);
    p.byte_counter = b->value();
    return {};
  }
  char* end = nullptr;
  const double x = std::strtod(value.c_str(), &end);
  const bool number = !value.empty() && end == value.c_str() + value.size();
  if (name == "g") {
    if (!number || x <= 0 || x > 1) return fmt::format("g: '{}' is not in (0, 1]", value);
    p.g = x;
    return {};
  }
  if (name == "fast-recovery") {
    if (!number || x < 0 || x > 1000 || x != static_cast<double>(static_cast<int>(x))) {
      return fmt::format("fast-recovery: '{}' is not a whole number of steps in [0, 1000]", value);
    }
    p.fast_recovery_steps = static_cast<std::uint32_t>(x);
    return {};
  }
  return fmt::format("unknown parameter '{}' (g, alpha-timer, increase-timer, byte-counter, fast-recovery, rai, rhai, "
                     "min-rate, cnp-interval)",
                     name);
}

}  // namespace

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
  if (!flags.dcqcn.empty()) o.dcqcn = flags.dcqcn == "on";
  for (const auto& [text, out, flag] : {std::tuple{&flags.ecn_kmin, &o.ecn.kmin_bytes, "--ecn-kmin"},
                                        std::tuple{&flags.ecn_kmax, &o.ecn.kmax_bytes, "--ecn-kmax"}}) {
    if (text->empty()) continue;
    auto size = parse_size(*text);
    if (!size) return flag_error(flag, size.errors().front().message);
    *out = size->value();
  }
  if (o.ecn.kmin_bytes > o.ecn.kmax_bytes) {
    return flag_error("--ecn-kmin", fmt::format("Kmin {} B is above Kmax {} B", o.ecn.kmin_bytes, o.ecn.kmax_bytes));
  }
  if (flags.ecn_pmax >= 0) o.ecn.pmax = flags.ecn_pmax;
  for (const std::string& item : flags.dcqcn_params) {
    if (const std::string error = set_dcqcn_param(item, o.dcqcn_params); !error.empty()) return flag_error("--dcqcn-param", error);
  }
  if (!flags.sharp_latency.empty()) {
    auto latency = parse_duration(flags.sharp_latency);
    if (!latency) return flag_error("--sharp-latency", latency.errors().front().message);
    o.sharp_latency = latency.value();
  }
  if (flags.sharp_trees > 0) o.sharp_trees = static_cast<std::uint32_t>(flags.sharp_trees);
  return o;
}

std::string packet_flags_usage(const PacketFlags& flags, EngineKind engine, bool engine_given, bool single_run_outputs) {
  if (flags.compare_engines) {
    if (engine_given) return "--compare-engines runs both engines: leave out --engine";
    if (!flags.csv_queues.empty() || single_run_outputs) {
      return "--compare-engines writes its own report: leave out --csv-links, --csv-flows, --csv-series, --csv-queues "
             "and --html (run one engine for them)";
    }
    return "";
  }
  if (!flags.csv_queues.empty() && engine != EngineKind::kPacket) return "--csv-queues needs --engine packet (queues)";
  return "";
}

}  // namespace ct::cli
