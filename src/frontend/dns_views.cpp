#include "frontend/dns_views.h"

#include "core/text.h"
#include "core/text_lines.h"
#include "routing/port_address.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

namespace ct {
namespace {

std::string strip_dot(std::string s) {
  if (s.size() > 1 && s.back() == '.') s.pop_back();
  return lower(s);
}

// ---- named.conf: tokens, then a generic tree of statements --------------------------------------

struct Token {
  enum class Kind { kWord, kString, kOpen, kClose, kSemi, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  SourceLocation where;
};

Result<std::vector<Token>> tokenize(const std::string& s, const std::string& path) {
  std::vector<Token> out;
  int line = 1, col = 1;
  std::size_t i = 0;
  const auto advance = [&](std::size_t n) {
    for (std::size_t k = 0; k < n && i < s.size(); ++k, ++i) {
      if (s[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  };
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance(1);
    } else if (c == '#' || (c == '/' && i + 1 < s.size() && s[i + 1] == '/')) {
      while (i < s.size() && s[i] != '\n') advance(1);
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const SourceLocation at{path, line, col};
      const auto end = s.find("*/", i + 2);
      if (end == std::string::npos) return Diagnostic{at, "", "unterminated /* comment"};
      advance(end + 2 - i);
    } else if (c == '"') {
      const SourceLocation at{path, line, col};
      const auto end = s.find('"', i + 1);
      if (end == std::string::npos) return Diagnostic{at, "", "unterminated string"};
      out.push_back({Token::Kind::kString, s.substr(i + 1, end - i - 1), at});
      advance(end + 1 - i);
    } else if (c == '{' || c == '}' || c == ';') {
      out.push_back({c == '{' ? Token::Kind::kOpen : c == '}' ? Token::Kind::kClose : Token::Kind::kSemi, std::string(1, c),
                     {path, line, col}});
      advance(1);
    } else {
      const SourceLocation at{path, line, col};
      std::size_t j = i;
      while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j])) && s[j] != '{' && s[j] != '}' && s[j] != ';' &&
             s[j] != '"')
        ++j;
      out.push_back({Token::Kind::kWord, s.substr(i, j - i), at});
      advance(j - i);
    }
  }
  out.push_back({Token::Kind::kEnd, "end of file", {path, line, col}});
  return out;
}

struct Statement {
  std::vector<Token> words;
  bool has_block = false;
  std::vector<Statement> block;
  SourceLocation where;
};

class ConfParser {
 public:
  explicit ConfParser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  // Statements until '}' (nested) or the end (top level).
  Result<std::vector<Statement>> statements(bool nested, const SourceLocation& opened) {
    std::vector<Statement> out;
    while (true) {
      const Token& tok = t_[i_];
      if (tok.kind == Token::Kind::kEnd) {
        if (nested) return Diagnostic{tok.where, "", fmt::format("missing '}}' for the '{{' opened at line {}", opened.line)};
        return out;
      }
      if (tok.kind == Token::Kind::kClose) {
        if (!nested) return Diagnostic{tok.where, "", "unexpected '}'"};
        ++i_;
        return out;
      }
      if (tok.kind == Token::Kind::kSemi) {  // an empty statement
        ++i_;
        continue;
      }
      Statement st;
      st.where = tok.where;
      while (t_[i_].kind == Token::Kind::kWord || t_[i_].kind == Token::Kind::kString) st.words.push_back(t_[i_++]);
      if (t_[i_].kind == Token::Kind::kOpen) {
        const SourceLocation at = t_[i_].where;
        ++i_;
        auto inner = statements(true, at);
        if (!inner) return inner.errors();
        st.has_block = true;
        st.block = std::move(inner).value();
        while (t_[i_].kind == Token::Kind::kWord || t_[i_].kind == Token::Kind::kString) st.words.push_back(t_[i_++]);
      }
      if (t_[i_].kind != Token::Kind::kSemi) {
        return Diagnostic{t_[i_].where, "", fmt::format("missing ';' before '{}'", t_[i_].text)};
      }
      ++i_;
      out.push_back(std::move(st));
    }
  }

 private:
  std::vector<Token> t_;
  std::size_t i_ = 0;
};

