#include "spec/routing_spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "spec/suggest.h"

namespace ct {
namespace {

// Reads the block one mapping at a time, recording every problem and going on.
class RoutingReader {
 public:
  RoutingReader(const std::string& file, RoutingSpec& out, Diagnostics& errors)
      : file_(file), out_(out), errors_(errors) {}

  void read(const YAML::Node& key, const YAML::Node& value) {
    out_.where = location(key);
    out_.present = true;
    if (value.IsNull()) return;
    read_mapping(key, value, "routing",
                 {{"ecmp", [&](auto& k, auto& v, auto& f) { read_ecmp(k, v, f); }},
                  {"flowlet_gap_us", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, out_.flowlet_gap_us); }},
                  {"qps_per_connection",
                   [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, out_.qps_per_connection); }}});
  }

 private:
  struct Field {
    const char* name;
    std::function<void(const YAML::Node& key, const YAML::Node& value, const std::string& path)> read;
  };

  SourceLocation location(const YAML::Node& node) const {
    const YAML::Mark mark = node.Mark();
    if (mark.is_null() || mark.line < 0) return {file_, 0, 0};
    return {file_, mark.line + 1, mark.column + 1};
  }
  SourceLocation location(const YAML::Node& key, const YAML::Node& value) const {
    return value.IsNull() ? location(key) : location(value);
  }

  void error(SourceLocation where, std::string field, std::string message) {
    errors_.push_back(Diagnostic{std::move(where), std::move(field), std::move(message), Severity::kError});
  }

  static std::string describe(const YAML::Node& node) {
    if (node.IsMap()) return "a mapping";
    if (node.IsSequence()) return "a list";
    if (node.IsScalar()) return "'" + node.Scalar() + "'";
    return "nothing";
  }

  void read_mapping(const YAML::Node& owner, const YAML::Node& node, const std::string& path,
                    const std::vector<Field>& fields) {
    if (!node.IsMap()) {
      error(location(owner, node), path, "expected a mapping of fields, got " + describe(node));
      return;
    }
    std::vector<std::string> names;
    for (const auto& f : fields) names.emplace_back(f.name);
    std::map<std::string, int> seen;
    for (const auto& entry : node) {
      const YAML::Node k = entry.first;
      const YAML::Node v = entry.second;
      if (!k.IsScalar()) {
        error(location(k), path, "expected a field name, got " + describe(k));
        continue;
      }
      const std::string& name = k.Scalar();
      const std::string field = path + "." + name;
      auto match = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return name == f.name; });
      if (match == fields.end()) {
        error(location(k), field, "unknown field" + did_you_mean(name, names));
        continue;
      }
      if (auto [first, inserted] = seen.emplace(name, location(k).line); !inserted) {
        error(location(k), field, fmt::format("field written twice (first at line {})", first->second));
        continue;
      }
      match->read(k, v, field);
    }
  }

  void read_ecmp(const YAML::Node& key, const YAML::Node& value, const std::string& path) {
    out_.ecmp_where = location(key);
    read_mapping(key, value, path,
                 {{"hash", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, out_.hash); }},
                  {"fields", [&](auto& k, auto& v, auto& f) { read_fields(k, v, f); }},
                  {"seed", [&](auto& k, auto& v, auto& f) { read_seed(k, v, f); }},
                  {"seed_mode", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, out_.seed_mode); }},
                  {"seed_input", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, out_.seed_input); }},
                  {"selection", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, out_.selection); }},
                  {"linux_policy", [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, out_.linux_policy); }}});
  }

  void read_string(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                   Located<std::string>& out) {
    out.where = location(key);
    out.present = true;
    if (!value.IsScalar()) {
      error(location(key, value), field, "expected a text value, got " + describe(value));
      return;
    }
    out.value = value.Scalar();
  }

  bool plain_scalar(const YAML::Node& key, const YAML::Node& value, const std::string& field, const char* expected) {
    if (value.IsScalar() && value.Tag() != "!") return true;
    const std::string got = value.IsScalar() ? "the quoted string \"" + value.Scalar() + "\"" : describe(value);
    error(location(key, value), field, fmt::format("expected {}, got {}", expected, got));
    return false;
  }

  void read_integer(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                    Located<long long>& out) {
    out.where = location(key);
    out.present = true;
    if (!plain_scalar(key, value, field, "an integer")) return;
    const std::string& text = value.Scalar();
    const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, out.value, 10);
    if (ec != std::errc() || ptr != end) error(location(value), field, "expected an integer, got '" + text + "'");
  }

  // Decimal, or hexadecimal with a 0x prefix; 0 .. 2^64 - 1.
  void read_seed(const YAML::Node& key, const YAML::Node& value, const std::string& field) {
    out_.seed.where = location(key);
    out_.seed.present = true;
    if (!plain_scalar(key, value, field, "an integer")) return;
    const std::string& text = value.Scalar();
    const bool hex = text.starts_with("0x") || text.starts_with("0X");
    const char* begin = text.data() + (hex ? 2 : 0);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, out_.seed.value, hex ? 16 : 10);
    if (begin == end || ec != std::errc() || ptr != end) {
      error(location(value), field,
            "expected a non-negative integer below 2^64 (decimal or 0x hexadecimal), got '" + text + "'");
    }
  }

  void read_number(const YAML::Node& key, const YAML::Node& value, const std::string& field, Located<double>& out) {
    out.where = location(key);
    out.present = true;
    if (!plain_scalar(key, value, field, "a number")) return;
    const std::string& text = value.Scalar();
    const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, out.value);
    if (ec != std::errc() || ptr != end || !std::isfinite(out.value)) {
      error(location(value), field, "expected a number, got '" + text + "'");
    }
  }

  void read_fields(const YAML::Node& key, const YAML::Node& value, const std::string& field) {
    out_.fields_where = location(key);
    if (!value.IsSequence()) {
      error(location(key, value), field,
            "expected a list of header fields, e.g. [src_ip, dst_ip, protocol, src_port, dst_port]; got " +
                describe(value));
      return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      const YAML::Node item = value[i];
      if (!item.IsScalar()) {
        error(location(item), fmt::format("{}[{}]", field, i), "expected a field name, got " + describe(item));
        continue;
      }
      out_.fields.push_back({item.Scalar(), location(item), true});
    }
  }

  const std::string& file_;
  RoutingSpec& out_;
  Diagnostics& errors_;
};

}  // namespace

