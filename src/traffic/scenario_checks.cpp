#include "traffic/scenario_checks.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

namespace ct {
namespace {

class Checker {
 public:
  explicit Checker(const Topology& t) : t_(t) {
    gpus_ = static_cast<std::uint64_t>(t.host_count) * static_cast<std::uint64_t>(std::max(t.gpus_per_host, 0));
  }

  std::vector<ScenarioProblem> run(const Scenario& s) {
    for (std::uint32_t i = 0; i < s.collectives.size(); ++i) check(i, s.collectives[i]);
    for (std::uint32_t i = 0; i < s.transfers.size(); ++i) check(i, s.transfers[i]);
    for (std::uint32_t i = 0; i < s.mice.size(); ++i) check(i, s.mice[i]);
    for (std::uint32_t i = 0; i < s.faults.size(); ++i) check(i, s.faults[i]);
    return take();
  }
  std::vector<ScenarioProblem> take() { return std::move(problems_); }

  void problem(ScenarioPart part, std::uint32_t index, std::string field, std::string message) {
    problems_.push_back({part, index, std::move(field), std::move(message)});
  }

  // Shared rules of collectives and transfers.
  void common(ScenarioPart part, std::uint32_t i, Bytes bytes, std::uint32_t channels, std::uint32_t qps, double weight) {
    if (bytes.value() <= 0) problem(part, i, "bytes", "expected a positive size such as 1GiB, 64KB or 1048576");
    if (channels > kMaxChannels) problem(part, i, "channels", fmt::format("expected an integer in 1..{}", kMaxChannels));
    if (qps > kMaxQps) problem(part, i, "qps", fmt::format("expected an integer in 1..{}", kMaxQps));
    check_weight(part, i, weight);
  }
  void check_weight(ScenarioPart part, std::uint32_t i, double weight) {
    if (!(std::isfinite(weight) && weight > 0 && weight <= kMaxWeight)) {
      problem(part, i, "weight", fmt::format("expected a number in (0, {}]", kMaxWeight));
    }
  }
  void non_negative(ScenarioPart part, std::uint32_t i, const char* field, TimePs t) {
    if (t.value() < 0) problem(part, i, field, "expected a duration such as 250us, 1.5ms or 2s");
  }

  void check(std::uint32_t i, const CollectiveSpec& c) {
    const auto part = ScenarioPart::kCollective;
    common(part, i, c.bytes, c.channels, c.qps, c.weight);
    if (c.iterations < 1 || c.iterations > kMaxIterations) {
      problem(part, i, "iterations", fmt::format("expected an integer in 1..{}", kMaxIterations));
    }
    non_negative(part, i, "compute", c.compute);
    non_negative(part, i, "start", c.start);
    if (c.groups.empty()) {
      problem(part, i, "gpus", "the selection has no GPU");
      return;
    }
    bool ok = true;
    seen_.resize(gpus_, 0);  // all 0 between groups
    for (const auto& group : c.groups) {
      for (const std::uint32_t g : group) {
        if (g >= gpus_) {
          problem(part, i, "gpus", fmt::format("GPU {} does not exist ({} GPUs)", g, gpus_));
          ok = false;
        } else if (seen_[g] != 0) {
          problem(part, i, "gpus", fmt::format("GPU {} is listed twice in one group", g));
          ok = false;
        } else {
          seen_[g] = 1;
        }
      }
      for (const std::uint32_t g : group) {
        if (g < gpus_) seen_[g] = 0;
      }
      if (group.empty()) {
        problem(part, i, "gpus", "a group of the selection has no GPU");
        ok = false;
      }
    }
    if (!ok || c.bytes.value() <= 0) return;
    for (const auto& group : c.groups) {
      CollectiveShape shape;
      shape.kind = c.kind;
      shape.algorithm = c.algorithm;
      shape.model = c.model;
      shape.bytes = c.bytes;
      shape.channels = std::max<std::uint32_t>(c.channels, 1);
      shape.steps_limit = c.steps;
      for (const std::uint32_t g : group) shape.node_of_rank.push_back(g / static_cast<std::uint32_t>(t_.gpus_per_host));
      if (const auto why = check_collective(shape)) {
        problem(part, i, "", *why);
        return;
      }
    }
  }

  // Why the endpoint does not exist, or empty.
  std::string missing(const Endpoint& e) const {
    if (e.is_port) {
      return e.port.valid() && e.port.value() < t_.backend_port_count() ? std::string()
                                                                        : fmt::format("'{}' is no backend port", e.name);
    }
    return e.gpu < gpus_ ? std::string() : fmt::format("GPU {} does not exist ({} GPUs)", e.gpu, gpus_);
  }

  void check(std::uint32_t i, const TransferSpec& x) {
    const auto part = ScenarioPart::kTransfer;
    common(part, i, x.bytes, x.channels, x.qps, x.weight);
    non_negative(part, i, "start", x.start);
    const std::string src = missing(x.src);
    const std::string dst = missing(x.dst);
    if (!src.empty()) problem(part, i, "src", src);
    if (!dst.empty()) problem(part, i, "dst", dst);
    if (!src.empty() || !dst.empty()) return;
    if (x.src.is_port != x.dst.is_port) {
      problem(part, i, "", "src and dst must both be GPUs or both be ports");
    } else if (x.src.is_port && t_.plane[x.src.port.value()] != t_.plane[x.dst.port.value()]) {
      problem(part, i, "", "src and dst ports are on different planes: no path joins them");
    } else if ((x.src.is_port && x.src.port == x.dst.port) || (!x.src.is_port && x.src.gpu == x.dst.gpu)) {
      problem(part, i, "", "src and dst are the same");
    }
  }

