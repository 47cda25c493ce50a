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
void check_longhorn_replicas_one_zone(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// network_rules.cpp (from the cluster spec)
void check_frontend_one_switch(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// workload_rules.cpp
void check_gateway_one_node(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_door_no_pdb(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_service_selects_nothing(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_service_target_port(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
// checklist_rules.cpp: one rule per step, reporting the apps whose step is missing or broken.
void check_login_one_node(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_login_no_pdb(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);
void check_login_redirect_loop(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);

void check_checklist_step(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out);

}  // namespace ct
