// Model test against the real Linux data plane.
//
// System: a router network namespace with one input veth (in0, 10.1.0.1/16) and n next-hop veths
// (nh<i>, 10.200.<i>.1/24), forwarding on, and the route
//   10.99.0.0/16 nexthop via 10.200.0.2 dev nh0 weight w0 nexthop via 10.200.1.2 dev nh1 ...
// For each multipath policy (0, 1, 2, 3 with several field sets) and seed, the kernel is asked
// `ip route get <dst> from <src> iif in0 ipproto <udp|tcp> sport <s> dport <d>` for hundreds of
// random tuples (in one `ip -batch`); this runs the forwarding path (ip_route_input ->
// fib_multipath_hash -> fib_select_multipath) on a synthetic packet, and sends nothing.
// Expected: linux_multipath.h picks the same next hop for every tuple.
//
// Needs root, iproute2 and network namespaces; otherwise skipped. Namespaces are named with the
// process id and removed by an RAII guard whatever happens; only private addresses are used, and
// only inside the test's own namespace.
#include <gtest/gtest.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/rng.h"
#include "lab/shell.h"
#include "routing/linux_multipath.h"
#include "support/netns.h"

namespace ct {
namespace {

using test::Netns;
using test::ok;

// stdout alone: the kernel's answers are parsed from it.
CommandResult run(const std::string& command) { return run_command(command, false); }

std::string unique_name(const char* tag) { return test::unique_name(tag, "ctecmp"); }

// Owns a temporary file.
class TempFile {
 public:
  TempFile() {
    char path[] = "/tmp/ct-linux-ecmp-XXXXXX";
    const int fd = mkstemp(path);
    if (fd >= 0) {
      close(fd);
      path_ = path;
    }
  }
  ~TempFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string dotted(std::uint32_t a) {
  return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 0xFF) + "." + std::to_string((a >> 8) & 0xFF) +
         "." + std::to_string(a & 0xFF);
}

std::string why_unavailable() {
  if (geteuid() != 0) return "needs root to create network namespaces";
  if (!ok("ip -V")) return "iproute2 (ip) not found";
  Netns probe(unique_name("probe"));
  if (!probe.created()) return "cannot create a network namespace here (no CAP_SYS_ADMIN or no netns support)";
  if (!probe.sysctl("net.ipv4.fib_multipath_hash_seed=1")) return "kernel has no net.ipv4.fib_multipath_hash_seed (before 6.11)";
  return "";
}

// Builds the router of the header comment; false if any step fails.
bool build_router(const Netns& ns, const std::vector<std::uint32_t>& weights) {
  bool good = ns.ip("link set lo up") && ns.ip("link add in0 type veth peer name in0p") &&
              ns.ip("addr add 10.1.0.1/16 dev in0") && ns.ip("link set in0 up") && ns.ip("link set in0p up");
  std::string route = "route add 10.99.0.0/16";
  for (std::size_t i = 0; good && i < weights.size(); ++i) {
    const std::string nh = "nh" + std::to_string(i), subnet = "10.200." + std::to_string(i);
    good = ns.ip("link add " + nh + " type veth peer name " + nh + "p") && ns.ip("addr add " + subnet + ".1/24 dev " + nh) &&
           ns.ip("link set " + nh + " up") && ns.ip("link set " + nh + "p up");
    route += " nexthop via " + subnet + ".2 dev " + nh + " weight " + std::to_string(weights[i]);
  }
  return good && ns.sysctl("net.ipv4.conf.all.forwarding=1") && ns.ip(route);
}

std::vector<FlowKey> random_tuples(std::size_t count, std::uint64_t stream) {
  Rng rng(20240601, 0, stream);
  std::vector<FlowKey> keys;
  for (std::size_t i = 0; i < count; ++i) {
    FlowKey k;
    // Sources in 10.1.0.0/16 avoiding the network, in0's own 10.1.0.1 and the broadcast address.
    k.src_ip = ipv4(10, 1, static_cast<std::uint8_t>(rng.uniform(256)), static_cast<std::uint8_t>(2 + rng.uniform(252)));
    k.dst_ip = ipv4(10, 99, static_cast<std::uint8_t>(rng.uniform(256)), static_cast<std::uint8_t>(1 + rng.uniform(254)));
    k.protocol = (i % 4 == 3) ? kIpProtoTcp : kIpProtoUdp;
    k.src_port = static_cast<std::uint16_t>(1 + rng.uniform(65535));
    k.dst_port = k.protocol == kIpProtoUdp ? kRoceV2UdpPort : static_cast<std::uint16_t>(1 + rng.uniform(65535));
    keys.push_back(k);
  }
  return keys;
}

// The kernel's next-hop index for each key, or an empty vector if a query failed.
std::vector<std::size_t> kernel_choices(const Netns& ns, const std::vector<FlowKey>& keys) {
  TempFile batch;
  {
    std::ofstream out(batch.path());
    for (const FlowKey& k : keys) {
      out << "route get " << dotted(k.dst_ip) << " from " << dotted(k.src_ip) << " iif in0 ipproto "
          << (k.protocol == kIpProtoTcp ? "tcp" : "udp") << " sport " << k.src_port << " dport " << k.dst_port << "\n";
    }
  }
  const CommandResult r = run("ip -n " + ns.name() + " -batch " + batch.path());
  if (r.status != 0) return {};
  std::vector<std::size_t> choices;
  static const std::regex kDev(R"( dev nh(\d+) )");
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), kDev); it != std::sregex_iterator(); ++it) {
    choices.push_back(std::stoul((*it)[1].str()));
  }
  return choices;
}

