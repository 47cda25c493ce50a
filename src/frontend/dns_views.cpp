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
    if (words.size() == 2 && words[0] == "key" && !st.has_block) {
      e.kind = AddressMatchElement::Kind::kKey;
      e.acl = words[1];
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

const Acl* find_acl(const NamedConf& conf, const std::string& name) {
  for (const auto& a : conf.acls) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string element_text(const AddressMatchElement& e);

AclMatch evaluate_list(const NamedConf& conf, const std::vector<AddressMatchElement>& list, std::uint32_t client, int depth,
                       const AddressMatchElement** decided, std::vector<std::string>* notes);

// Whether one element matches the client (before its own '!'): a nested list or ACL matches only
// when it accepts; its rejection is noted and is no match here.
bool element_matches(const NamedConf& conf, const AddressMatchElement& e, std::uint32_t client, int depth,
                     std::vector<std::string>* notes) {
  switch (e.kind) {
    case AddressMatchElement::Kind::kAny:
    case AddressMatchElement::Kind::kNone: return true;
    case AddressMatchElement::Kind::kLocalhost: return (client >> 24) == 127;
    case AddressMatchElement::Kind::kLocalnets:
    case AddressMatchElement::Kind::kKey: return false;
    case AddressMatchElement::Kind::kPrefix: {
      const std::uint32_t mask = e.prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - e.prefix);
      return (client & mask) == (e.address & mask);
    }
    case AddressMatchElement::Kind::kAcl:
    case AddressMatchElement::Kind::kList: {
      const std::vector<AddressMatchElement>* list = &e.list;
      if (e.kind == AddressMatchElement::Kind::kAcl) {
        const Acl* acl = find_acl(conf, e.acl);
        if (acl == nullptr || depth > 16) return false;
        list = &acl->elements;
      }
      const AddressMatchElement* inner = nullptr;
      const AclMatch m = evaluate_list(conf, *list, client, depth + 1, &inner, notes);
      if (m == AclMatch::kReject && notes != nullptr) {
        notes->push_back(fmt::format("{} is rejected by {} inside {}: no match for that element, the next one is tried",
                                     format_ipv4(client), element_text(*inner),
                                     e.kind == AddressMatchElement::Kind::kAcl ? "ACL \"" + e.acl + "\"" : std::string("a nested list")));
      }
      return m == AclMatch::kAccept;
    }
  }
  return false;
}

AclMatch evaluate_list(const NamedConf& conf, const std::vector<AddressMatchElement>& list, std::uint32_t client, int depth,
                       const AddressMatchElement** decided, std::vector<std::string>* notes) {
  for (const auto& e : list) {
    if (!element_matches(conf, e, client, depth, notes)) continue;
    *decided = &e;
    const bool accepts = e.kind != AddressMatchElement::Kind::kNone;  // none is !any
    return accepts != e.negated ? AclMatch::kAccept : AclMatch::kReject;
  }
  return AclMatch::kNoMatch;
}

std::string element_text(const AddressMatchElement& e) {
  std::string s = e.negated ? "!" : "";
  switch (e.kind) {
    case AddressMatchElement::Kind::kAny: return s + "any";
    case AddressMatchElement::Kind::kNone: return s + "none";
    case AddressMatchElement::Kind::kLocalhost: return s + "localhost";
    case AddressMatchElement::Kind::kLocalnets: return s + "localnets";
    case AddressMatchElement::Kind::kPrefix: return s + fmt::format("{}/{}", format_ipv4(e.address), e.prefix);
    case AddressMatchElement::Kind::kKey: return s + "key \"" + e.acl + "\"";
    case AddressMatchElement::Kind::kAcl: return s + "\"" + e.acl + "\"";
    case AddressMatchElement::Kind::kList: {
      s += "{ ";
      for (const auto& x : e.list) s += element_text(x) + "; ";
      return s + "}";
    }
  }
  return s;
}

// `recursion yes|no;` or one of the address lists that decide who may recurse; false when `st`
// is none of them.
bool read_recursion_option(const Statement& st, RecursionOptions& r, Diagnostics& errors) {
  const std::string& kw = st.words[0].text;
  if (kw == "recursion") {
    const std::string v = st.words.size() == 2 ? lower(st.words[1].text) : "";
    if (v == "yes" || v == "true" || v == "1") r.recursion = true;
    else if (v == "no" || v == "false" || v == "0") r.recursion = false;
    else errors.push_back({st.where, "recursion", "expected yes or no"});
    return true;
  }
  std::optional<std::vector<AddressMatchElement>>* target = kw == "allow-recursion"     ? &r.allow_recursion
                                                           : kw == "allow-query-cache" ? &r.allow_query_cache
                                                           : kw == "allow-query"       ? &r.allow_query
                                                                                       : nullptr;
  if (target == nullptr) return false;
  if (!st.has_block || st.words.size() != 1) {
    errors.push_back({st.where, kw, "expected " + kw + " { LIST; }"});
    return true;
  }
  auto list = address_list(st.block);
  if (!list) errors.insert(errors.end(), list.errors().begin(), list.errors().end());
  else *target = std::move(list).value();
  return true;
}

// Every ACL and key an address match list names, at any depth, is defined.
void check_list_names(const NamedConf& conf, const std::vector<AddressMatchElement>& list, Diagnostics& errors) {
  for (const auto& e : list) {
    if (e.kind == AddressMatchElement::Kind::kAcl && find_acl(conf, e.acl) == nullptr) {
      errors.push_back({e.where, "match-clients", "undefined ACL '" + e.acl + "'"});
    }
    if (e.kind == AddressMatchElement::Kind::kKey &&
        std::none_of(conf.keys.begin(), conf.keys.end(), [&](const TsigKey& k) { return k.name == e.acl; })) {
      errors.push_back({e.where, "match-clients", "undefined key '" + e.acl + "'"});
    }
    if (e.kind == AddressMatchElement::Kind::kList) check_list_names(conf, e.list, errors);
  }
}

void check_names(const NamedConf& conf, Diagnostics& errors) {
  const auto check_options = [&](const RecursionOptions& r) {
    for (const auto* l : {&r.allow_recursion, &r.allow_query_cache, &r.allow_query}) {
      if (*l) check_list_names(conf, **l, errors);
    }
  };
  for (const auto& a : conf.acls) check_list_names(conf, a.elements, errors);
  check_options(conf.options);
  for (const auto& v : conf.views) {
    check_list_names(conf, v.match_clients, errors);
    check_options(v.recursion);
  }
}

std::optional<TsigKey> read_key(const Statement& st, Diagnostics& errors) {
  TsigKey k;
  k.where = st.where;
  if (st.words.size() != 2 || !st.has_block) {
    errors.push_back({st.where, "key", "expected key NAME { algorithm ALG; secret \"...\"; }"});
    return std::nullopt;
  }
  k.name = st.words[1].text;
  for (const auto& s : st.block) {
    if (s.words.size() == 2 && s.words[0].text == "algorithm") k.algorithm = s.words[1].text;
    if (s.words.size() == 2 && s.words[0].text == "secret") k.secret = s.words[1].text;
  }
  if (k.algorithm.empty() || k.secret.empty()) {
    errors.push_back({st.where, "key", "key '" + k.name + "' needs an algorithm and a secret"});
    return std::nullopt;
  }
  return k;
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
    } else if (kw == "key") {
      if (auto k = read_key(st, errors)) conf.keys.push_back(std::move(*k));
    } else if (kw == "options") {
      for (const auto& s : st.block) {
        if (!s.words.empty()) read_recursion_option(s, conf.options, errors);
      }
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
        } else {
          read_recursion_option(s, v.recursion, errors);
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
  check_names(conf, errors);
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
  bool have_ttl = false;                 // a default TTL is known ($TTL, or an SOA's minimum)
  std::optional<std::uint32_t> last_ttl;  // the last TTL a record wrote (RFC 1035's default)
  bool warned_1035 = false;
  std::string last_owner;
  Diagnostics errors;
  Diagnostics warnings;
  std::vector<std::string> files;  // the $INCLUDE stack, outermost first

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
    if (!ttl && !s.have_ttl && !s.last_ttl) {
      r.ttl = ttl_value(rdata[6]).value_or(0);
      s.default_ttl = r.ttl;
      s.have_ttl = true;
      s.warnings.push_back({where, "ttl", "no TTL specified; using SOA MINTTL instead", Severity::kWarning});
    }
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
  if (ttl) {
    r.ttl = *ttl;
    s.last_ttl = ttl;
  } else if (s.have_ttl) {
    r.ttl = s.default_ttl;
  } else if (s.last_ttl) {
    r.ttl = *s.last_ttl;
    if (!s.warned_1035) s.warnings.push_back({where, "ttl", "using RFC1035 TTL semantics", Severity::kWarning});
    s.warned_1035 = true;
  } else if (r.type != "SOA") {
    s.errors.push_back({where, "ttl", "no TTL specified; zone rejected (no $TTL, no TTL before this record)"});
    return std::nullopt;
  }
  if (!read_rdata(s, rdata, ttl, r)) return std::nullopt;
  return r;
}

}  // namespace

