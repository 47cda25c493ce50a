// Questions the lint rules and the checklist ask of the frontend model, answered once here: which
// Services select a workload and the reverse, the Gateway data planes, a workload's nodes, and
// clients for the DNS views.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/request_trace.h"

namespace ct {

// The Services of the workload's namespace whose selector matches its pod labels.
std::vector<const Service*> services_selecting(const Manifests& m, const KubeWorkload& w);
// The workloads of the Service's namespace whose pod labels its selector matches.
std::vector<std::size_t> workloads_selected(const Manifests& m, const Service& s);
// The Gateway data plane: the workloads behind the Services labelled
// gateway.networking.k8s.io/gateway-name, with that Service.
struct DataPlane {
  const Gateway* gateway = nullptr;
  const Service* service = nullptr;
  std::vector<std::size_t> workloads;
};
std::vector<DataPlane> gateway_data_planes(const Manifests& m);
// Probe addresses for the DNS views: the first and last address of every prefix the
// configuration names, and one of each documentation and private range.
std::vector<std::uint32_t> dns_probe_addresses(const NamedConf& conf);
// A client that view v serves (the first probe named selects for it), if any.
std::optional<std::uint32_t> client_of_view(const NamedConf& conf, std::size_t v, const std::vector<std::uint32_t>& probes);
// The nodes the placed pods of workload `w` run on, sorted, each once; `pods` counts the placed pods.
// The PodDisruptionBudget of the workload's namespace whose selector matches its pods, or null.
const PodDisruptionBudget* disruption_budget_of(const Manifests& m, const KubeWorkload& w);
std::vector<std::string> workload_nodes(const FrontendModel& f, std::size_t w, int* pods = nullptr);

}  // namespace ct
