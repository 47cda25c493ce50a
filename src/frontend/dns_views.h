// Split-view DNS as BIND 9 serves it, from its own configuration files.
//
// named.conf (BIND 9 Administrator Reference Manual, "Configuration File Grammar"): the statements
// `acl NAME { LIST };`, `options { ... };` (read for nothing but skipped), `view NAME { match-clients
// { LIST }; zone ... };` and `zone NAME { type ...; file "..."; };` (inside views, or at top level
// when there are no views: then one implicit view matches every client). An address match list is
// ordered: "the first element that matches the address decides; a negated element (!) rejects";
// elements are addresses, prefixes (a/n), `any`, `none`, `localhost`, `localnets`, ACL names and
// nested lists. View selection: "named picks the first view, in the order of named.conf, whose
// match-clients list matches the client's source address" (match-destinations and key-based
// matching are not read). A view without match-clients matches everyone.
//
// Zone files (RFC 1035 section 5.1, BIND's $ORIGIN and $TTL from RFC 2308): one record a line,
// "( ... )" joins lines, ';' starts a comment, a blank owner repeats the previous owner, '@' is the
// origin, a name without a final '.' is relative to the origin, TTL and class in either order.
//
// Answers (authoritative, recursion off): the zone of the view with the longest origin that the
// name is under (none: REFUSED); records of the queried type; a CNAME at the name is answered and
// followed while its target is in a zone of the same view (RFC 1034 section 4.3.2); a name with
// records of other types, or with names below it, is NODATA (NOERROR, empty); otherwise a wildcard
// "*.<closest encloser>" answers, else NXDOMAIN.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/result.h"
#include "frontend/exported_file.h"

namespace ct {

struct AddressMatchElement {
  enum class Kind { kPrefix, kAny, kNone, kLocalhost, kLocalnets, kAcl, kList };
  Kind kind = Kind::kAny;
  bool negated = false;
  std::uint32_t address = 0;  // kPrefix
  int prefix = 32;
  std::string acl;            // kAcl
  std::vector<AddressMatchElement> list;  // kList
  SourceLocation where;
};

struct Acl {
  std::string name;
  std::vector<AddressMatchElement> elements;
  SourceLocation where;
};

struct ZoneRef {
  std::string name;  // lower-case, no final dot
  std::string type;  // primary, master, ...
  std::string file;  // as written
  SourceLocation where;
};

struct DnsView {
  std::string name;
  bool has_match_clients = false;
  std::vector<AddressMatchElement> match_clients;
  std::vector<ZoneRef> zones;
  SourceLocation where;
};

struct NamedConf {
  std::vector<Acl> acls;
  std::vector<DnsView> views;  // one implicit "_default" view when the file has top-level zones
  std::string path;
};

// Parses named.conf text. Zone files are not read here (see DnsModel).
Result<NamedConf> parse_named_conf(const std::string& text, const std::string& path);

struct DnsRecord {
  std::string name;  // absolute, lower-case, no final dot
  std::uint32_t ttl = 0;
  std::string type;  // upper-case
  std::string data;  // A/AAAA: the address; CNAME/NS: absolute target; others: as written
  SourceLocation where;
};

struct Zone {
  std::string origin;  // lower-case, no final dot
  std::vector<DnsRecord> records;
  std::string file;
};

Result<Zone> parse_zone(const std::string& text, const std::string& origin, const std::string& path);

// One view's zones, loaded.
struct DnsModel {
  NamedConf conf;
  std::vector<std::vector<Zone>> zones;  // per view, parallel to conf.views[v].zones
};

struct ViewChoice {
  std::optional<std::size_t> view;  // none: no view matches (named refuses the query)
  std::vector<std::string> reasons;  // for each view in order, why it matched or not
};
ViewChoice select_view(const NamedConf& conf, std::uint32_t client);

struct DnsAnswer {
  std::string rcode = "NOERROR";  // NOERROR | NXDOMAIN | REFUSED
  std::optional<std::size_t> view;
  std::optional<std::size_t> zone;  // index in the view's zones
  std::vector<DnsRecord> answer;    // CNAME chain then the final records
  std::vector<std::string> reasons;
  // The final addresses (A records at the end of the chain).
  [[nodiscard]] std::vector<std::string> addresses() const;
};

// The answer named gives `client` for (name, type).
DnsAnswer resolve_dns(const DnsModel& dns, std::uint32_t client, const std::string& name, const std::string& type = "A");

// Every owner name with an A or CNAME record in any view, sorted, deduplicated.
std::vector<std::string> dns_names(const DnsModel& dns);

// named.conf and zone files of the model, for BIND: the view, ACL and zone structure as parsed,
// records in canonical form (absolute names). Zone files are named "<view>.<zone>.db".
struct DnsExportOptions {
  std::string directory;       // options { directory } (where the zone files are)
  std::string listen_on;       // empty = BIND's default
  std::string pid_file;        // empty = BIND's default
};
std::vector<ExportedFile> export_named(const DnsModel& dns, const DnsExportOptions& options);

}  // namespace ct
