// Gateway API route tables at scale: one Gateway with an HTTPS listener for *.example.com and
// 10,000 HTTPRoutes (one hostname each, app-<i>.example.com), 10 rules each = 100,000 rules
// (PathPrefix /api/v<k>, every third Exact, every fourth with a header match), one Service per
// route.
//   BM_BuildRouteTable   build_gateway_model: attachment, references, sort, index, shadowed rules
//   BM_ResolveRequest    resolve_request for one request on the built table (a mid-table hostname)
//   BM_ResolveRequestRegex  the same with every fifth rule a RegularExpression path (RE2) instead
// Goals (issue 12): table build < 1 s, one resolution < 10 us median.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include <fmt/format.h>

#include "frontend/gateway_routes.h"

namespace ct {
namespace {

Manifests big_manifests(int routes, int rules, bool regex = false) {
  Manifests m;
  GatewayClass c;
  c.meta.kind = "GatewayClass";
  c.meta.name = "cls";
  m.gateway_classes.push_back(c);
  Gateway g;
  g.meta.kind = "Gateway";
  g.meta.name = "gw";
  g.meta.ns = "infra";
  g.class_name = "cls";
  Listener l;
  l.name = "https";
  l.port = 443;
  l.protocol = "HTTPS";
  l.hostname = "*.example.com";
  l.allowed_from = "All";
  l.certificate_refs.push_back({"", "Secret", "", "wild", {}});
  g.listeners.push_back(l);
  m.gateways.push_back(g);
  Secret s;
  s.meta.kind = "Secret";
  s.meta.name = "wild";
  s.meta.ns = "infra";
  m.secrets.push_back(s);
  for (int i = 0; i < routes; ++i) {
    Service svc;
    svc.meta.kind = "Service";
    svc.meta.ns = "apps";
    svc.meta.name = fmt::format("app-{}", i);
    svc.ports.push_back({"http", 8080, "8080", "TCP"});
    m.services.push_back(svc);
    HttpRoute r;
    r.meta.kind = "HTTPRoute";
    r.meta.ns = "apps";
    r.meta.name = fmt::format("app-{}", i);
    r.meta.creation_timestamp = fmt::format("2025-01-01T00:{:02d}:{:02d}Z", (i / 60) % 60, i % 60);
    ParentRef p;
    p.ref.kind = "Gateway";
    p.ref.name = "gw";
    p.ref.ns = "infra";
    r.parents.push_back(p);
    r.hostnames.push_back(fmt::format("app-{}.example.com", i));
    for (int k = 0; k < rules; ++k) {
      RouteRule rule;
      RouteMatch match;
      match.path.type = k % 3 == 0 ? PathMatch::Type::kExact : PathMatch::Type::kPathPrefix;
      match.path.value = fmt::format("/api/v{}", k);
      if (regex && k % 5 == 0) {
        match.path.type = PathMatch::Type::kRegularExpression;
        match.path.value = fmt::format("/api/v{}/[a-z]+", k);
        match.path.regex = std::make_shared<const RouteRegex>(match.path.value);
      }
      if (k % 4 == 0) match.headers.push_back({"x-tenant", fmt::format("t{}", k), "Exact", nullptr});
      rule.matches.push_back(match);
      BackendRef b;
      b.ref.kind = "Service";
      b.ref.name = svc.meta.name;
      b.port = 8080;
      rule.backends.push_back(b);
      r.rules.push_back(rule);
    }
    m.routes.push_back(std::move(r));
  }
  return m;
}

void BM_BuildRouteTable(benchmark::State& state) {
  const Manifests m = big_manifests(static_cast<int>(state.range(0)), 10);
  for (auto _ : state) {
    GatewayModel g = build_gateway_model(m);
    benchmark::DoNotOptimize(g.tables.front().entries.data());
  }
  state.counters["rules"] = static_cast<double>(state.range(0) * 10);
}
BENCHMARK(BM_BuildRouteTable)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_ResolveRequest(benchmark::State& state) {
  const Manifests m = big_manifests(10000, 10);
  const GatewayModel g = build_gateway_model(m);
  const HttpRequest r = parse_request("GET https://app-5000.example.com/api/v7/items?x=1", {}, 0).value();
  RouteDecision d = resolve_request(m, g, r, "");
  if (d.status != 200) state.SkipWithError("the request does not resolve");
  for (auto _ : state) {
    d = resolve_request(m, g, r, "");
    benchmark::DoNotOptimize(d.status);
  }
}
BENCHMARK(BM_ResolveRequest)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_ResolveRequestRegex(benchmark::State& state) {
  const Manifests m = big_manifests(10000, 10, true);
  const GatewayModel g = build_gateway_model(m);
  const HttpRequest r = parse_request("GET https://app-5000.example.com/api/v5/items?x=1", {}, 0).value();
  RouteDecision d = resolve_request(m, g, r, "");
  if (d.status != 200 || d.entry.rule != 5) state.SkipWithError("the request does not take the regex rule");
  for (auto _ : state) {
    d = resolve_request(m, g, r, "");
    benchmark::DoNotOptimize(d.status);
  }
}
BENCHMARK(BM_ResolveRequestRegex)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
