#include "traffic/scenario_parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "traffic/scenario_builder.h"
#include "traffic/scenario_checks.h"
#include "yaml/yaml_reader.h"

namespace ct {
namespace {

// An endpoint that was not written or did not resolve: no GPU has this id, so the value rules
// (traffic/scenario_checks.h) see it as missing and judge nothing that depends on it.
constexpr std::uint32_t kUnresolvedGpu = std::numeric_limits<std::uint32_t>::max();

bool parse_u64(std::string_view text, std::uint64_t& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

class ScenarioParser {
 public:
  ScenarioParser(const std::string& file, const NameDirectory& names)
      : r_(file), b_(file, names, r_.errors()), t_(names.topology()), names_(names) {}

  Result<Scenario> parse(const std::string& text, std::uint64_t default_seed) {
    b_.set_seed(default_seed);
    if (const auto root = r_.load(text)) {
      if (!root->is_mapping() || !(*root)["scenario"]) {
        r_.error({r_.file(), 1, 1}, "scenario", "no `scenario:` block in the file");
      } else {
        for (const auto& entry : root->entries()) {
          if (entry.first.is_scalar() && entry.first.scalar() == "scenario") read_scenario(entry.first, entry.second);
        }
      }
    }
    return b_.finish();
  }

  // A collective {kind: all-reduce, bytes: 1GiB, gpus: TEXT} read and judged as in a file, its
  // GPU selection in a list's or a mapping's form (the --gpus flag's YAML forms).
  Result<CollectiveSpec> parse_selection(const std::string& text, std::uint64_t seed) {
    b_.set_seed(seed);
    CollectiveSpec c;
    c.bytes = Bytes(std::int64_t{1} << 30);
    if (const auto root = r_.load(text)) {
      read_gpus(*root, *root, "collective.gpus", c);
      judge(c, *root, "collective", 0);
    }
    if (!r_.errors().empty()) return r_.take_errors();
    return c;
  }

 private:
  using Field = YamlReader::Field;
  static constexpr auto kRequired = YamlReader::Presence::kRequired;

  SourceLocation location(const YamlNode& node) const { return r_.at(node); }
  ValueOrigin origin(const YamlNode& key, const YamlNode& value, const std::string& field) const {
    return {r_.at(key, value), field};
  }
  void error(SourceLocation where, std::string field, std::string message) {
    r_.error(std::move(where), std::move(field), std::move(message));
  }
  void error(const YamlNode& key, const YamlNode& value, const std::string& field, std::string message) {
    r_.error(key, value, field, std::move(message));
  }
  bool read_mapping(const YamlNode& owner, const YamlNode& node, const std::string& path,
                    const std::vector<Field>& fields) {
    return r_.mapping(owner, node, path, fields);
  }
  // Where `name`'s value is written in the mapping `node` (the mapping itself when it is not).
  SourceLocation where_written(const YamlNode& node, std::string_view name) const {
    for (const auto& [k, v] : node.entries()) {
      if (k.is_scalar() && k.scalar() == name) return r_.at(k, v);
    }
    return location(node);
  }
  // The value rules of one item (traffic/scenario_checks.h), as diagnostics at the field that gave
  // the value (the item where no field did). A rule is not reported again for a field the reader
  // already refused (its value is a default, not what was written), and a rule about the item as
  // a whole only when all its fields read cleanly. `before`: the count of diagnostics when the
  // item began.
  template <typename Item>
  void judge(const Item& item, const YamlNode& node, const std::string& path, std::size_t before) {
    const std::size_t read_end = r_.errors().size();
    const auto refused = [&](const std::string& field) {
      for (std::size_t i = before; i < read_end; ++i) {
        const std::string& f = r_.errors()[i].field;
        if (field == path || f == field || f.starts_with(field + ".") || f.starts_with(field + "[")) return true;
      }
      return false;
    };
    b_.judge(item, [&](const std::string& problem_field) -> std::optional<ValueOrigin> {
      const std::string field = problem_field.empty() ? path : path + "." + problem_field;
      if (refused(field)) return std::nullopt;
      return ValueOrigin{problem_field.empty() ? location(node) : where_written(node, problem_field), field};
    });
  }
  void read_list(const YamlNode& key, const YamlNode& value, const std::string& field,
                 const YamlReader::ItemReader& read) {
    r_.list(key, value, field, read);
  }
  // ---- scalars ----
  std::optional<std::string> text(const YamlNode& key, const YamlNode& value, const std::string& field) {
    return r_.text(key, value, field);
  }
  template <typename T>
  void integer(const YamlNode& key, const YamlNode& value, const std::string& field, T& out, long long lo,
               long long hi, const char* unit) {
    if (const auto v = r_.integer(key, value, field, {lo, hi, unit})) out = static_cast<T>(*v);
  }
  void number(const YamlNode& key, const YamlNode& value, const std::string& field, double& out, double lo,
              double hi, bool lo_open) {
    if (const auto v = r_.number(key, value, field, {lo, hi, lo_open, ""})) out = *v;
  }
  void duration(const YamlNode& key, const YamlNode& value, const std::string& field, TimePs& out) {
    if (const auto v = r_.duration(key, value, field)) out = *v;
  }
  void size(const YamlNode& key, const YamlNode& value, const std::string& field, Bytes& out) {
    const auto v = r_.size(key, value, field);
    if (v && v->value() == 0) error(key, value, field, "must be a positive size such as 1GiB, 64KB or 1048576, got 0");
    if (v && v->value() > 0) out = *v;
  }

  // ---- names (fabric/name_directory.h) ----
  std::optional<Endpoint> endpoint(const YamlNode& key, const YamlNode& value, const std::string& field) {
    const auto name = text(key, value, field);
    if (!name) return std::nullopt;
    if (auto port = b_.spelled_port(*name)) return port;  // no place built for a diagnostic
    return b_.endpoint(*name, origin(key, value, field));
  }

  // ---- the schema ----
  void read_scenario(const YamlNode& key, const YamlNode& value) {
    b_.set_location(location(key));
    read_mapping(key, value, "scenario",
                 {{"name", [&](auto& k, auto& v, auto& f) { b_.set_name(text(k, v, f).value_or("")); }},
                  {"seed", [&](auto& k, auto& v, auto& f) { b_.set_seed(r_.unsigned64(k, v, f).value_or(b_.scenario().seed), location(k)); }},
                  {"paths", [&](auto& k, auto& v, auto& f) { read_paths(k, v, f); }},
                  {"convergence", [&](auto& k, auto& v, auto& f) { duration(k, v, f, convergence_); }},
                  {"collectives", [&](auto& k, auto& v, auto& f) { read_list(k, v, f, [&](auto& i, auto& p) { read_collective(i, p); }); }},
                  {"transfers", [&](auto& k, auto& v, auto& f) { read_transfers(k, v, f); }},
                  {"mice", [&](auto& k, auto& v, auto& f) { read_list(k, v, f, [&](auto& i, auto& p) { read_mice(i, p); }); }},
                  {"faults", [&](auto& k, auto& v, auto& f) { has_faults_ = true; faults_node_ = v; faults_key_ = k; faults_field_ = f; }}});
    // Faults last: their default convergence may be written after them.
    if (has_faults_) {
      read_list(faults_key_, faults_node_, faults_field_, [&](auto& i, auto& p) { read_fault(i, p); });
    }
  }

  void read_paths(const YamlNode& k, const YamlNode& v, const std::string& f) {
    const auto name = text(k, v, f);
    if (!name) return;
    if (const auto paths = b_.path_model(*name, origin(k, v, f))) b_.set_paths(*paths, location(k));
  }

  void read_collective(const YamlNode& item, const std::string& path) {
    const std::size_t before = r_.errors().size();
    CollectiveSpec c;
    c.name = fmt::format("collective{}", b_.scenario().collectives.size());
    std::optional<std::string> algorithm;
    bool has_model = false;
    bool has_gpus = false;
    bool has_bytes = false;
    YamlNode gpus_key;
    YamlNode gpus_value;
    std::string gpus_field;
    read_mapping(item, item, path,
                 {{"name", [&](auto& k, auto& v, auto& f) { c.name = text(k, v, f).value_or(c.name); }},
                  {"kind", [&](auto& k, auto& v, auto& f) { read_kind(k, v, f, c.kind); }},
                  {"algorithm", [&](auto& k, auto& v, auto& f) { algorithm = read_algorithm(k, v, f, c.algorithm); }},
                  {"model", [&](auto& k, auto& v, auto& f) { has_model = read_model(k, v, f, c.model); c.model_at = location(k); }},
                  {"gpus", [&](auto& k, auto& v, auto& f) { has_gpus = true; gpus_key = k; gpus_value = v; gpus_field = f; }},
                  {"bytes", [&](auto& k, auto& v, auto& f) { has_bytes = true; size(k, v, f, c.bytes); }},
                  {"channels", [&](auto& k, auto& v, auto& f) { integer(k, v, f, c.channels, 1, kMaxChannels, "channels"); }},
                  {"qps", [&](auto& k, auto& v, auto& f) { integer(k, v, f, c.qps, 1, kMaxQps, "queue pairs"); }},
                  {"iterations", [&](auto& k, auto& v, auto& f) { integer(k, v, f, c.iterations, 1, kMaxIterations, "iterations"); }},
                  {"steps", [&](auto& k, auto& v, auto& f) { integer(k, v, f, c.steps, 1, 0xFFFFFFFELL, "steps"); }},
                  {"compute", [&](auto& k, auto& v, auto& f) { duration(k, v, f, c.compute); }},
                  {"start", [&](auto& k, auto& v, auto& f) { duration(k, v, f, c.start); }},
                  {"weight", [&](auto& k, auto& v, auto& f) { number(k, v, f, c.weight, 0, kMaxWeight, true); }}});
    if (!algorithm) c.algorithm = default_algorithm(c.kind);
    if (!has_model && c.steps != 0) c.model = CollectiveModel::kStepwise;  // steps are the stepwise model's
    if (!has_bytes) error(location(item), path + ".bytes", "missing: the collective's size, e.g. 1GiB");
    if (has_gpus) {
      read_gpus(gpus_key, gpus_value, gpus_field, c);
    } else {
      read_named_gpus("all", {{r_.file(), 0, 0}, path + ".gpus"}, c);
    }
    judge(c, item, path, before);
    b_.add(std::move(c));
  }

  void read_kind(const YamlNode& k, const YamlNode& v, const std::string& f, CollectiveKind& out) {
    const auto name = text(k, v, f);
    if (!name) return;
    if (const auto kind = b_.collective_kind(*name, origin(k, v, f))) out = *kind;
  }

  bool read_model(const YamlNode& k, const YamlNode& v, const std::string& f, CollectiveModel& out) {
    const auto name = text(k, v, f);
    if (!name) return true;
    if (const auto m = b_.collective_model(*name, origin(k, v, f))) out = *m;
    return true;
  }

  std::optional<std::string> read_algorithm(const YamlNode& k, const YamlNode& v, const std::string& f,
                                            CollectiveAlgorithm& out) {
    const auto name = text(k, v, f);
    if (!name) return std::string();
    if (const auto a = b_.algorithm(*name, origin(k, v, f))) out = *a;
    return name;
  }

  // GPU selectors: all, per-rail, per-host, a list, or {hosts, local, per, order}.
  void read_gpus(const YamlNode& k, const YamlNode& v, const std::string& f, CollectiveSpec& c) {
    if (v.is_scalar()) return read_named_gpus(v.scalar(), origin(k, v, f), c);
    if (v.is_sequence()) {
      c.gpus_text = "list";
      std::vector<std::uint32_t> group;
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string field = fmt::format("{}[{}]", f, i);
        const auto e = endpoint(v[i], v[i], field);
        if (!e) continue;
        if (e->is_port) {
          error(v[i], v[i], field, "expected a GPU, got a port");
          continue;
        }
        if (std::find(group.begin(), group.end(), e->gpu) != group.end()) {
          error(v[i], v[i], field, fmt::format("GPU '{}' listed twice", e->name));
          continue;
        }
        group.push_back(e->gpu);
      }
      c.groups.push_back(std::move(group));
      return;
    }
    GpuSelection selection = b_.whole_fabric(GpuGrouping::kNone);
    c.gpus_text = "selection";
    read_mapping(k, v, f,
                 {{"hosts", [&](auto& kk, auto& vv, auto& ff) { selection.hosts = range(kk, vv, ff, b_.host_count()); }},
                  {"local", [&](auto& kk, auto& vv, auto& ff) { selection.local = indices(kk, vv, ff, b_.gpus_per_host()); }},
                  {"per", [&](auto& kk, auto& vv, auto& ff) { selection.per = grouping(kk, vv, ff, selection.per); }},
                  {"order", [&](auto& kk, auto& vv, auto& ff) { selection.order = order(kk, vv, ff); }}});
    c.groups = b_.groups(selection);
  }

  void read_named_gpus(const std::string& name, const ValueOrigin& origin, CollectiveSpec& c) {
    c.gpus_text = name;
    const auto selection =
        b_.named_selection(name, origin, "GPU selector", "a list, or a mapping {hosts, local, per, order}");
    if (selection) c.groups = b_.groups(*selection);
  }

  GpuGrouping grouping(const YamlNode& k, const YamlNode& v, const std::string& f, GpuGrouping fallback) {
    const auto name = text(k, v, f);
    if (!name) return fallback;
    return b_.gpu_grouping(*name, origin(k, v, f)).value_or(fallback);
  }

  GpuOrder order(const YamlNode& k, const YamlNode& v, const std::string& f) {
    const auto name = text(k, v, f);
    if (!name) return GpuOrder::kInOrder;
    return b_.gpu_order(*name, origin(k, v, f)).value_or(GpuOrder::kInOrder);
  }

  std::vector<std::uint32_t> range(const YamlNode& k, const YamlNode& v, const std::string& f, std::uint32_t limit) {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    if (!v.is_sequence() || v.size() != 2 || !v[0].is_scalar() || !v[1].is_scalar() || !parse_u64(v[0].scalar(), lo) ||
        !parse_u64(v[1].scalar(), hi) || lo > hi || hi >= limit) {
      error(k, v, f, fmt::format("expected [first, last] with first <= last < {}", limit));
      return {};
    }
    std::vector<std::uint32_t> out(hi - lo + 1);
    std::iota(out.begin(), out.end(), static_cast<std::uint32_t>(lo));
    return out;
  }

  std::vector<std::uint32_t> indices(const YamlNode& k, const YamlNode& v, const std::string& f, std::uint32_t limit) {
    std::vector<std::uint32_t> out;
    bool ok = v.is_sequence() && v.size() > 0;
    for (std::size_t i = 0; ok && i < v.size(); ++i) {
      std::uint64_t x = 0;
      ok = v[i].is_scalar() && parse_u64(v[i].scalar(), x) && x < limit &&
           std::find(out.begin(), out.end(), x) == out.end();
      out.push_back(static_cast<std::uint32_t>(x));
    }
    if (!ok) {
      error(k, v, f, fmt::format("expected a list of distinct local GPU indices below {}", limit));
      return {};
    }
    return out;
  }

  // Transfers, the items a scenario has most of: one field table for the whole list, its readers
  // writing into the item being read.
  void read_transfers(const YamlNode& key, const YamlNode& value, const std::string& field) {
    TransferSpec t;
    bool has_name = false;
    bool has_bytes = false;
    bool has_src = false;
    bool has_dst = false;
    const std::vector<Field> fields = {
        {"name", [&](auto& k, auto& v, auto& f) {
           if (auto n = text(k, v, f)) {
             has_name = true;
             t.name = std::move(*n);
           }
         }},
        {"src", [&](auto& k, auto& v, auto& f) { has_src = true; assign(endpoint(k, v, f), t.src); }},
        {"dst", [&](auto& k, auto& v, auto& f) { has_dst = true; assign(endpoint(k, v, f), t.dst); }},
        {"bytes", [&](auto& k, auto& v, auto& f) { has_bytes = true; size(k, v, f, t.bytes); }},
        {"start", [&](auto& k, auto& v, auto& f) { duration(k, v, f, t.start); }},
        {"channels", [&](auto& k, auto& v, auto& f) { integer(k, v, f, t.channels, 1, kMaxChannels, "channels"); }},
        {"qps", [&](auto& k, auto& v, auto& f) { integer(k, v, f, t.qps, 1, kMaxQps, "queue pairs"); }},
        {"group", [&](auto& k, auto& v, auto& f) { t.group = text(k, v, f).value_or(t.group); }},
        {"weight", [&](auto& k, auto& v, auto& f) { number(k, v, f, t.weight, 0, kMaxWeight, true); }}};
    if (value.is_sequence()) b_.reserve_transfers(value.size());
    read_list(key, value, field, [&](const YamlNode& item, const std::string& path) {
      const std::size_t before = r_.errors().size();
      t = TransferSpec{};
      t.src.gpu = kUnresolvedGpu;
      t.dst.gpu = kUnresolvedGpu;
      has_name = has_bytes = has_src = has_dst = false;
      read_mapping(item, item, path, fields);
      if (!has_name) t.name = fmt::format("transfer{}", b_.scenario().transfers.size());
      const SourceLocation where = location(item);
      if (!has_src) error(where, path + ".src", "missing: the sending GPU or port");
      if (!has_dst) error(where, path + ".dst", "missing: the receiving GPU or port");
      if (!has_bytes) error(where, path + ".bytes", "missing: the transfer's size, e.g. 1GiB");
      judge(t, item, path, before);
      b_.add(std::move(t));
    });
  }

  static void assign(std::optional<Endpoint> e, Endpoint& out) {
    if (e) out = std::move(*e);
  }

  void read_mice(const YamlNode& item, const std::string& path) {
    const std::size_t before = r_.errors().size();
    MiceSpec m;
    m.name = fmt::format("mice{}", b_.scenario().mice.size());
    m.hosts.resize(static_cast<std::size_t>(t_.host_count));
    std::iota(m.hosts.begin(), m.hosts.end(), 0U);
    bool has_count = false;
    bool has_bytes = false;
    read_mapping(item, item, path,
                 {{"name", [&](auto& k, auto& v, auto& f) { m.name = text(k, v, f).value_or(m.name); }},
                  {"count", [&](auto& k, auto& v, auto& f) { has_count = true; integer(k, v, f, m.count, 1, kMaxMice, "flows"); }},
                  {"bytes", [&](auto& k, auto& v, auto& f) { has_bytes = true; size(k, v, f, m.bytes); }},
                  {"start", [&](auto& k, auto& v, auto& f) { duration(k, v, f, m.start); }},
                  {"arrivals_per_s", [&](auto& k, auto& v, auto& f) { number(k, v, f, m.arrivals_per_s, 0, 1e15, false); }},
                  {"hosts", [&](auto& k, auto& v, auto& f) { m.hosts = range(k, v, f, static_cast<std::uint32_t>(t_.host_count)); }},
                  {"weight", [&](auto& k, auto& v, auto& f) { number(k, v, f, m.weight, 0, kMaxWeight, true); }}});
    const SourceLocation where = location(item);
    if (!has_count) error(where, path + ".count", "missing: how many small flows");
    if (!has_bytes) error(where, path + ".bytes", "missing: the size of each flow, e.g. 64KiB");
    judge(m, item, path, before);
    b_.add(std::move(m));
  }

  void read_fault(const YamlNode& item, const std::string& path) {
    const std::size_t before = r_.errors().size();
    FaultSpec fault;
    fault.convergence = convergence_;
    std::optional<std::uint32_t> parallel;
    std::optional<double> fraction;  // written and read
    bool has_kind = false;
    bool has_at = false;
    bool has_fraction = false;
    int selectors = 0;
    read_mapping(item, item, path,
                 {{"kind", [&](auto& k, auto& v, auto& f) { has_kind = read_fault_kind(k, v, f, fault.kind); }},
                  {"at", [&](auto& k, auto& v, auto& f) { has_at = true; duration(k, v, f, fault.at); }},
                  {"fraction", [&](auto& k, auto& v, auto& f) { has_fraction = true; fraction = r_.number(k, v, f, {0, 1, true, ""}); }},
                  {"convergence", [&](auto& k, auto& v, auto& f) { duration(k, v, f, fault.convergence); }},
                  {"parallel", [&](auto& k, auto& v, auto& f) { parallel = 0; integer(k, v, f, *parallel, 0, 1 << 20, ""); }},
                  {"link", [&](auto& k, auto& v, auto& f) { ++selectors; read_link(k, v, f, fault); }},
                  {"switch", [&](auto& k, auto& v, auto& f) { ++selectors; read_switch(k, v, f, fault); }},
                  {"port", [&](auto& k, auto& v, auto& f) { ++selectors; read_port(k, v, f, fault); }}});
    const SourceLocation where = location(item);
    if (!has_kind) error(where, path + ".kind", "missing: down, degrade or repair");
    if (!has_at) error(where, path + ".at", "missing: when it happens, e.g. 2ms");
    if (selectors != 1) error(where, path, "name exactly one of link, switch, port");
    if (fault.kind == FaultKind::kDegrade && !has_fraction) {
      error(where, path + ".fraction", "missing: the capacity left, e.g. 0.5");
    }
    // A down leaves 0 of the capacity, a repair 1; a fraction written on either is judged by
    // check_item.
    fault.fraction = fraction.value_or(fault.kind == FaultKind::kRepair ? 1.0 : 0.0);
    if (parallel) {
      if (*parallel >= fault.links.size()) {
        error(where, path + ".parallel", fmt::format("{} names {} link(s); parallel must be below that", fault.what,
                                                     fault.links.size()));
      } else {
        fault.links = {fault.links[*parallel]};
        // The one cable left, named as every output names it ("A -- B #k"), not the bundle.
        if (fault.what.find("--") != std::string::npos) fault.what = names_.cable_name(fault.links[0]);
      }
    }
    judge(fault, item, path, before);
    b_.add(std::move(fault));
  }

  bool read_fault_kind(const YamlNode& k, const YamlNode& v, const std::string& f, FaultKind& out) {
    const auto name = text(k, v, f);
    if (!name) return true;  // reported
    if (const auto kind = b_.fault_kind(*name, origin(k, v, f))) out = *kind;
    return true;
  }

  void read_link(const YamlNode& k, const YamlNode& v, const std::string& f, FaultSpec& fault) {
    const auto name = text(k, v, f);
    if (!name) return;
    fault.what = *name;
    fault.links = b_.cable_links(*name, origin(k, v, f));
    if (fault.links.size() == 1 && name->find("--") == std::string::npos) fault.what = names_.cable_name(fault.links[0]);
  }

  void read_switch(const YamlNode& k, const YamlNode& v, const std::string& f, FaultSpec& fault) {
    const auto name = text(k, v, f);
    if (!name) return;
    fault.what = *name;
    fault.links = b_.switch_links(*name, origin(k, v, f));
  }

  void read_port(const YamlNode& k, const YamlNode& v, const std::string& f, FaultSpec& fault) {
    const auto name = text(k, v, f);
    if (!name) return;
    fault.what = *name;
    fault.links = b_.port_links(*name, origin(k, v, f));
  }

  YamlReader r_;
  ScenarioBuilder b_;
  const Topology& t_;
  const NameDirectory& names_;
  TimePs convergence_{0};
  bool has_faults_ = false;
  YamlNode faults_node_;
  YamlNode faults_key_;
  std::string faults_field_;
};

}  // namespace

bool has_scenario_block(const std::string& text) {
  YamlReader reader("");
  const auto root = reader.load(text);
  return root && root->is_mapping() && (*root)["scenario"];
}

Result<Scenario> parse_scenario(const std::string& file, const std::string& text, const NameDirectory& names,
                                std::uint64_t default_seed) {
  return ScenarioParser(file, names).parse(text, default_seed);
}

Result<CollectiveSpec> parse_gpu_selection(const std::string& file, const std::string& text, std::uint64_t seed,
                                           const NameDirectory& names) {
  return ScenarioParser(file, names).parse_selection(text, seed);
}

Result<Scenario> parse_scenario(const std::string& file, const std::string& text, const Fabric& fabric,
                                std::uint64_t default_seed) {
  return parse_scenario(file, text, fabric.names(), default_seed);
}

}  // namespace ct