namespace {

void read_zone_text(ZoneState& s, Zone& z, const std::string& text, const std::string& path, const ZoneIncludeReader& include);

// `$INCLUDE FILE [ORIGIN]`: FILE as named opens it (the reader resolves it), read with ORIGIN or
// the current origin; the origin and the last owner are the includer's again afterwards.
void read_include(ZoneState& s, Zone& z, const std::vector<std::string>& tokens, const SourceLocation& where,
                  const ZoneIncludeReader& include) {
  if (tokens.size() < 2 || tokens.size() > 3) {
    s.errors.push_back({where, "$INCLUDE", "expected $INCLUDE FILE [ORIGIN]"});
    return;
  }
  if (!include) {
    s.errors.push_back({where, "$INCLUDE", "cannot read included files here"});
    return;
  }
  if (static_cast<int>(s.files.size()) >= kMaxZoneIncludeDepth) {
    s.errors.push_back({where, "$INCLUDE", fmt::format("included files nest deeper than {} levels", kMaxZoneIncludeDepth)});
    return;
  }
  std::string name = tokens[1];
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
  auto file = include(name, where);
  if (!file) {
    for (auto d : file.errors()) s.errors.push_back({where, "$INCLUDE", d.message});
    return;
  }
  if (std::find(s.files.begin(), s.files.end(), file->path) != s.files.end()) {
    std::string chain;
    for (const auto& f : s.files) chain += f + " includes ";
    s.errors.push_back({where, "$INCLUDE", "include loop: " + chain + file->path});
    return;
  }
  const std::string origin = s.origin, owner = s.last_owner;
  if (tokens.size() == 3) s.origin = s.absolute(tokens[2]);
  s.last_owner = s.origin;
  read_zone_text(s, z, file->text, file->path, include);
  s.origin = origin;
  s.last_owner = owner;
}

void read_zone_text(ZoneState& s, Zone& z, const std::string& text, const std::string& path, const ZoneIncludeReader& include) {
  s.files.push_back(path);
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
    if (rec.tokens.empty()) continue;
    if (rec.tokens[0] == "$INCLUDE") {
      read_include(s, z, rec.tokens, where, include);
      continue;
    }
    if (read_directive(s, rec.tokens, where)) continue;
    auto r = read_record(s, rec, where);
    if (!r) continue;
    if (r->name != z.origin && !r->name.ends_with("." + z.origin)) {
      s.errors.push_back({where, "", fmt::format("'{}' is outside the zone {}", r->name, z.origin)});
      continue;
    }
    z.records.push_back(std::move(*r));
  }
  s.files.pop_back();
}

}  // namespace

