#include "report/plan_report.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/html/html_document.h"
#include "report/html/svg_chart.h"
#include "report/table.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kTierNames[] = {"leaf", "spine", "core"};


std::string tier_name(int tier) { return tier >= 1 && tier <= 3 ? kTierNames[tier - 1] : "?"; }

// Link speeds and aggregate capacities: "400G", "1.6T", "3,276.8T" (thousands grouped; no peta
// prefix, which readers of network plans rarely use).
std::string speed_text(BitsPerSecond b) {
  if (b.value() <= 0) return "-";
  if (b.value() < 10'000'000'000'000) return format_speed(b);
  const double tbps = static_cast<double>(b.value()) / 1e12;
  const auto whole = static_cast<long long>(tbps);
  std::string text = fmt::format("{:g}", tbps - static_cast<double>(whole));  // "0.8" or "0"
  std::string grouped = std::to_string(whole);
  for (int i = static_cast<int>(grouped.size()) - 3; i > 0; i -= 3) grouped.insert(static_cast<std::size_t>(i), ",");
  return grouped + (text == "0" ? "" : text.substr(1)) + "T";
}
std::string link_speed_text(BitsPerSecond b) { return b.value() > 0 ? format_speed(b) : "mixed"; }

std::string ratio_text(double r) {
  if (r <= 0) return "-";
  if (std::abs(r - std::round(r)) < 1e-9) return fmt::format("{}:1", static_cast<long long>(std::round(r)));
  return fmt::format("{:.2f}:1", r);
}

// Three significant digits: "50%", "0.781%", "0.0061%".
std::string percent_text(double share) { return fmt::format("{:.3g}%", share * 100.0); }

std::string figure_text(double v) {
  if (std::abs(v - std::round(v)) < 1e-9) return count_text(static_cast<long long>(std::round(v)));
  return fmt::format("{:.2f}", v);
}

std::string gpu_name(long long host, int rail) { return fmt::format("host{}/nic{}", host, rail); }

// One value when all planes agree, else "a / b / ...".
template <typename T>
std::string per_plane_text(const std::vector<T>& values) {
  bool same = true;
  for (const auto& v : values) same = same && v == values.front();
  std::string out;
  for (std::size_t i = 0; i < (same ? std::min<std::size_t>(values.size(), 1) : values.size()); ++i) {
    bool unreachable = false;
    if constexpr (std::is_signed_v<T>) unreachable = values[i] < 0;
    out += (i > 0 ? " / " : "") + (unreachable ? std::string("unreachable") : count_text(static_cast<long long>(values[i])));
  }
  return out;
}

const ScaleLimit* chosen_limit(const Plan& p) {
  for (const auto& s : p.scale_limits) {
    if (s.chosen) return &s;
  }
  return nullptr;
}

// ---- text -------------------------------------------------------------------------------------

std::string header_text(const Plan& p) {
  std::string out = fmt::format("plan: {}\n", p.name);
  out += fmt::format("cluster: {} x {} = {} GPUs; {} backend NICs ({}), {} per node\n", count_text(p.hosts),
                     p.node_model, count_text(p.gpus), count_text(p.nics), p.nic_model, p.nics_per_host);
  const ScaleLimit* s = chosen_limit(p);
  out += fmt::format("backend: {}, {} plane{} x {} tiers of {}", p.topology, p.planes, p.planes > 1 ? "s" : "", p.tiers,
                     p.switch_model);
  if (s != nullptr) out += fmt::format(" at {} (radix {})", format_speed(s->port_speed), s->radix);
  out += "\n";
  if (p.planes > 1) {
    out += p.cross_plane_links == 0
               ? "planes: disjoint (0 links between planes, counted on the built topology)\n"
               : fmt::format("planes: NOT disjoint: {} links join two planes\n", count_text(p.cross_plane_links));
  }
  if (s == nullptr) return out;
  out += fmt::format("scale limits: 2 tiers reach {} GPUs, 3 tiers {}\n", count_text(s->gpus_2_tiers),
                     count_text(s->gpus_3_tiers));
  const int needed = p.gpus <= s->gpus_2_tiers ? 2 : (p.gpus <= s->gpus_3_tiers ? 3 : 0);
  if (needed == 0) {
    out += fmt::format("this design: {} GPUs exceed what 3 tiers reach\n", count_text(p.gpus));
  } else {
    out += fmt::format("this design: {} GPUs need {} tiers; built with {}\n", count_text(p.gpus), needed, p.tiers);
  }
  return out;
}

