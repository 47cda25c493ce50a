// Views of a Diagnosis for `clustertwin diagnose`: text (the verdict per imbalanced group with its
// witnesses, cause, why the dashboards stayed green and the fix; then the groups and links) and
// JSON with a fixed key order. Pure functions: no I/O. Rates in text are Gb/s, in JSON bits/s.
#pragma once

#include <string>

#include "diagnose/diagnosis.h"
#include "fabric/name_directory.h"
#include "report/table.h"
#include "topology/topology.h"

namespace ct {

std::string to_text(const Diagnosis& diagnosis, const Topology& topology);
// Each link named as every output names a cable (NameDirectory::cable_name: a parallel twin's " #k").
std::string to_json(const Diagnosis& diagnosis, const NameDirectory& names);

// The text report's tables, for other renderings of it (report/diagnose_html.h): one group's
// members (far end, Gb/s, utilization, the model's flows, state); every judged group; the directed
// links carrying at least 1 Mb/s (`quiet` set to the count of the others); the hosts' NIC rates.
TextTable diagnose_members_table(const GroupDiagnosis& group, const Topology& topology);
TextTable diagnose_groups_table(const Diagnosis& diagnosis, const Topology& topology);
TextTable diagnose_links_table(const Diagnosis& diagnosis, const Topology& topology, std::size_t& quiet);
TextTable diagnose_hosts_table(const Diagnosis& diagnosis, const Topology& topology);
// The alert that would have fired (diagnose/alert_rules.h): one sentence naming the first alert to
// fire and when, and the table of every alert whose condition held (rule, group, member, from,
// fires at, fired or still pending at the last sample).
std::string diagnose_alert_sentence(const Diagnosis& diagnosis);
TextTable diagnose_alerts_table(const Diagnosis& diagnosis);

}  // namespace ct
