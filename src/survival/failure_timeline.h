// What a set of failures does to a platform, from the first failure (t = 0) to the steady state:
// the one analysis behind `clustertwin break` and `clustertwin spof` (Batfish's way carried into the
// Kubernetes, storage, DNS and BGP layers: fork the model with the failed elements removed at their
// times, ask every question again, diff against the healthy model).
//   1 elements   failure_set.h: what each failure takes away at its time (a node, its disk, the
//                nodes a switch or link cuts off, a BGP peer, a zone's name servers, a pool)
//   2 pods       each node that goes (dead or cut) runs the node lifecycle model
//                (node_lifecycle.h: NotReady after G, eviction after G + S, the RWO force detach,
//                start-up), shifted to the time it went; the replacements are scheduled on the
//                cluster without every node that goes during the study
//   3 volumes    volume_layout.h: each Longhorn volume's replicas; a replica is LOST with its
//                node's disk (a dead node or a failed disk) and only UNAVAILABLE on a cut node;
//                every replica lost: faulted, the data LOST, and the pods that mount it never Ready
//                again; the engine's node gone: unavailable until the pod's replacement is Ready
//                (reattached). A replica that is out is rebuilt after Longhorn's replica
//                replenishment wait (replica-replenishment-wait-interval, 600 s, longhorn.io
//                "Settings") once the volume is attached on a live node (offline rebuilding is off
//                by default), from a live replica to the first candidate node without one, over
//                rebuild_path's links, concurrent rebuilds sharing them (volume_rebuild.h)
//   4 requests   published_requests.h: every published route's request, inside and outside; at
//                each epoch (a time where anything above changes) the model is forked
//                (failure_set.h fork_model), the replacements Ready by then put on their nodes,
//                and each request traced again; it FAILS while its answer differs from the
//                healthy one. Two windows the forked trace cannot see are added from the healthy
//                trace, both DEGRADED (part of the requests fail): the router keeps sending the
//                flows hashed to a gone next hop there until the BGP hold time runs out, and a dead
//                endpoint, Gateway pod or auth endpoint stays listed until the node is NotReady at G
//   5 apps       an app (an HTTPRoute) is down while any of its requests fails; its downtime is
//                the measure of that union, for ever when an outage never ends
//   certificates an issuer's failure (cert_renewal.h): each of its certificates renews before the
//                outage or tries in it and fails; the certificate in place expires at its
//                notAfter, and from then every request over a listener serving its Secret fails
//                the TLS handshake (the certificates' dates placed against --now; undated ones are
//                listed, they fail no request)
// Not modelled: repairs (no failed element returns), retries and client-side DNS caching (a
// zone's names fail as soon as its last name server does), traffic other than the published
// routes' requests.
#pragma once

#include <string>
#include <vector>

#include "frontend/request_trace.h"
#include "survival/failure_set.h"
#include "survival/node_lifecycle.h"
#include "survival/published_requests.h"
#include "survival/volume_layout.h"

namespace ct {

inline constexpr double kReplicaReplenishmentWaitS = 600;

// [from, to): to is kNever for an outage that never ends.
struct Span {
  double from_s = 0;
  double to_s = 0;
  std::string why;
};
double span_length(const std::vector<Span>& spans);  // kNever when one never ends

struct RequestOutcome {
  std::size_t request = 0;  // index into FailureTimeline::published.requests
  std::vector<Span> failed;
  std::vector<Span> degraded;
};

struct AppDowntime {
  std::string app;
  std::vector<std::string> urls;  // its URLs that failed
  std::vector<Span> down;         // the union of its requests' failures
  double downtime_s = 0;          // kNever: for ever
};

struct PodOutcome {
  std::string pod;  // ns/name
  std::string app;  // the workload "Kind ns/name"
  std::string node;
  double gone_s = 0;     // its node went
  double not_ready_s = 0;
  double evicted_s = kNever;
  std::string replacement_node;
  double ready_s = kNever;
  std::string why;
};

struct VolumeOutcome {
  std::string claim;
  std::string size;
  int replicas_wanted = 0;
  std::vector<std::string> replica_nodes;
  int replicas_left = 0;  // at the steady state, before rebuilds
  double degraded_s = kNever;   // first replica out
  double lost_s = kNever;       // every replica's disk lost: faulted, data LOST
  std::vector<Span> unavailable;
  double rebuild_start_s = kNever;
  double rebuild_end_s = kNever;
  std::string rebuild_from, rebuild_to;
  double rebuild_bits_per_s = 0;  // the slowest link on the rebuilds' ways
  std::string verdict_note;  // replicas that cannot be rebuilt
  std::string verdict;  // "healthy", "degraded, rebuilt at ...", "data LOST", ...
};

// A certificate of a failed issuer.
struct CertificateOutcome {
  std::string certificate;  // ns/name
  std::string issuer;
  std::string secret;       // ns/name: what the listeners serve
  bool dated = false;
  std::string undated_why;
  int renewed_before = 0;   // renewals before the outage (they succeed)
  double attempt_s = kNever;  // the renewal in the outage: it fails
  double expires_s = kNever;  // TLS fails from here
};

struct TimelineEvent {
  double at_s = 0;
  std::string object;
  std::string what;
};

struct FailureTimeline {
  std::vector<Failure> failures;  // by time
  LifecycleTimers timers;
  PublishedRequests published;
  std::vector<RequestOutcome> requests;  // the requests that fail or degrade, in published order
  std::vector<AppDowntime> apps;         // apps with downtime, by downtime (longest first), then name
  std::vector<PodOutcome> pods;
  std::vector<VolumeOutcome> volumes;    // every Longhorn volume, by claim
  std::vector<CertificateOutcome> certificates;  // the failed issuers' certificates, by expiry
  std::vector<TimelineEvent> events;     // by time, then as produced
  std::vector<std::string> notes;
  int apps_total = 0;
  double steady_s = 0;         // the last change
  double total_downtime_s = 0;  // the apps' downtimes summed (finite ones)
  int apps_down_for_ever = 0;
  bool data_lost = false;
};

// PRECONDITION: check_failures(model, failures) is empty.
FailureTimeline failure_timeline(const FrontendModel& model, std::vector<Failure> failures, const LifecycleTimers& timers);

// The same against requests traced once already (spof re-uses them across elements); only the
// requests that depend on a gone node, or all when a non-node element failed, are traced again.
FailureTimeline failure_timeline(const FrontendModel& model, std::vector<Failure> failures, const LifecycleTimers& timers,
                                 const PublishedRequests& published);

// The same against the healthy volumes laid out once as well (volume_layouts(model); spof
// re-uses them across elements).
FailureTimeline failure_timeline(const FrontendModel& model, std::vector<Failure> failures, const LifecycleTimers& timers,
                                 const PublishedRequests& published, const std::vector<VolumeLayout>& volumes);

}  // namespace ct