TextTable limits_table(const Plan& p) {
  TextTable t({{"planes", Align::kRight},
               {"port speed", Align::kRight},
               {"radix", Align::kRight},
               {"2 tiers reach", Align::kRight},
               {"3 tiers reach", Align::kRight},
               {"fits " + count_text(p.gpus) + " GPUs in"},
               {"note"}},
              "scale limits by plane count (each NIC cage split into one port per plane; GPUs)");
  for (const auto& s : p.scale_limits) {
    if (s.radix <= 0) {
      t.add_row({std::to_string(s.planes), format_speed(s.port_speed), "-", "-", "-",
                 fmt::format("{} has no {} ports", p.switch_model, format_speed(s.port_speed)), s.chosen ? "<- this design" : ""});
      continue;
    }
    const std::string fits = p.gpus <= s.gpus_2_tiers ? "2 tiers" : (p.gpus <= s.gpus_3_tiers ? "3 tiers" : "no");
    t.add_row({std::to_string(s.planes), format_speed(s.port_speed), std::to_string(s.radix), count_text(s.gpus_2_tiers),
               count_text(s.gpus_3_tiers), fits, s.chosen ? "<- this design" : ""});
  }
  return t;
}

// The tier and media tables serve both networks: the backend's with a plane column (a row per
// plane, then "all"), the frontend's (one plane) without.
TextTable with_plane_column(bool planes, std::vector<TableColumn> columns, std::string title) {
  if (planes) columns.insert(columns.begin(), TableColumn{"plane"});
  return TextTable(std::move(columns), std::move(title));
}
std::vector<std::string> with_plane_cell(const std::optional<std::string>& plane, std::vector<std::string> cells) {
  if (plane) cells.insert(cells.begin(), *plane);
  return cells;
}

TextTable tier_columns(bool planes, std::string title) {
  return with_plane_column(planes,
                           {{"tier"},
                            {"switches", Align::kRight},
                            {"ports used", Align::kRight},
                            {"ports free", Align::kRight},
                            {"links", Align::kRight},
                            {"link speed", Align::kRight},
                            {"down", Align::kRight},
                            {"up", Align::kRight},
                            {"down:up", Align::kRight}},
                           std::move(title));
}

void add_tier_rows(TextTable& t, const std::optional<std::string>& plane, const std::vector<TierFigures>& tiers) {
  for (const auto& f : tiers) {
    t.add_row(with_plane_cell(plane, {tier_name(f.tier), count_text(f.switches), count_text(f.ports_used),
                                      count_text(f.ports_free), count_text(f.links), link_speed_text(f.link_speed),
                                      speed_text(f.down_capacity), speed_text(f.up_capacity),
                                      ratio_text(f.oversubscription)}));
  }
}

TextTable tiers_table(const Plan& p) {
  TextTable t = tier_columns(
      true, "switches, logical ports and links per tier (links counted at their upper end; tier leaf = NIC-leaf)");
  for (const auto& plane : p.plane_figures) add_tier_rows(t, std::to_string(plane.plane), plane.tiers);
  if (p.planes > 1) add_tier_rows(t, "all", p.total_tiers);
  return t;
}

TextTable media_columns(bool planes, std::string title) {
  return with_plane_column(planes,
                           {{"medium"},
                            {"kind"},
                            {"links", Align::kRight},
                            {"switch modules", Align::kRight},
                            {"NIC modules", Align::kRight},
                            {"fibers/cables", Align::kRight}},
                           std::move(title));
}

