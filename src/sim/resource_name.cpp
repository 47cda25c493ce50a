#include "sim/resource_name.h"

#include <algorithm>

#include <fmt/format.h>

namespace ct {

std::string resource_name(const NameDirectory& names, const ResourceInfo& c) {
  const auto g = static_cast<std::uint32_t>(std::max(names.topology().gpus_per_host, 1));
  switch (c.kind) {
    case ResourceKind::kLinkUp: return cable_direction_name(names, c.link, true);
    case ResourceKind::kLinkDown: return cable_direction_name(names, c.link, false);
    case ResourceKind::kNvlinkOut: return fmt::format("host{}/gpu{} nvlink out", c.gpu / g, c.gpu % g);
    case ResourceKind::kNvlinkIn: return fmt::format("host{}/gpu{} nvlink in", c.gpu / g, c.gpu % g);
    case ResourceKind::kBarrier: return "barrier";
  }
  return "";
}

std::string cable_direction_name(const NameDirectory& names, LinkId l, bool up) {
  std::string out;
  names.append_cable_name(out, l);
  out += up ? " up" : " down";
  return out;
}

}  // namespace ct
