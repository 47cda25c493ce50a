// traffic --ss on what the real `ss` (iproute2 6.1, Debian 12) prints (issue 22, item 17): a TCP
// connection on the loopback of a fresh network namespace, 300,000 bytes from the client to the
// server, then `ss -tin`, `ss -tinH`, `ss -tinp`, `ss -tinpH`, `ss -tin state established` and
// `ss -tinH state established` run in that namespace. Each must read without error and show both
// ends of the connection: the client's socket with bytes_sent (bytes_acked) >= 300,000 and the
// server's with bytes_received >= 300,000, each end's local port the other's peer port.
// Needs root, ss and network namespaces; otherwise skipped.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "diagnose/connection_table.h"
#include "support/netns.h"

namespace ct {
namespace {

constexpr std::size_t kBytes = 300'000;

// The sockets of one connection, opened in the namespace `ns` by a thread of this process.
struct LoopbackConnection {
  int server = -1, client = -1, accepted = -1;
  std::uint16_t server_port = 0, client_port = 0;
  std::string error;
  ~LoopbackConnection() {
    for (const int fd : {server, client, accepted}) {
      if (fd >= 0) close(fd);
    }
  }
};

void open_connection(const std::string& ns, LoopbackConnection& c) {
  const int nsfd = open(("/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
  if (nsfd < 0 || setns(nsfd, CLONE_NEWNET) != 0) {
    c.error = "cannot enter the namespace";
    if (nsfd >= 0) close(nsfd);
    return;
  }
  close(nsfd);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  c.server = socket(AF_INET, SOCK_STREAM, 0);
  if (bind(c.server, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(c.server, 1) != 0 ||
      getsockname(c.server, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    c.error = "cannot listen";
    return;
  }
  c.server_port = ntohs(a.sin_port);
  c.client = socket(AF_INET, SOCK_STREAM, 0);
  if (connect(c.client, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    c.error = "cannot connect";
    return;
  }
  c.accepted = accept(c.server, nullptr, nullptr);
  sockaddr_in local{};
  len = sizeof local;
  getsockname(c.client, reinterpret_cast<sockaddr*>(&local), &len);
  c.client_port = ntohs(local.sin_port);
  std::string data(kBytes, 'x');
  std::size_t sent = 0, received = 0;
  char buffer[65536];
  while (received < kBytes) {
    if (sent < kBytes) {
      const ssize_t n = send(c.client, data.data() + sent, kBytes - sent, MSG_DONTWAIT);
      if (n > 0) sent += static_cast<std::size_t>(n);
    }
    const ssize_t r = recv(c.accepted, buffer, sizeof buffer, MSG_DONTWAIT);
    if (r > 0) received += static_cast<std::size_t>(r);
  }
}

TEST(SsTables, TheRealSsOutputReadsWithAndWithoutHeaderProcessAndStateFilter) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root (network namespaces)";
  if (!test::have_binary("ss") || !test::have_binary("ip")) GTEST_SKIP() << "needs ss and ip (iproute2)";
  test::Netns ns(test::unique_name("ss", "ctss"));
  if (!ns.created()) GTEST_SKIP() << "cannot create a network namespace";
  LoopbackConnection c;
  std::thread opener([&] { open_connection(ns.name(), c); });
  opener.join();
  ASSERT_TRUE(c.error.empty()) << c.error;
  // The last ACKs: the client's send queue holds what the server has not acknowledged yet.
  const auto all_acked = [&] {
    int unacknowledged = -1;
    return ioctl(c.client, SIOCOUTQ, &unacknowledged) == 0 && unacknowledged == 0;
  };
  ASSERT_GE(test::wait_until(all_acked, std::chrono::seconds(30)), 0) << "the server did not acknowledge every byte in 30 s";
  const std::string client = "127.0.0.1:" + std::to_string(c.client_port);
  const std::string server = "127.0.0.1:" + std::to_string(c.server_port);
  for (const std::string flags : {"-tin", "-tinH", "-tinp", "-tinpH", "-tin state established", "-tinH state established"}) {
    SCOPED_TRACE("ss " + flags);
    const CommandResult out = test::run("ip netns exec " + ns.name() + " ss " + flags);
    ASSERT_EQ(out.status, 0) << out.out;
    const auto table = read_ss(out.out, "ss " + flags);
    ASSERT_TRUE(table.ok()) << format_diagnostics(table.errors()) << "\n" << out.out;
    bool client_seen = false, server_seen = false;
    for (const Connection& x : table.value()) {
      if (x.local == client && x.peer == server) {
        client_seen = true;
        EXPECT_TRUE(x.bytes_known);
        EXPECT_GE(x.bytes, kBytes) << out.out;
      }
      if (x.local == server && x.peer == client) {
        server_seen = true;
        EXPECT_GE(x.bytes, kBytes) << out.out;
      }
    }
    EXPECT_TRUE(client_seen && server_seen) << out.out;
  }
}

}  // namespace
}  // namespace ct
