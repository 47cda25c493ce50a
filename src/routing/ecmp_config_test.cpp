// The routing: block: read with its lines by the spec parser, resolved into an EcmpConfig, with
// diagnostics at file:line for every wrong name or value.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "routing/ecmp_config.h"
#include "spec/spec_parser.h"

namespace ct {
namespace {

using ::testing::HasSubstr;

const std::string kHead =
    "name: t\n"
    "nodes: {model: m, count: 1}\n"
    "backend: {switch: s}\n";

Result<Spec> parse(const std::string& routing) { return parse_spec("r.yaml", kHead + routing); }

TEST(EcmpConfig, DefaultsWithoutABlock) {
  auto s = parse("");
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  EXPECT_FALSE(s->routing.present);
  auto c = resolve_ecmp_config(s->routing);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->linux_kernel);
  EXPECT_EQ(c->algorithm, HashAlgorithm::kCrc32);
  EXPECT_EQ(c->fields, kFiveTuple);
  EXPECT_EQ(c->seed_mode, SeedMode::kSame);
  EXPECT_EQ(c->selection, MemberSelection::kHashThreshold);
  EXPECT_EQ(c->qps_per_connection, 1);
  EXPECT_DOUBLE_EQ(c->flowlet_gap_us, 500.0);
}

TEST(EcmpConfig, ReadsEveryField) {
  auto s = parse(
      "routing:\n"
      "  ecmp:\n"
      "    hash: crc16-ccitt-false\n"
      "    fields: [src_ip, dst_ip]\n"
      "    seed: 0x5EED\n"
      "    seed_mode: per-switch\n"
      "    seed_input: init\n"
      "    selection: modulo\n"
      "  flowlet_gap_us: 50\n"
      "  qps_per_connection: 4\n");
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  EXPECT_EQ(s->routing.hash.where.line, 6);
  EXPECT_EQ(s->routing.seed.value, 0x5EEDu);
  auto c = resolve_ecmp_config(s->routing);
  ASSERT_TRUE(c.ok()) << format_diagnostics(c.errors());
  EXPECT_EQ(c->algorithm, HashAlgorithm::kCrc16CcittFalse);
  EXPECT_EQ(c->fields, kL3Only);
  EXPECT_EQ(c->seed, 0x5EEDu);
  EXPECT_EQ(c->seed_mode, SeedMode::kPerSwitch);
  EXPECT_EQ(c->seed_input, SeedInput::kInitialValue);
  EXPECT_EQ(c->selection, MemberSelection::kModulo);
  EXPECT_DOUBLE_EQ(c->flowlet_gap_us, 50.0);
  EXPECT_EQ(c->qps_per_connection, 4);
  EXPECT_EQ(field_list(c->fields), "src_ip, dst_ip");
}

// Linux policy 3 with a field list becomes the kernel's hash-field bits; the effective fields
// are the listed ones. Policy 1 hashes the five-tuple, policy 0 the addresses.
TEST(EcmpConfig, LinuxPolicies) {
  auto s = parse("routing: {ecmp: {hash: linux, linux_policy: 3, fields: [src_ip, src_port]}}\n");
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  auto c = resolve_ecmp_config(s->routing);
  ASSERT_TRUE(c.ok()) << format_diagnostics(c.errors());
  EXPECT_TRUE(c->linux_kernel);
  EXPECT_EQ(c->linux_hash_fields, kLinuxFieldSrcIp | kLinuxFieldSrcPort);
  EXPECT_EQ(c->effective_fields(), kFieldSrcIp | kFieldSrcPort);
  EXPECT_EQ(c->hash_bits(), 31);
  EXPECT_EQ(c->function_name(), "linux policy 3");
  EcmpConfig l1;
  l1.linux_kernel = true;
  l1.linux_policy = 1;
  EXPECT_EQ(l1.effective_fields(), kFiveTuple);
  l1.linux_policy = 0;
  EXPECT_EQ(l1.effective_fields(), kL3Only);
}

TEST(EcmpConfig, SpecShapeErrorsCarryLines) {
  auto s = parse(
      "routing:\n"
      "  ecmp: {hash: crc32, sead: 1}\n"  // line 5
      "  qps_per_conection: 2\n");        // line 6
  ASSERT_FALSE(s.ok());
  const std::string text = format_diagnostics(s.errors());
  EXPECT_THAT(text, HasSubstr("r.yaml:5:23: error: routing.ecmp.sead: unknown field (did you mean 'seed'?)"));
  EXPECT_THAT(text, HasSubstr("r.yaml:6:3: error: routing.qps_per_conection: unknown field (did you mean 'qps_per_connection'?)"));
}

TEST(EcmpConfig, NameErrorsCarryLines) {
  auto s = parse(
      "routing:\n"
      "  ecmp:\n"
      "    hash: crc33\n"                 // line 6
      "    fields: [src_ip, vlan]\n"      // line 7
      "    seed_mode: every-switch\n"     // line 8
      "    linux_policy: 1\n");           // line 9
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  auto c = resolve_ecmp_config(s->routing);
  ASSERT_FALSE(c.ok());
  const std::string text = format_diagnostics(c.errors());
  EXPECT_THAT(text, HasSubstr("r.yaml:6:5: error: routing.ecmp.hash: unknown hash function 'crc33'"));
  EXPECT_THAT(text, HasSubstr("r.yaml:7:22: error: routing.ecmp.fields: unknown header field 'vlan'"));
  EXPECT_THAT(text, HasSubstr("r.yaml:8:5: error: routing.ecmp.seed_mode: unknown seed mode 'every-switch'"));
  EXPECT_THAT(text, HasSubstr("r.yaml:9:5: error: routing.ecmp.linux_policy: applies only with hash: linux"));
}

TEST(EcmpConfig, LinuxRejectsOptionsItDoesNotHave) {
  auto s = parse("routing: {ecmp: {hash: linux, fields: [src_ip], selection: modulo}}\n");
  ASSERT_TRUE(s.ok());
  auto c = resolve_ecmp_config(s->routing);
  ASSERT_FALSE(c.ok());
  const std::string text = format_diagnostics(c.errors());
  EXPECT_THAT(text, HasSubstr("linux_policy: 3"));
  EXPECT_THAT(text, HasSubstr("always selects by hash-threshold"));
}

TEST(EcmpConfig, SeedAcceptsHexAndRejectsNegative) {
  auto s = parse("routing: {ecmp: {seed: -1}}\n");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(format_diagnostics(s.errors()), HasSubstr("routing.ecmp.seed: expected a non-negative integer"));
  auto big = parse("routing: {ecmp: {seed: 0xFFFFFFFFFFFFFFFF}}\n");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->routing.seed.value, 0xFFFFFFFFFFFFFFFFull);
}

}  // namespace
}  // namespace ct
