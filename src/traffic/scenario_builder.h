// The one way a Scenario (traffic/scenario.h) is put together from what a user wrote: the scenario
// file's reader (traffic/scenario_parser.h) and `simulate`'s flags (traffic/scenario_flags.h) both
// build through it, so that a name means the same thing and is refused with the same words on
// either path.
//
// Every call takes the value and where it was written (a ValueOrigin: file:line:column and the
// field, or the command line and the flag). What resolves is returned; what does not becomes a
// diagnostic at that origin, appended to the caller's list (so that diagnostics stay in the order
// the values were read), and the call returns nullopt or an empty list.
//   Names of the model, one table each: path models, collective kinds, algorithms and models
//   (traffic/collective.h), fault kinds, GPU selections, groupings and orders (traffic/scenario.h);
//   an unknown name lists the table and says "did you mean" (core/suggest.h).
//   Names of the fabric: GPUs, endpoints, links, switches and ports, through the fabric's name
//   directory (fabric/name_directory.h).
//   GPU selections: hosts x local indices, grouped and ordered, into a collective's groups.
//   Items: add() appends a collective, transfer, mice set or fault; judge() reports the value
//   rules of traffic/scenario_checks.h on one item where the caller says its fields were written.
// finish() orders the faults by time (stable) and returns the Scenario, or every diagnostic.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/result.h"
#include "fabric/name_directory.h"
#include "traffic/scenario.h"
#include "traffic/scenario_checks.h"

namespace ct {

// Where a value was written: the position, and the field ("scenario.faults[2].at") or flag ("--fail").
struct ValueOrigin {
  SourceLocation where;
  std::string field;
};

// GPUs hosts x local, grouped and ordered (traffic/scenario.h GpuGrouping, GpuOrder).
struct GpuSelection {
  std::vector<std::uint32_t> hosts;
  std::vector<std::uint32_t> local;
  GpuGrouping per = GpuGrouping::kNone;
  GpuOrder order = GpuOrder::kInOrder;
};

class ScenarioBuilder {
 public:
  // Diagnostics are appended to `errors`, which must outlive the builder.
  ScenarioBuilder(std::string file, const NameDirectory& names, Diagnostics& errors);

  [[nodiscard]] const Topology& topology() const { return t_; }
  [[nodiscard]] const Scenario& scenario() const { return scenario_; }
  void error(const ValueOrigin& at, std::string message);

  // ---- the scenario as a whole ----
  void set_location(SourceLocation at) { scenario_.at = std::move(at); }
  void set_name(std::string name) { scenario_.name = std::move(name); }
  // `at`: where a file wrote the value (Scenario::seed_at, paths_at); the flags leave it out.
  void set_seed(std::uint64_t seed, SourceLocation at = {}) {
    scenario_.seed = seed;
    scenario_.seed_at = std::move(at);
  }
  void set_paths(PathModel paths, SourceLocation at = {}) {
    scenario_.paths = paths;
    scenario_.paths_at = std::move(at);
  }

  // ---- names of the model ----
  std::optional<PathModel> path_model(std::string_view name, const ValueOrigin& at);
  std::optional<CollectiveKind> collective_kind(std::string_view name, const ValueOrigin& at);
  std::optional<CollectiveAlgorithm> algorithm(std::string_view name, const ValueOrigin& at);
  std::optional<CollectiveModel> collective_model(std::string_view name, const ValueOrigin& at);
  std::optional<FaultKind> fault_kind(std::string_view name, const ValueOrigin& at);
  std::optional<GpuGrouping> gpu_grouping(std::string_view name, const ValueOrigin& at);
  std::optional<GpuOrder> gpu_order(std::string_view name, const ValueOrigin& at);
  // all | per-rail | per-host: every GPU of the fabric, grouped. An unknown name is "unknown
  // `noun` 'x' (all, per-rail, per-host, `other_forms`)": the caller says what else its syntax takes.
  std::optional<GpuSelection> named_selection(std::string_view name, const ValueOrigin& at, std::string_view noun,
                                              std::string_view other_forms);

  // ---- names of the fabric ----
  std::optional<std::uint32_t> gpu(std::string_view name, const ValueOrigin& at);
  // A GPU, else a backend port, else one diagnostic saying which forms exist.
  std::optional<Endpoint> endpoint(std::string_view name, const ValueOrigin& at);
  // A backend port spelled as the fabric prints it ("host12/nic3/p1"), found without a place for
  // a diagnostic (what endpoint() tries first; a large scenario's usual name); nullopt otherwise.
  [[nodiscard]] std::optional<Endpoint> spelled_port(std::string_view name) const;
  // A LinkId or "A -- B" (every parallel cable): Topology::link_name's forms.
  std::vector<LinkId> cable_links(std::string_view name, const ValueOrigin& at);
  // Every link of a switch, any network's (a scenario file's `switch:`), in link-id order.
  std::vector<LinkId> switch_links(std::string_view name, const ValueOrigin& at);
  // A backend port's NIC link.
  std::vector<LinkId> port_links(std::string_view name, const ValueOrigin& at);
  // One word for any of them (a flag's LINK): "A -- B" or digits a cable, "host..." a backend
  // port, anything else a backend switch.
  std::vector<LinkId> target_links(std::string_view name, const ValueOrigin& at);

  // ---- GPU selections ----
  [[nodiscard]] std::uint32_t host_count() const;
  [[nodiscard]] std::uint32_t gpus_per_host() const;
  [[nodiscard]] GpuSelection whole_fabric(GpuGrouping per) const;
  // The groups of the collective about to be added (index: how many were added before), in rank
  // order; a random order shuffles each group with the scenario's seed.
  [[nodiscard]] std::vector<std::vector<std::uint32_t>> groups(const GpuSelection& selection) const;

  // ---- items ----
  void add(CollectiveSpec c) { scenario_.collectives.push_back(std::move(c)); }
  void add(TransferSpec t) { scenario_.transfers.push_back(std::move(t)); }
  // Room for `more` transfers (a list about to be read).
  void reserve_transfers(std::size_t more) { scenario_.transfers.reserve(scenario_.transfers.size() + more); }
  void add(MiceSpec m) { scenario_.mice.push_back(std::move(m)); }
  void add(FaultSpec f) { scenario_.faults.push_back(std::move(f)); }

  // Where a problem about `field` ("bytes"; "" the item as a whole) is reported, or nullopt to
  // leave it unsaid (the caller already refused the value it is about).
  using Locate = std::function<std::optional<ValueOrigin>(const std::string& field)>;
  template <typename Item>
  void judge(const Item& item, const Locate& locate) {
    for (ScenarioProblem& p : check_item(item, t_)) {
      if (auto at = locate(p.field)) error(*at, std::move(p.message));
    }
  }

  // The scenario with its faults in time order (stable), or every diagnostic so far.
  Result<Scenario> finish();

 private:
  template <typename T>
  bool found(const Result<T>& r);
  std::vector<LinkId> links_of(VertexId sw) const;

  const NameDirectory& names_;
  const Topology& t_;
  Diagnostics& errors_;
  Scenario scenario_;
};

}  // namespace ct
