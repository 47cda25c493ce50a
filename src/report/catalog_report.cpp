#include "report/catalog_report.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/table.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kUnknown = "-";
constexpr const char* kLegend = "'-': not published by the sources (null in catalog/*.yaml)\n";

template <typename T>
std::vector<const T*> sorted_by_id(const std::vector<T>& entries) {
  std::vector<const T*> out;
  for (const auto& e : entries) out.push_back(&e);
  std::sort(out.begin(), out.end(), [](const T* a, const T* b) { return a->id < b->id; });
  return out;
}

std::string number_or_unknown(const std::optional<double>& v) { return v ? fmt::format("{:g}", *v) : kUnknown; }

std::string protocols_text(const std::vector<Protocol>& protocols) {
  std::string out;
  for (const auto p : protocols) out += (out.empty() ? "" : "+") + std::string(p == Protocol::kEthernet ? "eth" : "ib");
  return out;
}

std::string byte_rate_text(const std::optional<double>& bytes_per_s) {
  if (!bytes_per_s) return kUnknown;
  const double g = *bytes_per_s / 1e9;
  return g >= 1000 ? fmt::format("{:g} TB/s", g / 1000) : fmt::format("{:g} GB/s", g);
}

std::string nic_count_text(int count, const std::string& nic) {
  return nic.empty() ? std::string(kUnknown) : fmt::format("{} x {}", count, nic);
}

std::string splits_text(const std::vector<int>& splits) {
  std::string out;
  for (const int s : splits) out += (out.empty() ? "" : ",") + std::to_string(s);
  return out;
}

// Logical ports at each speed the switch runs: "64 x 800G, 128 x 400G".
std::string switch_ports_text(const SwitchModel& s) {
  std::string out = fmt::format("{} x {}", s.ports, format_speed(s.port_speed));
  for (const auto& b : s.breakouts) out += fmt::format(", {} x {}", s.ports_at(b.speed), format_speed(b.speed));
  return out;
}

std::string nodes_table(const Catalog& c) {
  TextTable t({{"id"},
               {"gpu"},
               {"gpus", Align::kRight},
               {"nvlink/gpu", Align::kRight},
               {"backend"},
               {"frontend"},
               {"power W", Align::kRight},
               {"sources", Align::kRight}},
              fmt::format("Nodes ({})", c.nodes.size()));
  for (const NodeModel* n : sorted_by_id(c.nodes)) {
    t.add_row({n->id, n->gpu, std::to_string(n->gpus), byte_rate_text(n->nvlink_bytes_per_s),
               nic_count_text(n->backend_nics, n->backend_nic), nic_count_text(n->frontend_nics, n->frontend_nic),
               number_or_unknown(n->power_w), std::to_string(n->sources.size())});
  }
  return t.render();
}

std::string nics_table(const Catalog& c) {
  TextTable t({{"id"},
               {"kind"},
               {"protocols"},
               {"ports", Align::kRight},
               {"speed", Align::kRight},
               {"splits"},
               {"power W", Align::kRight},
               {"sources", Align::kRight}},
              fmt::format("NICs ({})", c.nics.size()));
  for (const NicModel* n : sorted_by_id(c.nics)) {
    t.add_row({n->id, to_string(n->kind), protocols_text(n->protocols), std::to_string(n->ports),
               format_speed(n->port_speed), splits_text(n->splits), number_or_unknown(n->power_w),
               std::to_string(n->sources.size())});
  }
  return t.render();
}

std::string switches_table(const Catalog& c) {
  TextTable t({{"id"},
               {"asic"},
               {"protocols"},
               {"ports"},
               {"capacity", Align::kRight},
               {"RU", Align::kRight},
               {"power W", Align::kRight},
               {"sources", Align::kRight}},
              fmt::format("Switches ({})", c.switches.size()));
  for (const SwitchModel* s : sorted_by_id(c.switches)) {
    t.add_row({s->id, s->asic, protocols_text(s->protocols), switch_ports_text(*s), format_speed(s->capacity),
               s->rack_units ? std::to_string(*s->rack_units) : kUnknown, number_or_unknown(s->power_w),
               std::to_string(s->sources.size())});
  }
  return t.render();
}

std::string optics_table(const Catalog& c) {
  TextTable t({{"id"},
               {"kind"},
               {"medium"},
               {"form"},
               {"speed", Align::kRight},
               {"links", Align::kRight},
               {"reach m", Align::kRight},
               {"power W", Align::kRight},
               {"sources", Align::kRight}},
              fmt::format("Optics and cables ({})", c.optics.size()));
  for (const OpticModel* o : sorted_by_id(c.optics)) {
    t.add_row({o->id, to_string(o->kind), to_string(o->medium), o->form_factor, format_speed(o->speed),
               std::to_string(o->links), fmt::format("{:g}", o->reach_m), number_or_unknown(o->power_w),
               std::to_string(o->sources.size())});
  }
  return t.render();
}

Json optional_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

void put_header(Json& j, const CatalogEntry& e) {
  j["id"] = e.id;
  j["name"] = e.name;
  j["vendor"] = e.vendor;
  j["part_number"] = e.part_number.empty() ? Json(nullptr) : Json(e.part_number);
}

Json protocols_json(const std::vector<Protocol>& protocols) {
  Json out = Json::array();
  for (const auto p : protocols) out.push_back(to_string(p));
  return out;
}

