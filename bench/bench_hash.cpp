// ECMP decisions per second: one decision = one switch hashing a flow's key with its function and
// seed and picking a member of an 8-way group (a path walker makes one per hop). Keys are 4,096
// random RoCEv2 5-tuples cycled in order; items/s is decisions per second on one core.
#include <benchmark/benchmark.h>

#include <vector>

#include "core/rng.h"
#include "routing/hash_function.h"
#include "routing/linux_multipath.h"
#include "routing/member_select.h"

namespace ct {
namespace {

std::vector<FlowKey> random_keys() {
  Rng rng(1, 0, 0);
  std::vector<FlowKey> keys(4096);
  for (FlowKey& k : keys) {
    k.src_ip = static_cast<std::uint32_t>(rng.next_u64());
    k.dst_ip = static_cast<std::uint32_t>(rng.next_u64());
    k.src_port = static_cast<std::uint16_t>(rng.uniform(65536));
  }
  return keys;
}

void BM_Decision(benchmark::State& state) {
  const auto algorithm = static_cast<HashAlgorithm>(state.range(0));
  const auto method = static_cast<MemberSelection>(state.range(1));
  const FlowHasher hasher(algorithm, 0x5EED, SeedInput::kPrepend, kFiveTuple);
  const MemberSelector selector(8, method, hasher.bits());
  const std::vector<FlowKey> keys = random_keys();
  std::uint64_t sum = 0;
  for (auto _ : state) {
    for (const FlowKey& k : keys) sum += selector.select(hasher.hash(k));
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * keys.size()));
  state.SetLabel(std::string(hash_algorithm_name(algorithm)) + " " + std::string(member_selection_name(method)));
}

void BM_LinuxDecision(benchmark::State& state) {
  const LinuxMultipathConfig config{static_cast<int>(state.range(0)), 0x37, 0x5EED};
  const std::vector<std::uint32_t> weights(8, 1);
  const auto bounds = linux_nexthop_upper_bounds(weights);
  const std::vector<FlowKey> keys = random_keys();
  std::uint64_t sum = 0;
  for (auto _ : state) {
    for (const FlowKey& k : keys) sum += linux_select_nexthop(linux_multipath_hash(k, config), bounds);
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * keys.size()));
  state.SetLabel("linux policy " + std::to_string(config.policy));
}

void decision_args(benchmark::internal::Benchmark* b) {
  for (HashAlgorithm a : kAllHashAlgorithms)
    for (int m = 0; m < 2; ++m) b->Args({static_cast<int>(a), m});
}

BENCHMARK(BM_Decision)->Apply(decision_args);
BENCHMARK(BM_LinuxDecision)->Arg(0)->Arg(1)->Arg(3);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
