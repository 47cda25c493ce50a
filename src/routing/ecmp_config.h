// The ECMP settings of a fabric, resolved from the spec's `routing:` block (spec/routing_spec.h):
// which function every switch hashes with, over which header fields, with which seeds, and how it
// picks a member; plus the options of the alternative schemes (flowlet gap, QPs per connection).
//
// Defaults (a model choice, not a claim about any vendor's default): hash crc32, the five-tuple,
// seed 0 on every switch (`same`), seed prepended, hash-threshold selection; with `hash: linux`
// the kernel's default policy 0 (L3); flowlet gap 500 us (the flowlet inactivity timeout of the
// CONGA testbed, Alizadeh et al., SIGCOMM 2014), one QP per connection (NCCL's default of
// NCCL_IB_QPS_PER_CONNECTION).
//
// `hash: linux` models every switch as a Linux router (routing/linux_multipath.h): SipHash keyed
// by the switch's seed, fields chosen by linux_policy (0: src/dst IP; 1: five-tuple; 2: as 0 for
// plain packets; 3: `fields`, default src IP, dst IP, protocol), always hash-threshold over 31
// bits. `seed_input` and `selection` do not apply to it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "routing/flow_key.h"
#include "routing/hash_function.h"
#include "routing/linux_multipath.h"
#include "routing/member_select.h"
#include "routing/seed_policy.h"
#include "spec/spec.h"

namespace ct {

struct EcmpConfig {
  bool linux_kernel = false;  // hash: linux
  HashAlgorithm algorithm = HashAlgorithm::kCrc32;
  FieldMask fields = kFiveTuple;  // switch functions; for linux see effective_fields()
  std::uint64_t seed = 0;
  SeedMode seed_mode = SeedMode::kSame;
  SeedInput seed_input = SeedInput::kPrepend;
  MemberSelection selection = MemberSelection::kHashThreshold;
  int linux_policy = 0;
  std::uint32_t linux_hash_fields = kLinuxDefaultHashFields;  // policy 3
  double flowlet_gap_us = 500.0;
  int qps_per_connection = 1;

  // The header fields that enter the hash (for linux: the policy's fields).
  [[nodiscard]] FieldMask effective_fields() const;
  // Output bits of the hash every switch computes (linux: 31).
  [[nodiscard]] int hash_bits() const;
  [[nodiscard]] MemberSelection effective_selection() const {
    return linux_kernel ? MemberSelection::kHashThreshold : selection;
  }
  // "crc32", "linux policy 1".
  [[nodiscard]] std::string function_name() const;
};

// "src_ip", "dst_ip", "protocol", "src_port", "dst_port".
std::string_view flow_field_name(FlowField f);
std::optional<FlowField> parse_flow_field(std::string_view name);
// "src_ip, dst_ip, src_port" in key order.
std::string field_list(FieldMask mask);

// Resolves the names of the block; every problem is a diagnostic at the field's file:line.
Result<EcmpConfig> resolve_ecmp_config(const RoutingSpec& spec);

}  // namespace ct
