#include "ib/cluster_names.h"

#include <fmt/format.h>

#include "core/text.h"
#include "ib/fabric_edits.h"
#include "ib/topology_to_ib.h"

namespace ct {

Result<std::string> ib_node_name(const IbFabric& subnet, const NameDirectory* names, const std::string& name,
                                 const SourceLocation& where, const std::string& field, bool lid_allowed) {
  if (names == nullptr || name.empty() || find_node(subnet, name).ok()) return name;
  const bool digits = name.find_first_not_of("0123456789") == std::string::npos;
  if (lid_allowed && digits) return name;
  auto v = names->vertex(name, where, field);
  if (v) return names->topology().vertex_name(v.value());
  if (const auto colon = name.rfind(':'); !lid_allowed && colon != std::string::npos) {
    auto node = ib_node_name(subnet, names, name.substr(0, colon), where, field, false);
    if (!node) return node.errors();
    return node.value() + name.substr(colon);
  }
  return v.errors();
}

namespace {

// A failure written as a link, as every other command takes one: "A -- B" or a link id.
bool link_spelled(const std::string& f) {
  return f.find("--") != std::string::npos || (!f.empty() && f.find_first_not_of("0123456789") == std::string::npos);
}

// "A -- B" or a link id through the name directory: one NODE:PORT failure per cable, at the end
// the subnet numbers (topology_to_ib.h). Without a directory (an ibnetdiscover file) "A -- B" is
// the IB model's "A,B".
Result<std::vector<std::string>> link_failures(const IbFabric& subnet, const NameDirectory* names, const std::string& f,
                                               const SourceLocation& where) {
  if (names == nullptr) {
    const auto sep = f.find("--");
    if (sep == std::string::npos) return std::vector<std::string>{f};
    return std::vector<std::string>{std::string(trim(std::string_view(f).substr(0, sep), kWhiteSpace)) + "," +
                                    std::string(trim(std::string_view(f).substr(sep + 2), kWhiteSpace))};
  }
  auto links = names->links(f, where, "--fail");
  if (!links) return links.errors();
  const Topology& t = names->topology();
  std::vector<std::string> out;
  for (const LinkId l : links.value()) {
    const VertexId a = t.link_a[l.value()];
    const std::string node = t.vertex_name(a);
    if (!find_node(subnet, node).ok()) {
      return Diagnostic{where, "--fail",
                        fmt::format("link {} is not in this subnet (it is in plane {} or the frontend; --plane picks the plane)",
                                    names->cable_name(l), t.plane[a.value()])};
    }
    out.push_back(fmt::format("{}:{}", node, ib_port_of(t, a, l)));
  }
  return out;
}

}  // namespace

Result<std::vector<std::string>> ib_failure_names(const IbFabric& subnet, const NameDirectory* names,
                                                  const std::vector<std::string>& failures, const SourceLocation& where) {
  std::vector<std::string> out;
  Diagnostics errors;
  for (const std::string& f : failures) {
    if (link_spelled(f)) {
      auto cables = link_failures(subnet, names, f, where);
      if (cables) out.insert(out.end(), cables.value().begin(), cables.value().end());
      else errors.insert(errors.end(), cables.errors().begin(), cables.errors().end());
      continue;
    }
    const auto comma = f.find(',');
    const std::vector<std::string> parts = comma == std::string::npos
                                               ? std::vector<std::string>{f}
                                               : std::vector<std::string>{f.substr(0, comma), f.substr(comma + 1)};
    std::string joined;
    for (const std::string& part : parts) {
      auto name = ib_node_name(subnet, names, part, where, "--fail", false);
      if (!name) {
        errors.insert(errors.end(), name.errors().begin(), name.errors().end());
        continue;
      }
      joined += (joined.empty() ? "" : ",") + name.value();
    }
    out.push_back(joined);
  }
  if (!errors.empty()) return errors;
  return out;
}

}  // namespace ct