void add_media_rows(TextTable& t, const std::optional<std::string>& plane, const std::vector<MediaFigures>& media) {
  for (const auto& m : media) {
    const bool xcvr = m.kind == "transceiver";
    t.add_row(with_plane_cell(plane, {m.id, m.kind, count_text(m.links), xcvr ? count_text(m.switch_modules) : "-",
                                      xcvr ? count_text(m.nic_modules) : "-", count_text(m.cables)}));
  }
}

TextTable media_table(const Plan& p) {
  TextTable t =
      media_columns(true, "optics and cables (one module per used cage; a NIC module serves all planes of its NIC)");
  for (const auto& plane : p.plane_figures) add_media_rows(t, std::to_string(plane.plane), plane.media);
  if (p.planes > 1) add_media_rows(t, "all", p.total_media);
  return t;
}

std::string bisection_ratio_text(BitsPerSecond b, BitsPerSecond half) {
  return half.value() > 0 ? fmt::format("{:.2f}", static_cast<double>(b.value()) / static_cast<double>(half.value()))
                          : "-";
}

TextTable bisection_table(const Plan& p) {
  TextTable t({{"plane"}, {"bisection", Align::kRight}, {"half's NIC capacity", Align::kRight}, {"ratio", Align::kRight}},
              "bisection: max-flow from hosts [0, H/2) to [H/2, H), one direction");
  auto row = [&](const std::string& plane, BitsPerSecond b, BitsPerSecond half) {
    t.add_row({plane, speed_text(b), speed_text(half), bisection_ratio_text(b, half)});
  };
  for (const auto& plane : p.plane_figures) row(std::to_string(plane.plane), plane.bisection, plane.half_injection);
  if (p.planes > 1) row("all", p.bisection, p.half_injection);
  return t;
}

TextTable hops_table(const Plan& p) {
  TextTable t({{"pair"}, {"from"}, {"to"}, {"switch hops", Align::kRight}, {"shortest paths", Align::kRight}},
              "GPU-to-GPU switch hops (breadth-first search; per plane when planes differ)");
  for (const auto& h : p.hops) {
    t.add_row({h.relation, gpu_name(h.host_a, h.rail_a), gpu_name(h.host_b, h.rail_b), per_plane_text(h.switch_hops),
               per_plane_text(h.shortest_paths)});
  }
  return t;
}

TextTable failure_table(const Plan& p) {
  TextTable t({{"element"},
               {"removed"},
               {"GPUs affected", Align::kRight},
               {"share lost per GPU", Align::kRight},
               {"fabric bandwidth lost", Align::kRight}},
              "failure domains (share of each GPU's up capacity that no longer reaches the top tier)");
  for (const auto& d : p.failure_domains) {
    std::string lost = "-";
    if (d.gpus_affected > 0) {
      lost = percent_text(d.max_share_lost);
      if (d.max_share_lost - d.min_share_lost > 1e-12) lost = percent_text(d.min_share_lost) + " - " + lost;
    }
    t.add_row({d.element, d.removed, count_text(d.gpus_affected), lost, percent_text(d.fabric_share_lost)});
  }
  return t;
}

TextTable bill_table(const Bill& bill, const std::string& title, const std::string& unit) {
  TextTable t({{"part"},
               {"item"},
               {"count", Align::kRight},
               {unit + " each", Align::kRight},
               {unit, Align::kRight}},
              title);
  for (const auto& line : bill.lines) {
    t.add_row({line.part, line.item, count_text(line.count), line.unit ? figure_text(*line.unit) : "unknown",
               line.total() ? figure_text(*line.total()) : "unknown"});
  }
  return t;
}

std::string bill_total_line(const Bill& bill, const std::string& unit) {
  if (bill.complete()) return fmt::format("total: {} {}", figure_text(bill.known_total), unit);
  std::string unknown;
  for (const auto& u : bill.unknown) unknown += (unknown.empty() ? "" : ", ") + u;
  return fmt::format("total: unknown; {} {} for the parts with a published figure; unknown: {}",
                     figure_text(bill.known_total), unit, unknown);
}