Result<std::vector<AddressMatchElement>> address_list(const std::vector<Statement>& block) {
  std::vector<AddressMatchElement> out;
  for (const auto& st : block) {
    AddressMatchElement e;
    e.where = st.where;
    std::vector<std::string> words;
    for (const auto& w : st.words) words.push_back(w.text);
    if (!words.empty() && words[0].starts_with("!")) {
      e.negated = true;
      words[0] = words[0].substr(1);
      if (words[0].empty()) words.erase(words.begin());
    }
    if (st.has_block && words.empty()) {
      e.kind = AddressMatchElement::Kind::kList;
      auto inner = address_list(st.block);
      if (!inner) return inner.errors();
      e.list = std::move(inner).value();
      out.push_back(std::move(e));
      continue;
    }
    if (words.size() != 1 || st.has_block) return Diagnostic{st.where, "match-clients", "expected one address match element"};
    const std::string& w = words[0];
    if (w == "any") e.kind = AddressMatchElement::Kind::kAny;
    else if (w == "none") e.kind = AddressMatchElement::Kind::kNone;
    else if (w == "localhost") e.kind = AddressMatchElement::Kind::kLocalhost;
    else if (w == "localnets") e.kind = AddressMatchElement::Kind::kLocalnets;
    else if (std::isdigit(static_cast<unsigned char>(w[0]))) {
      e.kind = AddressMatchElement::Kind::kPrefix;
      const auto slash = w.find('/');
      const auto addr = parse_ipv4(w.substr(0, slash));
      int len = 32;
      if (slash != std::string::npos) {
        const std::string ls = w.substr(slash + 1);
        auto [p, ec] = std::from_chars(ls.data(), ls.data() + ls.size(), len);
        if (ec != std::errc() || p != ls.data() + ls.size() || len < 0 || len > 32) {
          return Diagnostic{st.where, "match-clients", "bad prefix length in '" + w + "'"};
        }
      }
      if (!addr) return Diagnostic{st.where, "match-clients", "bad IPv4 address '" + w + "' (IPv6 is not modelled)"};
      e.address = *addr;
      e.prefix = len;
    } else {
      e.kind = AddressMatchElement::Kind::kAcl;
      e.acl = w;
    }
    out.push_back(std::move(e));
  }
  return out;
}

// +1 match, -1 rejected (negated match), 0 no match.
int match_element(const NamedConf& conf, const AddressMatchElement& e, std::uint32_t client, int depth) {
  int r = 0;
  switch (e.kind) {
    case AddressMatchElement::Kind::kAny: r = 1; break;
    case AddressMatchElement::Kind::kNone: r = 0; break;
    case AddressMatchElement::Kind::kLocalhost: r = (client >> 24) == 127 ? 1 : 0; break;
    case AddressMatchElement::Kind::kLocalnets: r = 0; break;
    case AddressMatchElement::Kind::kPrefix: {
      const std::uint32_t mask = e.prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - e.prefix);
      r = (client & mask) == (e.address & mask) ? 1 : 0;
      break;
    }
    case AddressMatchElement::Kind::kAcl:
    case AddressMatchElement::Kind::kList: {
      const std::vector<AddressMatchElement>* list = &e.list;
      if (e.kind == AddressMatchElement::Kind::kAcl) {
        list = nullptr;
        for (const auto& a : conf.acls) {
          if (a.name == e.acl) list = &a.elements;
        }
        if (list == nullptr || depth > 16) return 0;
      }
      for (const auto& x : *list) {
        if (const int m = match_element(conf, x, client, depth + 1); m != 0) {
          r = m;
          break;
        }
      }
      break;
    }
  }
  if (r == 0) return 0;
  // A negated element that matches rejects; a negated list that rejected... matches ("!" inverts).
  return e.negated ? -r : r;
}

std::string element_text(const AddressMatchElement& e) {
  std::string s = e.negated ? "!" : "";
  switch (e.kind) {
    case AddressMatchElement::Kind::kAny: return s + "any";
    case AddressMatchElement::Kind::kNone: return s + "none";
    case AddressMatchElement::Kind::kLocalhost: return s + "localhost";
    case AddressMatchElement::Kind::kLocalnets: return s + "localnets";
    case AddressMatchElement::Kind::kPrefix: return s + fmt::format("{}/{}", format_ipv4(e.address), e.prefix);
    case AddressMatchElement::Kind::kAcl: return s + "\"" + e.acl + "\"";
    case AddressMatchElement::Kind::kList: {
      s += "{ ";
      for (const auto& x : e.list) s += element_text(x) + "; ";
      return s + "}";
    }
  }
  return s;
}

}  // namespace

