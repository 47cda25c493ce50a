#include "frontend/volume_replicas.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/manifest_values.h"

namespace ct {

namespace {

constexpr const char* kZoneLabel = "topology.kubernetes.io/zone";
constexpr const char* kDefaultDiskLabel = "node.longhorn.io/create-default-disk";

enum class SettingType { kBool, kPercent, kCount, kSeconds, kLocality };
struct SettingRow {
  const char* name;
  SettingType type;
};
constexpr SettingRow kSettings[] = {
    {"default-replica-count", SettingType::kCount},
    {"replica-soft-anti-affinity", SettingType::kBool},
    {"replica-zone-soft-anti-affinity", SettingType::kBool},
    {"replica-disk-soft-anti-affinity", SettingType::kBool},
    {"storage-minimal-available-percentage", SettingType::kPercent},
    {"storage-over-provisioning-percentage", SettingType::kCount},
    {"storage-reserved-percentage-for-default-disk", SettingType::kPercent},
    {"default-data-locality", SettingType::kLocality},
    {"replica-replenishment-wait-interval", SettingType::kSeconds},
    {"create-default-disk-labeled-nodes", SettingType::kBool},
};

std::optional<long long> whole_number(const std::string& text) {
  long long v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

bool is_locality(const std::string& v) { return v == "disabled" || v == "best-effort" || v == "strict-local"; }

bool has_all(const std::vector<std::string>& tags, const std::vector<std::string>& wanted) {
  return std::all_of(wanted.begin(), wanted.end(), [&](const std::string& w) { return std::find(tags.begin(), tags.end(), w) != tags.end(); });
}

// "ssd,fast" -> {ssd, fast}.
std::vector<std::string> tag_list(const Labels& parameters, const char* key) {
  std::vector<std::string> out;
  auto it = parameters.find(key);
  if (it == parameters.end()) return out;
  std::size_t begin = 0;
  while (begin <= it->second.size()) {
    const std::size_t end = std::min(it->second.find(',', begin), it->second.size());
    std::string t = it->second.substr(begin, end - begin);
    t.erase(0, t.find_first_not_of(' '));
    t.erase(t.find_last_not_of(' ') + 1);
    if (!t.empty()) out.push_back(t);
    begin = end + 1;
  }
  return out;
}

std::string gib(double bytes) { return fmt::format("{:.1f}Gi", bytes / (1024.0 * 1024 * 1024)); }

// The disks of one Kubernetes node: its Longhorn Node's, else the default disk.
void add_node_disks(const Manifests& m, const Node& n, const LonghornSettings& st, bool labeled_only, std::vector<SchedulingDisk>& out) {
  const auto ln = std::find_if(m.longhorn_nodes.begin(), m.longhorn_nodes.end(), [&](const LonghornNode& l) { return l.meta.name == n.meta.name; });
  SchedulingDisk base;
  base.node = n.meta.name;
  if (auto z = n.meta.labels.find(kZoneLabel); z != n.meta.labels.end()) base.zone = z->second;
  if (n.unschedulable) base.unschedulable_why = "the node is cordoned";
  else if (n.ready != "True") base.unschedulable_why = "the node is not Ready";
  if (ln != m.longhorn_nodes.end()) {
    base.node_tags = ln->tags;
    if (!ln->allow_scheduling && base.unschedulable_why.empty()) base.unschedulable_why = "the Longhorn node's allowScheduling is false";
  }
  if (ln != m.longhorn_nodes.end() && ln->disks_given) {
    for (const LonghornDisk& d : ln->disks) {
      SchedulingDisk s = base;
      s.name = d.name;
      s.path = d.path;
      s.tags = d.tags;
      s.maximum = d.storage_maximum;
      s.available = d.storage_available;
      s.reserved = d.storage_reserved;
      if (!d.allow_scheduling && s.unschedulable_why.empty()) s.unschedulable_why = "the disk's allowScheduling is false";
      s.schedulable = s.unschedulable_why.empty();
      out.push_back(std::move(s));
    }
    return;
  }
  if (labeled_only) {
    auto it = n.meta.labels.find(kDefaultDiskLabel);
    if (it == n.meta.labels.end() || it->second != "true") return;
  }
  SchedulingDisk s = base;
  s.name = "default-disk";
  s.path = "/var/lib/longhorn/";
  if (auto c = n.capacity.find("ephemeral-storage"); c != n.capacity.end()) s.maximum = c->second;
  if (s.maximum >= 0) s.reserved = s.maximum * st.default_disk_reserved_percentage / 100;
  s.schedulable = s.unschedulable_why.empty();
  out.push_back(std::move(s));
}

// Why disk `d` cannot take a replica of `v` (space and tags), or "" when it can.
std::string disk_refuses(const LonghornSchedule& s, const ScheduledVolume& v, const SchedulingDisk& d) {
  const Labels& p = v.storage_class->parameters;
  if (!has_all(d.node_tags, tag_list(p, "nodeSelector")) || !has_all(d.tags, tag_list(p, "diskSelector"))) return "tags not fulfilled";
  if (d.maximum < 0) return "";
  const double over = (d.maximum - d.reserved) * s.settings.over_provisioning_percentage / 100;
  const double available = d.available >= 0 ? d.available : d.maximum;
  const double floor = d.maximum * s.settings.minimal_available_percentage / 100;
  if (d.scheduled + v.bytes > over || available - v.bytes <= floor) return "insufficient storage";
  return "";
}

double usable(const SchedulingDisk& d) {
  if (d.maximum < 0) return -1;
  return (d.available >= 0 ? d.available : d.maximum) - d.scheduled - d.reserved;
}

int node_replicas(const LonghornSchedule& s, const std::string& node) {
  auto it = s.node_replicas.find(node);
  return it == s.node_replicas.end() ? 0 : it->second;
}

// The best disk of `candidates` (usable space, node load, names).
std::size_t best_disk(const LonghornSchedule& s, const std::vector<std::size_t>& candidates) {
  auto key = [&](std::size_t i) {
    const SchedulingDisk& d = s.disks[i];
    const double u = usable(d);
    return std::make_tuple(u < 0, -u, node_replicas(s, d.node), d.node, d.name);
  };
  return *std::min_element(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
}

void record(LonghornSchedule& s, ScheduledVolume& v, std::size_t disk) {
  s.disks[disk].scheduled += v.bytes;
  s.disks[disk].replicas += 1;
  s.node_replicas[s.disks[disk].node] += 1;
  v.replica_disks.push_back(disk);
  v.replica_nodes.push_back(s.disks[disk].node);
}

const StorageClass* class_of(const Manifests& m, const PersistentVolumeClaim& claim) {
  if (!claim.storage_class.empty()) return m.find_storage_class(claim.storage_class);
  const StorageClass* found = nullptr;
  for (const auto& sc : m.storage_classes) {
    if (sc.is_default) found = &sc;
  }
  return found;
}

// The volume of `claim` before scheduling: its class, size, replica count and locality.
ScheduledVolume make_volume(const Manifests& m, const LonghornSettings& st, const PersistentVolumeClaim& claim, const std::string& engine) {
  ScheduledVolume v;
  v.claim = &claim;
  v.engine_node = engine;
  v.storage_class = class_of(m, claim);
  if (v.storage_class == nullptr || v.storage_class->provisioner != "driver.longhorn.io") return v;
  v.bytes = quantity_value(claim.request).value_or(0);
  v.wanted = st.default_replica_count;
  const Labels& p = v.storage_class->parameters;
  if (auto it = p.find("numberOfReplicas"); it != p.end()) {
    const auto r = whole_number(it->second);
    if (!r || *r < 1 || *r > 20) {
      v.problems.push_back("numberOfReplicas '" + it->second + "' is not an integer in [1, 20]");
      v.wanted = 0;
      return v;
    }
    v.wanted = static_cast<int>(*r);
  }
  v.data_locality = st.default_data_locality;
  if (auto it = p.find("dataLocality"); it != p.end()) v.data_locality = it->second;
  if (!is_locality(v.data_locality)) {
    v.problems.push_back("dataLocality '" + v.data_locality + "' is not disabled, best-effort or strict-local");
    v.data_locality = "disabled";
  }
  if (v.data_locality == "strict-local" && v.wanted != 1) {
    v.problems.push_back(fmt::format("dataLocality strict-local needs numberOfReplicas 1 (Longhorn refuses {} replicas)", v.wanted));
  }
  return v;
}

// Schedules the replicas of a fresh volume.
void schedule_volume(LonghornSchedule& s, ScheduledVolume& v) {
  if (v.wanted == 0 || !v.problems.empty()) return;
  if (v.data_locality == "strict-local" && v.engine_node.empty()) {
    v.unscheduled = "strict-local: the volume is not attached (its pod is not placed), so its replica has no node";
    return;
  }
  while (static_cast<int>(v.replica_disks.size()) < v.wanted) {
    std::string why;
    if (!schedule_replica(s, v, {}, why)) {
      v.unscheduled = why;
      return;
    }
  }
}

}  // namespace

std::string longhorn_setting_problem(const std::string& name, const std::string& value) {
  const auto row = std::find_if(std::begin(kSettings), std::end(kSettings), [&](const SettingRow& r) { return name == r.name; });
  if (row == std::end(kSettings)) return "";
  const auto n = whole_number(value);
  switch (row->type) {
    case SettingType::kBool: return value == "true" || value == "false" ? "" : "expected true or false";
    case SettingType::kPercent: return n && *n >= 0 && *n <= 100 ? "" : "expected a percentage, an integer in [0, 100]";
    case SettingType::kCount: return n && *n >= 1 ? "" : "expected a positive integer";
    case SettingType::kSeconds: return n && *n >= 0 ? "" : "expected a whole number of seconds";
    case SettingType::kLocality: return is_locality(value) ? "" : "expected disabled, best-effort or strict-local";
  }
  return "";
}

LonghornSettings longhorn_settings(const Manifests& m) {
  LonghornSettings st;
  std::set<std::string> seen;
  for (const LonghornSetting& s : m.longhorn_settings) {
    if (!longhorn_setting_problem(s.name, s.value).empty() || !seen.insert(s.name).second) continue;
    const auto n = whole_number(s.value);
    const bool yes = s.value == "true";
    if (s.name == "default-replica-count") st.default_replica_count = static_cast<int>(*n);
    else if (s.name == "replica-soft-anti-affinity") st.replica_soft_anti_affinity = yes;
    else if (s.name == "replica-zone-soft-anti-affinity") st.zone_soft_anti_affinity = yes;
    else if (s.name == "replica-disk-soft-anti-affinity") st.disk_soft_anti_affinity = yes;
    else if (s.name == "storage-minimal-available-percentage") st.minimal_available_percentage = static_cast<double>(*n);
    else if (s.name == "storage-over-provisioning-percentage") st.over_provisioning_percentage = static_cast<double>(*n);
    else if (s.name == "storage-reserved-percentage-for-default-disk") st.default_disk_reserved_percentage = static_cast<double>(*n);
    else if (s.name == "default-data-locality") st.default_data_locality = s.value;
    else if (s.name == "replica-replenishment-wait-interval") st.replenishment_wait_s = static_cast<double>(*n);
    else if (s.name == "create-default-disk-labeled-nodes") st.labeled_nodes_only = yes;
    else continue;
    st.from_manifests.push_back(fmt::format("{}={} ({})", s.name, s.value, where_text(s.where)));
  }
  return st;
}

const ScheduledVolume* LonghornSchedule::find(const std::string& ns, const std::string& claim) const {
  for (const auto& v : volumes) {
    if (v.claim->meta.ns == ns && v.claim->meta.name == claim) return &v;
  }
  return nullptr;
}

std::optional<std::size_t> schedule_replica(LonghornSchedule& s, ScheduledVolume& v, const std::vector<std::string>& down, std::string& why) {
  const auto is_down = [&](const std::string& n) { return std::find(down.begin(), down.end(), n) != down.end(); };
  std::set<std::string> used_nodes, used_zones;
  for (std::size_t d : v.replica_disks) {
    if (is_down(s.disks[d].node)) continue;
    used_nodes.insert(s.disks[d].node);
    used_zones.insert(s.disks[d].zone);
  }
  const bool strict = v.data_locality == "strict-local";
  const bool local_first = (strict || v.data_locality == "best-effort") && v.replica_disks.empty() && !v.engine_node.empty();
  std::vector<std::size_t> tiers[3];  // new node in a new zone; new node in a used zone; a used node
  std::map<std::string, int> refused;  // reason -> disks
  for (std::size_t i = 0; i < s.disks.size(); ++i) {
    const SchedulingDisk& d = s.disks[i];
    if (strict && d.node != v.engine_node) continue;
    if (!d.schedulable || is_down(d.node)) {
      ++refused[is_down(d.node) || !d.unschedulable_why.starts_with("the disk") ? "nodes are unavailable" : "disks are unavailable"];
      continue;
    }
    const bool on_disk = std::find(v.replica_disks.begin(), v.replica_disks.end(), i) != v.replica_disks.end();
    if (on_disk && !s.settings.disk_soft_anti_affinity) {
      ++refused["hard affinity cannot be satisfied"];
      continue;
    }
    if (const std::string r = disk_refuses(s, v, d); !r.empty()) {
      ++refused[r];
      continue;
    }
    const int tier = used_nodes.contains(d.node) ? 2 : used_zones.contains(d.zone) ? 1 : 0;
    if ((tier >= 1 && !s.settings.zone_soft_anti_affinity) || (tier == 2 && !s.settings.replica_soft_anti_affinity)) {
      ++refused["hard affinity cannot be satisfied"];
      continue;
    }
    tiers[tier].push_back(i);
  }
  for (const auto& tier : tiers) {
    if (tier.empty()) continue;
    std::vector<std::size_t> pick = tier;
    if (local_first) {
      std::vector<std::size_t> local;
      std::copy_if(tier.begin(), tier.end(), std::back_inserter(local), [&](std::size_t i) { return s.disks[i].node == v.engine_node; });
      if (!local.empty()) pick = std::move(local);
    }
    const std::size_t disk = best_disk(s, pick);
    record(s, v, disk);
    return disk;
  }
  std::vector<std::string> parts;
  for (const auto& [reason, count] : refused) parts.push_back(fmt::format("{} ({} disk(s))", reason, count));
  why = fmt::format("replica scheduling failed: {}", parts.empty() ? std::string("no Longhorn disk on any node") : fmt::format("{}", fmt::join(parts, "; ")));
  if (strict) why += fmt::format(" [strict-local: only the engine's node {} may hold the replica]", v.engine_node);
  return std::nullopt;
}

LonghornSchedule schedule_longhorn(const Manifests& m, const Placement& placement) {
  LonghornSchedule s;
  s.settings = longhorn_settings(m);
  s.labeled_nodes_only = s.settings.labeled_nodes_only.value_or(false);
  std::vector<const Node*> nodes;
  for (const auto& n : m.nodes) nodes.push_back(&n);
  std::sort(nodes.begin(), nodes.end(), [](const Node* a, const Node* b) { return a->meta.name < b->meta.name; });
  for (const Node* n : nodes) add_node_disks(m, *n, s.settings, s.labeled_nodes_only, s.disks);
  // Engines: the first placed pod that mounts the claim.
  std::map<std::pair<std::string, std::string>, std::string> engine;
  for (const PlacedPod& p : placement.pods) {
    if (p.node.empty() || p.workload >= m.workloads.size()) continue;
    const KubeWorkload& w = m.workloads[p.workload];
    for (const auto& c : w.claims) engine.emplace(std::make_pair(w.meta.ns, c), p.node);
    for (const auto& t : w.claim_templates) {
      PersistentVolumeClaim c = t;
      c.meta.name = t.meta.name + "-" + p.name;
      c.meta.ns = w.meta.ns;
      engine.emplace(std::make_pair(c.meta.ns, c.meta.name), p.node);
      if (m.find_claim(c.meta.ns, c.meta.name) == nullptr) s.template_claims.push_back(std::move(c));
    }
  }
  std::vector<const PersistentVolumeClaim*> claims;
  for (const auto& c : m.claims) claims.push_back(&c);
  for (const auto& c : s.template_claims) claims.push_back(&c);
  std::stable_sort(claims.begin(), claims.end(), [](const PersistentVolumeClaim* a, const PersistentVolumeClaim* b) {
    return std::tie(a->meta.where.file, a->meta.where.line) < std::tie(b->meta.where.file, b->meta.where.line);
  });
  for (const PersistentVolumeClaim* c : claims) {
    auto it = engine.find({c->meta.ns, c->meta.name});
    ScheduledVolume v = make_volume(m, s.settings, *c, it == engine.end() ? std::string() : it->second);
    if (v.wanted == 0 && v.problems.empty()) continue;
    schedule_volume(s, v);
    s.volumes.push_back(std::move(v));
  }
  return s;
}

VolumeReport describe_volume(const Manifests& m, const Placement& placement, const std::string& ns, const std::string& name,
                             const std::string& engine) {
  const PersistentVolumeClaim* claim = m.find_claim(ns, name);
  if (claim == nullptr) {
    VolumeReport v;
    v.engine_node = engine;
    v.problems.push_back(fmt::format("PersistentVolumeClaim {}/{} not found: the pod stays Pending", ns, name));
    return v;
  }
  return describe_claim_volume(m, placement, *claim, engine);
}

namespace {

// The report's lines on how the replicas were placed.
void placement_reasons(const LonghornSchedule& s, const ScheduledVolume& sv, VolumeReport& v) {
  v.reasons.push_back(fmt::format("Longhorn: {} replica(s) wanted on distinct nodes among {} ({}): {}", v.replicas_wanted,
                                  fmt::join(v.candidate_nodes, ", "),
                                  s.labeled_nodes_only ? "nodes with create-default-disk" : "schedulable nodes",
                                  fmt::join(v.replica_nodes, ", ")));
  if (!s.settings.from_manifests.empty()) {
    v.reasons.push_back(fmt::format("Longhorn settings from the manifests: {}", fmt::join(s.settings.from_manifests, ", ")));
  }
  std::vector<std::string> disks;
  bool sized = false, zoned = false;
  for (std::size_t d : sv.replica_disks) {
    const SchedulingDisk& k = s.disks[d];
    sized = sized || k.maximum >= 0;
    zoned = zoned || !k.zone.empty();
    disks.push_back(fmt::format("{}:{}{}{}", k.node, k.path, k.zone.empty() ? "" : " zone " + k.zone,
                                k.maximum < 0 ? "" : fmt::format(" ({} of {} scheduled)", gib(k.scheduled), gib(k.maximum))));
  }
  if (sized || zoned || sv.replica_disks.size() != sv.replica_nodes.size() || sv.data_locality != "disabled") {
    v.reasons.push_back(fmt::format("disks: {}; data locality {}", fmt::join(disks, ", "), sv.data_locality));
  }
}

}  // namespace

VolumeReport describe_claim_volume(const Manifests& m, const Placement& placement, const PersistentVolumeClaim& claim, const std::string& engine) {
  VolumeReport v;
  v.engine_node = engine;
  v.claim = &claim;
  v.storage_class = class_of(m, claim);
  if (v.storage_class == nullptr) {
    v.problems.push_back(claim.storage_class.empty() ? "no StorageClass given and none is the default" : "StorageClass " + claim.storage_class + " not found");
    return v;
  }
  v.reasons.push_back(fmt::format("{} ({}, {}) -> StorageClass {} ({}, provisioner {})", object_label(claim.meta),
                                  claim.request.empty() ? "no size" : claim.request, where_text(claim.meta.where), v.storage_class->meta.name,
                                  where_text(v.storage_class->meta.where), v.storage_class->provisioner));
  if (v.storage_class->provisioner != "driver.longhorn.io") {
    v.reasons.push_back("provisioner " + v.storage_class->provisioner + ": replica placement not modelled");
    return v;
  }
  LonghornSchedule s = schedule_longhorn(m, placement);
  const ScheduledVolume* found = s.find(claim.meta.ns, claim.meta.name);
  ScheduledVolume alone;
  if (found == nullptr || found->engine_node != engine) {
    // Not among the placement's volumes, or attached elsewhere: scheduled after them.
    alone = make_volume(m, s.settings, claim, engine);
    if (found != nullptr) {
      for (std::size_t d : found->replica_disks) {
        s.disks[d].scheduled -= found->bytes;
        s.disks[d].replicas -= 1;
        s.node_replicas[s.disks[d].node] -= 1;
      }
    }
    schedule_volume(s, alone);
    found = &alone;
  }
  const ScheduledVolume& sv = *found;
  v.problems = sv.problems;
  if (!v.problems.empty()) return v;
  v.replicas_wanted = sv.wanted;
  v.replica_nodes = sv.replica_nodes;
  std::set<std::string> candidates;
  for (const SchedulingDisk& d : s.disks) {
    if (d.schedulable && (sv.data_locality != "strict-local" || d.node == engine)) candidates.insert(d.node);
  }
  v.candidate_nodes.assign(candidates.begin(), candidates.end());
  placement_reasons(s, sv, v);
  if (static_cast<int>(v.replica_nodes.size()) < v.replicas_wanted) {
    v.problems.push_back(fmt::format("only {} of {} replica(s) scheduled ({}): the volume is {}", v.replica_nodes.size(), v.replicas_wanted,
                                     sv.unscheduled, v.replica_nodes.empty() ? "never healthy (faulted on creation)" : "Degraded for ever"));
  }
  v.reasons.push_back("engine on " + (engine.empty() ? std::string("(not attached: the pod is not placed)") : engine) + " (the pod's node)");
  std::set<std::string> involved(v.replica_nodes.begin(), v.replica_nodes.end());
  if (!engine.empty()) involved.insert(engine);
  const int n = static_cast<int>(v.replica_nodes.size());
  for (const auto& node : involved) {
    const int held = static_cast<int>(std::count(v.replica_nodes.begin(), v.replica_nodes.end(), node));
    const int left = n - held;
    std::string what = fmt::format("if {} dies: {} of {} replica(s) left", node, left, n);
    if (left == 0) what += ", the data is lost";
    else if (held > 0) what += ", Degraded until Longhorn rebuilds a replica on another node";
    if (node == engine) what += "; the engine goes with the node: the volume reattaches where the pod is rescheduled";
    v.survival.push_back(what);
  }
  std::set<std::string> distinct(v.replica_nodes.begin(), v.replica_nodes.end());
  v.survival.push_back(fmt::format("the data survives the loss of any {} node(s) at once", std::max(0, static_cast<int>(distinct.size()) - 1)));
  return v;
}

}  // namespace ct
