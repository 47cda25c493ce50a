// A mutation fuzzer over every input kind the CLI reads, run as ordinary tests (fixed seed, bounded
// count and time). Each case takes a valid seed file of one kind (a spec, a scenario, a catalog
// file, a flow list in CSV and YAML, a flow table plain and gzip-compressed, an ibnetdiscover /
// ibsim net file (read by ib route and by simulate --ibnetdiscover), an LFT dump, a Prometheus counter scrape, snmpwalk IF-MIB output, gnmic JSON,
// ethtool -S output, lldpctl JSON, a port map, diagnose's flows CSV, perftest and iperf3 --json
// results, a Prometheus HTTP API reply (served by tests/diagnose/fake_prometheus.py on 127.0.0.1
// to `diagnose --prometheus`, for every query), `ss -tinH` and `conntrack -L` output, Kubernetes
// manifests traced and exported for BGP,
// the authentication configurations (SecurityPolicy, Middleware, Ingress) traced to their sign-in page
// from a folder that may hold a symbolic link loop, a dangling link or a folder named like a
// manifest, a BIND named.conf and a zone file, a sweep file and a variant file it names, a sweep
// --checkpoint journal entry, ib route's --roots and --cn node lists, diagnose --prometheus's token,
// basic-auth and CA files), applies one to three mutations from the list
// below, runs the real `clustertwin` binary on it with `-o` naming a file that does not exist
// yet, and asserts what a user may rely on for any input at all:
//   - the process exits normally within the time limit of a case (CT_FUZZ_CASE_SECONDS; a case
//     past it is a hang), with exit code 0 or 1: no signal (no crash, no abort, no sanitizer
//     report), no exception out of main ("terminate called"), and no usage error;
//   - exit 1: stderr has at least one "error:" line and every one of them is located: it names
//     the file ("FILE:LINE[:COL]: error: ..." with LINE >= 1 wherever one line is at fault, plain
//     "FILE: error: ..." for a fault of the whole file), the URL of a live source ("http://...: error:
//     ...") or "command line: error: ...", never the
//     anonymous "<input>"; and the output file was not created;  exit 0: the output file exists;
//   - stderr carries no raw control character (an escape sequence in a field comes back escaped)
//     and quotes at most an excerpt of a 100 kB value;
//   - nothing on stderr mentions a sanitizer ("runtime error", "AddressSanitizer", "LeakSanitizer").
// Mutations: delete or duplicate a line; a number to 0, -1, 1e309, 2^64, 2^63 - 1, NaN, 1e-320, or
// to a large but well-formed count (65536, 10^6, 10^8: work that must be bounded, or refused);
// a value to a 100 kB string, a list or a map (wrong types); an unknown key; a tab indent;
// truncation at a random byte; invalid UTF-8 bytes; deep nesting; a YAML alias bomb.
//
// CT_FUZZ_CASES sets the cases per input kind (default CT_FUZZ_DEFAULT_CASES, tests/fuzz/CMakeLists.txt:
// 100 in the Release build, 40 kinds = 4,000 cases; 20 in the sanitizer build, where every kind
// still runs under ASan+UBSan; `make fuzz` runs 1,000 per kind in the sanitizer build).
// CLUSTERTWIN_MAX_INPUT is 16 MiB for every case, so that a gzip bomb is refused cheaply.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/rng.h"
#include "support/gzip_text.h"
#include "support/test_paths.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