Result<Zone> parse_zone(const std::string& text, const std::string& origin_name, const std::string& path,
                        const ZoneIncludeReader& include) {
  Zone z;
  z.origin = strip_dot(origin_name);
  z.file = path;
  ZoneState s;
  s.origin = z.origin;
  s.last_owner = s.origin;
  read_zone_text(s, z, text, path, include);
  const bool has_soa = std::any_of(z.records.begin(), z.records.end(), [&](const DnsRecord& r) {
    return r.type == "SOA" && r.name == z.origin;
  });
  if (!has_soa && s.errors.empty()) s.errors.push_back({{path, 1, 1}, "SOA", "the zone has no SOA record at its origin " + z.origin});
  if (!s.errors.empty()) return s.errors;
  z.warnings = std::move(s.warnings);
  return z;
}

std::vector<std::string> DnsAnswer::addresses() const {
  std::vector<std::string> out;
  for (const auto& r : answer) {
    if (r.type == "A") out.push_back(r.data);
  }
  return out;
}

AclDecision match_address_list(const NamedConf& conf, const std::vector<AddressMatchElement>& list, std::uint32_t client) {
  AclDecision d;
  d.match = evaluate_list(conf, list, client, 0, &d.element, &d.notes);
  return d;
}

RecursionChoice recursion_for(const NamedConf& conf, std::size_t view, std::uint32_t client) {
  const RecursionOptions& v = conf.views[view].recursion;
  const RecursionOptions& o = conf.options;
  RecursionChoice out;
  const bool on = v.recursion.value_or(o.recursion.value_or(true));
  const std::string from = v.recursion ? "set in the view" : o.recursion ? "set in options" : "named's default";
  if (!on) {
    out.why = "recursion no, " + from;
    return out;
  }
  static const std::vector<AddressMatchElement> kDefault = {
      {AddressMatchElement::Kind::kLocalnets, false, 0, 32, "", {}, {}},
      {AddressMatchElement::Kind::kLocalhost, false, 0, 32, "", {}, {}}};
  const std::vector<AddressMatchElement>* list = &kDefault;
  std::string name = "the default allow-recursion { localnets; localhost; }";
  const std::pair<const std::optional<std::vector<AddressMatchElement>>*, const char*> chain[] = {
      {&v.allow_recursion, "allow-recursion"}, {&o.allow_recursion, "allow-recursion"},
      {&v.allow_query_cache, "allow-query-cache"}, {&o.allow_query_cache, "allow-query-cache"},
      {&v.allow_query, "allow-query"}, {&o.allow_query, "allow-query"}};
  for (const auto& [l, what] : chain) {
    if (*l) {
      list = &**l;
      name = what;
      break;
    }
  }
  const AclDecision d = match_address_list(conf, *list, client);
  out.available = d.match == AclMatch::kAccept;
  out.why = out.available ? fmt::format("recursion yes, {}, and {} element {} accepts {}", from, name, element_text(*d.element), format_ipv4(client))
                          : fmt::format("recursion yes, {}, but {} does not accept {}", from, name, format_ipv4(client));
  return out;
}