Result<NamedConf> parse_named_conf(const std::string& text, const std::string& path) {
  auto tokens = tokenize(text, path);
  if (!tokens) return tokens.errors();
  ConfParser parser(std::move(tokens).value());
  auto top = parser.statements(false, {});
  if (!top) return top.errors();
  NamedConf conf;
  conf.path = path;
  Diagnostics errors;
  DnsView implicit;
  implicit.name = "_default";
  const auto read_zone = [&](const Statement& st) -> std::optional<ZoneRef> {
    ZoneRef z;
    z.where = st.where;
    if (st.words.size() < 2) {
      errors.push_back({st.where, "zone", "expected zone \"NAME\" { ... }"});
      return std::nullopt;
    }
    z.name = strip_dot(st.words[1].text);
    for (const auto& s : st.block) {
      if (s.words.empty()) continue;
      if (s.words[0].text == "type" && s.words.size() >= 2) z.type = s.words[1].text;
      if (s.words[0].text == "file" && s.words.size() >= 2) z.file = s.words[1].text;
    }
    if (z.type != "primary" && z.type != "master") {
      errors.push_back({st.where, "zone.type", "only primary (master) zones are modelled, got '" + z.type + "'"});
      return std::nullopt;
    }
    if (z.file.empty()) {
      errors.push_back({st.where, "zone.file", "a primary zone needs a file"});
      return std::nullopt;
    }
    return z;
  };
  for (const auto& st : top.value()) {
    if (st.words.empty()) continue;
    const std::string& kw = st.words[0].text;
    if (kw == "acl") {
      if (st.words.size() < 2 || !st.has_block) {
        errors.push_back({st.where, "acl", "expected acl NAME { ... }"});
        continue;
      }
      auto list = address_list(st.block);
      if (!list) {
        errors.insert(errors.end(), list.errors().begin(), list.errors().end());
        continue;
      }
      conf.acls.push_back({st.words[1].text, std::move(list).value(), st.where});
    } else if (kw == "view") {
      DnsView v;
      v.where = st.where;
      if (st.words.size() < 2) {
        errors.push_back({st.where, "view", "expected view NAME { ... }"});
        continue;
      }
      v.name = st.words[1].text;
      for (const auto& s : st.block) {
        if (s.words.empty()) continue;
        if (s.words[0].text == "match-clients") {
          auto list = address_list(s.block);
          if (!list) {
            errors.insert(errors.end(), list.errors().begin(), list.errors().end());
            continue;
          }
          v.has_match_clients = true;
          v.match_clients = std::move(list).value();
        } else if (s.words[0].text == "zone") {
          if (auto z = read_zone(s)) v.zones.push_back(std::move(*z));
        }
      }
      conf.views.push_back(std::move(v));
    } else if (kw == "zone") {
      if (auto z = read_zone(st)) implicit.zones.push_back(std::move(*z));
    }
  }
  if (!implicit.zones.empty()) {
    if (!conf.views.empty()) {
      errors.push_back({implicit.zones.front().where, "zone", "when any view is defined, every zone must be in a view"});
    } else {
      conf.views.push_back(std::move(implicit));
    }
  }
  std::set<std::string> acl_names;
  for (const auto& a : conf.acls) acl_names.insert(a.name);
  for (const auto& v : conf.views) {
    for (const auto& e : v.match_clients) {
      if (e.kind == AddressMatchElement::Kind::kAcl && !acl_names.contains(e.acl)) {
        errors.push_back({e.where, "match-clients", "undefined ACL '" + e.acl + "'"});
      }
    }
  }
  if (!errors.empty()) return errors;
  return conf;
}

namespace {

// ---- zone files: logical records, directives, then one record at a time -------------------------

// A TTL: seconds, or units like 1h30m (s, m, h, d, w); nullopt past 2^31 - 1 (RFC 2181 section 8).
std::optional<std::uint32_t> ttl_value(const std::string& s) {
  std::uint64_t total = 0, cur = 0;
  bool digits = false;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      cur = cur * 10 + static_cast<std::uint64_t>(c - '0');
      digits = true;
      if (cur > 0xFFFFFFFFull) return std::nullopt;
    } else {
      static const std::map<char, std::uint64_t> kUnits = {{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}, {'w', 604800}};
      auto it = kUnits.find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      if (it == kUnits.end() || !digits) return std::nullopt;
      total += cur * it->second;
      cur = 0;
      digits = false;
    }
  }
  total += cur;
  if (total > 0x7FFFFFFFull) return std::nullopt;
  return static_cast<std::uint32_t>(total);
}