const std::string kSource = ct::testing_support::source_dir();
const std::string kBinary = ct::testing_support::clustertwin_binary();
// The time limit of one case (CT_FUZZ_CASE_SECONDS overrides it): a case that runs past it is a
// hang, and a failure. Every seed runs in well under a second; the work of any input is bounded by
// its size, so a mutated one must finish in about the same time.
std::chrono::milliseconds case_time_limit() {
  const char* v = std::getenv("CT_FUZZ_CASE_SECONDS");
  const double s = v != nullptr ? std::atof(v) : CT_FUZZ_DEFAULT_CASE_SECONDS;
  return std::chrono::milliseconds(static_cast<long long>(std::max(0.1, s) * 1000));
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spill(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// ---- mutations ----

const char* const kNumbers[] = {"0", "-1", "1e309", "18446744073709551616", "9223372036854775807", "nan", ".nan",
                                "1e-320", "4294967296", "-0", "65536", "1000000", "100000000"};

std::string mutate_once(const std::string& text, Rng& rng) {
  std::vector<std::string> lines = lines_of(text);
  if (lines.empty()) lines.push_back("");
  const std::size_t at = rng.uniform(lines.size());
  std::string& line = lines[at];
  switch (rng.uniform(13)) {
    case 0:  // delete a line
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at));
      break;
    case 1:  // duplicate a line
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), line);
      break;
    case 2:
    case 3: {  // a number to an extreme
      static const std::regex number(R"([0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
      std::vector<std::pair<std::size_t, std::size_t>> spans;
      for (std::sregex_iterator it(line.begin(), line.end(), number), end; it != end; ++it) {
        spans.emplace_back(static_cast<std::size_t>(it->position()), static_cast<std::size_t>(it->length()));
      }
      if (spans.empty()) break;
      const auto [pos, len] = spans[rng.uniform(spans.size())];
      line.replace(pos, len, kNumbers[rng.uniform(std::size(kNumbers))]);
      break;
    }
    case 4: {  // a value to a huge string, a list or a map
      const std::size_t colon = line.find(": ");
      if (colon == std::string::npos) break;
      const std::size_t kind = rng.uniform(3);
      const std::string value = kind == 0 ? std::string(100'000, 'A') : kind == 1 ? "[1, 2]" : "{zz: 1}";
      line = line.substr(0, colon + 2) + value;
      break;
    }
    case 5: {  // an unknown key at this line's indentation
      const std::size_t indent = line.find_first_not_of(" -");
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at),
                   std::string(indent == std::string::npos ? 0 : indent, ' ') + "zzunknown: 1");
      break;
    }
    case 6:  // a tab indent
      line = "\t" + line;
      break;
    case 7: {  // truncation at a random byte
      const std::string all = join(lines);
      return all.substr(0, rng.uniform(all.size() + 1));
    }
    case 8:
    case 9: {  // invalid UTF-8 inside the line (often inside a name)
      const char* const bytes[] = {"\xff", "\xc3\x28", "\xe2\x82", "\x80", "\xed\xa0\x80"};
      line.insert(rng.uniform(line.size() + 1), bytes[rng.uniform(std::size(bytes))]);
      break;
    }
    case 10: {  // control characters (an escape sequence) in a value
      line.insert(rng.uniform(line.size() + 1), "\x1b[2J\x07");
      break;
    }
    case 11: {  // deep nesting
      const std::size_t depth = 2000 + rng.uniform(20000);
      lines.push_back("zzdeep: " + std::string(depth, '[') + std::string(depth, ']'));
      break;
    }
    case 12: {  // an alias bomb (9 levels of 9 references: 9^9 nodes if expanded)
      std::vector<std::string> bomb = {"zz0: &zz0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]"};
      for (int level = 1; level < 9; ++level) {
        std::string l = "zz" + std::to_string(level) + ": &zz" + std::to_string(level) + " [";
        for (int k = 0; k < 9; ++k) l += (k ? ",*zz" : "*zz") + std::to_string(level - 1);
        bomb.push_back(l + "]");
      }
      lines.insert(lines.begin(), bomb.begin(), bomb.end());
      break;
    }
  }
  return join(lines);
}

// ---- running the binary ----

struct Outcome {
  int exit_code = -1;  // -1: killed by a signal or the time limit
  int signal = 0;
  bool timed_out = false;
  double seconds = 0;
  std::string err;
};

Outcome run(const std::vector<std::string>& args, const std::string& work) {
  const std::string out_path = work + "/stdout";
  const std::string err_path = work + "/stderr";
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(kBinary.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(kBinary.c_str(), argv.data());
    _exit(127);
  }
  Outcome r;
  static const auto limit = case_time_limit();
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() - start > limit) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.err = slurp(err_path);
  return r;
}

// ---- the input kinds ----

struct InputKind {
  std::string name;
  std::vector<std::string> seeds;  // files under the source tree
  std::string extension;           // of the mutated file
  // The command line, given the mutated file, the output path and the work folder.
  std::vector<std::string> (*args)(const std::string& input, const std::string& output, const std::string& work);
};

void PrintTo(const InputKind& k, std::ostream* out) { *out << k.name; }

