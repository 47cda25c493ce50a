// evaluate_alerts (alert_rules.h): the generated rules over saved counters' timelines.
#include <algorithm>
#include <cmath>
#include <limits>
#include <functional>
#include <set>
#include <string_view>
#include <tuple>

#include "diagnose/alert_rules.h"

namespace ct {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A member's two series (nullptr: none).
struct MemberSeries {
  const SeriesRate* transmit = nullptr;
  const SeriesRate* receive = nullptr;
};

// The series a member's (instance, device, transmit) names, found by a hash of the three: the
// series are sorted by (hash, position) once and each key's equal hashes compared in full, so the
// first series of a key in `rates` order is its series (as a map of keys would give) without a
// string comparison per tree level. A NIC's RDMA counters are never a switch port's.
class SeriesIndex {
 public:
  explicit SeriesIndex(const CounterRates& rates) : rates_(rates) {
    entries_.reserve(rates.series.size());
    for (std::size_t i = 0; i < rates.series.size(); ++i) {
      const SeriesRate& s = rates.series[i];
      if (s.kind == CounterKind::kRdma || s.timeline.size() < 2) continue;
      entries_.push_back(Entry{key_hash(s.instance, s.device, s.transmit), static_cast<std::uint32_t>(i)});
    }
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.hash != b.hash ? a.hash < b.hash : a.series < b.series; });
  }

  [[nodiscard]] const SeriesRate* find(std::string_view instance, std::string_view device, bool transmit) const {
    const std::uint64_t h = key_hash(instance, device, transmit);
    auto it = std::lower_bound(entries_.begin(), entries_.end(), h, [](const Entry& e, std::uint64_t x) { return e.hash < x; });
    for (; it != entries_.end() && it->hash == h; ++it) {
      const SeriesRate& s = rates_.series[it->series];
      if (s.transmit == transmit && s.instance == instance && s.device == device) return &s;
    }
    return nullptr;
  }

 private:
  struct Entry {
    std::uint64_t hash;
    std::uint32_t series;
  };
  static std::uint64_t key_hash(std::string_view instance, std::string_view device, bool transmit) {
    const std::hash<std::string_view> h;
    return (h(instance) * 0x9e3779b97f4a7c15ULL) ^ h(device) ^ static_cast<std::uint64_t>(transmit);
  }

  const CounterRates& rates_;
  std::vector<Entry> entries_;
};

// bits/s of `s` at t over [t - window, t] (alert_rules.h): NaN before its second sample.
double rate_at(const SeriesRate* s, std::int64_t t, std::int64_t window_ms) {
  if (s == nullptr) return kNaN;
  const std::vector<TimedBytes>& tl = s->timeline;
  const auto end = std::upper_bound(tl.begin(), tl.end(), t, [](std::int64_t x, const TimedBytes& b) { return x < b.time_ms; });
  if (end - tl.begin() < 2) return kNaN;
  const auto last = end - 1;
  auto first = std::lower_bound(tl.begin(), last, t - window_ms, [](const TimedBytes& b, std::int64_t x) { return b.time_ms < x; });
  if (first == last) first = last - 1;  // fewer than two samples in the window: the last two
  return 8.0 * (last->bytes - first->bytes) * 1000.0 / static_cast<double>(last->time_ms - first->time_ms);
}

// One (rule, member)'s episodes as evaluation goes on.
struct Tracker {
  std::int64_t pending = -1;  // -1: condition false at the last evaluation
  bool reported = false;
  AlertFiring firing;
};

void evaluate_group(const AlertPlan& plan, std::size_t gi, const std::vector<MemberSeries>& series,
                    std::vector<AlertFiring>& out) {
  const AlertGroup& g = plan.groups[gi];
  const AlertOptions& o = plan.options;
  std::set<std::int64_t> times;
  for (const MemberSeries& m : series) {
    for (const SeriesRate* s : {m.transmit, m.receive}) {
      if (s == nullptr) continue;
      for (std::size_t i = 1; i < s->timeline.size(); ++i) times.insert(s->timeline[i].time_ms);
    }
  }
  if (times.empty()) return;
  std::vector<RuleCondition> conditions;
  std::vector<std::vector<Tracker>> trackers;
  for (const AlertRule r : kAlertRules) {
    conditions.push_back(rule_condition(r, g, o));
    trackers.emplace_back(conditions.back().per_member ? series.size() : 1);
  }
  std::vector<MemberRates> rates(series.size());
  for (const std::int64_t t : times) {
    for (std::size_t i = 0; i < series.size(); ++i) {
      rates[i] = MemberRates{rate_at(series[i].transmit, t, o.window_s * 1000), rate_at(series[i].receive, t, o.window_s * 1000)};
    }
    for (std::size_t r = 0; r < conditions.size(); ++r) {
      const std::vector<bool> holds = condition_holds(conditions[r], rates, g, o);
      for (std::size_t m = 0; m < holds.size(); ++m) {
        Tracker& k = trackers[r][m];
        if (k.reported && k.firing.fired) continue;
        if (!holds[m]) {
          k.pending = -1;
          k.reported = false;
          continue;
        }
        if (k.pending < 0) k.pending = t;
        k.reported = true;
        k.firing = AlertFiring{conditions[r].rule, gi, conditions[r].per_member ? static_cast<int>(m) : -1, k.pending,
                               k.pending + o.for_s * 1000, t - k.pending >= o.for_s * 1000, t};
      }
    }
  }
  for (const auto& per_rule : trackers) {
    for (const Tracker& k : per_rule) {
      if (k.reported) out.push_back(k.firing);
    }
  }
}

}  // namespace

std::vector<AlertFiring> evaluate_alerts(const AlertPlan& plan, const CounterRates& rates) {
  const SeriesIndex index(rates);
  std::vector<AlertFiring> out;
  std::vector<MemberSeries> series;
  for (std::size_t gi = 0; gi < plan.groups.size(); ++gi) {
    series.clear();
    for (const AlertMember& m : plan.groups[gi].members) {
      series.push_back(MemberSeries{index.find(m.instance, m.device, true), index.find(m.instance, m.device, false)});
    }
    evaluate_group(plan, gi, series, out);
  }
  std::sort(out.begin(), out.end(), [](const AlertFiring& a, const AlertFiring& b) {
    return std::tuple(a.fires_ms, a.group, a.rule, a.member) < std::tuple(b.fires_ms, b.group, b.rule, b.member);
  });
  return out;
}

}  // namespace ct
