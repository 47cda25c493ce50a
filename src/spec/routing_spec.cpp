#include "spec/routing_spec.h"

#include <set>

#include <fmt/format.h>

#include "spec/spec_fields.h"

namespace ct {
namespace {

void read_fields(YamlReader& r, const YamlNode& key, const YamlNode& value, const std::string& field,
                 RoutingSpec& out) {
  out.fields_where = r.at(key);
  r.list(
      key, value, field,
      [&](const YamlNode& item, const std::string& path) {
        if (!item.is_scalar()) {
          r.error(r.at(item), path, "expected a field name, got " + YamlReader::describe(item));
          return;
        }
        out.fields.push_back({item.scalar(), r.at(item), true});
      },
      "a list of header fields (e.g. [src_ip, dst_ip, protocol, src_port, dst_port])");
}

}  // namespace

void read_routing_spec(YamlReader& r, const YamlNode& key, const YamlNode& value, RoutingSpec& out) {
  out.where = r.at(key);
  out.present = true;
  if (value.is_null()) return;
  const auto read_ecmp = [&](const YamlNode& k, const YamlNode& v, const std::string& path) {
    out.ecmp_where = r.at(k);
    r.mapping(k, v, path,
              {{"hash", text_field(r, out.hash)},
               {"fields", [&](auto& k2, auto& v2, auto& f2) { read_fields(r, k2, v2, f2, out); }},
               {"seed",
                [&](auto& k2, auto& v2, auto& f2) {
                  out.seed.where = r.at(k2);
                  out.seed.present = true;
                  if (auto seed = r.unsigned64(k2, v2, f2)) out.seed.value = *seed;
                }},
               {"seed_mode", text_field(r, out.seed_mode)},
               {"seed_input", text_field(r, out.seed_input)},
               {"selection", text_field(r, out.selection)},
               {"linux_policy", integer_field(r, out.linux_policy)}});
  };
  r.mapping(key, value, "routing",
            {{"ecmp", read_ecmp},
             // An upper limit so that the gap in picoseconds fits int64 (check_routing_spec: > 0).
             {"flowlet_gap_us", number_field(r, out.flowlet_gap_us, {.max = 1e9, .unit = "us"})},
             {"qps_per_connection", integer_field(r, out.qps_per_connection)}});
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
