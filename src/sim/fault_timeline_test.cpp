// The fault timeline every engine applies (sim/fault_timeline.h), worked by hand. Scenario: link 3
// goes down at 10 us (routing converges 5 us later), links 1 and 2 are degraded to half at 20 us,
// link 3 comes back at 30 us (converges 5 us later). Events, fault by fault: link 3 to 0 at 10 us,
// reconvergence of fault 0 at 15 us; links 1 and 2 to 0.5 at 20 us (no reconvergence: ECMP does not
// see capacity); link 3 to 1 at 30 us, reconvergence of fault 2 at 35 us. Routing avoids link 3
// after the first reconvergence and nothing after the second. The last event is at 35 us; with the
// repair removed it is the degrade's start, 20 us (a down's reconvergence at 15 us is earlier).
#include "sim/fault_timeline.h"

#include <gtest/gtest.h>

namespace ct {
namespace {

constexpr TimePs us(std::int64_t n) { return TimePs(n * 1'000'000); }

FaultSpec fault(FaultKind kind, std::vector<LinkId> links, TimePs at, double fraction, TimePs convergence) {
  FaultSpec f;
  f.kind = kind;
  f.links = std::move(links);
  f.at = at;
  f.fraction = fraction;
  f.convergence = convergence;
  return f;
}

TEST(FaultTimeline, DownDegradeRepairInScenarioOrder) {
  Scenario s;
  s.faults.push_back(fault(FaultKind::kDown, {LinkId(3)}, us(10), 0.0, us(5)));
  s.faults.push_back(fault(FaultKind::kDegrade, {LinkId(1), LinkId(2)}, us(20), 0.5, us(5)));
  s.faults.push_back(fault(FaultKind::kRepair, {LinkId(3)}, us(30), 1.0, us(5)));
  FaultTimeline timeline(s, 4);
  using K = FaultEvent::Kind;
  const std::vector<FaultEvent>& e = timeline.events();
  ASSERT_EQ(e.size(), 6u);
  const struct {
    K kind;
    TimePs at;
    std::uint32_t fault;
    std::uint32_t link;
    double fraction;
  } expected[] = {{K::kCapacity, us(10), 0, 3, 0.0},    {K::kReconverge, us(15), 0, 0, 1.0},
                  {K::kCapacity, us(20), 1, 1, 0.5},    {K::kCapacity, us(20), 1, 2, 0.5},
                  {K::kCapacity, us(30), 2, 3, 1.0},    {K::kReconverge, us(35), 2, 0, 1.0}};
  for (std::size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(e[i].kind, expected[i].kind) << i;
    EXPECT_EQ(e[i].at, expected[i].at) << i;
    EXPECT_EQ(e[i].fault, expected[i].fault) << i;
    if (e[i].kind == K::kCapacity) {
      EXPECT_EQ(e[i].link, LinkId(expected[i].link)) << i;
      EXPECT_EQ(e[i].fraction, expected[i].fraction) << i;
    }
  }
  EXPECT_EQ(timeline.last_event(), us(35));
  EXPECT_EQ(timeline.reconverge(0), (std::vector<LinkId>{LinkId(3)}));
  EXPECT_TRUE(timeline.reconverge(2).empty());

  s.faults.pop_back();
  EXPECT_EQ(FaultTimeline(s, 4).last_event(), us(20));
  EXPECT_EQ(FaultTimeline(Scenario{}, 4).last_event(), TimePs(0));
}

}  // namespace
}  // namespace ct
