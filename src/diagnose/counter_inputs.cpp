#include "diagnose/counter_inputs.h"

#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "diagnose/ethtool_reader.h"
#include "diagnose/gnmi_reader.h"

namespace ct {

namespace {

// A Prometheus scrape's samples take the host given for the file where they name none.
void give_host(Scrape& scrape, const std::string& host, Diagnostics& errors) {
  for (CounterSample& c : scrape.samples) {
    if (c.instance.empty() && !host.empty()) {
      c.instance = host;
    } else if (c.instance.empty()) {
      errors.push_back(Diagnostic{c.where, "instance",
                                  "sample names no host (no instance label): give the file as HOST=FILE, so that two "
                                  "hosts' equal interface names are never one series"});
      return;
    } else if (!host.empty() && c.instance != host) {
      errors.push_back(Diagnostic{c.where, "instance",
                                  "instance=\"" + c.instance + "\" but the file was given as " + host + "=FILE: one host per file"});
      return;
    }
  }
}

// One clock for all scrapes (counter_inputs.h).
void check_clocks(const std::vector<Scrape>& scrapes, Diagnostics& errors) {
  const SourceLocation* stamped = nullptr;
  const SourceLocation* unstamped = nullptr;
  for (const Scrape& s : scrapes) {
    if (stamped == nullptr && s.first_stamped.line > 0) stamped = &s.first_stamped;
    if (unstamped == nullptr && s.first_unstamped.line > 0) unstamped = &s.first_unstamped;
  }
  if (stamped == nullptr || unstamped == nullptr) return;
  errors.push_back(Diagnostic{*unstamped, "timestamp",
                              "this sample has no timestamp (its time is the scrape's, from --interval, counted from 0) "
                              "but " + stamped->file + ":" + std::to_string(stamped->line) +
                                  " carries its own (ms since 1970): the two cannot be put on one clock; give every "
                                  "sample a timestamp, or none and --interval"});
}

void mark_unstamped(Scrape& s) {
  if (!s.samples.empty()) s.first_unstamped = s.samples.front().where;
}

// A flow results file by its format, told by its first piece: iperf3's JSON read whole, perftest
// output and a flows CSV a piece at a time.
Result<std::vector<FlowResult>> read_flow_results(const TextInput& in, const Topology& topology) {
  TextInMemory memory(in.text);
  TextSource& source = in.source ? *in.source : memory;
  const std::string_view head = source.head();
  if (source.failed()) return *source.failed();
  const std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && head[first] == '{') {
    if (!in.source) return read_iperf3_json(in.text, in.path, topology);
    auto text = drain(source);
    if (!text) return text.errors();
    return read_iperf3_json(text.value(), in.path, topology);
  }
  if (looks_like_perftest(head)) return read_perftest(source, in.path, topology);
  return read_flows_csv(source, in.path, topology);
}

}  // namespace

Result<std::vector<Scrape>> read_scrapes(const CounterInputs& inputs) {
  Diagnostics errors;
  std::vector<Scrape> scrapes;
  std::map<std::string, std::size_t> given;  // files so far per name
  for (std::size_t i = 0; i < inputs.scrapes.size(); ++i) {
    const TextInput& in = inputs.scrapes[i];
    const std::string instance = i < inputs.instances.size() ? inputs.instances[i] : std::string();
    const std::size_t k = given[instance]++;
    const std::int64_t t = inputs.interval_s > 0 ? std::llround(static_cast<double>(k) * inputs.interval_s * 1000.0) : -1;
    TextInMemory memory(in.text);
    TextSource& source = in.source ? *in.source : memory;
    const std::string_view head = source.head();
    if (source.failed()) {
      errors.push_back(*source.failed());
      continue;
    }
    std::string whole;  // the text of the formats read whole
    bool unread = false;
    auto take_whole = [&]() -> std::string_view {
      if (!in.source) return in.text;
      auto all = drain(source);
      if (!all) {
        errors.push_back(all.errors().front());
        unread = true;
        return {};
      }
      whole = std::move(all).value();
      return whole;
    };
    Result<Scrape> s = Diagnostic{};
    if (looks_like_ethtool(head)) {
      const std::size_t comma = instance.rfind(',');
      if (comma == std::string::npos || comma == 0 || comma + 1 == instance.size() || t < 0) {
        errors.push_back(Diagnostic{SourceLocation{in.path, 0, 0}, "--counters",
                                    "ethtool -S output names neither the host, the interface nor the time: give it as "
                                    "INSTANCE,DEVICE=FILE, with --interval SECONDS"});
        continue;
      }
      s = read_ethtool_stats(take_whole(), in.path, instance.substr(0, comma), instance.substr(comma + 1), t);
      if (s) mark_unstamped(s.value());
    } else if (looks_like_gnmi(head)) {
      s = read_gnmi_json(take_whole(), in.path);
      if (s && !s->samples.empty()) s->first_stamped = s->samples.front().where;
    } else if (looks_like_snmpwalk(head)) {
      if (instance.empty() || t < 0) {
        errors.push_back(Diagnostic{SourceLocation{in.path, 0, 0}, "--counters",
                                    "snmpwalk output names neither the device nor the time: give it as INSTANCE=FILE, with "
                                    "--interval SECONDS"});
        continue;
      }
      s = read_snmpwalk(take_whole(), in.path, instance, t);
      if (s) mark_unstamped(s.value());
    } else {
      s = read_prometheus_text(source, in.path, t);
      if (s) give_host(s.value(), instance, errors);
    }
    if (unread) continue;
    if (!s) {
      errors.insert(errors.end(), s.errors().begin(), s.errors().end());
    } else {
      scrapes.push_back(std::move(s).value());
    }
  }
  check_clocks(scrapes, errors);
  if (!errors.empty()) return errors;
  return scrapes;
}

