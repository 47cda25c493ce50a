#include "simgrid_reference.h"

#include <simgrid/s4u.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace ct {
namespace sg = simgrid::s4u;

namespace {

double bytes_per_second(double bits_per_second) { return bits_per_second / 8.0; }

void configure(SimGridMode mode) {
  sg::Engine::set_config("network/model:CM02");
  sg::Engine::set_config("network/crosstraffic:0");
  sg::Engine::set_config("network/TCP-gamma:1e30");
  sg::Engine::set_config(mode == SimGridMode::kFull ? "network/optim:Full" : "network/optim:Lazy");
  // One actor per flow: SimGrid's default 8 MiB stacks and guard pages (two mappings per actor)
  // exhaust the address space and vm.max_map_count (65,536) at 32,768 flows.
  sg::Engine::set_config("contexts/stack-size:256");
  sg::Engine::set_config("contexts/guard-size:0");
}

}  // namespace

SimGridRun run_simgrid(const FluidScenario& scenario, SimGridMode mode) {
  int argc = 2;
  std::string name = "clustertwin-reference";
  std::string quiet = "--log=root.thres:critical";
  char* argv[] = {name.data(), quiet.data(), nullptr};
  sg::Engine engine(&argc, argv);
  configure(mode);

  sg::NetZone* zone = sg::create_star_zone("fabric");
  std::vector<sg::Link*> links;
  links.reserve(scenario.capacity.size());
  for (std::size_t c = 0; c < scenario.capacity.size(); ++c) {
    const double bw = bytes_per_second(static_cast<double>(scenario.capacity[c].value()));
    links.push_back(zone->create_link("c" + std::to_string(c), bw)->set_latency(0)->seal());
  }
  std::vector<sg::Host*> src(scenario.flows.size());
  std::vector<sg::Host*> dst(scenario.flows.size());
  for (std::size_t i = 0; i < scenario.flows.size(); ++i) {
    src[i] = zone->create_host("s" + std::to_string(i), 1e9)->seal();
    dst[i] = zone->create_host("d" + std::to_string(i), 1e9)->seal();
    std::vector<sg::LinkInRoute> route;
    for (const ConstraintId c : scenario.flows[i].path) route.emplace_back(links[c.value()]);
    // A rate cap is a constraint of the flow's own (host-to-host comms ignore Comm::set_rate).
    if (const auto cap = scenario.flows[i].rate_cap.value(); cap > 0) {
      const double bw = bytes_per_second(static_cast<double>(cap));
      route.emplace_back(zone->create_link("cap" + std::to_string(i), bw)->set_latency(0)->seal());
    }
    zone->add_route(src[i]->get_netpoint(), nullptr, nullptr, nullptr, route, false);
    zone->add_route(nullptr, dst[i]->get_netpoint(), nullptr, nullptr, {}, false);
  }
  zone->seal();

  SimGridRun run;
  run.completion_seconds.assign(scenario.flows.size(), -1.0);
  for (std::size_t i = 0; i < scenario.flows.size(); ++i) {
    const FluidScenario::Flow& f = scenario.flows[i];
    const double start = to_seconds(f.start);
    const auto bytes = static_cast<std::uint64_t>(f.size.value());
    double* out = &run.completion_seconds[i];
    sg::Host* from = src[i];
    sg::Host* to = dst[i];
    sg::Actor::create("f" + std::to_string(i), from, [=] {
      sg::this_actor::sleep_until(start);
      sg::Comm::sendto(from, to, bytes);
      *out = sg::Engine::get_clock();
    });
  }
  for (std::size_t k = 0; k < scenario.changes.size(); ++k) {
    const FluidScenario::CapacityChange& change = scenario.changes[k];
    sg::Link* link = links[change.constraint.value()];
    const double at = to_seconds(change.at);
    const double bw = bytes_per_second(static_cast<double>(scenario.capacity[change.constraint.value()].value())) *
                      change.fraction;
    sg::Actor::create("change" + std::to_string(k), src.empty() ? nullptr : src[0], [=] {
      sg::this_actor::sleep_until(at);
      link->set_bandwidth(bw);
    });
  }
  engine.run();
  return run;
}

double run_simgrid_in_child(const FluidScenario& scenario, std::vector<double>& completion, SimGridMode mode,
                            double* cpu_seconds) {
  completion.assign(scenario.flows.size(), -1.0);
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    const auto t0 = std::chrono::steady_clock::now();
    const SimGridRun run = run_simgrid(scenario, mode);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    [[maybe_unused]] auto a = write(fds[1], &wall, sizeof wall);
    [[maybe_unused]] auto b = write(fds[1], run.completion_seconds.data(), run.completion_seconds.size() * sizeof(double));
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  double wall = -1;
  bool ok = read(fds[0], &wall, sizeof wall) == static_cast<ssize_t>(sizeof wall);
  auto* out = reinterpret_cast<char*>(completion.data());
  std::size_t want = completion.size() * sizeof(double);
  while (ok && want > 0) {
    const ssize_t got = read(fds[0], out, want);
    ok = got > 0;
    if (ok) {
      out += got;
      want -= static_cast<std::size_t>(got);
    }
  }
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  if (cpu_seconds != nullptr) {
    *cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                   static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  }
  return ok ? wall : -1;
}

}  // namespace ct
