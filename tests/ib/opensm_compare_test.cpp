// Side by side with the real OpenSM (Debian packages opensm, ibsim-utils, infiniband-diags, which
// scripts/setup.sh installs): for each fabric and engine, our exporter writes an ibsim net file,
// ibsim simulates the fabric, OpenSM routes it once (-o) through the umad2sim preload, dump_fts
// reads the LFTs back from the simulated switches, and we compare OpenSM's tables with ours on the
// same fabric, matching switches and destinations by GUID (OpenSM numbers LIDs its own way):
//   * both deliver every (CA port, CA LID) pair;
//   * ours has no credit loop wherever OpenSM's has none;
//   * our uplink balance is as good or better: per rank, the spread max - min of destinations per
//     uplink port no larger than OpenSM's (the worst per-switch spread is printed beside it);
//   * where OpenSM's ftree refuses the fabric (no root file and not a pure fat tree: it falls back
//     to minhop), ours refuses too, and our minhop is compared with its fallback; with the roots
//     given both route the degraded tree.
// Fabrics: the lab-32 example through the spec/topology builder (2 levels, 8 parallel cables per
// leaf-spine pair), a generated 3-level fat tree, and degraded copies (cables and hosts removed).
//
// Interoperability, on the same simulated fabric (InteropWithTheRealTools):
//   * the real ibnetdiscover's output (LIDs, widths, discovery order) parses back to our fabric:
//     the same nodes and the same cables, port for port, by GUID;
//   * our LFT dump (`ib route --lft`) loads into OpenSM's file engine (-R file -U) and dump_fts
//     reads back exactly our tables, and the real ibtracert prints, on those tables, the same text
//     as `ib trace` for a few CA pairs. The net file carries our LIDs (`ib export --lids`): ibsim
//     presets them in the ports' PortInfo and OpenSM keeps valid LIDs it finds, so both sides
//     number the fabric alike (a guid2lid cache file was not honoured on OpenSM's first sweep).
//
// Process hygiene: every process runs in a fresh mkdtemp folder (umad2sim creates its fake sysfs
// as ./sys-<pid> in the working directory, and removes it only on a clean exit), ibsim gets a
// socket name of its own (IBSIM_SOCKNAME, abstract unix sockets "<name>:ctl" etc.), each process
// is waited for with a deadline and killed by PID only, and the folder is removed at the end.
// Children get PR_SET_PDEATHSIG, so they die with this test even when it is killed; a folder left
// behind by a killed run (/tmp/ct-opensm-<pid>-*, that pid gone) is removed by the next run.
// Skipped, saying why, when the tools are not installed or the simulator cannot start here.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <iostream>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ib/fabric_edits.h"
#include "ib/fat_tree_fabric.h"
#include "ib/ib_checks.h"
#include "ib/ib_ranking.h"
#include "ib/lid_assignment.h"
#include "ib/ibnetdiscover.h"
#include "ib/lft_dump.h"
#include "ib/subnet_manager.h"
#include "ib/switch_graph.h"
#include "ib/topology_to_ib.h"
#include "io/loaders.h"
#include "fabric/fabric.h"
#include "support/test_paths.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

constexpr const char* kOpenSm = "/usr/sbin/opensm";
constexpr const char* kIbsim = "/usr/bin/ibsim";
constexpr const char* kDumpFts = "/usr/sbin/dump_fts";
constexpr const char* kIbnetdiscover = "/usr/sbin/ibnetdiscover";
constexpr const char* kIbtracert = "/usr/sbin/ibtracert";
constexpr const char* kUmad2sim = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// fork + exec with extra environment, in `cwd`, stdout and stderr to `log`. Returns the PID.
pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env, const fs::path& cwd,
            const fs::path& log) {
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) return pid;
  // Dies with the test (SIGKILL when the parent goes, even if the parent was killed).
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(125);
  if (chdir(cwd.c_str()) != 0) _exit(126);
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
  }
  const int null_in = open("/dev/null", O_RDONLY);
  if (null_in >= 0) dup2(null_in, 0);
  for (const auto& kv : env) putenv(const_cast<char*>(kv.c_str()));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}