std::string bill_text(const Bill& bill, const std::string& title, const std::string& unit) {
  return bill_table(bill, title, unit).render() + bill_total_line(bill, unit) + "\n";
}

// ---- frontend ---------------------------------------------------------------------------------

long long switch_count(const std::vector<TierFigures>& tiers) {
  long long n = 0;
  for (const auto& f : tiers) n += f.switches;
  return n;
}
long long link_count(const std::vector<TierFigures>& tiers) {
  long long n = 0;
  for (const auto& f : tiers) n += f.links;
  return n;
}
std::string ratios_text(const std::vector<TierFigures>& tiers) {
  std::string out;
  for (const auto& f : tiers) {
    if (f.oversubscription > 0) out += (out.empty() ? "" : ", ") + tier_name(f.tier) + " " + ratio_text(f.oversubscription);
  }
  return out.empty() ? "-" : out;
}
// Capacity toward the hosts at the leaves, per host.
BitsPerSecond per_host(const std::vector<TierFigures>& tiers, long long hosts) {
  return tiers.empty() || hosts <= 0 ? BitsPerSecond(0) : BitsPerSecond(tiers.front().down_capacity.value() / hosts);
}
std::string bill_total_text(const Bill& bill) {
  return bill.complete() ? figure_text(bill.known_total) + " W"
                         : fmt::format("unknown ({} W known)", figure_text(bill.known_total));
}

std::string frontend_header(const Plan& p) {
  const FrontendFigures& f = *p.frontend;
  std::string out = fmt::format(
      "frontend: leaf-spine of {} at {}, {} x {} ({} port{} per host); down:up asked {} at the leaves\n",
      f.switch_model, format_speed(f.speed), count_text(f.nics), f.nic_model, f.ports_per_host,
      f.ports_per_host == 1 ? "" : "s", ratio_text(f.oversubscription_asked));
  out += f.backend_links == 0
             ? "frontend and backend: separate (0 links between them, counted on the built topology)\n"
             : fmt::format("frontend and backend: NOT separate: {} links join them\n", count_text(f.backend_links));
  return out;
}

TextTable frontend_tiers_table(const FrontendFigures& f) {
  TextTable tiers = tier_columns(false, "frontend switches, logical ports and links per tier (tier leaf = NIC-leaf)");
  add_tier_rows(tiers, std::nullopt, f.tiers);
  return tiers;
}
TextTable frontend_media_table(const FrontendFigures& f) {
  TextTable media = media_columns(false, "frontend optics and cables (one module per used cage)");
  add_media_rows(media, std::nullopt, f.media);
  return media;
}
std::string frontend_bisection_line(const FrontendFigures& f) {
  return fmt::format("frontend bisection (max-flow between the host halves): {} of the half's {} ({})",
                     speed_text(f.bisection), speed_text(f.half_injection),
                     bisection_ratio_text(f.bisection, f.half_injection));
}

std::string frontend_text(const Plan& p) {
  const FrontendFigures& f = *p.frontend;
  std::string out = frontend_header(p);
  out += "\n" + frontend_tiers_table(f).render() + "\n" + frontend_media_table(f).render();
  out += frontend_bisection_line(f) + "\n";
  out += "\n" + bill_text(f.power, "frontend power (network parts only)", "W");
  out += "\n" + bill_text(f.cost, "frontend cost (list prices where published)", "USD");
  return out;
}

