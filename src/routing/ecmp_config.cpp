#include "routing/ecmp_config.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace ct {
namespace {

constexpr FlowField kFieldsInKeyOrder[] = {kFieldSrcIp, kFieldDstIp, kFieldProtocol, kFieldSrcPort, kFieldDstPort};

// The Linux hash-field bit of each of our fields (policy 3).
std::uint32_t linux_bit(FlowField f) {
  switch (f) {
    case kFieldSrcIp: return kLinuxFieldSrcIp;
    case kFieldDstIp: return kLinuxFieldDstIp;
    case kFieldProtocol: return kLinuxFieldIpProto;
    case kFieldSrcPort: return kLinuxFieldSrcPort;
    case kFieldDstPort: return kLinuxFieldDstPort;
  }
  return 0;
}

std::string names_of_algorithms() {
  std::vector<std::string> names;
  for (HashAlgorithm a : kAllHashAlgorithms) names.emplace_back(hash_algorithm_name(a));
  names.emplace_back("linux");
  return fmt::format("{}", fmt::join(names, ", "));
}

class EcmpResolver {
 public:
  explicit EcmpResolver(const RoutingSpec& spec) : spec_(spec) {}

  Result<EcmpConfig> run() {
    resolve_hash();
    resolve_fields();
    resolve_modes();
    if (spec_.flowlet_gap_us.present) config_.flowlet_gap_us = spec_.flowlet_gap_us.value;
    if (spec_.qps_per_connection.present) config_.qps_per_connection = static_cast<int>(spec_.qps_per_connection.value);
    if (!errors_.empty()) {
      std::stable_sort(errors_.begin(), errors_.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::pair(a.where.line, a.where.column) < std::pair(b.where.line, b.where.column);
      });
      return errors_;
    }
    return config_;
  }

 private:
  void error(const SourceLocation& where, const char* field, std::string message) {
    errors_.push_back(Diagnostic{where, field, std::move(message), Severity::kError});
  }

  void resolve_hash() {
    if (!spec_.hash.present) return;
    if (spec_.hash.value == "linux") {
      config_.linux_kernel = true;
      return;
    }
    if (auto a = parse_hash_algorithm(spec_.hash.value)) {
      config_.algorithm = *a;
    } else {
      error(spec_.hash.where, "routing.ecmp.hash",
            fmt::format("unknown hash function '{}'; known: {}", spec_.hash.value, names_of_algorithms()));
    }
  }

  void resolve_fields() {
    FieldMask mask = 0;
    for (const auto& f : spec_.fields) {
      if (auto field = parse_flow_field(f.value)) {
        mask = static_cast<FieldMask>(mask | *field);
      } else {
        error(f.where, "routing.ecmp.fields",
              fmt::format("unknown header field '{}'; known: src_ip, dst_ip, protocol, src_port, dst_port", f.value));
      }
    }
    const bool listed = spec_.fields_where.line != 0;
    if (listed && spec_.fields.empty()) {
      error(spec_.fields_where, "routing.ecmp.fields", "must list at least one header field");
    }
    if (spec_.linux_policy.present) {
      if (!config_.linux_kernel) {
        error(spec_.linux_policy.where, "routing.ecmp.linux_policy", "applies only with hash: linux");
      }
      config_.linux_policy = static_cast<int>(spec_.linux_policy.value);
    }
    if (!listed) return;
    if (!config_.linux_kernel) {
      config_.fields = mask;
      return;
    }
    if (config_.linux_policy != 3) {
      error(spec_.fields_where, "routing.ecmp.fields",
            fmt::format("the kernel reads a field list only with linux_policy: 3 (policy {} fixes its fields)",
                        config_.linux_policy));
      return;
    }
    std::uint32_t bits = 0;
    for (FlowField f : kFieldsInKeyOrder) {
      if (mask & f) bits |= linux_bit(f);
    }
    config_.linux_hash_fields = bits;
  }