Json nodes_json(const Catalog& c) {
  Json out = Json::array();
  for (const NodeModel* n : sorted_by_id(c.nodes)) {
    Json j;
    put_header(j, *n);
    j["gpu"] = n->gpu;
    j["gpus"] = n->gpus;
    j["nvlink_bytes_per_s"] = optional_json(n->nvlink_bytes_per_s);
    j["backend_nic"] = n->backend_nic;
    j["backend_nics"] = n->backend_nics;
    j["frontend_nic"] = n->frontend_nic.empty() ? Json(nullptr) : Json(n->frontend_nic);
    j["frontend_nics"] = n->frontend_nics;
    j["power_w"] = optional_json(n->power_w);
    j["price_usd"] = optional_json(n->price_usd);
    j["sources"] = n->sources;
    out.push_back(std::move(j));
  }
  return out;
}

Json nics_json(const Catalog& c) {
  Json out = Json::array();
  for (const NicModel* n : sorted_by_id(c.nics)) {
    Json j;
    put_header(j, *n);
    j["kind"] = to_string(n->kind);
    j["protocols"] = protocols_json(n->protocols);
    j["ports"] = n->ports;
    j["port_speed_bps"] = n->port_speed.value();
    j["splits"] = n->splits;
    j["power_w"] = optional_json(n->power_w);
    j["price_usd"] = optional_json(n->price_usd);
    j["sources"] = n->sources;
    out.push_back(std::move(j));
  }
  return out;
}

Json switches_json(const Catalog& c) {
  Json out = Json::array();
  for (const SwitchModel* s : sorted_by_id(c.switches)) {
    Json j;
    put_header(j, *s);
    j["protocols"] = protocols_json(s->protocols);
    j["asic"] = s->asic;
    j["ports"] = s->ports;
    j["port_speed_bps"] = s->port_speed.value();
    Json breakouts = Json::array();
    for (const auto& b : s->breakouts) breakouts.push_back(Json{{"ways", b.ways}, {"speed_bps", b.speed.value()}});
    j["breakouts"] = std::move(breakouts);
    j["capacity_bps"] = s->capacity.value();
    j["power_w"] = optional_json(s->power_w);
    j["price_usd"] = optional_json(s->price_usd);
    j["rack_units"] = s->rack_units ? Json(*s->rack_units) : Json(nullptr);
    j["sources"] = s->sources;
    out.push_back(std::move(j));
  }
  return out;
}

Json optics_json(const Catalog& c) {
  Json out = Json::array();
  for (const OpticModel* o : sorted_by_id(c.optics)) {
    Json j;
    put_header(j, *o);
    j["kind"] = to_string(o->kind);
    j["medium"] = to_string(o->medium);
    j["form_factor"] = o->form_factor;
    j["speed_bps"] = o->speed.value();
    j["links"] = o->links;
    j["reach_m"] = o->reach_m;
    j["power_w"] = optional_json(o->power_w);
    j["price_usd"] = optional_json(o->price_usd);
    j["sources"] = o->sources;
    out.push_back(std::move(j));
  }
  return out;
}

bool wants(CatalogKind asked, CatalogKind kind) { return asked == CatalogKind::kAll || asked == kind; }

}  // namespace

std::optional<CatalogKind> parse_catalog_kind(const std::string& text) {
  if (text == "all") return CatalogKind::kAll;
  if (text == "nodes") return CatalogKind::kNodes;
  if (text == "nics") return CatalogKind::kNics;
  if (text == "switches") return CatalogKind::kSwitches;
  if (text == "optics") return CatalogKind::kOptics;
  return std::nullopt;
}

std::string render_catalog_text(const Catalog& catalog, CatalogKind kind) {
  std::vector<std::string> tables;
  if (wants(kind, CatalogKind::kNodes)) tables.push_back(nodes_table(catalog));
  if (wants(kind, CatalogKind::kNics)) tables.push_back(nics_table(catalog));
  if (wants(kind, CatalogKind::kSwitches)) tables.push_back(switches_table(catalog));
  if (wants(kind, CatalogKind::kOptics)) tables.push_back(optics_table(catalog));
  std::string out;
  for (const auto& t : tables) out += t + "\n";
  return out + kLegend;
}

std::string render_catalog_json(const Catalog& catalog, CatalogKind kind) {
  Json j = Json::object();
  if (wants(kind, CatalogKind::kNodes)) j["nodes"] = nodes_json(catalog);
  if (wants(kind, CatalogKind::kNics)) j["nics"] = nics_json(catalog);
  if (wants(kind, CatalogKind::kSwitches)) j["switches"] = switches_json(catalog);
  if (wants(kind, CatalogKind::kOptics)) j["optics"] = optics_json(catalog);
  return j.dump(2) + "\n";
}

std::string render_zoo_text(const Catalog& catalog) {
  TextTable t({{"class"}, {"bottleneck that earned it its own silicon", Align::kLeft, 60}, {"example", Align::kLeft, 40}},
              fmt::format("The data-center chip zoo ({} classes)", catalog.zoo.size()));
  for (const auto& c : catalog.zoo) t.add_row({c.name, c.bottleneck, c.example});
  return t.render();
}

std::string render_zoo_json(const Catalog& catalog) {
  Json zoo = Json::array();
  for (const auto& c : catalog.zoo) {
    zoo.push_back(Json{{"class", c.name}, {"bottleneck", c.bottleneck}, {"example", c.example}, {"sources", c.sources}});
  }
  return Json{{"zoo", std::move(zoo)}}.dump(2) + "\n";
}

}  // namespace ct
