// The frontend links that break and spof take away (--link) are named as every other output names a
// cable (NameDirectory::cable_name), so a name copied from spof reads back through the directory's
// parser to that one cable, and the same name given to --link fails that cable.
//
// examples/platform/cluster.yaml: six hosts with two frontend ports each on fe/leaf/0 (12 single
// cables "host<h>/fe<p> -- fe/leaf/0") and 16 parallel cables from fe/leaf/0 up to fe/spine/0.
// Worked by hand from the name directory's rule: the 16 twins are "fe/leaf/0 -- fe/spine/0 #0" ..
// "#15" (from 0, in link-id order), 28 link names in all, and "#16" names none. The names gave the
// twins "#1" .. "#16" before, so "#16" did not read back and "#0" was refused by --link.
// The node model (survival/failure_set.h): a node is cut off when none of its ports reaches a
// working spine; the leaf keeps the spine while one twin is up, so failing 15 twins cuts no node and
// failing all 16 cuts all six.
#include "survival/failure_set.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "fabric/fabric.h"
#include "io/dns_files.h"
#include "io/loaders.h"
#include "io/manifest_files.h"
#include "support/shipped_catalog.h"
#include "support/test_paths.h"

namespace ct {
namespace {

const FrontendModel& platform() {
  static const FrontendModel model = [] {
    const std::string root = testing_support::source_dir() + "/examples/platform";
    const Catalog& catalog = testing_support::real_catalog();
    const ValidSpec spec = load_spec(root + "/cluster.yaml", catalog).value();
    const Fabric fabric = build_fabric(spec, catalog).value();
    return build_frontend_model(load_manifests({root + "/manifests"}).value(), load_dns(root + "/dns/named.conf").value(),
                                fabric.topology());
  }();
  return model;
}

std::vector<Failure> links(const std::vector<std::string>& names) {
  std::vector<Failure> out;
  for (const auto& n : names) out.push_back(Failure{FailureKind::kLink, n, 0});
  return out;
}

TEST(FrontendCableNames, EveryLinkNameIsTheDirectorysAndReadsBack) {
  const Topology& t = *platform().topology;
  const NameDirectory names(t);
  const std::vector<std::string> listed = element_names(platform(), FailureKind::kLink);
  ASSERT_EQ(listed.size(), 28U);
  std::vector<std::uint32_t> seen;
  for (const std::string& name : listed) {
    const auto back = names.links(name, SourceLocation{"test", 0, 0}, "--link");
    ASSERT_TRUE(back.ok()) << name << ": " << format_diagnostics(back.errors());
    ASSERT_EQ(back->size(), 1U) << name;
    EXPECT_EQ(names.cable_name(back->front()), name);
    seen.push_back(back->front().value());
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end()) << "two names read back to one cable";
  for (const char* twin : {"fe/leaf/0 -- fe/spine/0 #0", "fe/leaf/0 -- fe/spine/0 #15"}) {
    EXPECT_NE(std::find(listed.begin(), listed.end(), twin), listed.end()) << twin;
  }
  EXPECT_EQ(std::find(listed.begin(), listed.end(), "fe/leaf/0 -- fe/spine/0 #16"), listed.end());
  EXPECT_TRUE(check_failures(platform(), links({"fe/leaf/0 -- fe/spine/0 #0"})).empty());
  EXPECT_FALSE(check_failures(platform(), links({"fe/leaf/0 -- fe/spine/0 #16"})).empty());
}

TEST(FrontendCableNames, TheNamedTwinsAreTheOnesFailed) {
  std::vector<std::string> twins;
  for (int k = 0; k < 16; ++k) twins.push_back("fe/leaf/0 -- fe/spine/0 #" + std::to_string(k));
  const std::vector<std::string> all_but_one(twins.begin(), twins.end() - 1);
  EXPECT_TRUE(failed_at(platform(), links(all_but_one), 0).cut_nodes.empty());
  const FailedState all = failed_at(platform(), links(twins), 0);
  EXPECT_EQ(all.cut_nodes, (std::vector<std::string>{"node-0", "node-1", "node-2", "node-3", "node-4", "node-5"}));
}

}  // namespace
}  // namespace ct
