// One name for a cable in every hash output: the text report, the JSON and the page's chart labels
// name a cable as the fabric's name directory does (NameDirectory::cable_name), and each name read
// back through the directory's parser (links(), what --fail calls) gives that one cable.
//
// The fabric: examples/twin-uplinks.yaml, 8 rail leaves with two cables each to the one spine, so
// every leaf-spine cable has a parallel twin. Worked by hand from the name directory's rule: the two
// cables joining p0/leaf/0 and p0/spine/0 are "p0/leaf/0 -- p0/spine/0 #0" and "... #1" (their
// places among the two, in link-id order, from 0), whatever their link ids; the bare
// "p0/leaf/0 -- p0/spine/0" names both. Failing "#1" leaves leaf 0 one uplink (#0), which both
// default elephants (hosts 0 and 1 under leaf 0 -> hosts 2 and 3 under leaf 1) take: "#0 up" with
// 2 flows; the spine's 2-way down group toward leaf 1 then holds "p0/leaf/1 -- p0/spine/0 #0" and
// "#1". Failing the bare bundle fails both, and the report names them by the bundle's name, which
// reads back to both: "failed: p0/leaf/0 -- p0/spine/0 (all 2 cables)". The report printed link ids
// instead ("... #<link id> up"), the JSON the bare bundle name for one cable, and the failed line
// "failed: p0/leaf/0 -- p0/spine/0 x1 (#<link id>)": none of them read back to one cable.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/hash_study.h"
#include "io/loaders.h"
#include "report/hash_html.h"
#include "report/hash_json.h"
#include "report/hash_report.h"
#include "support/shipped_catalog.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const Fabric& twin_uplinks() {
  static const Fabric fabric = [] {
    const Catalog& catalog = testing_support::real_catalog();
    const ValidSpec spec = load_spec(testing_support::source_dir() + "/examples/twin-uplinks.yaml", catalog).value();
    return build_fabric(spec, catalog).value();
  }();
  return fabric;
}

// The one cable a printed name reads back to through the directory (invalid when it names none or
// several).
LinkId read_back(const std::string& name) {
  const auto links = twin_uplinks().names().links(name, SourceLocation{"test", 0, 0}, "name");
  return links.ok() && links->size() == 1 ? links->front() : LinkId::invalid();
}

HashStudy study_with_one_twin_failed() {
  HashStudyOptions o;
  o.fail = {"p0/leaf/0 -- p0/spine/0 #1"};
  o.trials = 0;
  auto study = study_hash(twin_uplinks(), o);
  EXPECT_TRUE(study.ok()) << format_diagnostics(study.errors());
  return std::move(study).value();
}

TEST(CableNames, TheTwinsAreNumberedFromZero) {
  const auto both = twin_uplinks().names().links("p0/leaf/0 -- p0/spine/0", SourceLocation{"test", 0, 0}, "name");
  ASSERT_TRUE(both.ok());
  ASSERT_EQ(both->size(), 2U);
  EXPECT_EQ(twin_uplinks().names().cable_name(both.value()[0]), "p0/leaf/0 -- p0/spine/0 #0");
  EXPECT_EQ(twin_uplinks().names().cable_name(both.value()[1]), "p0/leaf/0 -- p0/spine/0 #1");
}

TEST(CableNames, HashTextNamesEachCableAsTheDirectory) {
  const HashStudy study = study_with_one_twin_failed();
  const std::string r = hash_report(study);
  EXPECT_THAT(r, HasSubstr("\nfailed: p0/leaf/0 -- p0/spine/0 #1\n"));
  EXPECT_THAT(r, HasSubstr("\np0/leaf/0 -- p0/spine/0 #0 up        2\n"));
  EXPECT_THAT(r, HasSubstr("\np0/leaf/1 -- p0/spine/0 #0 down      1\n"));
  EXPECT_THAT(r, HasSubstr("\np0/leaf/1 -- p0/spine/0 #1 down      1\n"));
  EXPECT_THAT(r, Not(HasSubstr(" x1 (#")));
  ASSERT_EQ(study.failed.size(), 1U);
  EXPECT_EQ(read_back("p0/leaf/0 -- p0/spine/0 #1"), study.failed[0]);
}

TEST(CableNames, HashJsonNamesReadBackToTheirIds) {
  const HashStudy study = study_with_one_twin_failed();
  const auto j = nlohmann::json::parse(hash_json(study));
  const auto& failed = j["fabric"]["failed"];
  ASSERT_EQ(failed.size(), 1U);
  EXPECT_EQ(failed[0]["link"], "p0/leaf/0 -- p0/spine/0 #1");
  EXPECT_EQ(failed[0]["id"].get<std::uint32_t>(), read_back("p0/leaf/0 -- p0/spine/0 #1").value());
  const auto& links = j["loads"]["links"];
  ASSERT_EQ(links.size(), 3U) << links;
  const std::string text = hash_report(study);
  for (const auto& l : links) {
    const std::string name = l["link"];
    EXPECT_EQ(read_back(name).value(), l["id"].get<std::uint32_t>()) << name;
    EXPECT_EQ(name, study.names().cable_name(LinkId(l["id"].get<std::uint32_t>())));
    EXPECT_THAT(text, HasSubstr("\n" + name + " " + l["direction"].get<std::string>() + " "));
  }
  EXPECT_EQ(links[0]["link"], "p0/leaf/0 -- p0/spine/0 #0");
}

TEST(CableNames, AWholeBundleFailedIsNamedByTheBundle) {
  HashStudyOptions o;
  o.fail = {"p0/leaf/0 -- p0/spine/0"};
  o.trials = 0;
  auto study = study_hash(twin_uplinks(), o);
  ASSERT_TRUE(study.ok()) << format_diagnostics(study.errors());
  const std::string r = hash_report(study.value());
  EXPECT_THAT(r, HasSubstr("\nfailed: p0/leaf/0 -- p0/spine/0 (all 2 cables)\n"));
  EXPECT_THAT(r, Not(HasSubstr("failed: p0/leaf/0 -- p0/spine/0 #")));
  const auto back = twin_uplinks().names().links("p0/leaf/0 -- p0/spine/0", SourceLocation{"test", 0, 0}, "name");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), study->failed);
  const auto failed = nlohmann::json::parse(hash_json(study.value()))["fabric"]["failed"];
  ASSERT_EQ(failed.size(), 2U);
  EXPECT_EQ(failed[0]["link"], "p0/leaf/0 -- p0/spine/0 #0");
  EXPECT_EQ(failed[1]["link"], "p0/leaf/0 -- p0/spine/0 #1");
}

// The page's heat strip: one cell per member of the spine's down group toward leaf 1, labelled
// "NAME: N flows".
TEST(CableNames, HashPageLabelsCellsWithTheDirectorysNames) {
  const HashStudy study = study_with_one_twin_failed();
  const std::string page = hash_html(study, HashReportOptions{}, "clustertwin hash");
  EXPECT_THAT(page, HasSubstr("p0/leaf/1 -- p0/spine/0 #0: 1 flows"));
  EXPECT_THAT(page, HasSubstr("p0/leaf/1 -- p0/spine/0 #1: 1 flows"));
  EXPECT_NE(read_back("p0/leaf/1 -- p0/spine/0 #0"), read_back("p0/leaf/1 -- p0/spine/0 #1"));
}

}  // namespace
}  // namespace ct