ViewChoice select_view(const NamedConf& conf, std::uint32_t client) {
  ViewChoice out;
  for (std::size_t v = 0; v < conf.views.size(); ++v) {
    const DnsView& view = conf.views[v];
    const std::string where = fmt::format("view \"{}\" ({}:{})", view.name, view.where.file, view.where.line);
    if (!view.has_match_clients) {
      out.reasons.push_back(where + " has no match-clients: it matches every client");
      out.view = v;
      return out;
    }
    const AclDecision d = match_address_list(conf, view.match_clients, client);
    for (const auto& n : d.notes) out.reasons.push_back(where + ": " + n);
    if (d.match == AclMatch::kAccept) {
      out.reasons.push_back(fmt::format("{}: match-clients element {} matches {}: the first matching view wins", where,
                                        element_text(*d.element), format_ipv4(client)));
      out.view = v;
      return out;
    }
    out.reasons.push_back(d.match == AclMatch::kReject
                              ? fmt::format("{}: {} is rejected by {}", where, format_ipv4(client), element_text(*d.element))
                              : fmt::format("{}: no match-clients element matches {}", where, format_ipv4(client)));
  }
  return out;
}

namespace {

// The zone of the view with the longest origin that `qname` is under.
std::optional<std::size_t> zone_for(const std::vector<Zone>& zones, const std::string& qname) {
  std::optional<std::size_t> best;
  for (std::size_t z = 0; z < zones.size(); ++z) {
    const std::string& o = zones[z].origin;
    if ((qname == o || qname.ends_with("." + o)) && (!best || o.size() > zones[*best].origin.size())) best = z;
  }
  return best;
}

// What one zone answers for one name: records of the type, a CNAME to follow, NODATA or NXDOMAIN.
struct ZoneLookup {
  enum class Kind { kAnswer, kCname, kNodata, kNxdomain };
  Kind kind = Kind::kNxdomain;
  std::vector<DnsRecord> records;  // the answer (owner set to the name for a wildcard), or the CNAME
  std::string reason;
};

// The wildcard "*.<closest encloser>" for a name that does not exist in the zone.
ZoneLookup wildcard_lookup(const Zone& zone, const std::string& qname, const std::string& type) {
  std::string encloser = qname;
  while (encloser != zone.origin) {
    encloser = encloser.substr(encloser.find('.') + 1);
    const bool exists = encloser == zone.origin || std::any_of(zone.records.begin(), zone.records.end(), [&](const DnsRecord& r) {
      return r.name == encloser || r.name.ends_with("." + encloser);
    });
    if (exists) break;
  }
  const std::string wild = "*." + encloser;
  ZoneLookup l;
  bool owns = false;
  const DnsRecord* cname = nullptr;
  for (const auto& r : zone.records) {
    if (r.name != wild) continue;
    owns = true;
    if (r.type == type) l.records.push_back(r);
    if (r.type == "CNAME" && cname == nullptr) cname = &r;
  }
  if (!l.records.empty() || (cname != nullptr && type != "CNAME")) {
    if (l.records.empty()) l.records.push_back(*cname);
    for (auto& r : l.records) r.name = qname;
    l.kind = l.records[0].type == type ? ZoneLookup::Kind::kAnswer : ZoneLookup::Kind::kCname;
    l.reason = fmt::format("{} is answered by the wildcard {} ({}:{})", qname, wild, l.records[0].where.file, l.records[0].where.line);
  } else if (owns) {
    l.kind = ZoneLookup::Kind::kNodata;
    l.reason = fmt::format("{} matches the wildcard {} in zone {}, which has no {} record: NODATA", qname, wild, zone.origin, type);
  } else {
    l.reason = fmt::format("{} does not exist in zone {} ({})", qname, zone.origin, zone.file);
  }
  return l;
}

ZoneLookup lookup_in_zone(const Zone& zone, const std::string& qname, const std::string& type) {
  ZoneLookup l;
  const DnsRecord* cname = nullptr;
  bool exists = false;
  for (const auto& r : zone.records) {
    if (r.name == qname) {
      exists = true;
      if (r.type == type) l.records.push_back(r);
      if (r.type == "CNAME" && cname == nullptr) cname = &r;
    } else if (r.name.ends_with("." + qname)) {
      exists = true;
    }
  }
  if (!l.records.empty()) {
    l.kind = ZoneLookup::Kind::kAnswer;
    l.reason = fmt::format("{} {} in zone {} ({}:{}): {}", qname, type, zone.origin, l.records[0].where.file, l.records[0].where.line,
                           l.records[0].data);
  } else if (cname != nullptr && type != "CNAME") {
    l.kind = ZoneLookup::Kind::kCname;
    l.records.push_back(*cname);
    l.reason = fmt::format("{} is a CNAME for {} ({}:{})", qname, cname->data, cname->where.file, cname->where.line);
  } else if (exists) {
    l.kind = ZoneLookup::Kind::kNodata;
    l.reason = fmt::format("{} exists in zone {} but has no {} record: NODATA", qname, zone.origin, type);
  } else {
    return wildcard_lookup(zone, qname, type);
  }
  return l;
}

bool same_record(const DnsRecord& a, const DnsRecord& b) { return a.name == b.name && a.type == b.type && a.data == b.data; }

}  // namespace

