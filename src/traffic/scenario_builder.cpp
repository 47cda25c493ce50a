#include "traffic/scenario_builder.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/rng.h"
#include "core/suggest.h"
#include "yaml/yaml_reader.h"

namespace ct {
namespace {

constexpr std::uint64_t kOrderStream = 0x4F52'4445'5200;  // "ORDER": random rank order

template <typename Enum, std::size_t N>
std::vector<std::string> names_of(const Enum (&all)[N], std::string_view (*name_of)(Enum)) {
  std::vector<std::string> names;
  for (const Enum e : all) names.emplace_back(name_of(e));
  return names;
}

// The value of `name` in a table, or "unknown <what> 'x' (a, b, c)" with its did-you-mean.
template <typename Enum, std::size_t N>
std::optional<Enum> look_up(std::string_view name, const Enum (&all)[N], std::string_view (*name_of)(Enum),
                            std::string_view what, std::string_view more, const ValueOrigin& at, ScenarioBuilder& b) {
  for (const Enum e : all) {
    if (name_of(e) == name) return e;
  }
  const std::vector<std::string> names = names_of(all, name_of);
  b.error(at, fmt::format("unknown {} '{}' ({}{}){}", what, name, fmt::join(names, ", "), more,
                          did_you_mean(std::string(name), names)));
  return std::nullopt;
}

}  // namespace

ScenarioBuilder::ScenarioBuilder(std::string file, const NameDirectory& names, Diagnostics& errors)
    : names_(names), t_(names.topology()), errors_(errors) {
  scenario_.file = std::move(file);
}

void ScenarioBuilder::error(const ValueOrigin& at, std::string message) {
  errors_.push_back(Diagnostic{at.where, at.field, std::move(message)});
}

template <typename T>
bool ScenarioBuilder::found(const Result<T>& r) {
  if (r) return true;
  errors_.insert(errors_.end(), r.errors().begin(), r.errors().end());
  return false;
}

// ---- names of the model ----

std::optional<PathModel> ScenarioBuilder::path_model(std::string_view name, const ValueOrigin& at) {
  return look_up(name, kAllPathModels, path_model_name, "path model", "", at, *this);
}

std::optional<CollectiveKind> ScenarioBuilder::collective_kind(std::string_view name, const ValueOrigin& at) {
  return look_up(name, kAllCollectiveKinds, collective_kind_name, "collective", "", at, *this);
}

std::optional<CollectiveAlgorithm> ScenarioBuilder::algorithm(std::string_view name, const ValueOrigin& at) {
  return look_up(name, kAllCollectiveAlgorithms, algorithm_name, "algorithm", "", at, *this);
}

std::optional<CollectiveModel> ScenarioBuilder::collective_model(std::string_view name, const ValueOrigin& at) {
  return look_up(name, kAllCollectiveModels, collective_model_name, "model", "", at, *this);
}

std::optional<FaultKind> ScenarioBuilder::fault_kind(std::string_view name, const ValueOrigin& at) {
  return look_up(name, kAllFaultKinds, fault_kind_name, "value", "", at, *this);
}

std::optional<GpuGrouping> ScenarioBuilder::gpu_grouping(std::string_view name, const ValueOrigin& at) {
  return look_up(name, kAllGpuGroupings, gpu_grouping_name, "value", "", at, *this);
}

std::optional<GpuOrder> ScenarioBuilder::gpu_order(std::string_view name, const ValueOrigin& at) {
  return look_up(name, kAllGpuOrders, gpu_order_name, "value", "", at, *this);
}

std::optional<GpuSelection> ScenarioBuilder::named_selection(std::string_view name, const ValueOrigin& at,
                                                             std::string_view noun, std::string_view other_forms) {
  const auto per = look_up(name, kAllGpuGroupings, gpu_selection_name, noun, fmt::format(", {}", other_forms), at, *this);
  if (!per) return std::nullopt;
  return whole_fabric(*per);
}

// ---- names of the fabric ----

std::optional<std::uint32_t> ScenarioBuilder::gpu(std::string_view name, const ValueOrigin& at) {
  auto g = names_.gpu(name, at.where, at.field);
  if (!found(g)) return std::nullopt;
  return g.value();
}

std::optional<Endpoint> ScenarioBuilder::spelled_port(std::string_view name) const {
  const auto p = names_.nic_port_spelled(name);
  if (!p) return std::nullopt;
  Endpoint e;
  e.name = std::string(name);
  e.is_port = true;
  e.port = *p;
  return e;
}

std::optional<Endpoint> ScenarioBuilder::endpoint(std::string_view name, const ValueOrigin& at) {
  // A port spelled as the fabric prints it ("host12/nic3/p1") is no GPU: found without the
  // diagnostic the GPU grammar would build and drop.
  if (auto port = spelled_port(name)) return port;
  Endpoint e;
  e.name = std::string(name);
  if (const auto g = names_.gpu(name, at.where, at.field)) {
    e.gpu = g.value();
    return e;
  }
  if (const auto p = names_.backend_port(name, at.where, at.field)) {
    e.is_port = true;
    e.port = p.value();
    return e;
  }
  const std::uint64_t gpus = static_cast<std::uint64_t>(t_.host_count) * gpus_per_host();
  error(at, fmt::format("'{}' names no GPU (host<h>/gpu<g> or gpu<id>, {} GPUs) and no backend port (host<h>/nic<r>/p<p>)",
                        excerpt(name), gpus));
  return std::nullopt;
}

std::vector<LinkId> ScenarioBuilder::cable_links(std::string_view name, const ValueOrigin& at) {
  auto links = names_.links(name, at.where, at.field);
  if (!found(links)) return {};
  return std::move(links).value();
}

std::vector<LinkId> ScenarioBuilder::switch_links(std::string_view name, const ValueOrigin& at) {
  const auto s = names_.vertex(name, at.where, at.field);
  if (!found(s)) return {};
  if (t_.kind[s.value().value()] != VertexKind::kSwitch) {
    error(at, fmt::format("'{}' is not a switch (names such as p0/spine/3, p1/pod2/leaf/5, p0/core/1)",
                          excerpt(name)));
    return {};
  }
  return links_of(s.value());
}

std::vector<LinkId> ScenarioBuilder::port_links(std::string_view name, const ValueOrigin& at) {
  const auto p = names_.backend_port(name, at.where, at.field);
  if (!found(p)) return {};
  return {LinkId(p.value().value())};  // a backend port's NIC link has the port's id (topology/builder.h)
}

std::vector<LinkId> ScenarioBuilder::target_links(std::string_view name, const ValueOrigin& at) {
  if (name.find("--") != std::string_view::npos || name.find_first_not_of("0123456789") == std::string_view::npos) {
    return cable_links(name, at);
  }
  if (name.starts_with("host")) return port_links(name, at);
  const auto s = names_.backend_switch(name, at.where, at.field);
  if (!found(s)) return {};
  return links_of(s.value());
}

std::vector<LinkId> ScenarioBuilder::links_of(VertexId sw) const {
  std::vector<LinkId> links;
  for (const Adjacency& a : t_.neighbors(sw)) links.push_back(a.link);
  std::sort(links.begin(), links.end());
  return links;
}

// ---- GPU selections ----

std::uint32_t ScenarioBuilder::host_count() const { return static_cast<std::uint32_t>(std::max(t_.host_count, 0LL)); }
std::uint32_t ScenarioBuilder::gpus_per_host() const { return static_cast<std::uint32_t>(std::max(t_.gpus_per_host, 0)); }

GpuSelection ScenarioBuilder::whole_fabric(GpuGrouping per) const {
  GpuSelection s;
  s.hosts.resize(host_count());
  std::iota(s.hosts.begin(), s.hosts.end(), 0U);
  s.local.resize(gpus_per_host());
  std::iota(s.local.begin(), s.local.end(), 0U);
  s.per = per;
  return s;
}

std::vector<std::vector<std::uint32_t>> ScenarioBuilder::groups(const GpuSelection& s) const {
  const std::uint32_t g = gpus_per_host();
  std::vector<std::vector<std::uint32_t>> out;
  if (s.per == GpuGrouping::kRail) {
    for (const std::uint32_t l : s.local) {
      auto& group = out.emplace_back();
      for (const std::uint32_t h : s.hosts) group.push_back(h * g + l);
    }
  } else if (s.per == GpuGrouping::kHost) {
    for (const std::uint32_t h : s.hosts) {
      auto& group = out.emplace_back();
      for (const std::uint32_t l : s.local) group.push_back(h * g + l);
    }
  } else {
    auto& group = out.emplace_back();
    for (const std::uint32_t h : s.hosts) {
      for (const std::uint32_t l : s.local) group.push_back(h * g + l);
    }
  }
  if (s.order == GpuOrder::kInOrder) return out;
  // A scattered job placement: Fisher-Yates over each group with the scenario's seed.
  for (std::size_t i = 0; i < out.size(); ++i) {
    Rng rng(scenario_.seed, 0, stream_of({kOrderStream, scenario_.collectives.size(), i}));
    auto& group = out[i];
    for (std::size_t j = group.size(); j > 1; --j) std::swap(group[j - 1], group[rng.uniform(j)]);
  }
  return out;
}

Result<Scenario> ScenarioBuilder::finish() {
  if (!errors_.empty()) return errors_;
  std::stable_sort(scenario_.faults.begin(), scenario_.faults.end(),
                   [](const FaultSpec& a, const FaultSpec& b) { return a.at < b.at; });
  return std::move(scenario_);
}

}  // namespace ct