std::vector<std::string> spec_args(const std::string& in, const std::string& out, const std::string&) {
  return {"plan", in, "--json", "-o", out};
}
std::vector<std::string> scenario_args(const std::string& in, const std::string& out, const std::string&) {
  return {"simulate", kSource + "/examples/lab-32.yaml", "--scenario", in, "-o", out};
}
std::vector<std::string> catalog_args(const std::string& in, const std::string& out, const std::string& work) {
  // The mutated file replaces its original in a copy of the catalog folder.
  const std::string dir = work + "/catalog";
  fs::remove_all(dir);
  fs::copy(kSource + "/catalog", dir);
  fs::copy_file(in, dir + "/" + fs::path(in).stem().string().substr(0, fs::path(in).stem().string().rfind('~')) + ".yaml",
                fs::copy_options::overwrite_existing);
  return {"catalog", "--catalog", dir, "--json", "-o", out};
}
std::vector<std::string> flows_args(const std::string& in, const std::string& out, const std::string&) {
  return {"hash", kSource + "/examples/lab-32.yaml", in, "--threads", "1", "-o", out};
}
std::vector<std::string> flow_table_args(const std::string& in, const std::string& out, const std::string&) {
  return {"simulate", kSource + "/examples/lab-32.yaml", "--flows", in, "-o", out};
}
std::vector<std::string> net_args(const std::string& in, const std::string& out, const std::string&) {
  return {"ib", "route", "--ibnetdiscover", in, "--shifts", "4", "--random", "2", "-o", out};
}
// The same format read by simulate (issue 26): the cables' rates, the hosts' names, the LFTs as paths.
std::vector<std::string> net_simulate_args(const std::string& in, const std::string& out, const std::string&) {
  return {"simulate", "--ibnetdiscover", in, "--ib-routing", "updn", "--scenario",
          kSource + "/examples/scenarios/shift2-ring5.yaml", "--engine", "packet", "--switch-latency", "200ns",
          "--switch-buffer", "8KiB", "--forwarding", "store-and-forward", "-o", out};
}
std::vector<std::string> lft_args(const std::string& in, const std::string& out, const std::string&) {
  return {"ib", "route", "--ibnetdiscover", kSource + "/tests/fuzz/seeds/two_by_two.net", "--check-lft", in, "-o", out};
}

std::vector<std::string> prometheus_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", d + "lab-before.prom", in, "--map",
          d + "lab-map.csv", "--flows", d + "lab-flows.csv", "-o", out};
}
std::vector<std::string> port_map_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", d + "lab-before.prom", d + "lab-after.prom",
          "--map", in, "-o", out};
}
std::vector<std::string> diagnose_flows_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", d + "lab-before.prom", d + "lab-after.prom",
          "--map", d + "lab-map.csv", "--flows", in, "-o", out};
}
std::vector<std::string> snmpwalk_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", "p0/pod0/leaf/0=" + d + "leaf0-t0.snmp",
          "p0/pod0/leaf/0=" + in, "--interval", "10", "--map", d + "leaf0-map.csv", "-o", out};
}
std::vector<std::string> gnmi_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", in, "--map", d + "leaf0-map.csv", "-o", out};
}
std::vector<std::string> ethtool_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", "host0/nic0,l0=" + d + "ethtool-host0-t0.txt",
          "host0/nic0,l0=" + in, "--interval", "10", "--map", d + "lab-map.csv", "-o", out};
}
std::vector<std::string> lldp_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", d + "gnmi-leaf0.json", "--lldp",
          "p0/pod0/leaf/0=" + in, "-o", out};
}
std::vector<std::string> perftest_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", d + "lab-before.prom", d + "lab-after.prom",
          "--map", d + "lab-map.csv", "--flows", in, "-o", out};
}
// The stand-in Prometheus (fake_prometheus.py, mode file) that answers every API request with the
// file named in its URL: started once per process on a free loopback port, killed at exit.
// With `tls` it serves https with the certificate of tests/fuzz/seeds/prometheus-ca.pem (and its
// key), the prometheus_ca kind's seed.
std::string prometheus_file_server(bool tls = false) {
  struct Server {
    pid_t pid = -1;
    std::string url;
    explicit Server(bool tls) {
      const std::string port_file = fs::temp_directory_path().string() + "/ct-fuzz-prometheus-" + std::to_string(getpid()) +
                                    (tls ? "-tls" : "");
      const std::string seeds = kSource + "/tests/fuzz/seeds/";
      pid = fork();
      if (pid == 0) {
        if (tls) setenv("FAKE_PROMETHEUS_TLS", (seeds + "prometheus-ca.pem:" + seeds + "prometheus-ca.key").c_str(), 1);
        execlp("python3", "python3", (kSource + "/tests/diagnose/fake_prometheus.py").c_str(), port_file.c_str(), "/dev/null",
               "-", "-", static_cast<char*>(nullptr));
        _exit(127);
      }
      // Until the server writes its port (60 s: only how long a broken start takes to fail).
      for (int i = 0; i < 1200 && url.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::ifstream in(port_file);
        std::string port;
        if (in >> port) url = (tls ? "https://127.0.0.1:" : "http://127.0.0.1:") + port;
      }
      fs::remove(port_file);
    }
    ~Server() {
      if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  };
  if (tls) {
    static const Server https(true);
    return https.url;
  }
  static const Server http(false);
  return http.url;
}
std::vector<std::string> prometheus_api_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--prometheus", prometheus_file_server() + "/file" + in,
          "--from", "1796296663.435", "--to", "1796296664.590", "--map", d + "lab-map.csv", "-o", out};
}
// The credential and CA files of diagnose --prometheus, the reply the API seed (prometheus_api):
// the mutated file is the one the option names.
std::vector<std::string> prometheus_with(const std::string& option, const std::string& in, const std::string& out, bool tls) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--prometheus",
          prometheus_file_server(tls) + "/file" + kSource + "/tests/fuzz/seeds/prometheus-query-range.json", "--from",
          "1796296663.435", "--to", "1796296664.590", "--map", d + "lab-map.csv", option, in, "-o", out};
}
std::vector<std::string> prometheus_token_args(const std::string& in, const std::string& out, const std::string&) {
  return prometheus_with("--prometheus-token-file", in, out, false);
}
std::vector<std::string> prometheus_basic_auth_args(const std::string& in, const std::string& out, const std::string&) {
  return prometheus_with("--prometheus-basic-auth-file", in, out, false);
}
std::vector<std::string> prometheus_ca_args(const std::string& in, const std::string& out, const std::string&) {
  return prometheus_with("--prometheus-ca", in, out, true);
}
// ib route's node lists: root switches (--roots, OpenSM -a) and compute-node CAs (--cn, OpenSM -u)
// of the 2 x 2 subnet, routed by ftree.
std::vector<std::string> ib_roots_args(const std::string& in, const std::string& out, const std::string&) {
  return {"ib", "route", "--ibnetdiscover", kSource + "/tests/fuzz/seeds/two_by_two.net", "--engine", "ftree", "--roots", in,
          "--cn", kSource + "/tests/fuzz/seeds/ib-cn.txt", "-o", out};
}
std::vector<std::string> ib_cn_args(const std::string& in, const std::string& out, const std::string&) {
  return {"ib", "route", "--ibnetdiscover", kSource + "/tests/fuzz/seeds/two_by_two.net", "--engine", "ftree", "--roots",
          kSource + "/tests/fuzz/seeds/ib-roots.txt", "--cn", in, "-o", out};
}
// The mutated file as point 0's entry in the --checkpoint journal of a one-point sweep (the seed is
// that sweep's own entry): loaded, computed again (another point's), or refused naming the entry.
// The entry's name hashes the sweep file's path and text, so a first run of the sweep gives it.
std::vector<std::string> sweep_journal_args(const std::string& in, const std::string& out, const std::string& work) {
  const std::string sweep = work + "/journal-sweep.yaml";
  const std::string dir = work + "/checkpoint";
  spill(sweep, "base: " + kSource + "/examples/lab-32.yaml\naxes:\n  - path: nodes.count\n    values: [16]\n"
               "seeds: [1, 2]\nstudies: {plan: {}, reliability: {trials: 10}}\n");
  static std::string entry;
  if (entry.empty()) {
    fs::remove_all(dir);
    run({"sweep", sweep, "--checkpoint", dir, "-o", work + "/journal-first.txt"}, work);
    for (const auto& e : fs::directory_iterator(dir)) entry = e.path().filename().string();
  }
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(in, dir + "/" + entry);
  return {"sweep", sweep, "--checkpoint", dir, "-o", out};
}
std::vector<std::string> ss_args(const std::string& in, const std::string& out, const std::string&) {
  return {"traffic", kSource + "/examples/lab-32.yaml", "--ss", in, "-o", out};
}
std::vector<std::string> conntrack_args(const std::string& in, const std::string& out, const std::string&) {
  return {"traffic", "--conntrack", in, "--width", "8", "-o", out};
}