DnsAnswer resolve_dns(const DnsModel& dns, std::uint32_t client, const std::string& qname_in, const std::string& type,
                      bool recursion_desired) {
  DnsAnswer a;
  ViewChoice choice = select_view(dns.conf, client);
  a.reasons = choice.reasons;
  if (!choice.view) {
    a.rcode = "REFUSED";
    a.reasons.push_back("no view matches the client: named refuses the query");
    return a;
  }
  a.view = choice.view;
  const std::string& view_name = dns.conf.views[*a.view].name;
  const RecursionChoice rc = recursion_for(dns.conf, *a.view, client);
  a.recursion_available = rc.available;
  const bool recurse = rc.available && recursion_desired;
  const auto& zones = dns.zones[*choice.view];
  std::string qname = strip_dot(qname_in);
  for (int restart = 0;; ++restart) {
    const auto z = zone_for(zones, qname);
    if (!z && recurse) {
      a.rcode = "RECURSIVE";
      a.recursive_lookup = qname;
      a.reasons.push_back(fmt::format("view \"{}\" has no zone for {} and recurses for this client ({}): named looks it up in the wider "
                                      "DNS, outside the model", view_name, qname, rc.why));
      return a;
    }
    if (!z && restart == 0) {
      a.rcode = "REFUSED";
      a.reasons.push_back(fmt::format("view \"{}\" has no zone for {} and does not recurse for this client ({}): REFUSED", view_name,
                                      qname, rc.why));
      return a;
    }
    if (restart == 0) a.zone = z;
    if (!z || (*z != *a.zone && !recurse)) {
      a.chain_stops_at = qname;
      a.reasons.push_back(fmt::format("named answers the CNAME alone: {} is {}, and view \"{}\" does not recurse for this client: {}",
                                      qname, z ? "in zone " + zones[*z].origin + ", another zone of the view" : "outside the view's zones",
                                      view_name, rc.why));
      return a;
    }
    ZoneLookup l = lookup_in_zone(zones[*z], qname, type);
    a.reasons.push_back(l.reason);
    for (const auto& r : l.records) {
      if (std::none_of(a.answer.begin(), a.answer.end(), [&](const DnsRecord& x) { return same_record(x, r); })) a.answer.push_back(r);
    }
    if (l.kind == ZoneLookup::Kind::kNxdomain) {
      a.rcode = "NXDOMAIN";
      a.reasons.back() += restart == 0 ? ": NXDOMAIN" : ": the CNAME chain ends in NXDOMAIN";
    }
    if (l.kind != ZoneLookup::Kind::kCname) return a;
    if (restart == kMaxRestarts) {
      a.rcode = "SERVFAIL";
      a.reasons.push_back(fmt::format("the CNAME chain needs more than {} restarts (a loop, or too long): named answers SERVFAIL, "
                                      "\"max. restarts reached\"", kMaxRestarts));
      return a;
    }
    qname = l.records[0].data;
  }
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
  for (const auto& k : dns.conf.keys) {
    conf += "key \"" + k.name + "\" {\n    algorithm " + k.algorithm + ";\n    secret \"" + k.secret + "\";\n};\n";
  }
  const auto recursion_text = [&](const RecursionOptions& r, const std::string& indent) {
    std::string text;
    if (r.recursion) text += indent + (*r.recursion ? "recursion yes;\n" : "recursion no;\n");
    const std::pair<const std::optional<std::vector<AddressMatchElement>>*, const char*> lists[] = {
        {&r.allow_recursion, "allow-recursion"}, {&r.allow_query_cache, "allow-query-cache"}, {&r.allow_query, "allow-query"}};
    for (const auto& [l, name] : lists) {
      if (!*l) continue;
      text += indent + name + " {";
      for (const auto& e : **l) text += " " + elem(e) + ";";
      text += " };\n";
    }
    return text;
  };
  for (const auto& a : dns.conf.acls) {
    conf += "acl \"" + a.name + "\" {\n";
    for (const auto& e : a.elements) conf += "    " + elem(e) + ";\n";
    conf += "};\n";
  }
  conf += "options {\n    directory \"" + o.directory + "\";\n" + recursion_text(dns.conf.options, "    ");
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
    conf += recursion_text(view.recursion, "    ");
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