  void check(std::uint32_t i, const MiceSpec& m) {
    const auto part = ScenarioPart::kMice;
    if (m.count < 1 || m.count > kMaxMice) problem(part, i, "count", fmt::format("expected an integer in 1..{}", kMaxMice));
    if (m.bytes.value() <= 0) problem(part, i, "bytes", "expected a positive size such as 1GiB, 64KB or 1048576");
    non_negative(part, i, "start", m.start);
    if (!(std::isfinite(m.arrivals_per_s) && (m.arrivals_per_s == 0 ||
                                              (m.arrivals_per_s >= kMinArrivalsPerSecond && m.arrivals_per_s <= 1e15)))) {
      problem(part, i, "arrivals_per_s",
              fmt::format("{:g}: expected 0 (all at start) or a rate in [{:g}, 1e+15] arrivals per second",
                          m.arrivals_per_s, kMinArrivalsPerSecond));
    } else if (m.arrivals_per_s > 0 && m.count > 1 &&
               static_cast<double>(m.count - 1) / m.arrivals_per_s > to_seconds(kMaxDuration) / 10) {
      problem(part, i, "arrivals_per_s",
              fmt::format("{:g} arrivals per second: {} mice would arrive over about {:.3g} s, beyond the {:g} s a run "
                          "can simulate; raise arrivals_per_s or lower count",
                          m.arrivals_per_s, m.count, static_cast<double>(m.count - 1) / m.arrivals_per_s,
                          to_seconds(kMaxDuration) / 10));
    }
    check_weight(part, i, m.weight);
    std::set<std::uint32_t> hosts(m.hosts.begin(), m.hosts.end());
    if (hosts.size() < 2) problem(part, i, "hosts", "mice need at least 2 hosts");
    if (!hosts.empty() && *hosts.rbegin() >= static_cast<std::uint32_t>(t_.host_count)) {
      problem(part, i, "hosts", fmt::format("host {} does not exist ({} hosts)", *hosts.rbegin(), t_.host_count));
    }
  }

  void check(std::uint32_t i, const FaultSpec& f) {
    const auto part = ScenarioPart::kFault;
    if (f.links.empty()) problem(part, i, "", "names no link");
    for (const LinkId l : f.links) {
      if (!l.valid() || l.value() >= t_.link_count()) {
        problem(part, i, "link", fmt::format("link {} does not exist ({} links)", l.value(), t_.link_count()));
        break;
      }
    }
    non_negative(part, i, "at", f.at);
    non_negative(part, i, "convergence", f.convergence);
    const bool ok = f.kind == FaultKind::kDown      ? f.fraction == 0
                    : f.kind == FaultKind::kRepair  ? f.fraction == 1
                                                    : std::isfinite(f.fraction) && f.fraction > 0 && f.fraction <= 1;
    if (!ok) {
      problem(part, i, "fraction",
              f.kind == FaultKind::kDegrade ? "expected a number in (0, 1]"
                                            : "only a degrade has a fraction (down is 0, repair is 1)");
    }
  }

 private:
  const Topology& t_;
  std::uint64_t gpus_ = 0;
  std::vector<std::uint8_t> seen_;  // per GPU: listed in the group being checked
  std::vector<ScenarioProblem> problems_;
};

template <typename Item>
std::vector<ScenarioProblem> check_one(const Item& item, const Topology& topology) {
  Checker checker(topology);
  checker.check(0, item);
  return checker.take();
}

}  // namespace

std::vector<ScenarioProblem> check_scenario(const Scenario& scenario, const Topology& topology) {
  return Checker(topology).run(scenario);
}

std::vector<ScenarioProblem> check_item(const CollectiveSpec& item, const Topology& topology) {
  return check_one(item, topology);
}
std::vector<ScenarioProblem> check_item(const TransferSpec& item, const Topology& topology) {
  return check_one(item, topology);
}
std::vector<ScenarioProblem> check_item(const MiceSpec& item, const Topology& topology) {
  return check_one(item, topology);
}
std::vector<ScenarioProblem> check_item(const FaultSpec& item, const Topology& topology) {
  return check_one(item, topology);
}

std::string scenario_field(const ScenarioProblem& p) {
  static constexpr const char* kLists[] = {"", "collectives", "transfers", "mice", "faults"};
  if (p.part == ScenarioPart::kScenario) return p.field.empty() ? "scenario" : "scenario." + p.field;
  std::string out = fmt::format("scenario.{}[{}]", kLists[static_cast<int>(p.part)], p.index);
  if (!p.field.empty()) out += "." + p.field;
  return out;
}

Diagnostics scenario_diagnostics(const Scenario& scenario, const Topology& topology) {
  Diagnostics out;
  for (const ScenarioProblem& p : check_scenario(scenario, topology)) {
    out.push_back(Diagnostic{{scenario.file, 0, 0}, scenario_field(p), p.message});
  }
  return out;
}

}  // namespace ct