// The two networks side by side. What each carries and why they are kept apart is the design
// rationale of docs/models/planner.md ("Frontend"); every figure is from the plan.
TextTable comparison_table(const Plan& p) {
  const FrontendFigures& f = *p.frontend;
  TextTable t({{"quantity"}, {"backend"}, {"frontend"}}, "frontend vs backend");
  t.add_row({"carries", "GPU-to-GPU collectives and transfers (RDMA)",
             "storage, data loading, checkpoints, management, users"});
  t.add_row({"NICs", fmt::format("{} x {} ({} per host)", count_text(p.nics), p.nic_model, p.nics_per_host),
             fmt::format("{} x {} ({} per host)", count_text(f.nics), f.nic_model,
                         p.hosts > 0 ? f.nics / p.hosts : 0)});
  t.add_row({"bandwidth per host", speed_text(per_host(p.total_tiers, p.hosts)), speed_text(per_host(f.tiers, p.hosts))});
  t.add_row({"shape", fmt::format("{}, {} plane{} x {} tiers", p.topology, p.planes, p.planes > 1 ? "s" : "", p.tiers),
             "leaf-spine, 1 plane x 2 tiers"});
  t.add_row({"switches", fmt::format("{} x {}", count_text(switch_count(p.total_tiers)), p.switch_model),
             fmt::format("{} x {}", count_text(switch_count(f.tiers)), f.switch_model)});
  t.add_row({"links", count_text(link_count(p.total_tiers)), count_text(link_count(f.tiers))});
  t.add_row({"down:up (oversubscription)", ratios_text(p.total_tiers), ratios_text(f.tiers)});
  t.add_row({"bisection / half's NIC capacity", bisection_ratio_text(p.bisection, p.half_injection),
             bisection_ratio_text(f.bisection, f.half_injection)});
  t.add_row({"power, network parts", bill_total_text(p.power), bill_total_text(f.power)});
  return t;
}

constexpr const char* kWhySeparate =
    "why separate: a collective runs at the pace of its slowest flow, so the backend is built non-blocking and\n"
    "  loss-free for GPU traffic alone; storage, checkpoint and user traffic is burstier and lighter per GPU, so\n"
    "  the frontend is oversubscribed and cheaper. Apart, a checkpoint write or a dataset read never queues in\n"
    "  front of a collective, and a failure or upgrade of one network leaves the other running.\n";

std::string comparison_text(const Plan& p) {
  std::string out = comparison_table(p).render();
  out += kWhySeparate;
  return out;
}

// ---- JSON -------------------------------------------------------------------------------------

Json optional_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json tiers_json(const std::vector<TierFigures>& tiers) {
  Json out = Json::array();
  for (const auto& f : tiers) {
    out.push_back({{"tier", f.tier},
                   {"name", tier_name(f.tier)},
                   {"switches", f.switches},
                   {"ports_used", f.ports_used},
                   {"ports_free", f.ports_free},
                   {"links", f.links},
                   {"link_speed_bps", f.link_speed.value() > 0 ? Json(f.link_speed.value()) : Json(nullptr)},
                   {"down_capacity_bps", f.down_capacity.value()},
                   {"up_capacity_bps", f.up_capacity.value()},
                   {"oversubscription", f.oversubscription > 0 ? Json(f.oversubscription) : Json(nullptr)}});
  }
  return out;
}

Json media_json(const std::vector<MediaFigures>& media) {
  Json out = Json::array();
  for (const auto& m : media) {
    out.push_back({{"medium", m.optic >= 0 ? Json(m.id) : Json(nullptr)},
                   {"kind", m.optic >= 0 ? Json(m.kind) : Json(nullptr)},
                   {"links", m.links},
                   {"switch_modules", m.switch_modules},
                   {"nic_modules", m.nic_modules},
                   {"cables", m.cables}});
  }
  return out;
}

Json bill_json(const Bill& bill) {
  Json lines = Json::array();
  for (const auto& l : bill.lines) {
    lines.push_back({{"part", l.part}, {"item", l.item}, {"count", l.count}, {"unit", optional_json(l.unit)},
                     {"total", optional_json(l.total())}});
  }
  return {{"lines", lines},
          {"total", bill.complete() ? Json(bill.known_total) : Json(nullptr)},
          {"known_total", bill.known_total},
          {"unknown", bill.unknown}};
}

