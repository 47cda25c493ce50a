#include "ib/ibnetdiscover.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "core/text_lines.h"

namespace ct {
namespace {

constexpr std::uint64_t kIbsimFirstSwitchGuid = 0x200000;
constexpr std::uint64_t kIbsimFirstCaGuid = 0x100000;

// A cursor over one line.
class LineReader {
 public:
  explicit LineReader(std::string_view line) : line_(line) {}
  void skip_space() {
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t' || line_[pos_] == '\r')) ++pos_;
  }
  [[nodiscard]] bool at_end() const { return pos_ >= line_.size(); }
  [[nodiscard]] char peek() const { return at_end() ? '\0' : line_[pos_]; }
  bool consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool consume_word(std::string_view word) {
    if (line_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  // Digits in `base`; false when none.
  bool read_uint(std::uint64_t& value, int base = 10) {
    const auto* begin = line_.data() + pos_;
    const auto [ptr, ec] = std::from_chars(begin, line_.data() + line_.size(), value, base);
    if (ec != std::errc() || ptr == begin) return false;
    pos_ += static_cast<std::size_t>(ptr - begin);
    return true;
  }
  // "0x..." or plain hex digits.
  bool read_hex(std::uint64_t& value) {
    if (line_.substr(pos_, 2) == "0x" || line_.substr(pos_, 2) == "0X") pos_ += 2;
    return read_uint(value, 16);
  }
  bool read_quoted(std::string& out) {
    if (!consume('"')) return false;
    const auto close = line_.find('"', pos_);
    if (close == std::string_view::npos) return false;
    out.assign(line_.substr(pos_, close - pos_));
    pos_ = close + 1;
    return true;
  }
  [[nodiscard]] std::string_view rest() const { return at_end() ? std::string_view{} : line_.substr(pos_); }
  [[nodiscard]] int column() const { return static_cast<int>(pos_) + 1; }

 private:
  std::string_view line_;
  std::size_t pos_ = 0;
};

struct PortLine {
  IbNodeId node;
  int port = 0;
  std::string remote_name;
  int remote_port = 1;
  int line = 0;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Result<IbFabric> run() {
    LineCursor lines(text_);
    std::string_view line;
    while (errors_.empty() && lines.next(line)) handle_line(line, lines.number());
    if (errors_.empty() && fabric_.node_count() == 0) {
      error(std::max(lines.number(), 1), 0, "file",
            text_.empty() ? "the file is empty: expected an ibnetdiscover topology (Switch and Ca blocks)"
                          : "no Switch or Ca block found: not an ibnetdiscover topology");
    }
    if (errors_.empty()) link_ports();
    if (!errors_.empty()) return errors_;
    return std::move(fabric_);
  }

 private:
  // `field`: the part of the line at fault, as a dotted path (node.ports, port.remote_node, ...).
  void error(int line, int column, const char* field, std::string message) {
    errors_.push_back(Diagnostic{{file_, line, column}, field, std::move(message)});
  }

  void handle_line(std::string_view raw, int line_no) {
    LineReader r(raw);
    r.skip_space();
    if (r.at_end()) {
      current_ = IbNodeId::invalid();  // a blank line ends a node block
      return;
    }
    if (r.peek() == '#') return;
    if (r.peek() == '[') {
      if (!current_.valid()) {
        error(line_no, r.column(), "port", "port line outside a Switch or Ca block");
        return;
      }
      parse_port(r, line_no);
      return;
    }
    current_ = IbNodeId::invalid();
    if (r.consume_word("Switch")) {
      parse_header(r, line_no, IbNodeType::kSwitch);
    } else if (r.consume_word("Hca") || r.consume_word("Ca")) {
      parse_header(r, line_no, IbNodeType::kCa);
    } else if (r.consume_word("Rt")) {
      error(line_no, 1, "node.type", "router (Rt) nodes are not modelled");
    } else if (r.consume_word("switchguid")) {
      parse_guid_line(r, line_no, next_switch_guid_);
    } else if (r.consume_word("caguid") || r.consume_word("hcaguids")) {
      parse_guid_line(r, line_no, next_ca_guid_);
    }
    // Anything else (vendid=, devid=, sysimgguid=, ibsim directives) carries nothing we model.
  }

  void parse_guid_line(LineReader& r, int line_no, std::uint64_t& counter) {
    r.skip_space();
    const bool relative = r.peek() == '+';
    if (!r.consume('=') && !r.consume('+')) {
      error(line_no, r.column(), "guid", "expected '=' after the GUID keyword");
      return;
    }
    r.skip_space();
    std::uint64_t value = 0;
    if (!r.read_hex(value)) {
      error(line_no, r.column(), "guid", "expected a hexadecimal GUID");
      return;
    }
    counter = relative ? counter + value : value;
  }

  void parse_header(LineReader& r, int line_no, IbNodeType node_type) {
    r.skip_space();
    std::uint64_t ports = 0;
    if (!r.read_uint(ports) || ports < 1 || ports > IbFabric::kMaxPorts) {
      error(line_no, r.column(), "node.ports",
            fmt::format("expected the port count (1..{}) after the node type", IbFabric::kMaxPorts));
      return;
    }
    r.skip_space();
    std::string node_name;
    if (!r.read_quoted(node_name) || node_name.empty()) {
      error(line_no, r.column(), "node.id", "expected the quoted node id, e.g. \"S-0002c90200000001\"");
      return;
    }
    std::string desc;
    std::uint16_t lid = 0;
    const auto rest = r.rest();
    if (const auto hash = rest.find('#'); hash != std::string_view::npos) {
      LineReader comment(rest.substr(hash + 1));
      comment.skip_space();
      if (comment.peek() == '"' && !comment.read_quoted(desc)) {
        error(line_no, 0, "node.description", "unterminated quoted node description");
        return;
      }
      // A switch's own LID follows its description: "... enhanced port 0 lid 1 lmc 0".
      if (node_type == IbNodeType::kSwitch &&
          !read_stated_lid(comment.rest(), r.column() + static_cast<int>(hash) + comment.column(), line_no, "node.lid", lid)) {
        return;
      }
    }
    if (names_.count(node_name) != 0) {
      error(line_no, 0, "node.id", fmt::format("node id \"{}\" already defined on line {}", node_name, names_[node_name].line));
      return;
    }
    std::uint64_t& counter = node_type == IbNodeType::kSwitch ? next_switch_guid_ : next_ca_guid_;
    const std::uint64_t node_guid = counter;
    counter += node_type == IbNodeType::kSwitch ? 1 : ports + 1;
    if (const auto it = guids_.find(node_guid); it != guids_.end()) {
      error(line_no, 0, "node.guid",
            fmt::format("node GUID {} already used by the node on line {}", format_guid(node_guid), it->second));
      return;
    }
    current_ = fabric_.add_node(node_type, node_guid, node_name, desc, static_cast<int>(ports));
    fabric_.line[current_.value()] = line_no;
    if (lid != 0) fabric_.set_stated_lid(current_, 0, {lid, line_no});
    names_[node_name] = {current_, line_no};
    guids_[node_guid] = line_no;
  }

  void parse_port(LineReader& r, int line_no) {
    r.consume('[');
    std::uint64_t port = 0;
    if (!r.read_uint(port) || !r.consume(']')) {
      error(line_no, r.column(), "port.number", "expected a port number in brackets, e.g. [1]");
      return;
    }
    const int ports = fabric_.ports(current_);
    if (port < 1 || port > static_cast<std::uint64_t>(ports)) {
      error(line_no, 2, "port.number",
            fmt::format("port {} out of range: \"{}\" has ports 1..{}", port, fabric_.name[current_.value()], ports));
      return;
    }
    std::uint64_t local_guid = 0;
    if (r.consume('(')) {
      if (!r.read_hex(local_guid) || !r.consume(')')) {
        error(line_no, r.column(), "port.guid", "expected a hexadecimal port GUID in parentheses");
        return;
      }
    }
    if (r.consume('[')) {  // ibnetdiscover's "[ext N]" for external port numbers
      while (!r.at_end() && r.peek() != ']') r.consume(r.peek());
      if (!r.consume(']')) {
        error(line_no, r.column(), "port.ext", "unterminated '[' after the port number");
        return;
      }
    }
    r.skip_space();
    PortLine pl{current_, static_cast<int>(port), {}, 1, line_no};
    if (!r.read_quoted(pl.remote_name) || pl.remote_name.empty()) {
      error(line_no, r.column(), "port.remote_node",
            "expected the quoted id of the remote node, e.g. \"S-0002c90200000001\"[3]");
      return;
    }
    if (r.consume('[')) {
      std::uint64_t remote_port = 0;
      if (!r.read_uint(remote_port) || !r.consume(']') || remote_port < 1 || remote_port > IbFabric::kMaxPorts) {
        error(line_no, r.column(), "port.remote_port", "expected the remote port number in brackets, e.g. [3]");
        return;
      }
      pl.remote_port = static_cast<int>(remote_port);
    }
    // A CA port's own LID opens its comment, before the remote's quoted description:
    // "# lid 3 lmc 0 "leaf 1" lid 1 4xNDR" (the LID after the description is the remote's).
    std::uint16_t lid = 0;
    if (const auto rest = r.rest(); !fabric_.is_switch(current_)) {
      if (const auto hash = rest.find('#'); hash != std::string_view::npos) {
        const auto comment = rest.substr(hash + 1);
        if (!read_stated_lid(comment.substr(0, comment.find('"')), r.column() + static_cast<int>(hash) + 1, line_no,
                             "port.lid", lid)) {
          return;
        }
      }
    }
    const auto key = std::make_pair(current_.value(), pl.port);
    if (const auto it = port_lines_.find(key); it != port_lines_.end()) {
      error(line_no, 2, "port.number",
            fmt::format("port {} of \"{}\" already described on line {}", pl.port, fabric_.name[current_.value()],
                        lines_[it->second].line));
      return;
    }
    if (local_guid != 0 && !fabric_.is_switch(current_)) fabric_.set_port_guid(current_, pl.port, local_guid);
    if (const auto rate = stated_rate(r.rest())) fabric_.set_link_rate(current_, pl.port, *rate);
    if (lid != 0) fabric_.set_stated_lid(current_, pl.port, {lid, line_no});
    port_lines_[key] = lines_.size();
    lines_.push_back(std::move(pl));
  }

  void link_ports() {
    for (const PortLine& pl : lines_) {
      const auto it = names_.find(pl.remote_name);
      if (it == names_.end()) {
        error(pl.line, 0, "port.remote_node",
              fmt::format("remote node \"{}\" is never defined (truncated file?)", pl.remote_name));
        return;
      }
      const IbNodeId remote = it->second.node;
      if (remote == pl.node) {
        error(pl.line, 0, "port.remote_node",
              pl.remote_port == pl.port
                  ? std::string("a port cannot be cabled to itself")
                  : fmt::format("port {} of \"{}\" is cabled to port {} of the same {}: a loopback cable carries no "
                                "traffic (a wiring mistake?); unplug it, or leave both port lines out",
                                pl.port, pl.remote_name, pl.remote_port, fabric_.is_switch(remote) ? "switch" : "node"));
        return;
      }
      if (pl.remote_port > fabric_.ports(remote)) {
        error(pl.line, 0, "port.remote_port",
              fmt::format("remote port {} out of range: \"{}\" has ports 1..{}", pl.remote_port, pl.remote_name,
                          fabric_.ports(remote)));
        return;
      }
      const auto back = port_lines_.find({remote.value(), pl.remote_port});
      const bool consistent = back != port_lines_.end() && lines_[back->second].remote_name == fabric_.name[pl.node.value()] &&
                              lines_[back->second].remote_port == pl.port;
      if (!consistent) {
        error(pl.line, 0, "port.remote_port",
              fmt::format("\"{}\"[{}] is not described as cabled back to \"{}\"[{}] (truncated or inconsistent file?)",
                          pl.remote_name, pl.remote_port, fabric_.name[pl.node.value()], pl.port));
        return;
      }
      if (!fabric_.remote(pl.node, pl.port).connected()) fabric_.connect(pl.node, pl.port, remote, pl.remote_port);
    }
  }

  // "lid N [lmc M]" in `segment` (the part of a comment about this node's own port), whose first
  // character is at column `column`: N (1..0xBFFF) in `lid`, 0 when no LID is stated ("lid 0" is
  // what ibnetdiscover prints for a port no SM has configured). False after an error.
  bool read_stated_lid(std::string_view segment, int column, int line_no, const char* field, std::uint16_t& lid) {
    std::size_t at = 0;
    while ((at = segment.find("lid", at)) != std::string_view::npos) {
      const bool word_start = at == 0 || segment[at - 1] == ' ' || segment[at - 1] == '\t';
      const bool word_end = at + 3 < segment.size() && (segment[at + 3] == ' ' || segment[at + 3] == '\t');
      if (word_start && word_end) break;
      at += 3;
    }
    if (at == std::string_view::npos) return true;
    LineReader r(segment.substr(at + 3));
    r.skip_space();
    const int value_column = column + static_cast<int>(at) + 3 + r.column() - 1;
    std::uint64_t value = 0;
    if (!r.read_uint(value) || value > LidAssignment::kMaxUnicastLid) {
      error(line_no, value_column, field,
            fmt::format("expected a unicast LID (1..{}, or 0 for none) after \"lid\"", LidAssignment::kMaxUnicastLid));
      return false;
    }
    r.skip_space();
    if (r.consume_word("lmc")) {
      r.skip_space();
      std::uint64_t lmc = 0;
      if (!r.read_uint(lmc) || lmc > 7) {
        error(line_no, value_column, field, "expected an LMC (0..7) after \"lmc\"");
        return false;
      }
    }
    lid = static_cast<std::uint16_t>(value);
    return true;
  }

  // The link's width and speed ("4xNDR"): the last word of the comment after its last quoted
  // description, as ibnetdiscover ends a port line; nullopt when it states none.
  static std::optional<IbLinkRate> stated_rate(std::string_view rest) {
    const auto hash = rest.find('#');
    if (hash == std::string_view::npos) return std::nullopt;
    std::string_view comment = rest.substr(hash + 1);
    if (const auto quote = comment.rfind('"'); quote != std::string_view::npos) comment = comment.substr(quote + 1);
    const auto end = comment.find_last_not_of(" \t\r");
    if (end == std::string_view::npos) return std::nullopt;
    comment = comment.substr(0, end + 1);
    const auto space = comment.find_last_of(" \t");
    return parse_ib_link_rate(space == std::string_view::npos ? comment : comment.substr(space + 1));
  }

  struct NameEntry {
    IbNodeId node;
    int line = 0;
  };

  std::string_view text_;
  const std::string& file_;
  IbFabric fabric_;
  Diagnostics errors_;
  IbNodeId current_;
  std::uint64_t next_switch_guid_ = kIbsimFirstSwitchGuid;
  std::uint64_t next_ca_guid_ = kIbsimFirstCaGuid;
  std::unordered_map<std::string, NameEntry> names_;
  std::unordered_map<std::uint64_t, int> guids_;
  std::map<std::pair<std::uint32_t, int>, std::size_t> port_lines_;
  std::vector<PortLine> lines_;
};

void write_node(std::string& out, const IbFabric& fabric, IbNodeId n, const LidAssignment* lids) {
  const auto i = n.value();
  const bool sw = fabric.is_switch(n);
  out += "vendid=0x0\ndevid=0x0\n";
  out += fmt::format("sysimgguid={}\n", format_guid(fabric.guid[i]));
  if (sw) {
    out += fmt::format("switchguid={}({:x})\n", format_guid(fabric.guid[i]), fabric.guid[i]);
    out += fmt::format("Switch\t{} \"{}\"\t\t# \"{}\" base port 0", fabric.ports(n), fabric.name[i], fabric.label(n));
    if (lids != nullptr) out += fmt::format(" lid {} lmc 0", lids->base_lid(n, 0));
  } else {
    out += fmt::format("caguid={}\n", format_guid(fabric.guid[i]));
    out += fmt::format("Ca\t{} \"{}\"\t\t# \"{}\"", fabric.ports(n), fabric.name[i], fabric.label(n));
  }
  out += '\n';
  for (int p = 1; p <= fabric.ports(n); ++p) {
    const IbPortRef far = fabric.remote(n, p);
    if (!far.connected()) continue;
    const auto fi = far.node.value();
    out += fmt::format("[{}]", p);
    if (!sw) out += fmt::format("({:x})", fabric.port_guid(n, p));
    out += fmt::format("\t\"{}\"[{}]", fabric.name[fi], far.port);
    if (!fabric.is_switch(far.node)) out += fmt::format("({:x})", fabric.port_guid(far.node, far.port));
    out += "\t\t# ";
    if (!sw && lids != nullptr) out += fmt::format("lid {} lmc {} ", lids->base_lid(n, p), lids->lmc);
    out += fmt::format("\"{}\"", fabric.label(far.node));
    if (lids != nullptr) out += fmt::format(" lid {}", lids->base_lid(far.node, far.port));
    if (const IbLinkRate rate = fabric.link_rate(n, p); rate.known()) out += " " + rate.text();
    out += '\n';
  }
  out += '\n';
}

}  // namespace

Result<IbFabric> parse_ibnetdiscover(std::string_view text, const std::string& file) {
  auto fabric = Parser(text, file).run();
  if (fabric) fabric.value().source = file;
  return fabric;
}

std::string write_ibnetdiscover(const IbFabric& fabric, const LidAssignment* lids) {
  std::string out = "#\n# Topology file: written by clustertwin in the ibnetdiscover format\n";
  out += fmt::format("# {} switches, {} CAs, {} cables\n#\n\n", fabric.switch_count(), fabric.ca_count(), fabric.cable_count());
  for (const bool switches : {true, false}) {
    for (std::size_t i = 0; i < fabric.node_count(); ++i) {
      if (fabric.is_switch(IbNodeId(i)) == switches) write_node(out, fabric, IbNodeId(i), lids);
    }
  }
  return out;
}

}  // namespace ct