// Waits for `pid` up to `seconds`; kills it (by PID) when late. Returns the exit status or -1.
int wait_for(pid_t pid, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

// SIGTERM, then (wait_for) SIGKILL after 3 s; by PID only.
void stop(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGTERM);
  wait_for(pid, 3.0);
}

bool contains(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }

// One OpenSM run's outcome.
struct OpenSmRun {
  std::string engine_used;  // from "<engine> tables configured on all switches"
  std::string log;
  std::optional<IbRouting> routing;
  std::string lfts_dump;  // OpenSM's own opensm-lfts.dump (written with routing logging on, -D 0x43)
  std::string skip;  // why the environment cannot run it ("" = it ran)
};

// Running (a zombie, killed but not yet reaped, counts as gone).
bool process_alive(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return false;
  const std::string stat = read_file(fmt::format("/proc/{}/stat", pid));
  const auto close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] != 'Z';
}

// Removes /tmp/ct-opensm-<pid>-* folders whose test process is gone (killed before its clean-up).
void remove_stale_sandboxes() {
  const std::string prefix = "ct-opensm-";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/tmp", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !entry.is_directory(ec)) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || pid == getpid()) continue;
    if (!process_alive(static_cast<pid_t>(pid))) fs::remove_all(entry.path(), ec);
  }
}