  void resolve_modes() {
    if (spec_.seed.present) config_.seed = spec_.seed.value;
    if (spec_.seed_mode.present) {
      if (auto m = parse_seed_mode(spec_.seed_mode.value)) {
        config_.seed_mode = *m;
      } else {
        error(spec_.seed_mode.where, "routing.ecmp.seed_mode",
              fmt::format("unknown seed mode '{}'; known: same, per-tier, per-switch", spec_.seed_mode.value));
      }
    }
    // With seed_mode `same` the base seed is every switch's seed, and a switch (or the kernel's
    // fib_multipath_hash_seed) holds 32 bits: a larger value would be silently truncated.
    if (spec_.seed.present && config_.seed_mode == SeedMode::kSame && spec_.seed.value > 0xFFFFFFFFULL) {
      error(spec_.seed.where, "routing.ecmp.seed",
            fmt::format("{:#x} is above 0xffffffff, the largest seed a switch holds with seed_mode: same (switch "
                        "seeds are 32 bits; per-tier and per-switch derive them from all 64 bits of the base seed)",
                        spec_.seed.value));
    }
    if (spec_.seed_input.present) {
      if (config_.linux_kernel) {
        error(spec_.seed_input.where, "routing.ecmp.seed_input",
              "does not apply to hash: linux (the seed is the SipHash key)");
      } else if (auto s = parse_seed_input(spec_.seed_input.value)) {
        config_.seed_input = *s;
      } else {
        error(spec_.seed_input.where, "routing.ecmp.seed_input",
              fmt::format("unknown seed input '{}'; known: prepend, init", spec_.seed_input.value));
      }
    }
    if (spec_.selection.present) {
      auto s = parse_member_selection(spec_.selection.value);
      if (!s) {
        error(spec_.selection.where, "routing.ecmp.selection",
              fmt::format("unknown member selection '{}'; known: modulo, hash-threshold", spec_.selection.value));
      } else if (config_.linux_kernel && *s != MemberSelection::kHashThreshold) {
        error(spec_.selection.where, "routing.ecmp.selection", "the Linux kernel always selects by hash-threshold");
      } else {
        config_.selection = *s;
      }
    }
  }

  const RoutingSpec& spec_;
  EcmpConfig config_;
  Diagnostics errors_;
};

}  // namespace

FieldMask EcmpConfig::effective_fields() const {
  if (!linux_kernel) return fields;
  switch (linux_policy) {
    case 1: return kFiveTuple;
    case 3: {
      FieldMask mask = 0;
      for (FlowField f : kFieldsInKeyOrder) {
        if (linux_hash_fields & linux_bit(f)) mask = static_cast<FieldMask>(mask | f);
      }
      return mask;
    }
    default: return kL3Only;
  }
}

int EcmpConfig::hash_bits() const { return linux_kernel ? 31 : ct::hash_bits(algorithm); }

std::string EcmpConfig::function_name() const {
  if (linux_kernel) return fmt::format("linux policy {}", linux_policy);
  return std::string(hash_algorithm_name(algorithm));
}

std::string_view flow_field_name(FlowField f) {
  switch (f) {
    case kFieldSrcIp: return "src_ip";
    case kFieldDstIp: return "dst_ip";
    case kFieldProtocol: return "protocol";
    case kFieldSrcPort: return "src_port";
    case kFieldDstPort: return "dst_port";
  }
  return "?";
}

std::optional<FlowField> parse_flow_field(std::string_view name) {
  for (FlowField f : kFieldsInKeyOrder) {
    if (flow_field_name(f) == name) return f;
  }
  return std::nullopt;
}

std::string field_list(FieldMask mask) {
  std::vector<std::string_view> names;
  for (FlowField f : kFieldsInKeyOrder) {
    if (mask & f) names.push_back(flow_field_name(f));
  }
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

Result<EcmpConfig> resolve_ecmp_config(const RoutingSpec& spec) { return EcmpResolver(spec).run(); }

}  // namespace ct
