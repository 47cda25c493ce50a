#include "traffic/flow_file.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "core/csv_cursor.h"
#include "core/suggest.h"
#include "core/text.h"
#include "fabric/name_directory.h"
#include "routing/port_address.h"
#include "yaml/yaml_reader.h"

namespace ct {
namespace {

constexpr std::array<const char*, 8> kColumns = {"src",  "dst",  "protocol", "src_port",
                                                 "dst_port", "size", "bursts", "idle_us"};

// One flow as text: each field's value and where it was written.
struct Cell {
  std::string text;
  SourceLocation where;
  bool present = false;
};
struct Record {
  SourceLocation where;
  std::string prefix;  // "flows[3]." in YAML, "" in CSV
  std::map<std::string, Cell> cells;
};

template <typename Int>
bool parse_int(const std::string& text, Int& out) {
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, out, 10);
  return begin != end && ec == std::errc() && ptr == end;
}

// Turns records into flows, collecting every problem.
class FlowResolver {
 public:
  FlowResolver(const std::string& file, const NameDirectory& names)
      : file_(file), names_(names), topology_(names.topology()) {}

  void add(const Record& r) {
    Flow f;
    bool ok = true;
    ok &= endpoint(r, "src", f.src);
    ok &= endpoint(r, "dst", f.dst);
    ok &= protocol(r, f.key.protocol);
    ok &= port(r, "src_port", true, f.key.src_port);
    ok &= port(r, "dst_port", false, f.key.dst_port);
    ok &= size(r, f.size);
    ok &= bursts(r, f.bursts);
    ok &= idle(r, f.idle_us);
    if (ok && topology_.plane[f.src.value()] != topology_.plane[f.dst.value()]) {
      error(r.where, r.prefix + "dst", "source and destination are on different planes; planes are separate networks");
      ok = false;
    }
    if (ok && f.src == f.dst) {
      error(r.where, r.prefix + "dst", "source and destination are the same port");
      ok = false;
    }
    if (!ok) return;
    f.key.src_ip = port_address(topology_, f.src);
    f.key.dst_ip = port_address(topology_, f.dst);
    f.label = fmt::format("{}:{}", file_, r.where.line);
    flows_.push_back(f);
  }

  void error(const SourceLocation& where, std::string field, std::string message) {
    errors_.push_back(Diagnostic{where, std::move(field), std::move(message), Severity::kError});
  }

  Result<std::vector<Flow>> result() {
    if (!errors_.empty()) return errors_;
    return std::move(flows_);
  }
  const std::string& file() const { return file_; }

 private:
  const Cell* cell(const Record& r, const char* name) const {
    auto it = r.cells.find(name);
    return it == r.cells.end() || !it->second.present ? nullptr : &it->second;
  }

  bool endpoint(const Record& r, const char* name, VertexId& out) {
    const Cell* c = cell(r, name);
    if (c == nullptr) {
      error(r.where, r.prefix + name, "required field is missing: a port name (host0/nic1) or its IPv4 address");
      return false;
    }
    std::optional<VertexId> v;
    if (auto address = parse_ipv4(c->text)) {
      v = port_of_address(topology_, *address);
    } else {
      v = names_.port_spelled(c->text);
    }
    if (!v) {
      const std::string hint = names_.port_hint(c->text);  // "host0/nci0": did you mean host0/nic0
      error(c->where, r.prefix + name,
            hint.empty() ? fmt::format("'{}' is no backend port of this fabric ({} hosts x {} NICs x {} planes; e.g. "
                                       "host0/nic0 or {})",
                                       c->text, topology_.host_count, topology_.ports_per_host, topology_.planes,
                                       format_ipv4(port_address(topology_, VertexId(0u))))
                         : fmt::format("'{}' is no backend port of this fabric{}", c->text, hint));
      return false;
    }
    out = *v;
    return true;
  }

  bool protocol(const Record& r, std::uint8_t& out) {
    const Cell* c = cell(r, "protocol");
    if (c == nullptr || c->text == "udp") return true;
    if (c->text == "tcp") {
      out = kIpProtoTcp;
      return true;
    }
    int number = 0;
    if (parse_int(c->text, number) && number >= 0 && number <= 255) {
      out = static_cast<std::uint8_t>(number);
      return true;
    }
    error(c->where, r.prefix + "protocol", fmt::format("expected udp, tcp or a protocol number 0..255, got '{}'", c->text));
    return false;
  }

  bool port(const Record& r, const char* name, bool required, std::uint16_t& out) {
    const Cell* c = cell(r, name);
    if (c == nullptr) {
      if (required) error(r.where, r.prefix + name, "required field is missing: the UDP/TCP port, 0..65535");
      return !required;
    }
    int number = 0;
    if (!parse_int(c->text, number) || number < 0 || number > 65535) {
      error(c->where, r.prefix + name, fmt::format("expected a port number 0..65535, got '{}'", c->text));
      return false;
    }
    out = static_cast<std::uint16_t>(number);
    return true;
  }

  bool size(const Record& r, Bytes& out) {
    const Cell* c = cell(r, "size");
    if (c == nullptr) return true;
    auto parsed = parse_size(c->text);
    if (!parsed || parsed.value().value() <= 0) {
      error(c->where, r.prefix + "size",
            fmt::format("expected a positive size such as 1048576, 64MB or 1GiB, got '{}'", c->text));
      return false;
    }
    out = parsed.value();
    return true;
  }

  bool bursts(const Record& r, int& out) {
    const Cell* c = cell(r, "bursts");
    if (c == nullptr) return true;
    if (!parse_int(c->text, out) || out < 1) {
      error(c->where, r.prefix + "bursts", fmt::format("expected an integer >= 1, got '{}'", c->text));
      return false;
    }
    return true;
  }