TEST(LinuxEcmp, ModelPicksTheKernelsNextHop) {
  if (const std::string why = why_unavailable(); !why.empty()) GTEST_SKIP() << why;

  const std::vector<std::vector<std::uint32_t>> groups = {{1, 1}, {1, 1, 1}, {1, 1, 1, 1, 1}, std::vector<std::uint32_t>(8, 1),
                                                          {1, 2, 3, 1}};
  const std::vector<LinuxMultipathConfig> configs = {
      {0, kLinuxDefaultHashFields, 1},          {1, kLinuxDefaultHashFields, 0x5EED1234},
      {2, kLinuxDefaultHashFields, 0xFFFFFFFF}, {3, 0x37, 0x5EED1234},
      {3, 0x13, 7},                             {3, 0x43, 0xA5A5A5A5},
      {1, kLinuxDefaultHashFields, 0x80000000}, {0, kLinuxDefaultHashFields, 0xDEADBEEF},
  };
  constexpr std::size_t kTuples = 500;
  std::size_t compared = 0, matched = 0;
  std::vector<std::string> names;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    Netns ns(unique_name("router"));
    names.push_back(ns.name());
    ASSERT_TRUE(ns.created());
    ASSERT_TRUE(build_router(ns, groups[g])) << "could not build the ECMP router";
    const auto bounds = linux_nexthop_upper_bounds(groups[g]);
    for (std::size_t c = 0; c < configs.size(); ++c) {
      const LinuxMultipathConfig& cfg = configs[c];
      ASSERT_TRUE(ns.sysctl("net.ipv4.fib_multipath_hash_policy=" + std::to_string(cfg.policy) +
                            " net.ipv4.fib_multipath_hash_fields=" + std::to_string(cfg.hash_fields) +
                            " net.ipv4.fib_multipath_hash_seed=" + std::to_string(cfg.seed)));
      const std::vector<FlowKey> keys = random_tuples(kTuples, g * 100 + c);
      const std::vector<std::size_t> kernel = kernel_choices(ns, keys);
      ASSERT_EQ(kernel.size(), keys.size()) << "ip route get failed";
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::size_t model = linux_select_nexthop(linux_multipath_hash(keys[i], cfg), bounds);
        ++compared;
        if (model == kernel[i]) ++matched;
        EXPECT_EQ(model, kernel[i]) << "group " << g << " policy " << cfg.policy << " fields " << cfg.hash_fields
                                    << " seed " << cfg.seed << " " << dotted(keys[i].src_ip) << " -> "
                                    << dotted(keys[i].dst_ip) << " sport " << keys[i].src_port;
      }
    }
  }
  utsname u{};
  uname(&u);
  std::printf("[ linux ] kernel %s: model matched %zu of %zu next-hop choices\n", u.release, matched, compared);
  RecordProperty("kernel", u.release);
  RecordProperty("matched", std::to_string(matched) + "/" + std::to_string(compared));
  // The guards removed every namespace.
  const std::string left = run("ip netns list").out;
  for (const std::string& n : names) EXPECT_EQ(left.find(n), std::string::npos) << n << " was not removed";
}