Json planes_json(const Plan& p) {
  Json out = Json::array();
  for (const auto& plane : p.plane_figures) {
    out.push_back({{"plane", plane.plane},
                   {"endpoints", plane.endpoints},
                   {"tiers", tiers_json(plane.tiers)},
                   {"media", media_json(plane.media)},
                   {"bisection_bps", plane.bisection.value()},
                   {"half_injection_bps", plane.half_injection.value()}});
  }
  return out;
}

Json hops_json(const Plan& p) {
  Json out = Json::array();
  for (const auto& h : p.hops) {
    out.push_back({{"relation", h.relation},
                   {"from", gpu_name(h.host_a, h.rail_a)},
                   {"to", gpu_name(h.host_b, h.rail_b)},
                   {"switch_hops", h.switch_hops},
                   {"shortest_paths", h.shortest_paths}});
  }
  return out;
}

Json limits_json(const Plan& p) {
  Json out = Json::array();
  for (const auto& s : p.scale_limits) {
    out.push_back({{"planes", s.planes},
                   {"port_speed_bps", s.port_speed.value()},
                   {"radix", s.radix},
                   {"gpus_2_tiers", s.gpus_2_tiers},
                   {"gpus_3_tiers", s.gpus_3_tiers},
                   {"chosen", s.chosen}});
  }
  return out;
}

Json failures_json(const Plan& p) {
  Json out = Json::array();
  for (const auto& d : p.failure_domains) {
    out.push_back({{"element", d.element},
                   {"removed", d.removed},
                   {"gpus_affected", d.gpus_affected},
                   {"min_share_lost", d.min_share_lost},
                   {"max_share_lost", d.max_share_lost},
                   {"fabric_share_lost", d.fabric_share_lost}});
  }
  return out;
}

Json frontend_json(const FrontendFigures& f) {
  return {{"switch_model", f.switch_model},
          {"nic_model", f.nic_model},
          {"speed_bps", f.speed.value()},
          {"ports_per_host", f.ports_per_host},
          {"nics", f.nics},
          {"endpoints", f.endpoints},
          {"oversubscription_asked", f.oversubscription_asked},
          {"tiers", tiers_json(f.tiers)},
          {"media", media_json(f.media)},
          {"bisection_bps", f.bisection.value()},
          {"half_injection_bps", f.half_injection.value()},
          {"backend_links", f.backend_links},
          {"power_w", bill_json(f.power)},
          {"cost_usd", bill_json(f.cost)}};
}


// ---- HTML -------------------------------------------------------------------------------------

// The fabric drawn per plane and tier, aggregated: one shape for all hosts, one per (plane, tier)
// switch group, one line per (plane, tier) link bundle, each labelled with its count, and the
// frontend's tiers the same way. A fabric of any size is (planes x tiers + 1) shapes (plus the
// frontend's two); the counts are the tier tables'.
NodeLinkDiagram fabric_diagram(const Plan& p, const std::string& command_line) {
  NodeLinkDiagram d;
  d.frame = {"fabric", fmt::format("{}: {} plane{} x {} tiers", p.name, p.planes, p.planes > 1 ? "s" : "", p.tiers),
             "shapes are switch groups, lines are link bundles (count x speed)", "", command_line};
  int top = 0;
  for (const auto& plane : p.plane_figures) {
    for (const auto& f : plane.tiers) top = std::max(top, f.tier);
  }
  d.layer_names.push_back("hosts");
  for (int t = 1; t <= top; ++t) d.layer_names.push_back(tier_name(t));
  d.nodes.push_back({"hosts", fmt::format("{} hosts", count_text(p.hosts)),
                     fmt::format("{} NICs, {} GPUs", count_text(p.nics), count_text(p.gpus)), 0, p.hosts, 7});
  for (std::size_t i = 0; i < p.plane_figures.size(); ++i) {
    const PlaneFigures& plane = p.plane_figures[i];
    std::string below = "hosts";
    for (const auto& f : plane.tiers) {
      const std::string id = fmt::format("p{}-{}", plane.plane, tier_name(f.tier));
      d.nodes.push_back({id, fmt::format("p{} {}", plane.plane, tier_name(f.tier)),
                         fmt::format("{} x {}", count_text(f.switches), p.switch_model), f.tier, f.switches,
                         static_cast<int>(i)});
      d.edges.push_back({below, id, fmt::format("{} x {}", count_text(f.links), link_speed_text(f.link_speed)), f.links});
      below = id;
    }
    d.legend.push_back(fmt::format("plane {}", plane.plane));
  }
  if (p.frontend) {
    // The frontend network hangs off the same hosts on its own NICs, drawn right of the planes.
    std::string below = "hosts";
    for (const auto& f : p.frontend->tiers) {
      const std::string id = fmt::format("frontend-{}", tier_name(f.tier));
      d.nodes.push_back({id, fmt::format("frontend {}", tier_name(f.tier)),
                         fmt::format("{} x {}", count_text(f.switches), p.frontend->switch_model), f.tier, f.switches,
                         static_cast<int>(p.plane_figures.size())});
      d.edges.push_back({below, id, fmt::format("{} x {}", count_text(f.links), link_speed_text(f.link_speed)), f.links});
      below = id;
    }
    d.legend.push_back("frontend");
  }
  return d;
}