// One logical record: the tokens of the lines joined while parentheses are open, from `raw` (the
// record's first line) on.
struct LogicalRecord {
  std::vector<std::string> tokens;
  bool owner_blank = false;  // the first line starts with a blank: the previous owner
  int depth = 0;             // parentheses left open at the end of the text (an error)
};

LogicalRecord read_logical_record(LineCursor& lines, std::string_view raw) {
  LogicalRecord rec;
  bool first = true;
  do {
    const std::string line(raw);
    if (first) rec.owner_blank = !line.empty() && (line[0] == ' ' || line[0] == '\t');
    first = false;
    std::size_t i = 0;
    while (i < line.size()) {
      const char c = line[i];
      if (c == ';') break;
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (c == '(') {
        ++rec.depth;
        ++i;
      } else if (c == ')') {
        --rec.depth;
        ++i;
      } else if (c == '"') {
        const auto end = line.find('"', i + 1);
        rec.tokens.push_back(line.substr(i, (end == std::string::npos ? line.size() : end + 1) - i));
        i = end == std::string::npos ? line.size() : end + 1;
      } else {
        std::size_t j = i;
        while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])) && line[j] != ';' && line[j] != '(' &&
               line[j] != ')')
          ++j;
        rec.tokens.push_back(line.substr(i, j - i));
        i = j;
      }
    }
  } while (rec.depth > 0 && lines.next(raw));
  return rec;
}

// What the records of a zone file read so far leave for the next: the origin ($ORIGIN), the
// default TTL ($TTL) and the last owner.
struct ZoneState {
  std::string origin;
  std::uint32_t default_ttl = 0;
  bool have_ttl = false;
  std::string last_owner;
  Diagnostics errors;

  // A name as written, made absolute ('@' the origin; no final '.': relative to the origin).
  [[nodiscard]] std::string absolute(const std::string& name) const {
    if (name == "@") return origin;
    if (name.ends_with(".")) return strip_dot(name);
    return lower(name) + "." + origin;
  }
};

// $ORIGIN, $TTL, or another directive (an error); false when the tokens are no directive.
bool read_directive(ZoneState& s, const std::vector<std::string>& tokens, const SourceLocation& where) {
  if (tokens[0] == "$ORIGIN") {
    if (tokens.size() < 2) s.errors.push_back({where, "$ORIGIN", "missing name"});
    else s.origin = s.absolute(tokens[1]);
    return true;
  }
  if (tokens[0] == "$TTL") {
    const auto t = tokens.size() >= 2 ? ttl_value(tokens[1]) : std::nullopt;
    if (!t) s.errors.push_back({where, "$TTL", "expected a TTL (seconds, or like 1h30m) up to 2147483647"});
    else {
      s.default_ttl = *t;
      s.have_ttl = true;
    }
    return true;
  }
  if (tokens[0].starts_with("$")) {
    s.errors.push_back({where, tokens[0], "directive not modelled"});
    return true;
  }
  return false;
}

