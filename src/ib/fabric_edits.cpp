#include "ib/fabric_edits.h"

#include <charconv>

#include <fmt/format.h>

#include "core/suggest.h"
#include "core/text.h"
#include "core/text_lines.h"

namespace ct {
Result<IbNodeId> find_node(const IbFabric& fabric, std::string_view key) {
  key = trim(key, kSpaceTabCr);
  if (const auto n = fabric.find(key)) return *n;
  if (key.size() > 2 && key[0] == '0' && (key[1] == 'x' || key[1] == 'X')) {
    std::uint64_t guid = 0;
    const auto [ptr, ec] = std::from_chars(key.data() + 2, key.data() + key.size(), guid, 16);
    if (ec == std::errc() && ptr == key.data() + key.size()) {
      if (const auto port = fabric.find_port_by_guid(guid)) return port->node;
    }
  }
  return Diagnostic{{"command line", 0, 0}, "node", fmt::format("no node named \"{}\" (give a node id, description or GUID)", key)};
}

namespace {

// The names a node list may use for the nodes of a type (all types: nullopt), for did-you-mean.
std::vector<std::string> labels(const IbFabric& fabric, std::optional<IbNodeType> type) {
  std::vector<std::string> out;
  for (std::uint32_t n = 0; n < fabric.node_count(); ++n) {
    if (!type || fabric.type[n] == *type) out.push_back(fabric.label(IbNodeId(n)));
  }
  return out;
}

}  // namespace

Result<std::vector<IbNodeId>> parse_node_list(const IbFabric& fabric, std::string_view text, const std::string& file,
                                              std::optional<IbNodeType> required) {
  std::vector<IbNodeId> nodes;
  Diagnostics errors;
  LineCursor lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const int line_no = lines.number();
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line, kSpaceTabCr);
    if (line.empty()) continue;
    auto node = find_node(fabric, line);
    if (!node) {
      errors.push_back({{file, line_no, 1}, "node", node.errors()[0].message + did_you_mean(std::string(line), labels(fabric, required))});
      continue;
    }
    if (required && fabric.type[node.value().value()] != *required) {
      const bool want_switch = *required == IbNodeType::kSwitch;
      errors.push_back({{file, line_no, 1},
                        "node",
                        fmt::format("\"{}\" is {}, not {}: this file names {}", line,
                                    want_switch ? fmt::format("a CA (\"{}\")", fabric.label(node.value()))
                                                : fmt::format("a switch (\"{}\")", fabric.label(node.value())),
                                    want_switch ? "a switch" : "a CA",
                                    want_switch ? "root switches (OpenSM's root_guid_file)"
                                                : "compute-node CAs (OpenSM's cn_guid_file)")});
      continue;
    }
    nodes.push_back(node.value());
  }
  if (errors.empty() && nodes.empty()) {
    errors.push_back({{file, 1, 0}, "node",
                      text.empty() ? "the file is empty: expected one node id, description or GUID per line"
                                   : "the file names no node: expected one node id, description or GUID per line"});
  }
  if (!errors.empty()) return errors;
  return nodes;
}

Result<std::size_t> apply_failures(IbFabric& fabric, const std::vector<std::string>& failures) {
  std::size_t removed = 0;
  for (const std::string& spec : failures) {
    auto fail = [&](const std::string& why) {
      return Diagnostic{{"command line", 0, 0}, "--fail", fmt::format("\"{}\": {}", spec, why)};
    };
    const std::string_view s = spec;
    if (const auto comma = s.find(','); comma != std::string_view::npos) {
      auto a = find_node(fabric, s.substr(0, comma));
      auto b = find_node(fabric, s.substr(comma + 1));
      if (!a) return fail(a.errors()[0].message);
      if (!b) return fail(b.errors()[0].message);
      std::size_t here = 0;
      for (int p = 1; p <= fabric.ports(a.value()); ++p) {
        if (fabric.remote(a.value(), p).node == b.value()) {
          fabric.disconnect(a.value(), p);
          ++here;
        }
      }
      if (here == 0) return fail("no cable joins these two nodes");
      removed += here;
      continue;
    }
    // NODE:PORT, unless the whole string names a node (descriptions may contain ':').
    if (auto whole = find_node(fabric, s)) {
      std::size_t here = 0;
      for (int p = 1; p <= fabric.ports(whole.value()); ++p) {
        if (fabric.remote(whole.value(), p).connected()) {
          fabric.disconnect(whole.value(), p);
          ++here;
        }
      }
      if (here == 0) return fail("the node has no cable left");
      removed += here;
      continue;
    }
    const auto colon = s.rfind(':');
    if (colon == std::string_view::npos) return fail("no such node (expected NODE, NODE:PORT or NODE,NODE)");
    auto node = find_node(fabric, s.substr(0, colon));
    if (!node) return fail(node.errors()[0].message);
    int port = 0;
    const auto digits = trim(s.substr(colon + 1), kSpaceTabCr);
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || port < 1 || port > fabric.ports(node.value())) {
      return fail(fmt::format("port must be 1..{}", fabric.ports(node.value())));
    }
    if (!fabric.remote(node.value(), port).connected()) return fail("that port has no cable");
    fabric.disconnect(node.value(), port);
    ++removed;
  }
  return removed;
}

}  // namespace ct