// The front door: the mutated manifest replaces its original in a copy of the platform example,
// traced through every hop (DNS, VIP, Gateway and TLS, route, Service, pods, storage).
const std::string kPlatform = kSource + "/examples/platform";
const std::string kTraceRequest = "GET https://api.example.com/v1/models";
std::vector<std::string> manifests_args(const std::string& in, const std::string& out, const std::string& work) {
  const std::string dir = work + "/manifests";
  fs::remove_all(dir);
  fs::copy(kPlatform + "/manifests", dir);
  const std::string stem = fs::path(in).stem().string();
  fs::copy_file(in, dir + "/" + stem.substr(0, stem.rfind('~')) + ".yaml", fs::copy_options::overwrite_existing);
  return {"trace", kTraceRequest, dir, "--from", "inside", "--dns", kPlatform + "/dns/named.conf", "--spec",
          kPlatform + "/cluster.yaml", "--json", "-o", out};
}
// The authentication configurations (SecurityPolicy, Middleware, Ingress) added to a copy of the
// platform example; a request one of them covers is traced without credentials, so the sign-in
// request is traced too.
std::vector<std::string> auth_args(const std::string& in, const std::string& out, const std::string& work) {
  const std::string dir = work + "/manifests";
  fs::remove_all(dir);
  fs::copy(kPlatform + "/manifests", dir);
  fs::copy_file(in, dir + "/70-auth.yaml", fs::copy_options::overwrite_existing);
  return {"trace", "GET https://chat.example.com/docs/x", dir, "--from", "inside", "--dns", kPlatform + "/dns/named.conf", "--json",
          "-o", out};
}
// The mutated named.conf beside copies of the example's zone files, exported for BIND.
std::vector<std::string> named_conf_args(const std::string& in, const std::string& out, const std::string& work) {
  const std::string dir = work + "/dns";
  fs::remove_all(dir);
  fs::copy(kPlatform + "/dns", dir);
  fs::copy_file(in, dir + "/named.conf", fs::copy_options::overwrite_existing);
  return {"export", "dns", dir + "/named.conf", "-o", out};
}
// The mutated zone file served by the inside view (named.conf naming it by its absolute path).
std::vector<std::string> zone_args(const std::string& in, const std::string& out, const std::string& work) {
  std::string conf = slurp(kPlatform + "/dns/named.conf");
  const std::string internal = "\"db.example.com.internal\"";
  conf.replace(conf.find(internal), internal.size(), "\"" + fs::absolute(in).string() + "\"");
  const std::string external = "\"db.example.com.external\"";
  conf.replace(conf.find(external), external.size(), "\"" + kPlatform + "/dns/db.example.com.external\"");
  spill(work + "/named.conf", conf);
  return {"trace", kTraceRequest, kPlatform + "/manifests", "--from", "inside", "--dns", work + "/named.conf", "--json", "-o", out};
}

