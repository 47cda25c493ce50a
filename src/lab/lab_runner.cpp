#include "lab/lab_runner.h"

#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "core/text.h"
#include "core/text_lines.h"
#include "lab/shell.h"
#include "routing/port_address.h"

namespace ct {
namespace {

// Runs `ip [-n ns] -batch FILE` over `lines`.
CommandResult ip_batch(const std::string& ns, const std::vector<std::string>& lines) {
  char path[] = "/tmp/ctlab-batch-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return {};
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  CommandResult r;
  if (written) r = run_command("ip " + (ns.empty() ? std::string() : "-n " + ns + " ") + "-batch " + path);
  std::remove(path);
  return r;
}

Diagnostic failure(const std::string& what, const CommandResult& r) {
  return Diagnostic{SourceLocation{"lab", 0, 0}, "lab", what + " failed (status " + std::to_string(r.status) + "): " + r.out};
}

// One interface of /proc/net/dev (the kernel's stats64 per device, what `ip -s link` and
// node_exporter's netdev collector show): "NAME: rx_bytes rx_packets ... (8 receive fields)
// tx_bytes ...".
struct NetDevRow {
  unsigned index = 0;  // ifindex, the order `ip link` lists them in
  std::string device;
  std::uint64_t receive_bytes = 0;
  std::uint64_t transmit_bytes = 0;
};

// The calling thread's namespace's /proc/net/dev.
bool read_proc_net_dev(std::string& text) {
  const int fd = open("/proc/thread-self/net/dev", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  close(fd);
  return n == 0;
}

// The rows of `text` but loopback, by ifindex in the calling thread's namespace; false when a row
// does not read.
bool net_dev_rows(std::string_view text, std::vector<NetDevRow>& rows) {
  LineCursor lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const std::size_t colon = line.find(':');
    if (lines.number() <= 2) continue;  // the two header lines
    if (colon == std::string_view::npos) return false;
    const std::vector<std::string_view> fields = words(line.substr(colon + 1));
    NetDevRow r;
    r.device = std::string(trim(line.substr(0, colon)));
    const auto count = [](std::string_view field, std::uint64_t& out) {
      long long v = 0;
      if (!take_number(field, v) || !field.empty() || v < 0) return false;
      out = static_cast<std::uint64_t>(v);
      return true;
    };
    if (fields.size() < 9 || !count(fields[0], r.receive_bytes) || !count(fields[8], r.transmit_bytes)) return false;
    if (r.device == "lo") continue;
    r.index = if_nametoindex(r.device.c_str());
    rows.push_back(std::move(r));
  }
  std::sort(rows.begin(), rows.end(), [](const NetDevRow& a, const NetDevRow& b) { return a.index < b.index; });
  return true;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string lab_unavailable() {
  if (geteuid() != 0) return "needs root to create network namespaces";
  if (run_command("ip -V").status != 0) return "iproute2 (ip) not found";
  const std::string probe = fmt::format("ctlab-probe-{}", getpid());
  if (run_command("ip netns add " + probe).status != 0) return "cannot create a network namespace here";
  const bool seed = run_command("ip netns exec " + probe + " sysctl -qw net.ipv4.fib_multipath_hash_seed=1").status == 0;
  run_command("ip netns del " + probe);
  if (!seed) return "kernel has no net.ipv4.fib_multipath_hash_seed (before 6.11)";
  return "";
}

Result<Unit> lab_up(const LabPlan& plan, std::uint32_t user) {
  if (auto owned = lab_check_owner(plan.prefix, user); !owned) return owned.errors();
  if (auto removed = lab_down(plan.prefix, user); !removed) return removed.errors();
  if (auto marked = lab_mark(plan.prefix, user); !marked) return marked.errors();
  auto fail = [&](const std::string& what, const CommandResult& r) -> Result<Unit> {
    (void)lab_down(plan.prefix, user);
    return failure(what, r);
  };
  std::vector<std::string> root;
  for (const LabNamespace& ns : plan.namespaces) root.push_back("netns add " + ns.name);
  if (auto r = ip_batch("", root); r.status != 0) return fail("creating the namespaces", r);
  for (const LabNamespace& ns : plan.namespaces) {
    std::string cmd = "ip netns exec " + ns.name + " sysctl -qw";
    for (const auto& s : ns.sysctls) cmd += " " + s;
    if (auto r = run_command(cmd); r.status != 0) return fail("sysctl in " + ns.name, r);
  }
  std::vector<std::string> veths;
  for (const LabLink& l : plan.links) {
    veths.push_back(fmt::format("link add {} netns {} type veth peer name {} netns {}", l.device, plan.namespaces[l.lower].name,
                                l.device, plan.namespaces[l.upper].name));
  }
  if (auto r = ip_batch("", veths); r.status != 0) return fail("creating the veth pairs", r);
  for (const LabNamespace& ns : plan.namespaces) {
    if (auto r = ip_batch(ns.name, ns.commands); r.status != 0) return fail("configuring " + ns.name, r);
  }
  return Unit{};
}

Result<std::vector<std::string>> lab_down(const std::string& prefix, std::uint32_t user) {
  std::vector<std::string> removed;
  if (prefix.empty()) return removed;
  if (auto owned = lab_check_owner(prefix, user); !owned) return owned.errors();
  const CommandResult list = run_command("ip netns list");
  std::vector<std::string> names;
  LineCursor lines(list.out);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view name = line.substr(0, line.find(' '));
    if (lab_namespace_of(name, prefix)) names.emplace_back(name);
  }
  std::vector<std::string> batch;
  for (const auto& n : names) batch.push_back("netns del " + n);
  if (!batch.empty()) ip_batch("", batch);
  bool all = true;
  for (const auto& n : names) {
    if (run_command("ip netns pids " + n).status != 0) removed.push_back(n);
    else all = false;
  }
  if (all) lab_unmark(prefix);
  return removed;
}

Result<std::vector<LabFlowResult>> lab_send(const LabPlan& plan, const std::vector<LabFlow>& flows, std::uint32_t packets,
                                           std::uint32_t payload) {
  struct Child {
    pid_t pid;
    int fd;
  };
  std::vector<Child> children;
  for (const LabFlow& f : flows) {
    const std::int32_t ns = plan.namespace_of_vertex[f.src.value()];
    if (ns < 0) return Diagnostic{SourceLocation{"lab", 0, 0}, "flow", "source is not in the lab"};
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0) return Diagnostic{SourceLocation{"lab", 0, 0}, "flow", "pipe failed"};
    const std::string path = "/var/run/netns/" + plan.namespaces[static_cast<std::size_t>(ns)].name;
    const pid_t pid = fork();
    if (pid == 0) {
      close(pipe_fd[0]);
      std::uint64_t result[2] = {0, 0};
      const int nsfd = open(path.c_str(), O_RDONLY);
      const int sock = nsfd >= 0 && setns(nsfd, CLONE_NEWNET) == 0 ? socket(AF_INET, SOCK_DGRAM, 0) : -1;
      sockaddr_in src{}, dst{};
      src.sin_family = dst.sin_family = AF_INET;
      src.sin_addr.s_addr = htonl(f.key.src_ip);
      src.sin_port = htons(f.key.src_port);
      dst.sin_addr.s_addr = htonl(f.key.dst_ip);
      dst.sin_port = htons(f.key.dst_port);
      // Not connect()ed: a connected socket gets a random sk_txhash, which rides the skb across the
      // veth pairs as an L4 hash, and the kernel's policy-1 multipath hash short-circuits to it
      // (net/ipv4/route.c fib_multipath_hash: "short-circuit if we already have L4 hash present").
      if (sock >= 0 && bind(sock, reinterpret_cast<sockaddr*>(&src), sizeof src) == 0) {
        std::vector<char> buffer(payload, 'x');
        const auto start = std::chrono::steady_clock::now();
        for (std::uint32_t i = 0; i < packets; ++i) {
          if (sendto(sock, buffer.data(), buffer.size(), 0, reinterpret_cast<const sockaddr*>(&dst), sizeof dst) ==
              static_cast<ssize_t>(buffer.size())) {
            result[0] += payload + 28;  // + UDP and IPv4 headers
          }
        }
        result[1] = static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
      }
      const ssize_t w = write(pipe_fd[1], result, sizeof result);
      _exit(w == sizeof result ? 0 : 1);
    }
    close(pipe_fd[1]);
    if (pid < 0) {
      close(pipe_fd[0]);
      return Diagnostic{SourceLocation{"lab", 0, 0}, "flow", "fork failed"};
    }
    children.push_back(Child{pid, pipe_fd[0]});
  }
  std::vector<LabFlowResult> results;
  bool ok = true;
  for (std::size_t i = 0; i < children.size(); ++i) {
    std::uint64_t result[2] = {0, 0};
    const bool got = read(children[i].fd, result, sizeof result) == sizeof result;
    close(children[i].fd);
    int status = 0;
    waitpid(children[i].pid, &status, 0);
    ok = ok && got && result[0] > 0;
    LabFlowResult r{flows[i], result[0], static_cast<double>(result[1]) * 1e-9, 0};
    r.bits_per_second = r.seconds > 0 ? static_cast<double>(r.bytes) * 8 / r.seconds : 0;
    results.push_back(r);
  }
  if (!ok) return Diagnostic{SourceLocation{"lab", 0, 0}, "flow", "a sender could not enter its namespace, bind or send"};
  return results;
}

Result<std::vector<LabCounter>> lab_read_counters(const LabPlan& plan) {
  std::vector<LabCounter> out;
  std::string error;
  // setns() moves the calling thread only: a thread of its own visits the namespaces, then ends.
  std::thread reader([&] {
    for (std::size_t i = 0; i < plan.namespaces.size(); ++i) {
      const std::string& name = plan.namespaces[i].name;
      const int fd = open(("/var/run/netns/" + name).c_str(), O_RDONLY | O_CLOEXEC);
      const bool entered = fd >= 0 && setns(fd, CLONE_NEWNET) == 0;
      if (fd >= 0) close(fd);
      std::string text;
      if (entered && !read_proc_net_dev(text)) text.clear();
      const std::int64_t t = now_ms();
      std::vector<NetDevRow> rows;
      if (!entered || !net_dev_rows(text, rows)) {
        error = "reading the counters of " + name + " failed" + (entered ? ": /proc/net/dev unreadable" : ": cannot enter it");
        return;
      }
      for (NetDevRow& r : rows) out.push_back(LabCounter{i, std::move(r.device), r.transmit_bytes, r.receive_bytes, t});
    }
  });
  reader.join();
  if (!error.empty()) return Diagnostic{SourceLocation{"lab", 0, 0}, "lab", error};
  return out;
}

std::string lab_counters_text(const LabPlan& plan, const std::vector<LabCounter>& counters, const Topology& topology) {
  std::string tx = "# HELP node_network_transmit_bytes_total Network device statistic transmit_bytes.\n"
                   "# TYPE node_network_transmit_bytes_total counter\n";
  std::string rx = "# HELP node_network_receive_bytes_total Network device statistic receive_bytes.\n"
                   "# TYPE node_network_receive_bytes_total counter\n";
  for (const LabCounter& c : counters) {
    const std::string instance = topology.vertex_name(plan.namespaces.at(c.ns).vertex);
    tx += fmt::format("node_network_transmit_bytes_total{{device=\"{}\",instance=\"{}\"}} {} {}\n", c.device, instance,
                      c.transmit_bytes, c.time_ms);
    rx += fmt::format("node_network_receive_bytes_total{{device=\"{}\",instance=\"{}\"}} {} {}\n", c.device, instance,
                      c.receive_bytes, c.time_ms);
  }
  return tx + rx;
}

Result<std::string> lab_counters(const LabPlan& plan, const Topology& topology) {
  auto counters = lab_read_counters(plan);
  if (!counters) return counters.errors();
  return lab_counters_text(plan, counters.value(), topology);
}

Result<Unit> lab_fail_link(const LabPlan& plan, LinkId link) {
  for (const LabLink& l : plan.links) {
    if (l.link != link) continue;
    for (const std::size_t ns : {l.lower, l.upper}) {
      const CommandResult r = run_command("ip -n " + plan.namespaces[ns].name + " link set " + l.device + " down");
      if (r.status != 0) return failure("setting " + l.device + " down", r);
    }
    return Unit{};
  }
  return Diagnostic{SourceLocation{"lab", 0, 0}, "link", "link " + std::to_string(link.value()) + " is not in the lab"};
}

Result<Unit> lab_limit_link(const LabPlan& plan, LinkId link, VertexId from, std::uint64_t rate_bps, std::uint64_t burst_bytes) {
  for (const LabLink& l : plan.links) {
    if (l.link != link) continue;
    for (const std::size_t ns : {l.lower, l.upper}) {
      if (plan.namespaces[ns].vertex != from) continue;
      // tbf's `latency` would size the queue at burst + rate x latency, a second burst that drains
      // at the rate long after the sender stops; `limit` is the queue itself.
      const std::uint64_t queue = std::max<std::uint64_t>(rate_bps / 8 / 1000, kLabFrameBytes);
      const CommandResult r = run_command(fmt::format("ip netns exec {} tc qdisc replace dev {} root tbf rate {}bit burst {} limit {}",
                                                      plan.namespaces[ns].name, l.device, rate_bps, burst_bytes, queue));
      if (r.status != 0) return failure("limiting " + l.device, r);
      return Unit{};
    }
  }
  return Diagnostic{SourceLocation{"lab", 0, 0}, "link", "link " + std::to_string(link.value()) + " has no end in the lab at that vertex"};
}

std::string lab_flows_csv(const std::vector<LabFlowResult>& results) {
  std::string out = "src_ip,dst_ip,protocol,src_port,dst_port,bits_per_second\n";
  for (const LabFlowResult& r : results) {
    out += fmt::format("{},{},udp,{},{},{:.0f}\n", format_ipv4(r.flow.key.src_ip), format_ipv4(r.flow.key.dst_ip),
                       r.flow.key.src_port, r.flow.key.dst_port, r.bits_per_second);
  }
  return out;
}

}  // namespace ct