// The record's data by type (A, AAAA, CNAME, NS, SOA; any other type kept as written); false,
// with the error, when it is malformed. `ttl` is the record's own TTL, if it gives one.
bool read_rdata(ZoneState& s, const std::vector<std::string>& rdata, const std::optional<std::uint32_t>& ttl, DnsRecord& r) {
  const SourceLocation& where = r.where;
  if (r.type == "A") {
    if (rdata.size() != 1 || !parse_ipv4(rdata[0])) {
      s.errors.push_back({where, "A", "expected one IPv4 address"});
      return false;
    }
    r.data = rdata[0];
  } else if (r.type == "AAAA") {
    if (rdata.size() != 1 || rdata[0].find(':') == std::string::npos) {
      s.errors.push_back({where, "AAAA", "expected one IPv6 address"});
      return false;
    }
    r.data = lower(rdata[0]);
  } else if (r.type == "CNAME" || r.type == "NS") {
    if (rdata.size() != 1) {
      s.errors.push_back({where, r.type, "expected one name"});
      return false;
    }
    r.data = s.absolute(rdata[0]);
  } else if (r.type == "SOA") {
    if (rdata.size() != 7) {
      s.errors.push_back({where, "SOA", fmt::format("expected MNAME RNAME SERIAL REFRESH RETRY EXPIRE MINIMUM, got {} fields", rdata.size())});
      return false;
    }
    std::string d = s.absolute(rdata[0]) + ". " + s.absolute(rdata[1]) + ".";
    for (std::size_t i = 2; i < 7; ++i) {
      const auto v = ttl_value(rdata[i]);
      if (!v) s.errors.push_back({where, "SOA", "bad number '" + rdata[i] + "'"});
      d += " " + std::to_string(v.value_or(0));
    }
    r.data = d;
    if (!ttl && !s.have_ttl) r.ttl = ttl_value(rdata[6]).value_or(0);
  } else {
    std::string d;
    for (const auto& x : rdata) d += (d.empty() ? "" : " ") + x;
    r.data = d;
  }
  return true;
}

// One resource record: owner (blank: the previous one), TTL and class in either order, type, data;
// nullopt, with the error, when it is malformed.
std::optional<DnsRecord> read_record(ZoneState& s, const LogicalRecord& rec, const SourceLocation& where) {
  const std::vector<std::string>& tokens = rec.tokens;
  std::size_t k = 0;
  DnsRecord r;
  r.where = where;
  if (rec.owner_blank) {
    r.name = s.last_owner;
  } else {
    r.name = s.absolute(tokens[0]);
    k = 1;
  }
  s.last_owner = r.name;
  std::optional<std::uint32_t> ttl;
  for (int field = 0; field < 2 && k < tokens.size(); ++field) {
    const std::string up = lower(tokens[k]);
    if (up == "in") {
      ++k;
    } else if (std::isdigit(static_cast<unsigned char>(tokens[k][0]))) {
      ttl = ttl_value(tokens[k]);
      if (!ttl) s.errors.push_back({where, "ttl", "bad TTL '" + tokens[k] + "'"});
      ++k;
    }
  }
  if (k >= tokens.size()) {
    s.errors.push_back({where, "", "missing record type"});
    return std::nullopt;
  }
  r.type = tokens[k++];
  for (char& c : r.type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::vector<std::string> rdata(tokens.begin() + static_cast<std::ptrdiff_t>(k), tokens.end());
  if (!ttl && !s.have_ttl && r.type != "SOA") {
    s.errors.push_back({where, "ttl", "no TTL and no $TTL before this record"});
    return std::nullopt;
  }
  r.ttl = ttl ? *ttl : s.default_ttl;
  if (!read_rdata(s, rdata, ttl, r)) return std::nullopt;
  return r;
}

}  // namespace

Result<Zone> parse_zone(const std::string& text, const std::string& origin_name, const std::string& path) {
  Zone z;
  z.origin = strip_dot(origin_name);
  z.file = path;
  ZoneState s;
  s.origin = z.origin;
  s.last_owner = s.origin;
  LineCursor lines(text);
  std::string_view raw;
  while (lines.next(raw)) {
    const int start_line = lines.number();
    const LogicalRecord rec = read_logical_record(lines, raw);
    const SourceLocation where{path, start_line, 1};
    if (rec.depth != 0) {
      s.errors.push_back({where, "", "unbalanced parentheses"});
      break;
    }
    if (rec.tokens.empty() || read_directive(s, rec.tokens, where)) continue;
    auto r = read_record(s, rec, where);
    if (!r) continue;
    if (r->name != z.origin && !r->name.ends_with("." + z.origin)) {
      s.errors.push_back({where, "", fmt::format("'{}' is outside the zone {}", r->name, z.origin)});
      continue;
    }
    z.records.push_back(std::move(*r));
  }
  const bool has_soa = std::any_of(z.records.begin(), z.records.end(), [&](const DnsRecord& r) {
    return r.type == "SOA" && r.name == z.origin;
  });
  if (!has_soa && s.errors.empty()) s.errors.push_back({{path, 1, 1}, "SOA", "the zone has no SOA record at its origin " + z.origin});
  if (!s.errors.empty()) return s.errors;
  return z;
}