RateOptions rate_options_for(const Fabric& fabric) {
  double fastest = 0;
  const Topology& t = fabric.topology();
  for (std::size_t l = 0; l < t.link_count(); ++l) fastest = std::max(fastest, static_cast<double>(t.capacity[l].value()) / 8.0);
  return RateOptions{fastest};
}

Result<Counters> read_counter_inputs(const CounterInputs& inputs, const Fabric& fabric) {
  Diagnostics errors;
  Counters counters;
  auto read = read_scrapes(inputs);
  std::vector<Scrape> scrapes;
  if (!read) {
    errors = read.errors();
  } else {
    scrapes = std::move(read).value();
  }
  if (inputs.map) {
    TextInMemory memory(inputs.map->text);
    TextSource& source = inputs.map->source ? *inputs.map->source : memory;
    auto m = read_port_map_csv(source, inputs.map->path, fabric.names());
    if (!m) {
      errors.insert(errors.end(), m.errors().begin(), m.errors().end());
    } else {
      counters.map = std::move(m).value();
    }
  }
  for (std::size_t i = 0; i < inputs.lldp.size(); ++i) {
    const TextInput& in = inputs.lldp[i];
    const std::string device = i < inputs.lldp_devices.size() ? inputs.lldp_devices[i] : std::string();
    const std::size_t at = device.find('@');
    const std::string vertex = at == std::string::npos ? device : device.substr(at + 1);
    const std::string instance = at == std::string::npos ? device : device.substr(0, at);
    if (vertex.empty()) {
      errors.push_back(Diagnostic{SourceLocation{in.path, 0, 0}, "--lldp",
                                  "lldpctl output does not name the device it ran on: give it as [INSTANCE@]VERTEX=FILE"});
      continue;
    }
    auto m = read_lldp_neighbours(in.text, in.path, instance, vertex, fabric.names(), counters.map);
    if (!m) errors.insert(errors.end(), m.errors().begin(), m.errors().end());
  }
  for (const TextInput& in : inputs.flows) {
    auto f = read_flow_results(in, fabric.topology());
    if (!f) {
      errors.insert(errors.end(), f.errors().begin(), f.errors().end());
    } else {
      counters.flows.insert(counters.flows.end(), f->begin(), f->end());
    }
  }
  if (inputs.measured && !inputs.scrapes.empty()) {
    errors.push_back(Diagnostic{SourceLocation{inputs.scrapes.front().path, 0, 0}, "--counters",
                                "saved scrapes and a live Prometheus cannot be mixed: their clocks and windows differ"});
  }
  if (!errors.empty()) return errors;
  if (inputs.measured) {
    counters.rates = *inputs.measured;
    return counters;
  }
  // One file is enough only when it holds a series twice (a gnmic subscribe stream).
  bool repeated = false;
  if (scrapes.size() == 1) {
    std::set<std::tuple<std::string_view, std::string_view, CounterKind, bool>> seen;
    for (const CounterSample& c : scrapes.front().samples) {
      if (!seen.emplace(c.instance, c.device, c.kind, c.transmit).second) {
        repeated = true;
        break;
      }
    }
  }
  if (scrapes.size() < 2 && !repeated) {
    return Diagnostic{SourceLocation{inputs.scrapes.empty() ? "" : inputs.scrapes.front().path, 0, 0}, "--counters",
                      "need two or more scrapes to measure a rate, got " + std::to_string(scrapes.size())};
  }
  auto rates = compute_rates(scrapes, rate_options_for(fabric));
  if (!rates) return rates.errors();
  counters.rates = std::move(rates).value();
  return counters;
}

}  // namespace ct