class Sandbox {
 public:
  Sandbox() {
    remove_stale_sandboxes();
    std::string templ = fmt::format("/tmp/ct-opensm-{}-XXXXXX", getpid());
    if (mkdtemp(templ.data()) != nullptr) dir_ = templ;
  }
  ~Sandbox() {
    stop(ibsim_);
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  [[nodiscard]] const fs::path& dir() const { return dir_; }
  // A fresh folder for one tool run.
  fs::path work_dir(const std::string& name) {
    const fs::path work = dir_ / fmt::format("{}-{}", name, runs_);
    fs::create_directories(work);
    return work;
  }

  // Starts ibsim on `net` under a fresh socket name; "" or why it could not start.
  std::string start_ibsim(const std::string& net_text, std::size_t nodes, std::size_t ports) {
    stop(ibsim_);
    ibsim_ = -1;
    ++runs_;
    socket_ = fmt::format("ct{}r{}", getpid(), runs_);
    const fs::path net = dir_ / fmt::format("fabric{}.net", runs_);
    std::ofstream(net) << net_text;
    const fs::path log = dir_ / fmt::format("ibsim{}.log", runs_);
    ibsim_ = spawn({kIbsim, "-s", "-n", "-N", std::to_string(nodes + 16), "-S", std::to_string(nodes + 16), "-P",
                    std::to_string(ports + 64), net.string()},
                   {"IBSIM_SOCKNAME=" + socket_}, dir_, log);
    for (int i = 0; i < 3000; ++i) {  // until ready; 60 s is only how long a broken start takes to fail
      const std::string text = read_file(log);
      if (contains(text, "Network simulator ready")) return "";
      int status = 0;
      if (waitpid(ibsim_, &status, WNOHANG) == ibsim_) {
        ibsim_ = -1;
        if (contains(text, "parsing") && (contains(text, "fatal") || contains(text, "failed"))) {
          ADD_FAILURE() << "ibsim rejected our net file:\n" << text;
          return "ibsim rejected the net file";
        }
        return "ibsim exited at start-up: " + text.substr(0, 400);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return "ibsim did not become ready within 60 s";
  }

  std::vector<std::string> sim_env(const fs::path& work) const {
    return {"IBSIM_SOCKNAME=" + socket_, std::string("LD_PRELOAD=") + kUmad2sim, "OSM_TMP_DIR=" + work.string(),
            "OSM_CACHE_DIR=" + work.string()};
  }

  // OpenSM once with `engine` (and `extra` arguments), then dump_fts.
  OpenSmRun run_opensm(const IbFabric& fabric, const std::string& engine, const std::vector<IbNodeId>& roots,
                       const std::vector<std::string>& extra = {}) {
    OpenSmRun run;
    const fs::path work = dir_ / fmt::format("{}-{}", engine, runs_);
    fs::create_directories(work);
    std::vector<std::string> argv = {kOpenSm, "-o", "-R", engine, "-f", (work / "osm.log").string(), "--dump_files_dir",
                                     work.string(), "-D", "0x43"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    if (!roots.empty()) {
      std::ofstream roots_file(work / "roots");
      for (const IbNodeId r : roots) roots_file << format_guid(fabric.guid[r.value()]) << "\n";
      argv.push_back("-a");
      argv.push_back((work / "roots").string());
    }
    const int rc = wait_for(spawn(argv, sim_env(work), work, work / "opensm.out"), 60);
    run.log = read_file(work / "osm.log");
    if (rc != 0) {
      run.skip = fmt::format("opensm exited with {}: {}", rc, read_file(work / "opensm.out").substr(0, 400));
      return run;
    }
    for (const char* e : {"ftree", "updn", "minhop", "file"}) {
      if (contains(run.log, fmt::format("{} tables configured", e))) run.engine_used = e;
    }
    run.lfts_dump = read_file(work / "opensm-lfts.dump");
    // dump_fts reads the tables back from the simulated switches.
    std::string fts;
    if (const std::string why = run_tool({kDumpFts}, work, fts); !why.empty()) {
      run.skip = why;
      return run;
    }
    auto dump = parse_lft_dump(fts, "dump_fts");
    EXPECT_TRUE(dump.ok()) << (dump.ok() ? "" : format_diagnostics(dump.errors()));
    if (!dump.ok()) return run;
    auto routing = routing_from_lft_dump(fabric, dump.value(), "dump_fts");
    EXPECT_TRUE(routing.ok()) << (routing.ok() ? "" : format_diagnostics(routing.errors()));
    if (routing.ok()) run.routing = std::move(routing).value();
    return run;
  }

  // A diagnostic tool (dump_fts, ibnetdiscover, ibtracert) on the simulated fabric; "" or why it failed.
  std::string run_tool(const std::vector<std::string>& argv, const fs::path& work, std::string& output) const {
    const fs::path out = work / (fs::path(argv[0]).filename().string() + ".txt");
    const int rc = wait_for(spawn(argv, sim_env(work), work, out), 60);
    output = read_file(out);
    return rc == 0 ? "" : fmt::format("{} exited with {}: {}", argv[0], rc, output.substr(0, 400));
  }

 private:
  fs::path dir_;
  pid_t ibsim_ = -1;
  int runs_ = 0;
  std::string socket_;
};

std::string missing_tools() {
  std::string missing;
  for (const char* tool : {kOpenSm, kIbsim, kDumpFts, kIbnetdiscover, kIbtracert, kUmad2sim}) {
    if (!fs::exists(tool)) missing += std::string(" ") + tool;
  }
  return missing;
}

// The lab-32 example (32 HGX nodes x 8 NICs, rail-optimized, 8 leaves, 4 spines), through the
// real spec and topology builder.
std::optional<IbFabric> lab32() {
  auto catalog = load_catalog(ct::testing_support::source_dir() + "/catalog");
  if (!catalog) return std::nullopt;
  auto spec = load_spec(ct::testing_support::source_dir() + "/examples/lab-32.yaml", catalog.value());
  if (!spec) return std::nullopt;
  auto built = build_fabric(spec.value(), catalog.value());
  if (!built) return std::nullopt;
  auto fabric = fabric_from_topology(built->topology(), 0);
  if (!fabric) return std::nullopt;
  return std::move(fabric).value();
}

// A 3-level fat tree: 4 pods of 4 leaves and 4 spines, 4 hosts per leaf, 16 cores in 4 groups.
IbFabric three_level() { return make_fat_tree_fabric({4, 4, 4, 4, 4}); }

struct Case {
  std::string name;
  IbFabric fabric;
  bool ftree_refused = false;  // expected: without roots, OpenSM's ftree and ours both refuse
};

std::size_t port_total(const IbFabric& f) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < f.node_count(); ++i) n += f.ports(IbNodeId(i)) + 1U;
  return n;
}

// A routing's tables keyed by names, not numbers: (switch GUID, destination port GUID, LID offset
// within the port's 2^LMC block) -> output port, so tables on differently numbered fabrics compare.
struct GuidEntry {
  std::uint64_t sw;
  std::uint64_t dest;
  std::uint32_t offset;
  bool dest_is_ca;
  auto operator<=>(const GuidEntry&) const = default;
};
std::map<GuidEntry, int> tables_by_guid(const IbFabric& fabric, const IbRouting& r) {
  std::map<GuidEntry, int> out;
  for (std::uint32_t s = 0; s < r.switches.size(); ++s) {
    for (std::uint32_t lid = 1; lid <= r.lids.max_lid(); ++lid) {
      const IbNodeId owner = r.lids.owner_node[lid];
      if (!owner.valid() || r.port(s, lid) == IbRouting::kNoPath) continue;
      const int port = r.lids.owner_port[lid];
      out[{fabric.guid[r.switches[s].value()], fabric.port_guid(owner, port), lid - r.lids.base_lid(owner, port),
           !fabric.is_switch(owner)}] = r.port(s, lid);
    }
  }
  return out;
}

// Host entries (CA destinations) of `a` that `b` lacks or routes elsewhere.
std::size_t host_entry_differences(const std::map<GuidEntry, int>& a, const std::map<GuidEntry, int>& b) {
  std::size_t n = 0;
  for (const auto& [key, port] : a) {
    if (!key.dest_is_ca) continue;
    const auto it = b.find(key);
    n += it == b.end() || it->second != port ? 1 : 0;
  }
  return n;
}

// `give_roots`: both sides get the detected roots (OpenSM -a); otherwise both detect them, and
// OpenSM's ftree then insists on a pure fat tree.
//
// Also, on the same run: OpenSM's own opensm-lfts.dump (its footer gives the top LID, not the
// entries printed) reads back to exactly the tables dump_fts read from the switches; and the
// real ibnetdiscover's output (discovery order from the SM port, OpenSM's LIDs stated) routes, by
// our engine, to the same tables by GUID as the GUID-ordered file, every LID as OpenSM stated it;
// for minhop and updn, whose order of destinations we take from OpenSM (osm_ucast_mgr.c), every
// host entry equals OpenSM's.
void compare(Sandbox& box, const Case& c, const std::string& engine, bool give_roots) {
  const std::string label = fmt::format("{}{}", c.name, give_roots ? "" : " (no roots)");
  SCOPED_TRACE(label + " / " + engine);
  // Reparse our own export: the fabric OpenSM sees, without the tiers the builder knew.
  const std::string net = write_ibnetdiscover(c.fabric, nullptr);
  auto parsed = parse_ibnetdiscover(net, c.name);
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.errors());
  const IbFabric& fabric = parsed.value();
  const SwitchGraph graph(fabric);
  std::vector<IbNodeId> roots;
  for (const auto s : detect_roots(fabric, graph)) roots.push_back(graph.node(s));

  if (const std::string why = box.start_ibsim(net, fabric.node_count(), port_total(fabric)); !why.empty()) {
    GTEST_SKIP() << "cannot run ibsim here: " << why;
  }
  const std::vector<IbNodeId> given = give_roots ? roots : std::vector<IbNodeId>{};
  const OpenSmRun theirs = box.run_opensm(fabric, engine, given);
  if (!theirs.skip.empty()) GTEST_SKIP() << "cannot run OpenSM under ibsim here: " << theirs.skip;
  ASSERT_TRUE(theirs.routing.has_value());

  IbRoutingOptions options;
  options.engine = engine == "ftree" ? IbEngine::kFatTree : engine == "updn" ? IbEngine::kUpDown : IbEngine::kMinHop;
  options.roots = given;
  auto ours = route_fabric(fabric, options);
  if (c.ftree_refused && engine == "ftree" && !give_roots) {
    EXPECT_FALSE(ours.ok()) << "our ftree routed a fabric OpenSM's ftree refuses";
    EXPECT_EQ(theirs.engine_used, "minhop") << "OpenSM's ftree was expected to refuse and fall back to minhop";
    if (!ours.ok()) std::cout << "[ ours  ] " << ours.errors()[0].message << "\n";
    options.engine = IbEngine::kMinHop;  // compare with OpenSM's fallback
    ours = route_fabric(fabric, options);
  } else {
    EXPECT_EQ(theirs.engine_used, engine) << "OpenSM did not use " << engine;
  }
  ASSERT_TRUE(ours.ok()) << format_diagnostics(ours.errors());

  // OpenSM's own dump of what it programmed.
  auto own = parse_lft_dump(theirs.lfts_dump, "opensm-lfts.dump");
  ASSERT_TRUE(own.ok()) << format_diagnostics(own.errors());
  auto own_routing = routing_from_lft_dump(fabric, own.value(), "opensm-lfts.dump");
  ASSERT_TRUE(own_routing.ok()) << format_diagnostics(own_routing.errors());
  const auto their_tables = tables_by_guid(fabric, *theirs.routing);
  EXPECT_EQ(tables_by_guid(fabric, own_routing.value()), their_tables) << "opensm-lfts.dump differs from dump_fts";

  // The same fabric in ibnetdiscover's discovery order, with OpenSM's LIDs.
  std::string topology;
  if (const std::string why = box.run_tool({kIbnetdiscover}, box.work_dir("discover"), topology); !why.empty()) {
    GTEST_SKIP() << "cannot run ibnetdiscover under ibsim here: " << why;
  }
  auto discovered = parse_ibnetdiscover(topology, "ibnetdiscover");
  ASSERT_TRUE(discovered.ok()) << format_diagnostics(discovered.errors());
  IbRoutingOptions shuffled_options = options;
  shuffled_options.roots.clear();
  for (const IbNodeId r : options.roots) shuffled_options.roots.push_back(*discovered->find_by_guid(fabric.guid[r.value()]));
  auto shuffled = route_fabric(discovered.value(), shuffled_options);
  ASSERT_TRUE(shuffled.ok()) << format_diagnostics(shuffled.errors());
  const auto our_tables = tables_by_guid(fabric, ours.value());
  EXPECT_EQ(tables_by_guid(discovered.value(), shuffled.value()), our_tables) << "the input order changed our tables";
  std::size_t lids_kept = 0;
  std::size_t lids = 0;
  for (std::uint32_t lid = 1; lid <= theirs.routing->lids.max_lid(); ++lid) {
    const IbNodeId owner = theirs.routing->lids.owner_node[lid];
    if (!owner.valid()) continue;
    ++lids;
    const auto d = discovered->find_by_guid(fabric.guid[owner.value()]);
    const int port = theirs.routing->lids.owner_port[lid];
    lids_kept += d && shuffled->lids.base_lid(*d, port) == theirs.routing->lids.base_lid(owner, port) ? 1 : 0;
  }
  EXPECT_EQ(lids_kept, lids) << "LIDs stated by ibnetdiscover were not kept";
  const std::size_t host_diff = host_entry_differences(our_tables, their_tables);
  const bool same_engine = options.engine != IbEngine::kFatTree && theirs.engine_used == to_string(options.engine);
  if (same_engine) {
    EXPECT_EQ(host_diff, 0U) << "host entries differ from OpenSM's " << theirs.engine_used;
  }
  std::cout << fmt::format("[ {:<34}]   opensm-lfts.dump read back; discovery order: same tables, {} of {} LIDs kept; "
                           "host entries differing from OpenSM: {}\n",
                           label, lids_kept, lids, host_diff);

  const auto their_reach = check_reachability(fabric, *theirs.routing);
  const auto our_reach = check_reachability(fabric, ours.value());
  EXPECT_TRUE(their_reach.ok()) << (their_reach.examples.empty() ? "" : their_reach.examples[0]);
  EXPECT_TRUE(our_reach.ok()) << (our_reach.examples.empty() ? "" : our_reach.examples[0]);
  EXPECT_EQ(our_reach.pairs, their_reach.pairs);
  const auto their_loops = check_credit_loops(fabric, *theirs.routing);
  const auto our_loops = check_credit_loops(fabric, ours.value());
  if (their_loops.ok()) {
    EXPECT_TRUE(our_loops.ok());
  }

  const IbRanks ranks = rank_from_roots(graph, detect_roots(fabric, graph));
  const auto their_balance = uplink_balance(fabric, *theirs.routing, ranks);
  const auto our_balance = uplink_balance(fabric, ours.value(), ranks);
  ASSERT_EQ(our_balance.size(), their_balance.size());
  const auto our_shift = shift_permutation_load(fabric, ours.value(), 64);
  const auto their_shift = shift_permutation_load(fabric, *theirs.routing, 64);
  std::cout << fmt::format("[ {:<34}] {:<6} OpenSM used {:<6} | reach ours {}/{} theirs {}/{} | loops ours {} theirs {}\n",
                           label, engine, theirs.engine_used, our_reach.pairs - our_reach.unreachable, our_reach.pairs,
                           their_reach.pairs - their_reach.unreachable, their_reach.pairs, our_loops.ok() ? "none" : "FOUND",
                           their_loops.ok() ? "none" : "FOUND");
  for (std::size_t i = 0; i < our_balance.size(); ++i) {
    const auto& o = our_balance[i];
    const auto& t = their_balance[i];
    ASSERT_EQ(o.rank, t.rank);
    std::cout << fmt::format(
        "[ {:<34}]   rank {} uplinks {}: ours min {} max {} spread {} worst-switch {} | OpenSM min {} max {} spread {} "
        "worst-switch {}\n",
        label, o.rank, o.uplinks, o.min, o.max, o.spread(), o.worst_switch_spread, t.min, t.max, t.spread(),
        t.worst_switch_spread);
    EXPECT_LE(o.spread(), t.spread()) << "rank " << o.rank;
  }
  std::cout << fmt::format("[ {:<34}]   shift max link load: ours worst {} mean {:.2f} | OpenSM worst {} mean {:.2f}\n", label,
                           our_shift.worst_max_load, our_shift.mean_max_load, their_shift.worst_max_load,
                           their_shift.mean_max_load);
}

class OpenSmSideBySide : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (const std::string missing = missing_tools(); !missing.empty()) {
      GTEST_SKIP() << "OpenSM comparison skipped: missing" << missing
                   << " (install the Debian packages opensm ibsim-utils infiniband-diags: scripts/setup.sh)";
    }
  }
};

