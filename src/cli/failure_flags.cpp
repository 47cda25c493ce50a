#include "cli/failure_flags.h"

namespace ct::cli {
namespace {

const char* help_of(FailureKind k) {
  switch (k) {
    case FailureKind::kNode: return "A Node that dies: its pods, its BGP session, its Longhorn disk (repeatable)";
    case FailureKind::kSwitch: return "A frontend switch of the spec that fails, e.g. fe/leaf/0 (repeatable)";
    case FailureKind::kLink: return "A frontend link of the spec that fails, e.g. 'host3/fe0 -- fe/leaf/0' (repeatable)";
    case FailureKind::kBgpPeer: return "A MetalLB BGPPeer whose router fails, by name (repeatable)";
    case FailureKind::kDnsServer: return "A name server of the zones (an NS target) that fails (repeatable)";
    case FailureKind::kDisk: return "The Longhorn disk of a node that fails, by the node's name (repeatable)";
    case FailureKind::kIssuer: return "A cert-manager Issuer (ns/name) or ClusterIssuer (name) that fails (repeatable)";
    case FailureKind::kAddressPool: return "A MetalLB IPAddressPool that is lost, by name (repeatable)";
  }
  return "";
}

}  // namespace

void FailureFlags::add_to(CLI::App& app, bool with_at) {
  for (const FailureKind k : kFailureKinds) {
    app.add_option("--" + to_string(k), names_[k], help_of(k))->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }
  if (with_at) {
    app.add_option("--at", at_, "The time of the failure named just before it, in seconds after t = 0 (default 0)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }
}

Result<std::vector<Failure>> FailureFlags::in_order(const CLI::App& app) const {
  std::vector<Failure> out;
  std::vector<bool> timed;
  std::map<FailureKind, std::size_t> next;
  std::size_t next_at = 0;
  for (const CLI::Option* opt : app.parse_order()) {
    const std::string name = opt->get_name();
    if (name == "--at") {
      if (out.empty()) return Diagnostic{{"command line", 0, 0}, "--at", "--at comes after the failure it times (e.g. --node node-3 --at 120)"};
      if (timed.back()) return Diagnostic{{"command line", 0, 0}, "--at", "two --at for " + failure_label(out.back())};
      out.back().at_s = at_.at(next_at++);
      timed.back() = true;
      continue;
    }
    for (const FailureKind k : kFailureKinds) {
      if (name != "--" + to_string(k)) continue;
      out.push_back(Failure{k, names_.at(k).at(next[k]++), 0});
      timed.push_back(false);
    }
  }
  return out;
}

}  // namespace ct::cli