std::vector<std::string> DnsAnswer::addresses() const {
  std::vector<std::string> out;
  for (const auto& r : answer) {
    if (r.type == "A") out.push_back(r.data);
  }
  return out;
}

ViewChoice select_view(const NamedConf& conf, std::uint32_t client) {
  ViewChoice out;
  for (std::size_t v = 0; v < conf.views.size(); ++v) {
    const DnsView& view = conf.views[v];
    if (!view.has_match_clients) {
      out.reasons.push_back(fmt::format("view \"{}\" ({}:{}) has no match-clients: it matches every client", view.name,
                                        view.where.file, view.where.line));
      out.view = v;
      return out;
    }
    int decision = 0;
    const AddressMatchElement* decided = nullptr;
    for (const auto& e : view.match_clients) {
      if (const int m = match_element(conf, e, client, 0); m != 0) {
        decision = m;
        decided = &e;
        break;
      }
    }
    if (decision > 0) {
      out.reasons.push_back(fmt::format("view \"{}\" ({}:{}): match-clients element {} matches {}: the first matching view wins",
                                        view.name, view.where.file, view.where.line, element_text(*decided), format_ipv4(client)));
      out.view = v;
      return out;
    }
    out.reasons.push_back(decision < 0 ? fmt::format("view \"{}\" ({}:{}): {} is rejected by {}", view.name, view.where.file,
                                                     view.where.line, format_ipv4(client), element_text(*decided))
                                       : fmt::format("view \"{}\" ({}:{}): no match-clients element matches {}", view.name,
                                                     view.where.file, view.where.line, format_ipv4(client)));
  }
  return out;
}

DnsAnswer resolve_dns(const DnsModel& dns, std::uint32_t client, const std::string& qname_in, const std::string& type) {
  DnsAnswer a;
  ViewChoice choice = select_view(dns.conf, client);
  a.reasons = choice.reasons;
  if (!choice.view) {
    a.rcode = "REFUSED";
    a.reasons.push_back("no view matches the client: named refuses the query");
    return a;
  }
  a.view = choice.view;
  const auto& zones = dns.zones[*choice.view];
  std::string qname = strip_dot(qname_in);
  for (int hops = 0; hops < 16; ++hops) {
    // The zone with the longest origin the name is under.
    std::optional<std::size_t> best;
    for (std::size_t z = 0; z < zones.size(); ++z) {
      const std::string& o = zones[z].origin;
      if ((qname == o || qname.ends_with("." + o)) && (!best || o.size() > zones[*best].origin.size())) best = z;
    }
    if (!best) {
      if (hops == 0) {
        a.rcode = "REFUSED";
        a.reasons.push_back(fmt::format("view \"{}\" has no zone for {}: REFUSED (recursion is not modelled)",
                                        dns.conf.views[*a.view].name, qname));
      } else {
        a.reasons.push_back(fmt::format("the CNAME target {} is outside this view's zones: the resolver continues from there", qname));
      }
      return a;
    }
    if (hops == 0) a.zone = best;
    const Zone& zone = zones[*best];
    std::vector<const DnsRecord*> at_name, cname;
    bool below = false;
    for (const auto& r : zone.records) {
      if (r.name == qname) {
        if (r.type == type) at_name.push_back(&r);
        if (r.type == "CNAME") cname.push_back(&r);
      } else if (r.name.ends_with("." + qname)) {
        below = true;
      }
    }
    const bool exists = below || std::any_of(zone.records.begin(), zone.records.end(), [&](const DnsRecord& r) { return r.name == qname; });
    if (!at_name.empty()) {
      for (const auto* r : at_name) a.answer.push_back(*r);
      a.reasons.push_back(fmt::format("{} {} in zone {} ({}:{}): {}", qname, type, zone.origin, zone.file, at_name[0]->where.line,
                                      at_name[0]->data));
      return a;
    }
    if (!cname.empty() && type != "CNAME") {
      a.answer.push_back(*cname[0]);
      a.reasons.push_back(fmt::format("{} is a CNAME for {} ({}:{})", qname, cname[0]->data, zone.file, cname[0]->where.line));
      qname = cname[0]->data;
      continue;
    }
    if (exists) {
      a.reasons.push_back(fmt::format("{} exists in zone {} but has no {} record: NODATA", qname, zone.origin, type));
      return a;
    }
    // Wildcard at the closest encloser.
    std::string encloser = qname;
    while (encloser != zone.origin) {
      encloser = encloser.substr(encloser.find('.') + 1);
      const bool encloser_exists = encloser == zone.origin || std::any_of(zone.records.begin(), zone.records.end(), [&](const DnsRecord& r) {
        return r.name == encloser || r.name.ends_with("." + encloser);
      });
      if (encloser_exists) break;
    }
    const std::string wild = "*." + encloser;
    std::vector<const DnsRecord*> wild_records;
    for (const auto& r : zone.records) {
      if (r.name == wild && (r.type == type || r.type == "CNAME")) wild_records.push_back(&r);
    }
    if (!wild_records.empty()) {
      DnsRecord r = *wild_records[0];
      r.name = qname;
      a.answer.push_back(r);
      a.reasons.push_back(fmt::format("{} is answered by the wildcard {} ({}:{})", qname, wild, zone.file, r.where.line));
      if (r.type == "CNAME") {
        qname = r.data;
        continue;
      }
      return a;
    }
    if (hops == 0) a.rcode = "NXDOMAIN";
    a.reasons.push_back(fmt::format("{} does not exist in zone {} ({}): {}", qname, zone.origin, zone.file,
                                    hops == 0 ? "NXDOMAIN" : "the CNAME chain ends in NXDOMAIN"));
    if (hops > 0) a.rcode = "NXDOMAIN";
    return a;
  }
  a.reasons.push_back("CNAME chain longer than 16: stopped");
  return a;
}