std::vector<Case> cases() {
  std::vector<Case> out;
  if (auto lab = lab32()) {
    out.push_back({"lab-32", *lab, false});
    IbFabric degraded = *lab;
    // Two leaf-spine cables (of 8 parallel ones) and three hosts gone: group sizes differ.
    auto removed = apply_failures(degraded, {"p0/leaf/0,p0/spine/1", "p0/leaf/5:40", "host3/nic0", "host17/nic4", "host30/nic7"});
    EXPECT_TRUE(removed.ok());
    out.push_back({"lab-32 degraded", degraded, true});
  } else {
    ADD_FAILURE() << "examples/lab-32.yaml did not build";
  }
  const IbFabric tree = three_level();
  out.push_back({"3-level", tree, false});
  IbFabric hosts_missing = tree;
  EXPECT_TRUE(apply_failures(hosts_missing, {"pod0/leaf0/host1", "pod2/leaf3/host0", "pod2/leaf3/host3"}).ok());
  out.push_back({"3-level hosts missing", hosts_missing, false});
  IbFabric cable_missing = tree;
  EXPECT_TRUE(apply_failures(cable_missing, {"pod1/leaf2,pod1/spine3", "pod3/spine0,core0/2"}).ok());
  out.push_back({"3-level cables missing", cable_missing, true});
  return out;
}