// lint (issue 25): the mutated manifest replaces its original in a copy of examples/platform-traps,
// linted with its DNS views and spec (--fail-on none: findings exit 0, only bad input exits 1);
// and the mutated named.conf beside copies of the traps' zone files.
const std::string kTraps = kSource + "/examples/platform-traps";
// break --issuer on a copy of the platform whose certificates file is `certificates`, at `now`
// (issue 25: the certificates' renewal fields and --now).
std::vector<std::string> break_issuer(const std::string& certificates, const std::string& now, const std::string& out, const std::string& work) {
  const std::string dir = work + "/manifests";
  fs::remove_all(dir);
  fs::copy(kPlatform + "/manifests", dir);
  fs::copy_file(certificates, dir + "/21-certificates.yaml", fs::copy_options::overwrite_existing);
  return {"break", dir, "--dns", kPlatform + "/dns/named.conf", "--spec", kPlatform + "/cluster.yaml", "--issuer", "internal-ca",
          "--now", now, "--json", "-o", out};
}
std::vector<std::string> certificates_args(const std::string& in, const std::string& out, const std::string& work) {
  return break_issuer(in, "2026-12-06T00:00:00Z", out, work);
}
std::vector<std::string> now_args(const std::string& in, const std::string& out, const std::string& work) {
  std::ifstream f(in, std::ios::binary);
  std::string now((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  while (!now.empty() && (now.back() == '\n' || now.back() == '\r')) now.pop_back();
  return break_issuer(kSource + "/tests/fuzz/seeds/certificates.yaml", now, out, work);
}

std::vector<std::string> lint_manifests_args(const std::string& in, const std::string& out, const std::string& work) {
  const std::string dir = work + "/manifests";
  fs::remove_all(dir);
  fs::copy(kTraps + "/manifests", dir);
  const std::string stem = fs::path(in).stem().string();
  fs::copy_file(in, dir + "/" + stem.substr(0, stem.rfind('~')) + ".yaml", fs::copy_options::overwrite_existing);
  return {"lint", dir, "--dns", kTraps + "/dns/named.conf", "--spec", kTraps + "/cluster.yaml", "--fail-on", "none", "--json",
          "--sarif", out + ".sarif", "-o", out};
}
std::vector<std::string> lint_dns_args(const std::string& in, const std::string& out, const std::string& work) {
  const std::string dir = work + "/dns";
  fs::remove_all(dir);
  fs::copy(kTraps + "/dns", dir);
  fs::copy_file(in, dir + "/" + (fs::path(in).extension() == ".conf" ? std::string("named.conf") : "db.example.com.internal"),
                fs::copy_options::overwrite_existing);
  return {"lint", kTraps + "/manifests", "--dns", dir + "/named.conf", "--fail-on", "none", "-o", out};
}
std::vector<std::string> sweep_args(const std::string& in, const std::string& out, const std::string& work) {
  // The seeds' base spec, scenario and variant file beside the mutated sweep file.
  spill(work + "/lab-32.yaml", slurp(kSource + "/examples/lab-32.yaml"));
  spill(work + "/straggler-lab32.yaml", slurp(kSource + "/examples/scenarios/straggler-lab32.yaml"));
  spill(work + "/three-tier.yaml", slurp(kSource + "/tests/fuzz/seeds/sweep-variant.yaml"));
  return {"sweep", in, "--csv", work + "/rows.csv", "-o", out};
}
std::vector<std::string> sweep_variant_args(const std::string& in, const std::string& out, const std::string& work) {
  // The mutated variant file, named by a sweep over lab-32.yaml.
  spill(work + "/lab-32.yaml", slurp(kSource + "/examples/lab-32.yaml"));
  spill(work + "/variant.yaml", slurp(in));
  spill(work + "/variant-sweep.yaml", "base: lab-32.yaml\naxes:\n  - name: v\n    variants: [variant.yaml]\n"
                                      "  - path: nodes.count\n    values: [16]\nstudies: {plan: {}, reliability: {trials: 10}}\n");
  return {"sweep", work + "/variant-sweep.yaml", "-o", out};
}

// The mutated flow table, gzip-compressed: whole; cut short; or after a bomb of 1 MiB members of
// zeros that inflates past the 16 MiB limit the fuzz sets (CLUSTERTWIN_MAX_INPUT).
std::vector<std::string> flow_table_gz_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string gz = test::gzip_text(slurp(in));
  const std::size_t variant = std::hash<std::string>{}(in) % 4;
  std::string bytes = gz;
  if (variant == 1) bytes = gz.substr(0, gz.size() * 2 / 3);
  if (variant == 2) {
    static const std::string zeros = test::gzip_text(std::string(std::size_t{1} << 20, '0'));
    for (int i = 0; i < 20; ++i) bytes += zeros;
  }
  spill(in + ".gz", bytes);
  return {"simulate", kSource + "/examples/lab-32.yaml", "--flows", in + ".gz", "-o", out};
}
std::vector<std::string> iperf3_args(const std::string& in, const std::string& out, const std::string&) {
  const std::string d = kSource + "/tests/golden/diagnose/";
  return {"diagnose", kSource + "/examples/lab/fat-tree-4.yaml", "--counters", d + "lab-before.prom", d + "lab-after.prom",
          "--map", d + "lab-map.csv", "--flows", in, "-o", out};
}
// The BGP VIP's manifests in a copy of the platform's folder, exported for gobgpd and BIRD; one
// case in four also finds in the folder a symbolic link loop, a dangling link, or a folder named
// like a manifest.
std::vector<std::string> bgp_args(const std::string& in, const std::string& out, const std::string& work) {
  const std::string dir = work + "/manifests";
  fs::remove_all(dir);
  fs::copy(kPlatform + "/manifests", dir);
  const std::string stem = fs::path(in).stem().string();
  fs::copy_file(in, dir + "/" + stem.substr(0, stem.rfind('~')) + ".yaml", fs::copy_options::overwrite_existing);
  switch (std::hash<std::string>{}(in) % 8) {
    case 1:
      fs::create_symlink("zz-b.yaml", dir + "/zz-a.yaml");
      fs::create_symlink("zz-a.yaml", dir + "/zz-b.yaml");
      break;
    case 2: fs::create_symlink("nowhere.yaml", dir + "/zz-dangling.yaml"); break;
    case 3: fs::create_directories(dir + "/zz-folder.yaml"); break;
    default: break;
  }
  return {"export", "bgp", dir, "-o", out};
}

std::vector<InputKind> input_kinds() {
  return {
      {"spec", {"examples/lab-32.yaml", "examples/homelab.yaml", "examples/scenarios/spine-failure-tor64.yaml", "tests/fuzz/seeds/survival-spec.yaml"},
       ".yaml", spec_args},
      {"scenario",
       {"examples/scenarios/straggler-lab32.yaml", "examples/scenarios/mice-lab32.yaml", "tests/fuzz/seeds/faults.yaml"},
       ".yaml", scenario_args},
      {"catalog", {"catalog/switches.yaml", "catalog/nics.yaml", "catalog/nodes.yaml", "catalog/optics.yaml",
                   "catalog/reliability.yaml", "catalog/zoo.yaml"}, ".yaml", catalog_args},
      {"flows_csv", {"tests/fuzz/seeds/flows.csv"}, ".csv", flows_args},
      {"flows_yaml", {"tests/fuzz/seeds/flows.yaml"}, ".yaml", flows_args},
      {"flow_table", {"tests/fuzz/seeds/flow_table.csv", "tests/fuzz/seeds/flow_table_packet.csv"}, ".csv", flow_table_args},
      {"flow_table_gz", {"tests/fuzz/seeds/flow_table.csv"}, ".csv", flow_table_gz_args},
      {"ibnetdiscover", {"tests/fuzz/seeds/two_by_two.net", "tests/ib/bad/good_2x2.net"}, ".net", net_args},
      {"ibnetdiscover_simulate", {"examples/ring-5.net"}, ".net", net_simulate_args},
      {"lft_dump", {"tests/fuzz/seeds/two_by_two.lft"}, ".dump", lft_args},
      {"prometheus", {"tests/golden/diagnose/lab-after.prom", "tests/golden/traffic/host-t1.prom"}, ".prom", prometheus_args},
      {"port_map", {"tests/golden/diagnose/lab-map.csv"}, ".csv", port_map_args},
      {"diagnose_flows", {"tests/golden/diagnose/lab-flows.csv"}, ".csv", diagnose_flows_args},
      {"snmpwalk", {"tests/golden/diagnose/leaf0-t1.snmp"}, ".snmp", snmpwalk_args},
      {"prometheus_api", {"tests/fuzz/seeds/prometheus-query-range.json"}, ".json", prometheus_api_args},
      {"ss", {"tests/golden/traffic/host-ss.txt"}, ".txt", ss_args},
      {"gnmi", {"tests/fuzz/seeds/gnmi-leaf0.json"}, ".json", gnmi_args},
      {"ethtool", {"tests/fuzz/seeds/ethtool-host0-t1.txt"}, ".txt", ethtool_args},
      {"lldp", {"tests/fuzz/seeds/lldp-leaf0.json", "tests/fuzz/seeds/lldp-spine0.json"}, ".json", lldp_args},
      {"perftest", {"tests/fuzz/seeds/perftest-write.txt"}, ".txt", perftest_args},
      {"iperf3", {"tests/fuzz/seeds/iperf3.json"}, ".json", iperf3_args},
      {"conntrack", {"tests/golden/traffic/host-conntrack.txt"}, ".txt", conntrack_args},
      {"manifests",
       {"examples/platform/manifests/30-gateway.yaml", "examples/platform/manifests/40-routes.yaml",
        "examples/platform/manifests/10-metallb.yaml", "examples/platform/manifests/20-cert-manager.yaml",
        "examples/platform/manifests/21-certificates.yaml", "examples/platform/manifests/50-apps.yaml",
        "examples/platform/manifests/60-storage.yaml", "tests/frontend/45-filters.yaml",
        // malformed on purpose (issue 22): keys and names written twice, values the API refuses
        "tests/frontend/bad/duplicate-key.yaml", "tests/frontend/bad/duplicate-names.yaml",
        "tests/frontend/bad/bad-values.yaml",
        // the scheduling model's fields (docs/models/scheduling.md)
        "tests/fuzz/seeds/scheduling.yaml",
        // the Longhorn scheduler's objects: Longhorn Node, Setting, the default-setting ConfigMap
        "tests/fuzz/seeds/longhorn.yaml"},
       ".yaml", manifests_args},
      // issue 25: the certificates' renewal fields under break --issuer, and the --now argument
      {"certificates", {"tests/fuzz/seeds/certificates.yaml"}, ".yaml", certificates_args},
      {"now_argument", {"tests/fuzz/seeds/now.txt"}, ".txt", now_args},
      {"auth_manifests", {"tests/frontend/auth/70-auth.yaml", "tests/frontend/auth/71-loop.yaml", "tests/frontend/bad/bad-auth.yaml"},
       ".yaml", auth_args},
      {"bgp_manifests", {"examples/platform/manifests/10-metallb.yaml", "examples/platform/manifests/50-apps.yaml"}, ".yaml",
       bgp_args},
      {"named_conf", {"examples/platform/dns/named.conf", "tests/fuzz/seeds/named-views.conf"}, ".conf", named_conf_args},
      {"zone", {"examples/platform/dns/db.example.com.internal", "examples/platform/dns/db.example.com.external"}, ".zone",
       zone_args},
      {"lint_manifests",
       {"examples/platform-traps/manifests/00-cluster.yaml", "examples/platform-traps/manifests/30-gateway.yaml",
        "examples/platform-traps/manifests/21-certificates.yaml", "examples/platform-traps/manifests/50-apps.yaml",
        "examples/platform-traps/manifests/60-storage.yaml", "tests/fuzz/seeds/longhorn.yaml"},
       ".yaml", lint_manifests_args},
      {"lint_named_conf", {"examples/platform-traps/dns/named.conf"}, ".conf", lint_dns_args},
      {"lint_zone", {"examples/platform-traps/dns/db.example.com.internal"}, ".zone", lint_dns_args},
      {"sweep", {"tests/fuzz/seeds/sweep.yaml", "tests/fuzz/seeds/sweep-studies.yaml"}, ".yaml", sweep_args},
      {"sweep_variant", {"tests/fuzz/seeds/sweep-variant.yaml"}, ".yaml", sweep_variant_args},
      {"sweep_journal", {"tests/fuzz/seeds/sweep-journal.json"}, ".json", sweep_journal_args},
      {"ib_roots", {"tests/fuzz/seeds/ib-roots.txt"}, ".txt", ib_roots_args},
      {"ib_cn", {"tests/fuzz/seeds/ib-cn.txt"}, ".txt", ib_cn_args},
      {"prometheus_token", {"tests/fuzz/seeds/prometheus-token.txt"}, ".txt", prometheus_token_args},
      {"prometheus_basic_auth", {"tests/fuzz/seeds/prometheus-basic-auth.txt"}, ".txt", prometheus_basic_auth_args},
      {"prometheus_ca", {"tests/fuzz/seeds/prometheus-ca.pem"}, ".pem", prometheus_ca_args},
  };
}

int cases_per_kind() {
  const char* v = std::getenv("CT_FUZZ_CASES");
  return v != nullptr ? std::max(1, std::atoi(v)) : CT_FUZZ_DEFAULT_CASES;
}

// The most characters of the offending text an error may quote (core/text.h kExcerptLength, with
// the escapes of a few control characters).
constexpr std::size_t kQuoteLimit = 100;

// The reason a case fails, or "".
std::string judge(const Outcome& r, const std::string& output) {
  static const std::regex located(R"(^(/[^:\n]+(:[1-9][0-9]*(:[0-9]+)?)?|https?://[^ \n]+|command line): error: )");
  if (r.timed_out) return "timed out";
  if (r.signal != 0) return "killed by signal " + std::to_string(r.signal);
  for (const char* word : {"runtime error", "AddressSanitizer", "LeakSanitizer", "terminate called"}) {
    if (r.err.find(word) != std::string::npos) return std::string("stderr mentions '") + word + "'";
  }
  for (const char c : r.err) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n') return "stderr carries a raw control character";
  }
  // The 100 kB value of mutation 4 is 'A's: a message quotes at most an excerpt of it (core/text.h).
  if (r.err.find(std::string(kQuoteLimit + 1, 'A')) != std::string::npos) return "an error quotes more than an excerpt";
  if (r.exit_code == 0) return fs::exists(output) ? "" : "exit 0 but no output file";
  if (r.exit_code != 1) return "exit code " + std::to_string(r.exit_code);
  if (fs::exists(output)) return "exit 1 but the output file was written";
  int errors = 0;
  for (const std::string& line : lines_of(r.err)) {
    if (line.find("error: ") == std::string::npos) continue;
    ++errors;
    if (!std::regex_search(line, located)) return "unlocated diagnostic: " + line.substr(0, 300);
  }
  return errors > 0 ? "" : "exit 1 without an error line";
}

