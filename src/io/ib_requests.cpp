#include "io/ib_requests.h"

#include <fmt/format.h>

#include "ib/cluster_names.h"
#include "ib/fabric_edits.h"
#include "ib/ibnetdiscover.h"
#include "ib/lft_dump.h"
#include "ib/simulation_fabric.h"
#include "ib/subnet_manager.h"
#include "ib/topology_to_ib.h"
#include "io/files.h"

namespace ct {
namespace {

// The subnet: one plane of the spec's fabric, or an ibnetdiscover file.
Result<IbSubnet> load_subnet(const IbRequest& r, const Fabric* fabric) {
  if (!r.ibnetdiscover_path.empty()) {
    auto text = read_text_file(r.ibnetdiscover_path, "ibnetdiscover output");
    if (!text) return text.errors();
    auto read = parse_ibnetdiscover(text.value(), r.ibnetdiscover_path);
    if (!read) return read.errors();
    return IbSubnet{std::move(read).value(), r.ibnetdiscover_path, r.ibnetdiscover_path};
  }
  if (auto wrong = protocol_mismatch(*fabric, Protocol::kInfiniband, "clustertwin ib", Severity::kError)) return *wrong;
  auto plane = fabric_from_topology(fabric->topology(), r.plane, r.spec_path);
  if (!plane) return plane.errors();
  return IbSubnet{std::move(plane).value(), fmt::format("plane {} of {}", r.plane, r.spec_path), r.spec_path};
}

Result<std::vector<IbNodeId>> load_node_list(const IbFabric& subnet, const std::string& path, IbNodeType type) {
  if (path.empty()) return std::vector<IbNodeId>{};
  auto text = read_text_file(path, "a node list");
  if (!text) return text.errors();
  return parse_node_list(subnet, text.value(), path, type);
}

Result<IbRoutingOptions> routing_options(const IbRequest& r, const IbFabric& subnet) {
  IbRoutingOptions o;
  o.engine = r.engine;
  o.lmc = r.lmc;
  o.threads = static_cast<int>(r.threads);
  auto roots = load_node_list(subnet, r.roots_path, IbNodeType::kSwitch);
  if (!roots) return roots.errors();
  o.roots = std::move(roots).value();
  auto cns = load_node_list(subnet, r.cn_path, IbNodeType::kCa);
  if (!cns) return cns.errors();
  o.compute_nodes = std::move(cns).value();
  return o;
}

const NameDirectory* names_of(const Fabric* fabric) { return fabric != nullptr ? &fabric->names() : nullptr; }

}  // namespace

Result<IbRouteStudy> run_ib_route(const IbRequest& r, const Fabric* fabric, ProgressCallback progress) {
  auto subnet = load_subnet(r, fabric);
  if (!subnet) return subnet.errors();
  IbRouteStudyOptions so;
  auto routing = routing_options(r, subnet.value().fabric);
  if (!routing) return routing.errors();
  so.routing = std::move(routing).value();
  if (!r.lft_in.empty()) {
    auto text = read_text_file(r.lft_in, "an LFT dump");
    if (!text) return text.errors();
    auto dump = parse_lft_dump(text.value(), r.lft_in);
    if (!dump) return dump.errors();
    so.lfts = std::move(dump).value();
    so.lfts_file = r.lft_in;
  }
  auto failures = ib_failure_names(subnet.value().fabric, names_of(fabric), r.failures, r.where);
  if (!failures) return failures.errors();
  so.failures = std::move(failures).value();
  so.shifts = r.shifts;
  so.random = r.random;
  so.seed = r.seed;
  so.switch_lids = r.switch_lids;
  so.where = r.where;
  so.progress = std::move(progress);
  return study_ib_route(std::move(subnet).value(), so);
}

Result<IbTraceStudy> run_ib_trace(const IbRequest& r, const Fabric* fabric) {
  auto subnet = load_subnet(r, fabric);
  if (!subnet) return subnet.errors();
  IbTraceOptions to;
  auto routing = routing_options(r, subnet.value().fabric);
  if (!routing) return routing.errors();
  to.routing = std::move(routing).value();
  const IbFabric& ib = subnet.value().fabric;
  auto source = ib_node_name(ib, names_of(fabric), r.source, r.where, "src", false);
  auto destination = ib_node_name(ib, names_of(fabric), r.destination, r.where, "dst", true);
  Diagnostics errors;
  if (!source) errors = source.errors();
  if (!destination) errors.insert(errors.end(), destination.errors().begin(), destination.errors().end());
  if (!errors.empty()) return errors;
  to.source = source.value();
  to.destination = destination.value();
  auto failures = ib_failure_names(ib, names_of(fabric), r.failures, r.where);
  if (!failures) return failures.errors();
  to.failures = std::move(failures).value();
  to.where = r.where;
  return study_ib_trace(std::move(subnet).value(), to);
}

Result<IbExport> run_ib_export(const IbRequest& r, const Fabric* fabric, bool with_lids) {
  auto subnet = load_subnet(r, fabric);
  if (!subnet) return subnet.errors();
  IbExport out{std::move(subnet.value().fabric), std::nullopt};
  if (!r.failures.empty()) {
    auto failures = ib_failure_names(out.fabric, names_of(fabric), r.failures, r.where);
    if (!failures) return failures.errors();
    auto removed = remove_cables(out.fabric, failures.value(), r.where);
    if (!removed) return removed.errors();
  }
  if (!with_lids) return out;
  auto lids = assign_lids(out.fabric, r.lmc);
  if (!lids) {
    Diagnostics errors = lids.errors();
    for (Diagnostic& d : errors) {
      if (d.where.file.empty()) d.where.file = subnet.value().file;
    }
    return errors;
  }
  out.lids = std::move(lids).value();
  return out;
}

Result<Fabric> load_ib_simulation_fabric(const std::string& path, IbEngine engine, const Catalog& catalog) {
  IbRequest request;
  request.ibnetdiscover_path = path;
  auto subnet = load_subnet(request, nullptr);
  if (!subnet) return subnet.errors();
  IbRoutingOptions options;
  options.engine = engine;
  auto routing = route_fabric(subnet->fabric, options);
  if (!routing) return routing.errors();
  std::string name = path.substr(path.find_last_of('/') + 1);
  return simulation_fabric(subnet->fabric, routing.value(), catalog, name);
}

}  // namespace ct