std::vector<std::string> dns_names(const DnsModel& dns) {
  std::set<std::string> names;
  for (const auto& view : dns.zones) {
    for (const auto& zone : view) {
      for (const auto& r : zone.records) {
        if ((r.type == "A" || r.type == "CNAME") && !r.name.starts_with("*")) names.insert(r.name);
      }
    }
  }
  return {names.begin(), names.end()};
}

std::vector<ExportedFile> export_named(const DnsModel& dns, const DnsExportOptions& o) {
  std::vector<ExportedFile> out;
  std::string conf = "// Written by clustertwin export dns: the views, ACLs and zones of " + dns.conf.path + "\n";
  const std::function<std::string(const AddressMatchElement&)> elem = [&](const AddressMatchElement& e) {
    return element_text(e);
  };
  for (const auto& a : dns.conf.acls) {
    conf += "acl \"" + a.name + "\" {\n";
    for (const auto& e : a.elements) conf += "    " + elem(e) + ";\n";
    conf += "};\n";
  }
  conf += "options {\n    directory \"" + o.directory + "\";\n    recursion no;\n";
  if (!o.listen_on.empty()) conf += "    listen-on { " + o.listen_on + "; };\n    listen-on-v6 { none; };\n";
  if (!o.pid_file.empty()) {
    conf += "    pid-file \"" + o.pid_file + "\";\n";
    conf += "    session-keyfile \"" + o.directory + "/session.key\";\n";
  }
  conf += "};\n";
  for (std::size_t v = 0; v < dns.conf.views.size(); ++v) {
    const DnsView& view = dns.conf.views[v];
    conf += "view \"" + view.name + "\" {\n";
    if (view.has_match_clients) {
      conf += "    match-clients {";
      for (const auto& e : view.match_clients) conf += " " + elem(e) + ";";
      conf += " };\n";
    }
    for (std::size_t z = 0; z < view.zones.size(); ++z) {
      const Zone& zone = dns.zones[v][z];
      const std::string file = view.name + "." + zone.origin + ".db";
      conf += "    zone \"" + zone.origin + "\" {\n        type primary;\n        file \"" + file + "\";\n    };\n";
      std::string zt = "; zone " + zone.origin + " of view " + view.name + ", from " + zone.file + "\n";
      for (const auto& r : zone.records) {
        const bool name_type = r.type == "CNAME" || r.type == "NS";
        zt += fmt::format("{}. {} IN {} {}{}\n", r.name, r.ttl, r.type, r.data, name_type ? "." : "");
      }
      out.push_back({file, zt});
    }
    conf += "};\n";
  }
  out.insert(out.begin(), ExportedFile{"named.conf", conf});
  return out;
}

}  // namespace ct