TEST_P(OpenSmSideBySide, SameReachabilityNoCreditLoopsBalanceAtLeastAsGood) {
  Sandbox box;
  ASSERT_FALSE(box.dir().empty()) << "mkdtemp failed";
  const std::string engine = GetParam();
  for (const Case& c : cases()) {
    if (engine == "ftree") {
      compare(box, c, engine, false);
      if (IsSkipped()) return;
    }
    compare(box, c, engine, engine != "minhop");
    if (IsSkipped()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, OpenSmSideBySide, ::testing::Values("ftree", "updn", "minhop"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

// Every connected node of `ours` is in `theirs` with the same GUID, type, port count and
// description, and every cable joins the same (GUID, port) pairs; no other node is there.
void expect_same_fabric(const IbFabric& ours, const IbFabric& theirs) {
  std::size_t connected = 0;
  for (std::size_t i = 0; i < ours.node_count(); ++i) {
    const IbNodeId n(i);
    bool cabled = false;
    for (int p = 1; p <= ours.ports(n); ++p) cabled = cabled || ours.remote(n, p).connected();
    if (!cabled) continue;
    ++connected;
    const auto t = theirs.find_by_guid(ours.guid[i]);
    ASSERT_TRUE(t.has_value()) << "ibnetdiscover lacks " << ours.label(n);
    EXPECT_EQ(theirs.type[t->value()], ours.type[i]) << ours.label(n);
    EXPECT_EQ(theirs.ports(*t), ours.ports(n)) << ours.label(n);
    EXPECT_EQ(theirs.description[t->value()], ours.description[i]);
    for (int p = 1; p <= ours.ports(n); ++p) {
      const IbPortRef a = ours.remote(n, p);
      const IbPortRef b = theirs.remote(*t, p);
      ASSERT_EQ(a.connected(), b.connected()) << ours.label(n) << " port " << p;
      if (!a.connected()) continue;
      EXPECT_EQ(theirs.guid[b.node.value()], ours.guid[a.node.value()]) << ours.label(n) << " port " << p;
      EXPECT_EQ(b.port, a.port) << ours.label(n) << " port " << p;
      EXPECT_EQ(theirs.port_guid(b.node, b.port), ours.port_guid(a.node, a.port));
    }
  }
  EXPECT_EQ(theirs.node_count(), connected);
}

// The real ibnetdiscover reads our exported fabric back, and OpenSM's file engine programs our
// LFT dump into the simulated switches unchanged.
void check_interop(Sandbox& box, const std::string& name, const IbFabric& original, IbEngine engine, bool give_roots) {
  SCOPED_TRACE(name);
  const std::string net = write_ibnetdiscover(original, nullptr);
  auto parsed = parse_ibnetdiscover(net, name);
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.errors());
  const IbFabric& fabric = parsed.value();
  auto lids = assign_lids(fabric, 0);
  ASSERT_TRUE(lids.ok());
  const std::string net_with_lids = write_ibnetdiscover(fabric, &lids.value());
  if (const std::string why = box.start_ibsim(net_with_lids, fabric.node_count(), port_total(fabric)); !why.empty()) {
    GTEST_SKIP() << "cannot run ibsim here: " << why;
  }
  std::string topology;
  if (const std::string why = box.run_tool({kIbnetdiscover}, box.work_dir("ibnetdiscover"), topology); !why.empty()) {
    GTEST_SKIP() << "cannot run ibnetdiscover under ibsim here: " << why;
  }
  auto discovered = parse_ibnetdiscover(topology, "ibnetdiscover");
  ASSERT_TRUE(discovered.ok()) << format_diagnostics(discovered.errors());
  expect_same_fabric(fabric, discovered.value());

  IbRoutingOptions options;
  options.engine = engine;
  if (give_roots) {
    const SwitchGraph graph(fabric);
    for (const auto s : detect_roots(fabric, graph)) options.roots.push_back(graph.node(s));
  }
  auto ours = route_fabric(fabric, options);
  ASSERT_TRUE(ours.ok()) << format_diagnostics(ours.errors());
  const fs::path lft = box.work_dir("ours") / "lfts.dump";
  std::ofstream(lft) << write_lft_dump(fabric, ours.value());
  const OpenSmRun theirs = box.run_opensm(fabric, "file", {}, {"-U", lft.string()});
  if (!theirs.skip.empty()) GTEST_SKIP() << "cannot run OpenSM under ibsim here: " << theirs.skip;
  EXPECT_EQ(theirs.engine_used, "file") << "OpenSM did not load our LFT dump";
  ASSERT_TRUE(theirs.routing.has_value());
  const IbRouting& back = *theirs.routing;
  ASSERT_EQ(back.lids.max_lid(), ours->lids.max_lid()) << "OpenSM did not keep our LIDs";
  std::size_t differences = 0;
  std::size_t entries = 0;
  for (std::uint32_t lid = 1; lid <= ours->lids.max_lid(); ++lid) {
    EXPECT_EQ(back.lids.owner_node[lid], ours->lids.owner_node[lid]) << "LID " << lid;
    for (std::uint32_t sw = 0; sw < ours->switches.size(); ++sw) {
      entries += ours->port(sw, lid) != IbRouting::kNoPath ? 1 : 0;
      if (back.port(sw, lid) == ours->port(sw, lid)) continue;
      if (++differences <= 5) {
        ADD_FAILURE() << fmt::format("switch '{}' LID {}: OpenSM programmed port {}, our dump says {}",
                                     fabric.label(ours->switches[sw]), lid, back.port(sw, lid), ours->port(sw, lid));
      }
    }
  }
  EXPECT_EQ(differences, 0U);
  // ibtracert between the first CA and a few others, on the tables OpenSM just programmed.
  std::vector<IbNodeId> cas;
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    if (!fabric.is_switch(IbNodeId(i)) && ours->lids.base_lid(IbNodeId(i), 1) != 0) cas.emplace_back(i);
  }
  ASSERT_GE(cas.size(), 2U);
  std::size_t traces = 0;
  for (const std::size_t k : {cas.size() / 3, cas.size() / 2, cas.size() - 1}) {
    const std::uint32_t src = ours->lids.base_lid(cas[0], 1);
    const std::uint32_t dst = ours->lids.base_lid(cas[k], 1);
    std::string text;
    const std::string why =
        box.run_tool({kIbtracert, std::to_string(src), std::to_string(dst)}, box.work_dir("ibtracert"), text);
    ASSERT_TRUE(why.empty()) << why;
    std::string theirs_text;  // without umad2sim's "ibwarn:" lines
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("ibwarn:", 0) != 0) theirs_text += line + "\n";
    }
    const Trace trace = trace_route(fabric, ours.value(), cas[0], 1, dst);
    EXPECT_EQ(format_trace(fabric, ours.value(), trace, dst), theirs_text) << "ibtracert " << src << " " << dst;
    ++traces;
  }
  std::cout << fmt::format("[ {:<34}] ibnetdiscover read back {} nodes; OpenSM file engine programmed our {} LFT entries, "
                           "{} differ; ibtracert and ib trace agree on {} paths\n",
                           name, discovered->node_count(), entries, differences, traces);
}

TEST(OpenSmInterop, IbnetdiscoverReadsOurExportAndOpenSmLoadsOurLfts) {
  if (const std::string missing = missing_tools(); !missing.empty()) {
    GTEST_SKIP() << "OpenSM interoperability skipped: missing" << missing
                 << " (install the Debian packages opensm ibsim-utils infiniband-diags: scripts/setup.sh)";
  }
  Sandbox box;
  ASSERT_FALSE(box.dir().empty()) << "mkdtemp failed";
  if (auto lab = lab32()) {
    check_interop(box, "lab-32 ftree", *lab, IbEngine::kFatTree, false);
    if (IsSkipped()) return;
  } else {
    ADD_FAILURE() << "examples/lab-32.yaml did not build";
  }
  IbFabric degraded = three_level();
  ASSERT_TRUE(apply_failures(degraded, {"pod1/leaf2,pod1/spine3", "pod3/spine0,core0/2"}).ok());
  check_interop(box, "3-level cables missing updn", degraded, IbEngine::kUpDown, true);
}

}  // namespace
}  // namespace ct