// GPUs reachable with 2 and 3 tiers for each plane count the switch allows (log scale), this design
// marked in its series name and by a line at its GPU count.
BarChart scale_chart(const Plan& p, const std::string& command_line) {
  BarChart c;
  c.frame = {"scale-limits", "GPUs reachable vs tiers, by plane count", "switch tiers", "GPUs reachable (log scale)",
             command_line};
  c.categories = {"2 tiers", "3 tiers"};
  c.log_y = true;
  for (const auto& s : p.scale_limits) {
    std::string name = fmt::format("{} plane{} at {}", s.planes, s.planes > 1 ? "s" : "", format_speed(s.port_speed));
    if (s.chosen) name += " (this design)";
    c.series.push_back({name, {static_cast<double>(s.gpus_2_tiers), static_cast<double>(s.gpus_3_tiers)}});
  }
  // The line marks how far this design reaches (its option at its tier count), not its size.
  for (const auto& s : p.scale_limits) {
    if (!s.chosen) continue;
    const long long reach = p.tiers <= 2 ? s.gpus_2_tiers : s.gpus_3_tiers;
    c.references.push_back({static_cast<double>(reach),
                            fmt::format("this design's reach: {} GPUs with {} tiers ({} built)", count_text(reach),
                                        std::min(p.tiers, 3), count_text(p.gpus))});
  }
  return c;
}

void add_lines(HtmlDocument& doc, const std::string& text) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty()) doc.add_paragraph(line);
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

// The catalog gaps (plan/media_gaps.h) as the warnings also printed on stderr; "" when none.
std::string gaps_text(const Plan& p) {
  if (p.warnings.empty()) return "";
  std::string out = "catalog gaps (links planned without an optic or cable)\n";
  for (const Diagnostic& d : p.warnings) out += format_diagnostic(d) + "\n";
  return out;
}

}  // namespace

std::string to_text(const Plan& p) {
  std::string out = header_text(p);
  for (const auto& section : {limits_table(p).render(), tiers_table(p).render(), media_table(p).render() + (p.warnings.empty() ? "" : "\n" + gaps_text(p)),
                              bisection_table(p).render(), hops_table(p).render(), failure_table(p).render(), bill_text(p.power, "power (network parts only)", "W"),
                              bill_text(p.cost, "cost (list prices where published)", "USD")}) {
    out += "\n" + section;
  }
  if (p.frontend) out += "\n" + frontend_text(p) + "\n" + comparison_text(p);
  return out;
}