  bool idle(const Record& r, double& out) {
    const Cell* c = cell(r, "idle_us");
    if (c == nullptr) return true;
    auto [ptr, ec] = std::from_chars(c->text.data(), c->text.data() + c->text.size(), out);
    if (c->text.empty() || ec != std::errc() || ptr != c->text.data() + c->text.size() || !(out >= 0) ||
        !std::isfinite(out)) {
      error(c->where, r.prefix + "idle_us", fmt::format("expected a number of microseconds >= 0, got '{}'", c->text));
      return false;
    }
    return true;
  }

  const std::string& file_;
  const NameDirectory& names_;
  const Topology& topology_;
  std::vector<Flow> flows_;
  Diagnostics errors_;
};

std::vector<std::string> column_names() { return {kColumns.begin(), kColumns.end()}; }

bool known_column(const std::string& name) {
  return std::find(kColumns.begin(), kColumns.end(), name) != kColumns.end();
}

void read_csv(const std::string& text, FlowResolver& resolver) {
  const std::string& file = resolver.file();
  std::vector<std::string> header;
  CsvCursor csv(file, text, kSpaceTabCr, kSpaceTabCr);
  std::string_view raw;
  while (csv.next_line(raw)) {
    const int line = csv.line_number();
    if (trim(raw, kSpaceTabCr).empty() || trim(raw, kSpaceTabCr).starts_with('#')) continue;
    if (!csv.split(raw)) {
      const Diagnostic& e = csv.error();
      resolver.error(e.where, e.field, e.message);
      continue;
    }
    // Cells with the column where each one's text begins (past its spaces and tabs).
    std::vector<std::pair<std::string, int>> cells;
    for (const CsvCell& c : csv.cells()) {
      const auto lead = c.raw(raw).find_first_not_of(" \t");
      cells.emplace_back(c.text, c.column + static_cast<int>(lead == std::string_view::npos ? 0 : lead));
    }
    if (header.empty()) {
      for (const auto& [name, column] : cells) {
        if (!known_column(name)) {
          resolver.error({file, line, column}, name,
                         "unknown column" + did_you_mean(name, column_names()) +
                             "; columns: src, dst, protocol, src_port, dst_port, size, bursts, idle_us");
        }
        header.push_back(name);
      }
      continue;
    }
    Record r;
    r.where = {file, line, 1};
    if (cells.size() != header.size()) {
      resolver.error(r.where, "", fmt::format("expected {} cells as in the header, got {}", header.size(), cells.size()));
      continue;
    }
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (!known_column(header[i]) || cells[i].first.empty()) continue;
      r.cells[header[i]] = Cell{cells[i].first, {file, line, cells[i].second}, true};
    }
    resolver.add(r);
  }
  if (header.empty()) resolver.error({file, 1, 1}, "", "empty CSV: expected a header line such as src,dst,src_port");
}

// The YAML form through the project's reader (yaml/yaml_reader.h): its bounds on the tree, field
// tables with did-you-mean, and locations; each value is kept as text for FlowResolver, which
// checks both forms alike.
void read_yaml(const std::string& text, FlowResolver& resolver) {
  YamlReader reader(resolver.file());
  // The reader's diagnostics join the resolver's as they come, so that all stay in file order.
  const auto pass_on = [&] {
    for (Diagnostic& d : reader.errors()) resolver.error(d.where, std::move(d.field), std::move(d.message));
    reader.errors().clear();
  };
  const std::optional<YamlNode> root = reader.load(text);
  if (!root) return pass_on();
  YamlNode key = *root;
  YamlNode list = *root;
  bool has_list = root->is_sequence();  // a bare list
  if (root->is_mapping()) {
    reader.mapping(*root, *root, "",
                   {{"flows",
                     [&](const YamlNode& k, const YamlNode& v, const std::string&) {
                       key = k;
                       list = v;
                       has_list = true;
                     },
                     YamlReader::Presence::kRequired, "a list of flows under `flows:`"}});
  } else if (!has_list) {
    reader.error({resolver.file(), 1, 1}, "flows", "expected a list of flows under `flows:`");
  }
  pass_on();
  if (!has_list) return;
  reader.list(key, list, "flows", [&](const YamlNode& item, const std::string& path) {
    Record r;
    r.where = reader.at(item);
    r.prefix = path + ".";
    if (!item.is_mapping()) {
      reader.error(r.where, path, "expected a mapping such as {src: host0/nic0, dst: host1/nic0, src_port: 49152}");
      return pass_on();
    }
    std::vector<YamlReader::Field> fields;
    for (const char* column : kColumns) {
      fields.push_back({column, [&r, &reader, column](const YamlNode& k, const YamlNode& v, const std::string& f) {
                          if (!v.is_scalar()) {
                            reader.error(reader.at(k), f, "expected a single value");
                            return;
                          }
                          r.cells[column] = Cell{v.scalar(), reader.at(v), true};
                        }});
    }
    reader.mapping(item, item, path, fields);
    const bool clean = reader.errors().empty();
    pass_on();
    if (clean) resolver.add(r);
  }, "a list of flows");
  pass_on();
}

}  // namespace

Result<std::vector<Flow>> parse_flow_file(const std::string& file, const std::string& text, const NameDirectory& names) {
  FlowResolver resolver(file, names);
  if (file.ends_with(".csv")) {
    read_csv(text, resolver);
  } else {
    read_yaml(text, resolver);
  }
  auto result = resolver.result();
  if (result.ok() && result.value().empty()) return Diagnostic{{file, 1, 1}, "flows", "the file lists no flows"};
  return result;
}

}  // namespace ct
