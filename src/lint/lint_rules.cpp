// The rule table: every lint rule, registered here and nowhere else. A row is the rule's id, its
// family, severity, summary and help, the two assumptions of the ranking (the chance it bites in
// a year, the hours lost when it does, and why; docs/models/lint.md) and its check function.
#include "lint/lint.h"
#include "lint/lint_checks.h"

namespace ct {

namespace {

using S = LintSeverity;

const std::vector<LintRule> kRules = {
    // routes
    {"route-shadowed", "routes", S::kMedium, "An HTTPRoute rule that another rule always takes first",
     "Every request this rule could match is taken by an earlier rule in Gateway API precedence (a longer or "
     "equal match, an older route). Narrow or remove one of them, or merge the two.",
     1.0, 1.5, "bites on every request the author meant for it; 1.5 h to find why the other backend answers",
     check_route_shadowed},
    {"route-hostname-unaccepted", "routes", S::kHigh, "Route hostnames that no listener of its parent accepts",
     "The route's hostnames intersect no hostname of the listeners it names, so the controller does not accept "
     "it (NoMatchingListenerHostname) and every request for it gets 404. Add the listener or fix the hostname.",
     1.0, 2.0, "bites on the first request; 2 h: the route exists and looks right, only its status says why",
     check_route_hostname_unaccepted},
    // certificates
    {"cert-name-mismatch", "certificates", S::kHigh, "A listener's certificate does not cover its hostname",
     "Browsers refuse the handshake (the name is not in the certificate's dnsNames). Add the hostname to the "
     "Certificate's dnsNames, or point the listener at a certificate that has it.",
     1.0, 2.0, "bites on every HTTPS request to the name; 2 h to find which Secret the listener serves",
     check_cert_name_mismatch},
    {"cert-missing-issuer", "certificates", S::kHigh, "A Certificate names an Issuer or ClusterIssuer that does not exist",
     "cert-manager never issues it, so the listener has no Secret to serve and the TLS handshake fails. Create the "
     "issuer or fix issuerRef (kind Issuer is looked up in the Certificate's namespace).",
     1.0, 2.0, "bites at the first issuance; 2 h: the Certificate stays not Ready with a terse reason",
     check_cert_missing_issuer},
    {"cert-cross-namespace", "certificates", S::kHigh, "A listener's certificate Secret in another namespace without a ReferenceGrant",
     "The Gateway may not read the Secret (RefNotPermitted), so the listener is not programmed. Add a ReferenceGrant "
     "in the Secret's namespace from Gateway in the Gateway's namespace to that Secret.",
     1.0, 2.0, "bites at once; 2 h: the listener's ResolvedRefs condition is the only hint",
     check_cert_cross_namespace},
    {"acme-http01-split-horizon", "certificates", S::kHigh, "HTTP-01 challenges that cannot complete behind split-horizon DNS",
     "cert-manager answers HTTP-01 on port 80 of the name and first checks it itself, from inside the cluster, so the "
     "inside view must lead to the solver's Gateway as well as the public view; otherwise the self-check fails and "
     "the certificate expires. Answer the Gateway's VIP in the inside view, or use DNS-01.",
     1.0, 6.0, "bites at every issuance and renewal (60 days); 6 h: the challenge looks reachable from outside, and the "
     "certificate expires before anyone looks",
     check_acme_http01_split_horizon},
    // dns
    {"dns-inside-public-address", "dns", S::kMedium, "An inside view that answers a public address (hairpin through the border)",
     "Inside clients are sent to the public address, which only works when the border router NATs back into the "
     "cluster (hairpin), and then with the client's address rewritten. Answer the VIP in the inside view.",
     1.0, 3.0, "bites for every inside client; 3 h: it works from a phone and fails from the office",
     check_dns_inside_public_address},
    {"dns-view-hides-later", "dns", S::kHigh, "A view that matches every client and hides the views after it",
     "named picks the first view whose match-clients matches; a view that matches every client before others makes "
     "them unreachable, so every client gets its answers. Move it last or narrow its match-clients.",
     1.0, 4.0, "bites for every query of the hidden views' clients; 4 h: each zone file is right on its own",
     check_dns_view_hides_later},
    // bgp
    {"etp-local-one-node", "bgp", S::kMedium, "externalTrafficPolicy Local with every endpoint on one node",
     "With Local only nodes with a ready endpoint announce the VIP; with every endpoint on one node, one node's "
     "reboot takes the address off the network until a pod is ready elsewhere. Spread the pods (podAntiAffinity or "
     "topologySpreadConstraints) or use Cluster.",
     1.0, 1.0, "a node reboots for updates a few times a year; 1 h of outage and diagnosis",
     check_etp_local_one_node},
    {"bgp-single-peer", "bgp", S::kMedium, "A single BGP peer carries every VIP",
     "Every LoadBalancer address is announced to one router; when it restarts or fails the VIPs are unreachable. "
     "Peer with a second router (a second BGPPeer).",
     0.3, 4.0, "a router fails or is upgraded about once in three years; 4 h outage",
     check_bgp_single_peer},
    // storage
    {"longhorn-replicas-exceed-nodes", "storage", S::kHigh, "More Longhorn replicas than nodes that can hold one",
     "Longhorn places replicas of a volume on distinct nodes (hard node anti-affinity); with fewer nodes than "
     "numberOfReplicas whose disks can take a replica (schedulable, tags, space against the minimal-available and "
     "over-provisioning percentages) the volume is Degraded from its first day and never healthy. Lower "
     "numberOfReplicas or add storage nodes.",
     1.0, 8.0, "degraded from the start: one more failure loses the data; 8 h to restore from backup",
     check_longhorn_replicas_exceed_nodes},
    {"rwo-multi-attach", "storage", S::kHigh, "A ReadWriteOnce volume under a Deployment with several replicas or RollingUpdate",
     "A ReadWriteOnce volume attaches to one node; a second replica, or the new pod of a rolling update landing on "
     "another node, waits in ContainerCreating (Multi-Attach error) and the rollout hangs. Use strategy Recreate "
     "with one replica, a StatefulSet, or ReadWriteMany.",
     1.0, 2.0, "bites at the next rollout; 2 h to understand the Multi-Attach event",
     check_rwo_multi_attach},
    {"volume-one-replica", "storage", S::kMedium, "A Longhorn volume with one replica",
     "One disk or node failure loses the data. Use numberOfReplicas 2 or more.",
     0.5, 12.0, "a homelab disk or node dies every two years or so; 12 h to rebuild the data",
     check_volume_one_replica},
    {"longhorn-replicas-one-zone", "storage", S::kMedium, "Every replica of a Longhorn volume in one zone",
     "Longhorn spreads replicas over zones (the node label topology.kubernetes.io/zone) only when another zone has a "
     "node with room; here every replica sits in one zone, so the zone's loss loses the data. Give another zone's nodes "
     "Longhorn disks with room.",
     0.1, 12.0, "a zone (a rack's power or switch) fails about once in ten years; 12 h to restore from backup",
     check_longhorn_replicas_one_zone},
    // network (from the cluster spec, lint --spec)
    {"frontend-one-switch", "network", S::kMedium, "One frontend switch carries every node",
     "Every node's frontend ports go through one switch of the spec's frontend network (one leaf, or the only spine "
     "below the router), so its failure or upgrade reboot cuts every app and every Longhorn rebuild. Add a second "
     "switch and dual-home the nodes.",
     0.2, 8.0, "a switch fails or is upgraded with an outage about once in five years; 8 h to get a spare and recable",
     check_frontend_one_switch},
    // workloads
    {"gateway-one-node", "workloads", S::kHigh, "Every Gateway data-plane replica on one node",
     "The whole front door runs on one node: its reboot or failure takes every published app down until the "
     "pods are rescheduled and ready. Run two replicas or more with podAntiAffinity on kubernetes.io/hostname.",
     1.0, 2.0, "a node reboots for updates a few times a year; 2 h of outage for every app",
     check_gateway_one_node},
    {"door-no-pdb", "workloads", S::kLow, "No PodDisruptionBudget for the Gateway data plane",
     "A drain (node upgrades) may evict every data-plane pod at once. Add a PodDisruptionBudget with "
     "maxUnavailable: 1 selecting the data-plane pods.",
     0.5, 1.0, "an upgrade drains two door nodes at once about every other year; 1 h outage",
     check_door_no_pdb},
    // authentication (issue 28 item 4)
    {"login-one-node", "auth", S::kHigh, "The login every covered app passes runs on one node",
     "Every ready endpoint of the authentication Service is on one node (one replica, or all on one node), so "
     "that node's death or drain takes down every app behind the login at once. Run two or more replicas spread "
     "over nodes, with a PodDisruptionBudget.",
     1.0, 2.0, "a node reboots for updates a few times a year; 2 h of outage for every app behind the login",
     check_login_one_node},
    {"login-no-pdb", "auth", S::kMedium, "No PodDisruptionBudget for the login every covered app passes",
     "The login runs on two nodes or more, but nothing stops a drain from evicting every login pod at once, and "
     "every app behind the login fails with it. Add a PodDisruptionBudget with maxUnavailable: 1 selecting the "
     "login pods.",
     0.5, 1.0, "an upgrade drains the login's nodes together about every other year; 1 h for every app behind the login",
     check_login_no_pdb},
    {"login-redirect-loop", "auth", S::kHigh, "A sign-in page behind its own login",
     "The step that redirects unauthenticated requests to the sign-in page also covers the sign-in page, so the "
     "redirect never ends. Exclude the login's own route from the step.",
     1.0, 2.0, "bites for every user who is not signed in; 2 h: signed-in users never see it",
     check_login_redirect_loop},
    {"service-selects-nothing", "workloads", S::kHigh, "A Service whose selector matches no pod",
     "The Service has no endpoints, so every request to it fails (503 at the Gateway). Fix the selector or the pod "
     "labels.",
     1.0, 2.0, "bites on every request; 2 h: the Service and the pods both look right",
     check_service_selects_nothing},
    {"service-target-port", "workloads", S::kHigh, "A Service targetPort that no container exposes",
     "A named targetPort no container declares leaves the Service without endpoints; a number no declared "
     "containerPort has reaches a port nothing listens on. Fix the targetPort or the container's ports.",
     1.0, 2.0, "bites on every request; 2 h: connection refused with healthy pods",
     check_service_target_port},
    // the publishing checklist, one rule per step
    {"checklist-workload", "checklist", S::kHigh, "A published app without a running workload",
     "The app's Service selects no pod that runs. Add the workload, or fix the Service's selector.",
     1.0, 1.0, "the app is down until someone notices; 1 h", check_checklist_step},
    {"checklist-service", "checklist", S::kHigh, "A published app whose route names no Service that selects it",
     "The HTTPRoute's backendRef names a Service that does not exist or selects nothing: 500. Add the Service.",
     1.0, 1.0, "the app answers 500; 1 h", check_checklist_step},
    {"checklist-route", "checklist", S::kHigh, "A published app without an accepted HTTPRoute",
     "No accepted HTTPRoute takes the app's hostname: 404. Add the route to a listener that accepts the name.",
     1.0, 1.0, "the app answers 404; 1 h", check_checklist_step},
    {"checklist-certificate", "checklist", S::kHigh, "A published app without a certificate that covers its name",
     "The HTTPS listener serves no certificate for the name, or one that cannot be issued. Add a Certificate.",
     1.0, 1.0, "browsers refuse the app; 1 h", check_checklist_step},
    {"checklist-dns", "checklist", S::kMedium, "A published app whose name is missing from a DNS view",
     "Clients of that view cannot resolve the name. Add the record to the view's zone.",
     1.0, 1.0, "the app is unreachable for a class of clients; 1 h", check_checklist_step},
};

}  // namespace

const std::vector<LintRule>& lint_rules() { return kRules; }

}  // namespace ct
