#include "ib/cluster_names.h"

#include "ib/fabric_edits.h"

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

Result<std::vector<std::string>> ib_failure_names(const IbFabric& subnet, const NameDirectory* names,
                                                  const std::vector<std::string>& failures, const SourceLocation& where) {
  std::vector<std::string> out;
  Diagnostics errors;
  for (const std::string& f : failures) {
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
