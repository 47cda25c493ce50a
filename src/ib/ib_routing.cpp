#include "ib/ib_routing.h"

#include "ib/switch_graph.h"

namespace ct {

std::string to_string(IbEngine engine) {
  switch (engine) {
    case IbEngine::kMinHop: return "minhop";
    case IbEngine::kUpDown: return "updn";
    case IbEngine::kFatTree: return "ftree";
  }
  return "?";
}

std::vector<std::string> ib_engine_names() {
  return {to_string(IbEngine::kFatTree), to_string(IbEngine::kUpDown), to_string(IbEngine::kMinHop)};
}

std::optional<IbEngine> ib_engine_named(std::string_view name) {
  for (const IbEngine e : {IbEngine::kFatTree, IbEngine::kUpDown, IbEngine::kMinHop}) {
    if (to_string(e) == name) return e;
  }
  return std::nullopt;
}

void IbRouting::reset_tables(const IbFabric& fabric) {
  switches.clear();
  switch_index_.assign(fabric.node_count(), SwitchGraph::kNone);
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    if (!fabric.is_switch(IbNodeId(i))) continue;
    switch_index_[i] = static_cast<std::uint32_t>(switches.size());
    switches.push_back(IbNodeId(i));
  }
  stride_ = lids.max_lid() + 1;
  lft_.assign(switches.size() * static_cast<std::size_t>(stride_), kNoPath);
}

}  // namespace ct
