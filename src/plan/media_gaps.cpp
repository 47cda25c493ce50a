#include "plan/media_gaps.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "topology/builder.h"

namespace ct {
namespace {

constexpr const char* kLengthNames[] = {"leaf", "spine", "core"};
constexpr const char* kLinkNames[] = {"NIC-leaf", "leaf-spine", "spine-core"};

// Why no entry fits: none runs the speed, or those that do reach less than the length.
std::string reason(const Catalog& catalog, BitsPerSecond speed, double length_m, const OpticModel** longest) {
  std::set<std::uint64_t> speeds;
  *longest = nullptr;
  for (const OpticModel& o : catalog.optics) {
    speeds.insert(o.speed.value() / static_cast<std::uint64_t>(std::max(1, o.links)));
    speeds.insert(o.speed.value());
    if (links_per_module(o, speed) > 0 && (*longest == nullptr || o.reach_m > (*longest)->reach_m)) *longest = &o;
  }
  if (*longest != nullptr) {
    return fmt::format("its {} entries reach at most {:g} m ({}), short of {:g} m", format_speed(speed), (*longest)->reach_m,
                       (*longest)->id, length_m);
  }
  std::string runs;
  for (const std::uint64_t s : speeds) runs += (runs.empty() ? "" : ", ") + format_speed(BitsPerSecond(s));
  return fmt::format("it has no {} optic or cable (its entries run {} links)", format_speed(speed), runs);
}

}  // namespace

Diagnostics media_gaps(const MediaSources& in, const Topology& t, const Catalog& catalog) {
  // (frontend?, length tier, speed) -> links without a medium
  std::map<std::tuple<bool, int, std::uint64_t>, long long> gaps;
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    if (t.media[l] >= 0) continue;
    const auto a = t.link_a[l].value(), b = t.link_b[l].value();
    const int tier = std::clamp(static_cast<int>(std::max(t.tier[a], t.tier[b])) - 1, 0, 2);
    ++gaps[{t.network[a] == Network::kFrontend, tier, t.capacity[l].value()}];
  }
  Diagnostics out;
  for (const auto& [key, links] : gaps) {
    const auto& [frontend, tier, bps] = key;
    if (frontend && !in.frontend_speed) continue;
    const BitsPerSecond speed(bps);
    const double length = in.cable_length_m[tier];
    const OpticModel* longest = nullptr;
    const std::string why = reason(catalog, speed, length, &longest);
    const std::string network = frontend ? "frontend" : "backend";
    const std::string add =
        longest != nullptr
            ? fmt::format("an entry like {} with reach_m of at least {:g} (or shorten backend.cable_length_m.{})", longest->id,
                          length, kLengthNames[tier])
            : fmt::format("an entry with speed: {} (links: 1), or speed: {} and links: 2 (a twin-port module split in two), "
                          "and reach_m of at least {:g}",
                          format_speed(speed), format_speed(BitsPerSecond(2 * bps)), length);
    Diagnostic d;
    d.severity = Severity::kWarning;
    d.field = longest != nullptr ? fmt::format("backend.cable_length_m.{}", kLengthNames[tier])
                                 : (frontend ? "frontend.speed" : "backend.port_speed");
    d.where = longest != nullptr ? in.cable_length[tier] : (frontend ? *in.frontend_speed : in.backend_speed);
    d.message = fmt::format(
        "the catalog has no medium for the {} {} {} links of {:g} m ({} links): {}; their modules, power and cost are "
        "left out of the plan (\"no catalog optic\"); to plan them, add to the catalog's optics.yaml {}",
        network, kLinkNames[tier], format_speed(speed), length, links, why, add);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace ct
