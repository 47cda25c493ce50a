// The checklist that publishes an app behind the front door, five objects in a chain:
//   workload     a Deployment, StatefulSet or DaemonSet with a pod placed (pod_placement.h)
//   service      a Service that the route's backendRef names and whose selector matches it
//   route        an HTTPRoute for the app's hostname, Accepted by a listener that takes the name
//   certificate  on an HTTPS listener, a certificate that covers the name and can be issued
//                (cert_chain.h)
//   dns          the name answered in every DNS view (with --dns)
// An app is a hostname someone meant to publish: one an HTTPRoute names, or one a Certificate
// names (so the app is still listed when its route is the missing object). Where an object is
// missing, the line to add is derived from its neighbours: the route's backendRef names the
// Service; the Service's selector the workload's labels; the hostname's first label the Service
// when the route is gone; a sibling record of the same zone the DNS line.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace ct {

struct LintContext;

enum class ChecklistStatus { kOk, kMissing, kBroken, kSkipped };
std::string to_string(ChecklistStatus s);

struct ChecklistStep {
  std::string step;  // workload | service | route | certificate | dns
  ChecklistStatus status = ChecklistStatus::kOk;
  std::string detail;        // what was found, or what is missing or broken
  std::string add;           // the line to add (missing or broken), empty when ok
  std::string object;        // the object the step names ("Service apps/wiki"), or where the line goes
  SourceLocation where;      // its file:line (where to add the line: the neighbour it is derived from)
};

struct ChecklistApp {
  std::string host;                // the hostname
  std::string ns;                  // the namespace of its route (or certificate)
  std::vector<ChecklistStep> steps;  // the five, in the order above
  [[nodiscard]] bool complete() const;
};

inline constexpr const char* kChecklistSteps[] = {"workload", "service", "route", "certificate", "dns"};

// Every app, by hostname.
std::vector<ChecklistApp> publishing_checklist(const LintContext& context);

}  // namespace ct
