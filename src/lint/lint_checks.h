// The check functions of the lint rules, one file per family; the table that names them with their
// ids, severities and assumptions is lint_rules.cpp. Each appends its findings to `out`.
#pragma once

#include <vector>

#include "lint/lint.h"

namespace ct {

// route_rules.cpp
void check_route_shadowed(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_route_hostname_unaccepted(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// certificate_rules.cpp
void check_cert_name_mismatch(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_cert_missing_issuer(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_cert_cross_namespace(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_acme_http01_split_horizon(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// dns_rules.cpp
void check_dns_inside_public_address(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_dns_view_hides_later(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// bgp_rules.cpp
void check_etp_local_one_node(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_bgp_single_peer(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// storage_rules.cpp
void check_longhorn_replicas_exceed_nodes(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_rwo_multi_attach(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_volume_one_replica(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// workload_rules.cpp
void check_gateway_one_node(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_door_no_pdb(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_service_selects_nothing(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_service_target_port(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// checklist.cpp: one rule per step, reporting the apps whose step is missing or broken.
void check_checklist_step(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);

// Shared by the families (lint.cpp).
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
std::vector<std::string> workload_nodes(const FrontendModel& f, std::size_t w, int* pods = nullptr);

}  // namespace ct
