// Two people on one machine (issue 23): a lab's namespaces belong to one prefix and one uid.
//   Names: prefix "ctlab-1" must not claim "ctlab-1000-s3" (a plain starts-with test did, so
//   `lab down --prefix ctlab-1` removed uid 1000's lab); only prefix + s|h + digits is the lab's.
//   Default prefix: ctlab-<uid>-, the uid under sudo being SUDO_UID's.
//   Ownership (root): a lab built by uid U is refused to uid V (down, up again, the check before
//   run/counters/fail) and left intact; namespaces of a prefix's shape that no lab marked are
//   refused too; the owner's own down removes the lab and its mark. A lab whose prefix is a
//   prefix of another lab's prefix removes only its own namespaces.
// The root part builds examples/lab/leaf-spine-4.yaml (20 namespaces: 8 hosts, 12 switches)
// twice; skipped without root, netns or a kernel with fib_multipath_hash_seed. Prefixes carry the
// pid; a guard removes them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "io/loaders.h"
#include "lab/lab_runner.h"
#include "lab/shell.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/test_paths.h"

namespace ct {
namespace {

TEST(LabOwner, ANamespaceBelongsToExactlyOnePrefix) {
  EXPECT_TRUE(lab_namespace_of("ctlab-1000-s3", "ctlab-1000-"));
  EXPECT_TRUE(lab_namespace_of("ctlab-1000-h12", "ctlab-1000-"));
  EXPECT_FALSE(lab_namespace_of("ctlab-1000-s3", "ctlab-1"));
  EXPECT_FALSE(lab_namespace_of("ctlab-1000-s3", "ctlab-"));
  EXPECT_FALSE(lab_namespace_of("ctlab-1000-x3", "ctlab-1000-"));
  EXPECT_FALSE(lab_namespace_of("ctlab-1000-s", "ctlab-1000-"));
  EXPECT_FALSE(lab_namespace_of("ctlab-1000-s3a", "ctlab-1000-"));
  EXPECT_FALSE(lab_namespace_of("ctlab-s1-s3", "ctlab-"));
}

TEST(LabOwner, TheDefaultPrefixIsThePersonsUid) {
  const char* saved = std::getenv("SUDO_UID");
  const std::optional<std::string> restore = saved ? std::optional<std::string>(saved) : std::nullopt;
  unsetenv("SUDO_UID");
  EXPECT_EQ(lab_default_prefix(), "ctlab-" + std::to_string(getuid()) + "-");
  setenv("SUDO_UID", "1234", 1);
  EXPECT_EQ(lab_default_prefix(), geteuid() == 0 ? "ctlab-1234-" : "ctlab-" + std::to_string(getuid()) + "-");
  if (restore) setenv("SUDO_UID", restore->c_str(), 1);
  else unsetenv("SUDO_UID");
}

LabPlan leaf_spine_plan(const std::string& prefix) {
  static const Catalog catalog = load_catalog(ct::testing_support::source_dir() + "/catalog").value();
  static const Fabric fabric = [] {
    const std::string relative = "examples/lab/leaf-spine-4.yaml";
    std::ifstream in(ct::testing_support::source_dir() + "/" + relative);
    std::stringstream s;
    s << in.rdbuf();
    return build_fabric(validate_reading(read_spec(relative, s.str()), catalog).value(), catalog).value();
  }();
  return plan_lab(fabric, prefix).value();
}

std::size_t count_existing(const std::string& prefix) {
  std::size_t n = 0;
  std::istringstream list(run_command("ip netns list", false).out);
  for (std::string line; std::getline(list, line);) n += lab_namespace_of(line.substr(0, line.find(' ')), prefix) ? 1 : 0;
  return n;
}

// Removes a prefix's namespaces and mark whoever owns them (the test's own cleanup).
class Cleanup {
 public:
  explicit Cleanup(std::vector<std::string> prefixes) : prefixes_(std::move(prefixes)) {}
  ~Cleanup() {
    for (const std::string& p : prefixes_) {
      if (const auto owner = lab_owner(p)) (void)lab_down(p, *owner);
      lab_unmark(p);
      std::istringstream list(run_command("ip netns list", false).out);
      for (std::string line; std::getline(list, line);) {
        const std::string name = line.substr(0, line.find(' '));
        if (lab_namespace_of(name, p)) run_command("ip netns del " + name);
      }
    }
  }
  Cleanup(const Cleanup&) = delete;
  Cleanup& operator=(const Cleanup&) = delete;

 private:
  std::vector<std::string> prefixes_;
};

TEST(LabOwner, AnotherUsersLabIsRefusedAndLeftIntact) {
  if (const std::string why = lab_unavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string pid = std::to_string(getpid());
  const std::string mine = "ctown" + pid + "-", longer = "ctown" + pid + "-1000-", unmarked = "ctunm" + pid + "-";
  Cleanup cleanup({mine, longer, unmarked});
  constexpr std::uint32_t kMe = 1000, kOther = 4242;
  ASSERT_TRUE(lab_up(leaf_spine_plan(longer), kMe).ok());
  ASSERT_TRUE(lab_up(leaf_spine_plan(mine), kOther).ok());
  EXPECT_EQ(lab_owner(mine), std::optional<std::uint32_t>(kOther));
  EXPECT_EQ(count_existing(mine), 20u);

  // uid kMe may not touch kOther's lab: not down, not up over it, not the check before run.
  auto down = lab_down(mine, kMe);
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.errors()[0].field, "--prefix");
  EXPECT_NE(down.errors()[0].message.find("belongs to uid 4242"), std::string::npos) << down.errors()[0].message;
  EXPECT_FALSE(lab_up(leaf_spine_plan(mine), kMe).ok());
  EXPECT_FALSE(lab_check_owner(mine, kMe).ok());
  EXPECT_EQ(count_existing(mine), 20u);
  EXPECT_EQ(lab_owner(mine), std::optional<std::uint32_t>(kOther));

  // kOther's down removes its own 20 and none of `longer`'s, whose prefix it begins.
  auto removed = lab_down(mine, kOther);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(removed->size(), 20u);
  EXPECT_EQ(count_existing(longer), 20u);
  EXPECT_FALSE(lab_owner(mine).has_value());
  auto removed_longer = lab_down(longer, kMe);
  ASSERT_TRUE(removed_longer.ok());
  EXPECT_EQ(removed_longer->size(), 20u);

  // Namespaces of a prefix's shape that no lab marked: left alone.
  ASSERT_EQ(run_command("ip netns add " + unmarked + "s1").status, 0);
  auto refused = lab_down(unmarked, kMe);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.errors()[0].message.find("no lab marked them"), std::string::npos) << refused.errors()[0].message;
  EXPECT_FALSE(lab_up(leaf_spine_plan(unmarked), kMe).ok());
  EXPECT_EQ(count_existing(unmarked), 1u);
}

}  // namespace
}  // namespace ct
