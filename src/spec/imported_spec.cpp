#include "spec/valid_spec.h"

namespace ct {

ValidSpec imported_spec(std::string file, std::string name, long long hosts, SwitchModel switch_model, NicModel nic) {
  ValidSpec s;
  s.file = file;
  s.name = std::move(name);
  s.node.id = "imported host";
  s.node.gpus = 1;
  s.node.backend_nic = nic.id;
  s.node.backend_nics = 1;
  s.node_count = hosts;
  s.backend.topology = TopologyKind::kLeafSpine;
  s.backend.planes = 1;
  s.backend.tiers = 2;
  s.backend.switch_where = SourceLocation{file, 0, 0};
  s.backend.port_speed = nic.port_speed;
  s.backend.port_speed_where = SourceLocation{file, 0, 0};
  s.backend.radix = switch_model.ports;
  s.backend.ports_per_host = 1;
  s.backend.switch_model = std::move(switch_model);
  s.backend.nic = std::move(nic);
  s.routing_where = SourceLocation{std::move(file), 0, 0};
  return s;
}

}  // namespace ct
