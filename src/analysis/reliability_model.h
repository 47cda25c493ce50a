// The failure model of a backend fabric and of one training job on it: every NIC, link and switch
// as an independent element that fails at rate lambda and is repaired after an exponential time of
// mean MTTR (a two-state Markov chain), and what each element's failure does to the job.
//
// Elements (backend only; the frontend is a separate network):
//   NIC      one per (host, rail): all planes of its cage. Impact: its GPU is isolated (kGpu).
//   link     one per cable, class by tier (1 NIC-leaf, 2 leaf-spine, 3 spine-core) and media (the
//            catalog optic of Topology::media). Rate per link: cable or fibre with both modules.
//   switch   leaf, spine, core.
// Impact on the job (the job spans the first ceil(gpus / gpus_per_host) hosts, all their rails;
// "slot" = host x rails + rail, one GPU and its NIC):
//   kGpu       a NIC: the slot is isolated whatever the plane count.
//   kPlane     a NIC-leaf link (one slot) or a leaf (the job slots under it): each slot loses one
//              plane. With P planes a slot with k of them down runs at (P - k) / P of its bandwidth;
//              k = P isolates it. One plane: every such failure isolates.
//   kSlowdown  a leaf-spine or spine-core cable, a spine or a core, when the job's traffic crosses
//              it: the collective takes `slowdown` times as long (reliability_slowdown.h).
//   kPartition the same, when the element's loss disconnects leaves (slowdown infinite).
//   kNone      the element does not touch the job.
// The job's traffic crosses tier 2 when some rail has job ports under two leaves of a plane, and
// tier 3 when some rail has job ports in two pods (cross-rail traffic is assumed to go over NVLink
// first, as NCCL's PXN does, so a job inside one rail-optimized scalable unit never leaves its
// leaves). A tier-2 element of a three-tier fabric touches the job only in a pod with job ports.
//
// Job speed: a synchronous collective runs at the pace of its slowest member, so with straggler
// factor x (the largest of P / (P - k) over slots and the slowdowns of down elements) and a share c
// of the step time spent in exposed communication, the job progresses at
//   r = 1 / ((1 - c) + c x)        (c = 1: the job is as slow as its collective).
// Failures are independent (see docs/models/reliability.md, Limitations).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/reliability_slowdown.h"
#include "catalog/catalog.h"
#include "core/result.h"
#include "topology/topology.h"

namespace ct {

inline constexpr double kHoursPerYear = 8766.0;  // 365.25 days: AFR = 8,766 h / MTBF

// Defaults of the job policy, each from a public source:
//  - checkpoint every 2 h: the low end of the 2-4 h intervals Alibaba's production LLM jobs use
//    (Qian et al., "Alibaba HPN", SIGCOMM 2024, section 2.3 and Figure 4);
//  - restart 5 minutes: the restart overhead Meta's reliability model assumes (Kokolis et al.,
//    "Revisiting Reliability in Large-Scale Machine Learning Research Clusters", HPCA 2025);
//  - one spare host per 16: HPN's segments hold 1,024 active and 64 backup GPUs (Figure 7).
inline constexpr double kDefaultCheckpointHours = 2.0;
inline constexpr double kDefaultRestartHours = 5.0 / 60.0;
inline constexpr long long kHostsPerSpare = 16;

// What the job does while a GPU has lost some (not all) of its planes: run on at the straggler's
// pace until the repair, or at the next checkpoint restart with the degraded hosts swapped for
// spares (no work lost; the restart time is paid). Upper-tier slowdowns cannot be drained.
enum class DegradedPolicy : std::uint8_t { kContinue, kDrainAtCheckpoint };
std::string to_string(DegradedPolicy p);

struct JobPolicy {
  long long gpus = 0;                    // GPUs the job spans; 0 = every GPU of the cluster
  double horizon_hours = 30 * 24.0;
  double checkpoint_hours = kDefaultCheckpointHours;
  double restart_hours = kDefaultRestartHours;
  double comm_fraction = 1.0;            // c above, in [0, 1]
  long long spare_hosts = -1;            // -1: ceil(job hosts / kHostsPerSpare)
  DegradedPolicy degraded = DegradedPolicy::kDrainAtCheckpoint;
};

// What the spec (or the command line) says beside the fabric: overrides of the catalog per
// element kind (index: FailureElement) and the job.
struct ReliabilityInputs {
  std::array<std::optional<double>, kFailureElementCount> afr;           // failures per element-year
  std::array<std::optional<double>, kFailureElementCount> repair_hours;  // mean time to repair
  JobPolicy job;
  PathSplit split = PathSplit::kEcmp;  // how traffic spreads over paths (reliability_slowdown.h)
};

enum class Impact : std::uint8_t { kNone, kGpu, kPlane, kSlowdown, kPartition };

// One row of the steady-state table: the elements of one kind, tier and media.
struct ElementClass {
  FailureElement element = FailureElement::kLink;
  int tier = 0;                      // NIC 0; link: tier of its upper end; switch: its tier
  std::optional<MediaKind> media;    // links
  std::string name;                  // "NIC", "NIC-leaf link (transceiver)", "spine", ...
  long long count = 0;
  std::optional<double> per_hour;    // lambda
  std::optional<double> mttr_hours;
  std::string source;                // catalog id, "spec", or "none"
  double slowdown = 1.0;             // tier >= 2 elements: collective time factor when one is down
  int bundle = 1;                    // tier >= 2 links: parallel cables between the same two switches
  long long touching_job = 0;        // elements of the class whose failure reaches the job