class InputFuzz : public testing::TestWithParam<InputKind> {};

TEST_P(InputFuzz, EveryMutationExitsCleanlyWithALocatedDiagnostic) {
  const InputKind& kind = GetParam();
  // Inputs are small: a limit of 16 MiB makes the gzip bomb cheap to refuse.
  setenv("CLUSTERTWIN_MAX_INPUT", "16MiB", 1);
  const std::string work = ct::testing_support::binary_dir() + "/fuzz/" + kind.name;
  fs::remove_all(work);
  fs::create_directories(work);
  std::vector<std::string> seeds;
  for (const auto& s : kind.seeds) seeds.push_back(slurp(kSource + "/" + s));
  const int cases = cases_per_kind();
  int failures = 0;
  int exit0 = 0;
  double slowest = 0;
  int slowest_case = 0;
  for (int c = 0; c < cases && failures < 5; ++c) {
    Rng rng(20261203, std::hash<std::string>{}(kind.name) & 0xFFFF, static_cast<std::uint64_t>(c));
    const std::size_t which = rng.uniform(seeds.size());
    std::string text = seeds[which];
    const std::uint64_t count = 1 + rng.uniform(3);
    for (std::uint64_t m = 0; m < count; ++m) text = mutate_once(text, rng);
    const std::string stem = fs::path(kind.seeds[which]).stem().string();
    const std::string input = work + "/" + stem + "~" + std::to_string(c) + kind.extension;
    const std::string output = work + "/out-" + std::to_string(c);
    spill(input, text);
    fs::remove_all(output);  // a file, or a folder (export dns -o)
    const Outcome r = run(kind.args(input, output, work), work);
    if (r.seconds > slowest) {
      slowest = r.seconds;
      slowest_case = c;
    }
    const std::string why = judge(r, output);
    if (!why.empty()) {
      ++failures;
      ADD_FAILURE() << kind.name << " case " << c << " (" << input << "): " << why << "\nstderr: " << r.err.substr(0, 600);
      continue;  // keep the input for inspection
    }
    exit0 += r.exit_code == 0;
    fs::remove(input);
    fs::remove_all(output);  // a file, or a folder (export dns -o)
  }
  RecordProperty("cases", cases);
  RecordProperty("accepted", exit0);
  std::cout << kind.name << ": " << cases << " cases, " << exit0 << " accepted, " << cases - exit0 - failures
            << " refused with located diagnostics, " << failures << " failures; slowest: case " << slowest_case << ", "
            << slowest << " s\n";
}

INSTANTIATE_TEST_SUITE_P(Kinds, InputFuzz, testing::ValuesIn(input_kinds()),
                         [](const testing::TestParamInfo<InputKind>& p) { return p.param.name; });

}  // namespace
}  // namespace ct