std::string to_json(const Plan& p) {
  Json j;
  j["name"] = p.name;
  j["topology"] = p.topology;
  j["node_model"] = p.node_model;
  j["switch_model"] = p.switch_model;
  j["nic_model"] = p.nic_model;
  j["hosts"] = p.hosts;
  j["gpus"] = p.gpus;
  j["gpus_per_host"] = p.gpus_per_host;
  j["nics_per_host"] = p.nics_per_host;
  j["nics"] = p.nics;
  j["planes"] = p.planes;
  j["tiers"] = p.tiers;
  j["cross_plane_links"] = p.cross_plane_links;
  j["scale_limits"] = limits_json(p);
  j["per_plane"] = planes_json(p);
  j["total"] = {{"tiers", tiers_json(p.total_tiers)},
                {"media", media_json(p.total_media)},
                {"bisection_bps", p.bisection.value()},
                {"half_injection_bps", p.half_injection.value()}};
  j["hops"] = hops_json(p);
  j["failure_domains"] = failures_json(p);
  j["power_w"] = bill_json(p.power);
  j["cost_usd"] = bill_json(p.cost);
  j["frontend"] = p.frontend ? frontend_json(*p.frontend) : Json(nullptr);
  Json warnings = Json::array();
  for (const Diagnostic& d : p.warnings) {
    warnings.push_back({{"file", d.where.file},
                        {"line", d.where.line},
                        {"column", d.where.column},
                        {"field", d.field},
                        {"message", d.message}});
  }
  j["warnings"] = warnings;
  return j.dump(2) + "\n";
}

}  // namespace ct

namespace ct {

std::string to_html(const Plan& p, const std::string& command_line) {
  HtmlDocument doc("plan: " + p.name, command_line);
  doc.add_section("Summary", "summary");
  add_lines(doc, header_text(p));
  doc.add_facts("summary", {{"hosts", count_text(p.hosts)},
                            {"GPUs", count_text(p.gpus)},
                            {"backend NICs", count_text(p.nics)},
                            {"planes", std::to_string(p.planes)},
                            {"tiers", std::to_string(p.tiers)},
                            {"links between planes", count_text(p.cross_plane_links)}});
  doc.add_section("Fabric", "fabric");
  doc.add_figure(render_node_link(fabric_diagram(p, command_line)));
  doc.add_table(tiers_table(p), "tiers");
  doc.add_section("Scale limits", "scale-limits");
  doc.add_figure(render_bar_chart(scale_chart(p, command_line)));
  doc.add_table(limits_table(p), "scale-limits");
  doc.add_section("Bill of materials", "bom");
  doc.add_table(media_table(p), "media");
  add_lines(doc, gaps_text(p));
  doc.add_table(bill_table(p.power, "power (network parts only)", "W"), "power");
  doc.add_paragraph(bill_total_line(p.power, "W"));
  doc.add_table(bill_table(p.cost, "cost (list prices where published)", "USD"), "cost");
  doc.add_paragraph(bill_total_line(p.cost, "USD"));
  doc.add_section("Bisection and hops", "bisection");
  doc.add_table(bisection_table(p), "bisection");
  doc.add_table(hops_table(p), "hops");
  doc.add_section("Failure domains", "failure-domains");
  doc.add_table(failure_table(p), "failure-domains");
  if (p.frontend) {
    const FrontendFigures& f = *p.frontend;
    doc.add_section("Frontend", "frontend");
    add_lines(doc, frontend_header(p));
    doc.add_table(frontend_tiers_table(f), "frontend-tiers");
    doc.add_table(frontend_media_table(f), "frontend-media");
    doc.add_paragraph(frontend_bisection_line(f));
    doc.add_table(bill_table(f.power, "frontend power (network parts only)", "W"), "frontend-power");
    doc.add_paragraph(bill_total_line(f.power, "W"));
    doc.add_table(bill_table(f.cost, "frontend cost (list prices where published)", "USD"), "frontend-cost");
    doc.add_paragraph(bill_total_line(f.cost, "USD"));
    doc.add_table(comparison_table(p), "frontend-vs-backend");
    doc.add_preformatted(kWhySeparate);
  }
  doc.add_footnote("Counting rules, sources and limitations: docs/models/planner.md.");
  return doc.render();
}

}  // namespace ct
