#include "catalog/catalog.h"

#include <algorithm>

namespace ct {
namespace {
template <typename T>
const T* find_by_id(const std::vector<T>& v, const std::string& id) {
  auto it = std::find_if(v.begin(), v.end(), [&](const T& e) { return e.id == id; });
  return it == v.end() ? nullptr : &*it;
}
}  // namespace

int SwitchModel::ports_at(BitsPerSecond speed) const {
  if (speed == port_speed) return ports;
  for (const auto& b : breakouts) {
    if (b.speed == speed) return ports * b.ways;
  }
  return 0;
}

bool NicModel::can_split(int ways) const { return std::find(splits.begin(), splits.end(), ways) != splits.end(); }

const NodeModel* Catalog::find_node(const std::string& id) const { return find_by_id(nodes, id); }
const NicModel* Catalog::find_nic(const std::string& id) const { return find_by_id(nics, id); }
const SwitchModel* Catalog::find_switch(const std::string& id) const { return find_by_id(switches, id); }
const OpticModel* Catalog::find_optic(const std::string& id) const { return find_by_id(optics, id); }

const FailureRate* Catalog::find_failure_rate(FailureElement element, std::optional<MediaKind> media) const {
  const FailureRate* any_media = nullptr;
  for (const auto& r : failure_rates) {
    if (r.element != element) continue;
    if (media && r.media == media) return &r;
    if (!r.media && any_media == nullptr) any_media = &r;
  }
  return any_media;
}

std::string to_string(Protocol p) { return p == Protocol::kEthernet ? "ethernet" : "infiniband"; }

std::string to_string(Forwarding f) { return f == Forwarding::kCutThrough ? "cut-through" : "store-and-forward"; }

std::string to_string(NicKind k) {
  switch (k) {
    case NicKind::kNic: return "nic";
    case NicKind::kSuperNic: return "supernic";
    case NicKind::kDpu: return "dpu";
  }
  return "?";
}

std::string to_string(MediaKind k) {
  switch (k) {
    case MediaKind::kTransceiver: return "transceiver";
    case MediaKind::kDac: return "dac";
    case MediaKind::kAcc: return "acc";
    case MediaKind::kAoc: return "aoc";
  }
  return "?";
}

std::string to_string(Medium m) {
  switch (m) {
    case Medium::kSingleMode: return "smf";
    case Medium::kMultiMode: return "mmf";
    case Medium::kCopper: return "copper";
  }
  return "?";
}

std::string to_string(FailureElement e) {
  switch (e) {
    case FailureElement::kNic: return "nic";
    case FailureElement::kLink: return "link";
    case FailureElement::kLeaf: return "leaf";
    case FailureElement::kSpine: return "spine";
    case FailureElement::kCore: return "core";
  }
  return "?";
}

}  // namespace ct