void read_routing_spec(const std::string& file, const YAML::Node& key, const YAML::Node& value, RoutingSpec& out,
                       Diagnostics& errors) {
  RoutingReader(file, out, errors).read(key, value);
}

void check_routing_spec(const RoutingSpec& spec, Diagnostics& errors) {
  auto error = [&](const SourceLocation& where, const char* field, std::string message) {
    errors.push_back(Diagnostic{where, field, std::move(message), Severity::kError});
  };
  if (spec.linux_policy.present && (spec.linux_policy.value < 0 || spec.linux_policy.value > 3)) {
    error(spec.linux_policy.where, "routing.ecmp.linux_policy",
          fmt::format("must be 0 (L3), 1 (L4), 2 (inner L3) or 3 (custom fields), got {}", spec.linux_policy.value));
  }
  if (spec.flowlet_gap_us.present && !(spec.flowlet_gap_us.value > 0)) {
    error(spec.flowlet_gap_us.where, "routing.flowlet_gap_us",
          fmt::format("must be a positive number of microseconds, got {}", spec.flowlet_gap_us.value));
  }
  if (spec.qps_per_connection.present &&
      (spec.qps_per_connection.value < 1 || spec.qps_per_connection.value > 65536)) {
    error(spec.qps_per_connection.where, "routing.qps_per_connection",
          fmt::format("must be between 1 and 65536 queue pairs, got {}", spec.qps_per_connection.value));
  }
  std::set<std::string> seen;
  for (const auto& f : spec.fields) {
    if (!seen.insert(f.value).second) {
      error(f.where, "routing.ecmp.fields", fmt::format("field '{}' listed twice", f.value));
    }
  }
}

}  // namespace ct
