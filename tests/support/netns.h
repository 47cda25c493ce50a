// Test support for checks against the kernel and real daemons in network namespaces: shell commands with their
// output, namespaces and temporary folders owned by RAII guards (removed whatever happens), a
// thread working inside a namespace for a scope, and background processes started from an
// argument vector and killed by their own process id. Only names created here are touched.
#pragma once

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "lab/shell.h"

namespace ct::test {

// stdout and stderr together (lab/shell.h runs the command).
inline CommandResult run(const std::string& command) { return run_command(command, true); }

inline bool ok(const std::string& command) { return run(command + " >/dev/null").status == 0; }

inline bool have_binary(const std::string& name) { return ok("command -v " + name); }

// A name no other run or test shares: PREFIX-TAG-PID-N (each test binary has its own prefix).
inline std::string unique_name(const std::string& tag, const std::string& prefix = "ctfe") {
  static int counter = 0;
  return prefix + "-" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
}

class Netns {
 public:
  explicit Netns(std::string name) : name_(std::move(name)) {
    created_ = ok("ip netns add " + name_) && ok("ip -n " + name_ + " link set lo up");
  }
  ~Netns() {
    if (created_) run("ip netns del " + name_);
  }
  Netns(const Netns&) = delete;
  Netns& operator=(const Netns&) = delete;
  [[nodiscard]] bool created() const { return created_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  bool ip(const std::string& args) const { return ok("ip -n " + name_ + " " + args); }
  bool sysctl(const std::string& assignments) const { return ok(exec("sysctl -qw " + assignments)); }
  [[nodiscard]] std::string exec(const std::string& command) const { return "ip netns exec " + name_ + " " + command; }
  // `argv` run inside the namespace, as an argument vector for Background.
  [[nodiscard]] std::vector<std::string> exec_args(std::vector<std::string> argv) const {
    argv.insert(argv.begin(), {"ip", "netns", "exec", name_});
    return argv;
  }

 private:
  std::string name_;
  bool created_ = false;
};

class TempDir {
 public:
  TempDir() {
    char path[] = "/tmp/ct-frontend-XXXXXX";
    if (mkdtemp(path) != nullptr) path_ = path;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }
  void write(const std::string& name, const std::string& content) const { std::ofstream(path_ + "/" + name) << content; }

 private:
  std::string path_;
};

// While this lives, the calling thread works inside `ns`: the sockets it opens and the processes it
// starts (and theirs) are there, so a port it picks is free whatever the rest of the machine does.
// Back in the thread's own namespace on destruction. entered() says whether it got in.
class InsideNetns {
 public:
  explicit InsideNetns(const Netns& ns) : home_(open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)) {
    const int target = open(("/var/run/netns/" + ns.name()).c_str(), O_RDONLY | O_CLOEXEC);
    entered_ = home_ >= 0 && target >= 0 && setns(target, CLONE_NEWNET) == 0;
    if (target >= 0) close(target);
  }
  ~InsideNetns() {
    if (entered_) setns(home_, CLONE_NEWNET);
    if (home_ >= 0) close(home_);
  }
  InsideNetns(const InsideNetns&) = delete;
  InsideNetns& operator=(const InsideNetns&) = delete;
  [[nodiscard]] bool entered() const { return entered_; }

 private:
  int home_ = -1;
  bool entered_ = false;
};

// A process started with fork/exec of `argv` (argv[0] looked up on PATH; no shell), in its own
// process group; with `log` given, its stdout and stderr both go to that file (created or
// truncated) and its stdin comes from /dev/null, else it inherits the test's. Killed (SIGKILL) and
// reaped on destruction.
class Background {
 public:
  explicit Background(const std::vector<std::string>& argv, const std::string& log = "") {
    if (argv.empty()) return;
    std::vector<char*> args;  // built before fork: the child only opens, dups and execs
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      setpgid(0, 0);
      if (!log.empty()) {
        const int in = open("/dev/null", O_RDONLY);
        const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0) {
          _exit(126);
        }
        if (in > STDERR_FILENO) close(in);
        if (out > STDERR_FILENO) close(out);
      }
      execvp(args[0], args.data());
      _exit(127);
    }
  }
  ~Background() { stop(); }
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] bool running() const { return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; }
  void signal(int sig) const {
    if (pid_ > 0) kill(pid_, sig);
  }
  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

 private:
  pid_t pid_ = -1;
};

// Polls `done` every 100 ms until it holds, or until `limit` has passed and `done` has been asked
// `min_polls` times (where one poll is slow, a loaded machine must not end the wait after one or
// two); returns the time it took, or -1.
inline double wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit, int min_polls = 1) {
  const auto start = std::chrono::steady_clock::now();
  for (int polls = 0; polls < min_polls || std::chrono::steady_clock::now() - start < limit; ++polls) {
    if (done()) return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return -1;
}

// Why root-level checks cannot run here, or "" when they can.
inline std::string why_no_netns() {
  if (geteuid() != 0) return "needs root to create network namespaces";
  if (!have_binary("ip")) return "iproute2 (ip) not found";
  Netns probe(unique_name("probe"));
  if (!probe.created()) return "cannot create a network namespace here";
  return "";
}

}  // namespace ct::test
