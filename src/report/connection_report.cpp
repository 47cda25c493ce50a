#include "report/connection_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

}  // namespace

std::string bytes_text(double b) {
  if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.2f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.2f} kB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

std::string rate_column(const TrafficOptions& o) {
  return o.rate_source == RateSource::kCaptureInterval ? fmt::format("rate over {:g} s", o.capture_seconds)
                                                       : std::string("ss delivery_rate");
}

TextTable traffic_top_table(const TrafficSummary& s, const TrafficOptions& o) {
  TextTable t({{"connection"}, {"proto"}, {"bytes", Align::kRight}, {rate_column(o), Align::kRight}}, "Largest connections");
  for (const Connection& c : s.top) {
    t.add_row({c.local + " -> " + c.peer, c.protocol, bytes_text(static_cast<double>(c.bytes)),
               c.bits_per_second < 0 ? "-" : fmt::format("{:.2f} Gb/s", c.bits_per_second / 1e9)});
  }
  return t;
}

// Why connections have no byte counts and how to get them; "" when every connection has them.
std::string unknown_sizes_hint(const TrafficSummary& s, const TrafficOptions& o) {
  if (s.bytes_unknown == 0) return "";
  if (o.source == ConnectionSource::kConntrack) {
    return fmt::format("{} of {} conntrack entries have no byte counters: conntrack accounting is off (the kernel's "
                       "default); turn it on with `sysctl -w net.netfilter.nf_conntrack_acct=1` (bytes count from then on)",
                       s.bytes_unknown, s.connections);
  }
  return fmt::format("{} of {} sockets have no bytes_sent/bytes_acked/bytes_received in ss's tcp_info (give `ss -tin`)",
                     s.bytes_unknown, s.connections);
}

// The elephants and their collision odds, never concluded from connections without byte counts.
std::string elephant_text(const TrafficSummary& s, const TrafficOptions& o) {
  if (s.bytes_unknown == s.connections && s.connections > 0) {
    return "  sizes unknown: without byte counters neither the elephants nor their collisions can be told\n  " +
           unknown_sizes_hint(s, o) + "\n";
  }
  std::string out;
  const std::string among =
      s.bytes_unknown > 0 ? fmt::format(" among the {} connections with byte counters", s.connections - s.bytes_unknown) : "";
  if (s.elephants >= 2) {
    out += fmt::format("  {} elephants{} on {} members: P(any collision) = {:.4f}", s.elephants, among, s.width, s.elephant_collision);
    if (s.elephant_max_load >= 0) out += fmt::format(", expected elephants on the busiest member {:.2f}", s.elephant_max_load);
    out += "\n";
  } else if (s.bytes_unknown > 0) {
    out += fmt::format("  {} elephant{}{}; the {} without byte counters may hold more, so no conclusion on collisions\n",
                       s.elephants, s.elephants == 1 ? "" : "s", among, s.bytes_unknown);
  } else {
    out += fmt::format("  {} elephant{}: no collision is possible, but it can use only one member's bandwidth\n", s.elephants,
                       s.elephants == 1 ? "" : "s");
  }
  if (s.bytes_unknown > 0) out += "  " + unknown_sizes_hint(s, o) + "\n";
  return out;
}

std::string to_text(const TrafficSummary& s, const TrafficOptions& o) {
  std::string out = fmt::format("{} connections, {} in total", s.connections, bytes_text(s.total_bytes));
  if (s.bytes_unknown > 0) out += fmt::format(" ({} without byte accounting)", s.bytes_unknown);
  out += "\n";
  if (s.bytes_unknown == s.connections && s.connections > 0) {
    out += "mice and elephants: unknown (no connection has byte counters)\n";
  } else {
    out += fmt::format("mice: {} below {}; elephants: {} carrying {} ({:.1f}% of the bytes)\n", s.connections - s.elephants - s.bytes_unknown,
                       bytes_text(static_cast<double>(o.elephant_bytes)), s.elephants, bytes_text(s.elephant_bytes),
                       s.total_bytes > 0 ? 100.0 * s.elephant_bytes / s.total_bytes : 0.0);
  }
  out += fmt::format("top connection: {:.1f}% of the bytes; top 10: {:.1f}%\n", 100.0 * s.top1_share, 100.0 * s.top10_share);
  if (!s.top.empty()) out += "\n" + traffic_top_table(s, o).render();
  if (s.netdev_bps >= 0 || s.rdma_bps >= 0) {
    out += fmt::format("\nNIC counters: netdev {}, RDMA {}", s.netdev_bps < 0 ? "none" : fmt::format("{:.2f} Gb/s", s.netdev_bps / 1e9),
                       s.rdma_bps < 0 ? "none" : fmt::format("{:.2f} Gb/s", s.rdma_bps / 1e9));
    out += s.rdma_bps > 0 ? ": RDMA traffic appears in no socket table or conntrack entry\n" : "\n";
  }
  out += "\nWhat it means for ECMP:\n";
  if (s.width == 0) {
    out += "  fabric width unknown: give the SPEC or --width\n";
    if (s.bytes_unknown > 0) out += "  " + unknown_sizes_hint(s, o) + "\n";
  } else {
    out += fmt::format("  {:.1f} connections per member of a {}-way leaf up group: the many mice spread, ", s.connections_per_member, s.width);
    out += "but they carry few of the bytes\n";
    out += elephant_text(s, o);
  }
  return out;
}

std::string to_json(const TrafficSummary& s, const TrafficOptions& o) {
  Json j;
  j["connections"] = s.connections;
  j["bytes_unknown"] = s.bytes_unknown;
  j["bytes_unknown_why"] = s.bytes_unknown > 0 ? Json(unknown_sizes_hint(s, o)) : Json();
  j["total_bytes"] = s.total_bytes;
  j["elephant_threshold_bytes"] = o.elephant_bytes;
  j["elephants"] = s.elephants;
  j["elephant_bytes"] = s.elephant_bytes;
  j["top1_share"] = s.top1_share;
  j["top10_share"] = s.top10_share;
  Json top = Json::array();
  for (const Connection& c : s.top) {
    top.push_back(Json{{"local", c.local}, {"peer", c.peer}, {"protocol", c.protocol}, {"bytes", c.bytes},
                       {"bps", c.bits_per_second < 0 ? Json() : Json(c.bits_per_second)}});
  }
  j["top"] = top;
  j["bps_is"] = o.rate_source == RateSource::kCaptureInterval ? "bytes over the capture interval" : "ss delivery_rate";
  Json sizes = Json::array();
  for (const SizeDecade& d : s.sizes) {
    sizes.push_back(Json{{"from_bytes", d.from_bytes}, {"to_bytes", d.to_bytes}, {"mice", d.mice},
                         {"elephants", d.elephants}, {"bytes", d.bytes}});
  }
  j["size_distribution"] = sizes;
  j["width"] = s.width;
  j["connections_per_member"] = s.connections_per_member;
  j["elephant_collision_probability"] = s.elephant_collision < 0 ? Json() : Json(s.elephant_collision);
  j["elephant_expected_max_load"] = s.elephant_max_load < 0 ? Json() : Json(s.elephant_max_load);
  j["elephant_collision_curve"] = s.collision_curve;
  j["netdev_bps"] = s.netdev_bps < 0 ? Json() : Json(s.netdev_bps);
  j["rdma_bps"] = s.rdma_bps < 0 ? Json() : Json(s.rdma_bps);
  return j.dump(2) + "\n";
}

}  // namespace ct
