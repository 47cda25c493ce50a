#include "spec/spec_parser.h"

#include <fmt/format.h>

#include "spec/routing_spec.h"
#include "spec/spec_fields.h"
#include "yaml/yaml_reader.h"

namespace ct {
namespace {

// Upper limits of the numbers a spec holds, each far above any real design, so that no product of
// them overflows (validate() checks the lower bounds and the design rules, with their own messages).
constexpr IntegerRange kNodeCount{.max = 1'000'000, .unit = "nodes"};
constexpr IntegerRange kLinkLatency{.max = 1'000'000'000, .unit = "ns"};  // 1 s; x 1000 ps fits int64
constexpr NumberRange kCableLength{.max = 100'000, .unit = "m"};
constexpr NumberRange kRatio{.max = 1000};  // down:up
constexpr IntegerRange kJobGpus{.max = 1'000'000'000, .unit = "GPUs"};
constexpr IntegerRange kSpareHosts{.max = 1'000'000, .unit = "hosts"};
constexpr NumberRange kHorizon{.max = 36'500, .unit = "days"};
constexpr NumberRange kHours{.max = 1'000'000, .unit = "hours"};
constexpr NumberRange kMinutes{.max = 1'000'000, .unit = "minutes"};
constexpr NumberRange kShare{.max = 1'000};
constexpr NumberRange kSeconds{.min = 0, .max = 86'400, .unit = "s"};
constexpr NumberRange kAfr{.max = 1'000, .unit = "failures per element-year"};

// Reads the YAML tree into a Spec, one mapping at a time through the field tables below. Every
// problem is recorded and reading goes on, so that the user sees all of them in one run.
class SpecParser {
 public:
  explicit SpecParser(const std::string& file) : r_(file) { spec_.file = file; }

  SpecReading read(const std::string& text) {
    const auto root = r_.load(text);
    if (root) read_root(*root);
    return SpecReading{std::move(spec_), r_.take_errors(), root.has_value()};
  }

 private:
  using Field = YamlReader::Field;

  void read_root(const YamlNode& root) {
    if (root.is_null() || !root.is_defined()) {
      r_.error({spec_.file, 1, 1}, "", "empty spec: expected a mapping with name, nodes and backend");
      return;
    }
    r_.mapping(root, root, "",
               {{"name", text_field(r_, spec_.name)},
                {"nodes", [&](auto& k, auto& v, auto& f) { read_nodes(k, v, f); }},
                {"backend", [&](auto& k, auto& v, auto& f) { read_backend(k, v, f); }},
                {"frontend", [&](auto& k, auto& v, auto& f) { read_frontend(k, v, f); }},
                {"routing", [&](auto& k, auto& v, auto&) { read_routing(k, v); }},
                {"reliability", [&](auto& k, auto& v, auto& f) { read_reliability(k, v, f); }},
                {"survival", [&](auto& k, auto& v, auto& f) { read_survival(k, v, f); }},
                // A workload for `clustertwin simulate`, read by traffic/scenario_parser.h.
                {"scenario", [](auto&, auto&, auto&) {}}});
  }

  void read_nodes(const YamlNode& key, const YamlNode& value, const std::string& path) {
    NodesSpec& n = spec_.nodes;
    n.where = r_.at(key);
    r_.mapping(key, value, path, {{"model", text_field(r_, n.model)}, {"count", integer_field(r_, n.count, kNodeCount)}});
  }

  void read_backend(const YamlNode& key, const YamlNode& value, const std::string& path) {
    BackendSpec& b = spec_.backend;
    b.where = r_.at(key);
    b.present = true;
    r_.mapping(key, value, path,
               {{"topology", text_field(r_, b.topology)},
                {"planes", integer_field(r_, b.planes)},
                {"tiers", integer_field(r_, b.tiers)},
                {"switch", text_field(r_, b.switch_model)},
                {"port_speed", text_field(r_, b.port_speed)},
                {"oversubscription", [&](auto& k, auto& v, auto& f) { read_oversubscription(k, v, f); }},
                {"k", integer_field(r_, b.k)},
                {"link_latency_ns", integer_field(r_, b.link_latency_ns, kLinkLatency)},
                {"cable_length_m", [&](auto& k, auto& v, auto& f) { read_cable_lengths(k, v, f); }},
                {"links", [&](auto& k, auto& v, auto& f) { read_links(k, v, f); }}});
  }

  void read_oversubscription(const YamlNode& key, const YamlNode& value, const std::string& field) {
    BackendSpec& b = spec_.backend;
    b.oversubscription_where = r_.at(key);
    r_.list(
        key, value, field,
        [&](const YamlNode& item, const std::string& path) {
          Located<double> ratio;
          number_field(r_, ratio, kRatio)(item, item, path);
          b.oversubscription.push_back(ratio);
        },
        "a list with one down:up ratio per tier that has uplinks (e.g. [1, 1] for 3 tiers)");
  }

  void read_cable_lengths(const YamlNode& key, const YamlNode& value, const std::string& path) {
    BackendSpec& b = spec_.backend;
    r_.mapping(key, value, path,
               {{"leaf", number_field(r_, b.cable_length_leaf_m, kCableLength)},
                {"spine", number_field(r_, b.cable_length_spine_m, kCableLength)},
                {"core", number_field(r_, b.cable_length_core_m, kCableLength)}});
  }

  void read_links(const YamlNode& key, const YamlNode& value, const std::string& field) {
    r_.list(
        key, value, field,
        [&](const YamlNode& entry, const std::string& entry_field) {
          if (!entry.is_sequence() || entry.size() != 2 || !entry[0].is_scalar() || !entry[1].is_scalar()) {
            r_.error(r_.at(entry), entry_field,
                     "expected a pair of switch names like [plane0.spine.0, plane0.spine.1], got " +
                         YamlReader::describe(entry));
            return;
          }
          ExtraLinkSpec link;
          link.where = r_.at(entry);
          link.a = {entry[0].scalar(), r_.at(entry[0]), true};
          link.b = {entry[1].scalar(), r_.at(entry[1]), true};
          spec_.backend.links.push_back(std::move(link));
        },
        "a list of pairs like [plane0.spine.0, plane0.spine.1]");
  }

  void read_frontend(const YamlNode& key, const YamlNode& value, const std::string& path) {
    FrontendSpec& fe = spec_.frontend;
    fe.where = r_.at(key);
    fe.present = true;
    r_.mapping(key, value, path,
               {{"nic", text_field(r_, fe.nic)},
                {"speed", text_field(r_, fe.speed)},
                {"switch", text_field(r_, fe.switch_model)},
                {"oversubscription", number_field(r_, fe.oversubscription, kRatio)}});
  }

  void read_reliability(const YamlNode& key, const YamlNode& value, const std::string& path) {
    ReliabilitySpec& rel = spec_.reliability;
    rel.where = r_.at(key);
    rel.present = true;
    const auto figures = [&](ElementFiguresSpec& out, NumberRange range) -> YamlReader::Handler {
      return [&out, range, this](auto& k, auto& v, auto& f) {
        r_.mapping(k, v, f,
                   {{"nic", number_field(r_, out.nic, range)},
                    {"link", number_field(r_, out.link, range)},
                    {"leaf", number_field(r_, out.leaf, range)},
                    {"spine", number_field(r_, out.spine, range)},
                    {"core", number_field(r_, out.core, range)}});
      };
    };
    r_.mapping(key, value, path,
               {{"job_gpus", integer_field(r_, rel.job_gpus, kJobGpus)},
                {"horizon_days", number_field(r_, rel.horizon_days, kHorizon)},
                {"checkpoint_hours", number_field(r_, rel.checkpoint_hours, kHours)},
                {"restart_minutes", number_field(r_, rel.restart_minutes, kMinutes)},
                {"comm_fraction", number_field(r_, rel.comm_fraction, kShare)},
                {"spare_hosts", integer_field(r_, rel.spare_hosts, kSpareHosts)},
                {"degraded", text_field(r_, rel.degraded)},
                {"split", text_field(r_, rel.split)},
                {"afr", figures(rel.afr, kAfr)},
                {"repair_hours", figures(rel.repair_hours, kHours)}});
  }

  void read_survival(const YamlNode& key, const YamlNode& value, const std::string& path) {
    SurvivalSpec& s = spec_.survival;
    s.where = r_.at(key);
    s.present = true;
    r_.mapping(key, value, path,
               {{"node_monitor_grace_s", number_field(r_, s.node_monitor_grace_s, kSeconds)},
                {"toleration_s", number_field(r_, s.toleration_s, kSeconds)},
                {"force_detach_s", number_field(r_, s.force_detach_s, kSeconds)},
                {"startup_s", number_field(r_, s.startup_s, kSeconds)},
                {"longhorn_node_down_pod_deletion_policy", text_field(r_, s.longhorn_pod_deletion_policy)}});
  }

  void read_routing(const YamlNode& key, const YamlNode& value) {
    spec_.routing_where = r_.at(key);
    read_routing_spec(r_, key, value, spec_.routing);
  }

  YamlReader r_;
  Spec spec_;
};

}  // namespace

SpecReading read_spec(const std::string& file, const std::string& yaml_text) {
  return SpecParser(file).read(yaml_text);
}

Result<Spec> parse_spec(const std::string& file, const std::string& yaml_text) {
  SpecReading reading = read_spec(file, yaml_text);
  if (!reading.errors.empty()) return std::move(reading.errors);
  return std::move(reading.spec);
}

}  // namespace ct