// Partial coupling on the running kernel. System: two router namespaces with the same policy
// (1, L4) and seed, as two consecutive tiers of routers set alike: the first with a next hops, the
// second with c. A packet keeps its 5-tuple from one router to the next, so each router's choice
// is a function of the same hash; for one address pair and 2,000 RoCE source ports, the kernel's
// pair of choices (M1, M2) gives I(M1; M2) (plug-in, bits). Hand-worked (polarization_test.cpp,
// hash-threshold on one h): a = 2, c = 4: 1 bit; a = 3, c = 2: 1 - 1/3 = 0.67 bit. Expected: the
// kernel within 0.05 bit of both, and the model's choices equal the kernel's tuple by tuple.
double mutual_information_bits(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
  std::map<std::pair<std::size_t, std::size_t>, double> joint;
  std::map<std::size_t, double> pa, pb;
  const double n = static_cast<double>(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    joint[{a[i], b[i]}] += 1 / n;
    pa[a[i]] += 1 / n;
    pb[b[i]] += 1 / n;
  }
  double bits = 0;
  for (const auto& [ab, p] : joint) bits += p * std::log2(p / (pa[ab.first] * pb[ab.second]));
  return bits;
}

TEST(LinuxEcmp, ConsecutiveRoutersCoupleInBits) {
  if (const std::string why = why_unavailable(); !why.empty()) GTEST_SKIP() << why;
  const LinuxMultipathConfig cfg{1, kLinuxDefaultHashFields, 0x5EED};
  struct Case {
    std::size_t first, second;
    double bits;
  };
  for (const Case& c : {Case{2, 4, 1.0}, Case{3, 2, 2.0 / 3.0}}) {
    Netns first(unique_name("tier1")), second(unique_name("tier2"));
    ASSERT_TRUE(first.created() && second.created());
    ASSERT_TRUE(build_router(first, std::vector<std::uint32_t>(c.first, 1)));
    ASSERT_TRUE(build_router(second, std::vector<std::uint32_t>(c.second, 1)));
    for (const Netns* ns : {&first, &second}) {
      ASSERT_TRUE(ns->sysctl("net.ipv4.fib_multipath_hash_policy=1 net.ipv4.fib_multipath_hash_seed=" +
                             std::to_string(cfg.seed)));
    }
    Rng rng(20240602, c.first, c.second);
    std::vector<FlowKey> keys(2000);
    for (FlowKey& k : keys) {
      k.src_ip = ipv4(10, 1, 0, 7);
      k.dst_ip = ipv4(10, 99, 0, 9);
      k.src_port = static_cast<std::uint16_t>(0xC000 + rng.uniform(0x4000));
    }
    const std::vector<std::size_t> m1 = kernel_choices(first, keys), m2 = kernel_choices(second, keys);
    ASSERT_EQ(m1.size(), keys.size());
    ASSERT_EQ(m2.size(), keys.size());
    const auto b1 = linux_nexthop_upper_bounds(std::vector<std::uint32_t>(c.first, 1));
    const auto b2 = linux_nexthop_upper_bounds(std::vector<std::uint32_t>(c.second, 1));
    std::size_t agree = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::uint32_t h = linux_multipath_hash(keys[i], cfg);
      agree += linux_select_nexthop(h, b1) == m1[i] && linux_select_nexthop(h, b2) == m2[i] ? 1 : 0;
    }
    EXPECT_EQ(agree, keys.size());
    const double bits = mutual_information_bits(m1, m2);
    std::printf("[ linux ] %zu then %zu next hops: I = %.3f bits (hand-worked %.3f)\n", c.first, c.second, bits, c.bits);
    EXPECT_NEAR(bits, c.bits, 0.05);
  }
}

}  // namespace
}  // namespace ct
