// clustertwin export dns NAMED_CONF [--directory DIR] [--listen-on IP] [-o FOLDER] [--json]
//   The twin's DNS views as named.conf and zone files for BIND (dns_views.h export_named).
// clustertwin export bgp MANIFESTS... [--vip IP] [-o FOLDER] [--json]
//   The BGP speakers of the VIP as gobgpd configurations and the upstream router as BIRD 2's
//   (bgp_vip.h export_bgp).
// Without -o the files are printed one after the other under "==> NAME <==" lines. With -o every
// input is read and checked first; then the files are written into FOLDER together, or none
// (io/output_set.h).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "frontend/bgp_vip.h"
#include "frontend/request_trace.h"
#include "io/dns_files.h"
#include "io/files.h"
#include "io/manifest_files.h"
#include "routing/port_address.h"

namespace ct::cli {
namespace {

struct ExportOptions {
  std::string named_conf;
  std::string directory;
  std::string listen_on;
  std::vector<std::string> manifests;
  std::string vip;
  std::string output;
  bool json = false;
};

int write_all(const std::vector<ExportedFile>& files, const ExportOptions& o) {
  if (o.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& f : files) j.push_back({{"name", f.name}, {"content", f.content}});
    if (o.output.empty()) return emit("", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  }
  if (o.output.empty()) {
    std::string all;
    for (const auto& f : files) all += "==> " + f.name + " <==\n" + f.content;
    return emit("", all);
  }
  // The folder is made if missing (and removed again when nothing could be written into it).
  std::error_code ec;
  const bool made = std::filesystem::create_directories(o.output, ec);
  if (ec) return report_errors({Diagnostic{{o.output, 0, 0}, "-o", "cannot create the folder: " + ec.message()}});
  OutputSet outputs;
  for (const auto& f : files) outputs.stage((std::filesystem::path(o.output) / f.name).string(), f.content);
  if (const int rc = commit(outputs); rc != kExitOk) {
    if (made) std::filesystem::remove(o.output, ec);
    return rc;
  }
  std::cerr << "wrote " << files.size() << " file(s) to " << o.output << "\n";
  return kExitOk;
}

int run_dns(const ExportOptions& o) {
  auto dns = load_dns(o.named_conf);
  if (!dns) return report_errors(dns.errors());
  std::cerr << format_diagnostics(dns->warnings);
  const std::string dir = o.directory.empty() ? (o.output.empty() ? "." : std::filesystem::absolute(o.output).string()) : o.directory;
  return write_all(export_named(dns.value(), {dir, o.listen_on, ""}), o);
}

int run_bgp(const ExportOptions& o) {
  auto m = load_manifests(o.manifests);
  if (!m) return report_errors(m.errors());
  std::cerr << format_diagnostics(m->warnings);
  const FrontendModel model = build_frontend_model(std::move(m).value(), std::nullopt, std::nullopt);
  // --vip when given (its errors are the command line's); else the first LoadBalancer Service's
  // address (its errors are the manifests').
  std::vector<std::uint32_t> vips;
  if (!o.vip.empty()) {
    const auto ip = parse_ipv4(o.vip);
    if (!ip) return report_errors({flag_error("--vip", "expected an IPv4 address, got '" + o.vip + "'")});
    vips.push_back(*ip);
  } else {
    for (const auto& s : model.manifests.services) {
      if (s.type == "LoadBalancer" && parse_ipv4(s.load_balancer_ip)) vips.push_back(*parse_ipv4(s.load_balancer_ip));
    }
  }
  if (vips.empty()) {
    return report_errors({Diagnostic{{o.manifests.front(), 0, 0}, "",
                                     "no LoadBalancer Service with an address in these manifests: add one, or give --vip"}});
  }
  const auto vip = find_vip(model.manifests, model.placement, vips.front());
  if (!vip) return report_errors({flag_error("--vip", format_ipv4(vips.front()) + " is no LoadBalancer Service's address")});
  if (!vip->problems.empty()) {
    const SourceLocation at = vip->service != nullptr ? vip->service->meta.where : SourceLocation{o.manifests.front(), 0, 0};
    return report_errors({Diagnostic{at, "", "VIP " + format_ipv4(vip->vip) + ": " + vip->problems.front()}});
  }
  const std::string dir = o.output.empty() ? "." : std::filesystem::absolute(o.output).string();
  return write_all(export_bgp(*vip, dir), o);
}

}  // namespace

Runner setup_export(CLI::App& app, Context& /*context*/) {
  auto o = std::make_shared<ExportOptions>();
  app.require_subcommand(1);
  CLI::App* dns = app.add_subcommand("dns", "The DNS views as named.conf and zone files for BIND 9");
  dns->add_option("named_conf", o->named_conf, "BIND named.conf with the views")->required()->check(CLI::ExistingFile);
  dns->add_option("--directory", o->directory, "options { directory } of the written named.conf (default: the output folder)");
  dns->add_option("--listen-on", o->listen_on, "listen-on address of the written named.conf");
  CLI::App* bgp = app.add_subcommand("bgp", "The VIP's BGP speakers (gobgpd) and the upstream router (BIRD 2)");
  bgp->add_option("manifests", o->manifests, "Kubernetes manifest files or folders")->required()->check(CLI::ExistingPath);
  bgp->add_option("--vip", o->vip, "The VIP (default: the first LoadBalancer Service's address)");
  for (CLI::App* sub : {dns, bgp}) {
    sub->add_option("-o,--output", o->output, "Write the files into this folder (each atomically)");
    sub->add_flag("--json", o->json, "The files as a JSON array of {name, content}");
  }
  return [o, dns, bgp](const Context&) {
    if (dns->parsed()) return run_dns(*o);
    if (bgp->parsed()) return run_bgp(*o);
    return kExitUsage;
  };
}

}  // namespace ct::cli
