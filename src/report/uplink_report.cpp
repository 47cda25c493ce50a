#include "report/uplink_report.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/table.h"

namespace ct {

std::string uplink_bytes_text(const UplinkTable& table, const Topology& t, const std::string& before,
                              const std::string& after) {
  TextTable out({{"uplink"}, {"bytes", Align::kRight}, {"model flows", Align::kRight}},
                fmt::format("Bytes up each uplink, {} minus {} ({:.1f} s apart), and the known flows the model puts there",
                            after, before, table.seconds));
  for (const UplinkBytes& r : table.rows) {
    out.add_row({t.vertex_name(r.sw) + " -> " + t.vertex_name(r.upper),
                 r.bytes < 0 ? "-" : count_text(std::llround(r.bytes)), std::to_string(r.flows)});
  }
  std::string text = out.render();
  text += fmt::format("{} known flow(s) walked through the spec's routing", table.flows);
  if (table.unrouted > 0) text += fmt::format(", {} of them not routable in the model", table.unrouted);
  text += table.rows.empty() ? "; no uplink moved a byte or carries a flow\n" : "; switches whose uplinks saw no byte and no flow are left out\n";
  return text;
}

std::string uplink_bytes_json(const UplinkTable& table, const Topology& t, const std::string& before,
                              const std::string& after) {
  using Json = nlohmann::ordered_json;
  Json rows = Json::array();
  for (const UplinkBytes& r : table.rows) {
    rows.push_back({{"switch", t.vertex_name(r.sw)},
                    {"upper", t.vertex_name(r.upper)},
                    {"link", r.link.value()},
                    {"bytes", r.bytes < 0 ? Json(nullptr) : Json(r.bytes)},
                    {"model_flows", r.flows}});
  }
  Json j{{"command", "counters --diff"}, {"before", before},      {"after", after},
         {"seconds", table.seconds},     {"flows", table.flows}, {"unrouted_flows", table.unrouted},
         {"uplinks", rows}};
  return j.dump(2) + "\n";
}

}  // namespace ct