  [[nodiscard]] bool modelled() const { return per_hour.has_value() && mttr_hours.has_value(); }
  // Steady-state unavailability MTTR / (MTBF + MTTR). PRECONDITION: modelled().
  [[nodiscard]] double p_down() const { return *mttr_hours * *per_hour / (1.0 + *mttr_hours * *per_hour); }
};

// The elements of the modelled classes, as dense arrays indexed by element.
struct ReliabilityModel {
  std::string name;
  int planes = 1;
  int tiers = 2;
  int rails = 0;                 // backend NICs per host
  long long hosts = 0;
  long long gpus = 0;
  long long job_gpus = 0;
  long long job_hosts = 0;
  long long spare_hosts = 0;
  JobPolicy job;                 // with gpus and spare_hosts resolved
  PathSplit split = PathSplit::kEcmp;
  std::vector<ElementClass> classes;
  std::vector<std::string> unmodelled;  // one line per class left out, saying why

  std::vector<std::uint16_t> element_class;
  std::vector<std::uint64_t> stream;     // the element's RNG stream: stable, whatever is modelled
  std::vector<Impact> impact;
  std::vector<std::uint32_t> slot_begin;  // CSR (size elements + 1) into slots: the job slots hit
  std::vector<std::uint32_t> slots;

  [[nodiscard]] std::size_t element_count() const { return element_class.size(); }
  [[nodiscard]] std::size_t slot_count() const { return static_cast<std::size_t>(job_hosts) * rails; }
  // Job progress rate for straggler factor x (>= 1).
  [[nodiscard]] double rate_at(double x) const { return 1.0 / ((1.0 - job.comm_fraction) + job.comm_fraction * x); }
};

// Collective slowdown of one element of each upper class of plane 0 (links of tier 2 and 3, spines,
// cores), computed once per fabric with the flow engine; index [tier][is_switch]. `bundle[tier]`:
// the parallel cables between the two switches of the representative cable of that tier (under
// static ECMP a bundle of c that loses one cable runs its flows at c / (c - 1) pace).
struct ClassSlowdowns {
  double factor[4][2] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
  int bundle[4] = {1, 1, 1, 1};
};
ClassSlowdowns compute_class_slowdowns(const Topology& topology, PathSplit split = PathSplit::kEcmp);
std::string to_string(PathSplit s);

// Rates: the spec's override, else the catalog's figure, else unknown (the class is listed in
// `unmodelled`). A class with a known rate but no repair time is an error naming the spec field.
Result<ReliabilityModel> build_reliability_model(const std::string& name, const Topology& topology,
                                                 const Catalog& catalog, const ReliabilityInputs& inputs,
                                                 const ClassSlowdowns& slowdowns);

}  // namespace ct
