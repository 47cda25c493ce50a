// Split-view DNS as BIND 9 serves it, from its own configuration files.
//
// named.conf (BIND 9 Administrator Reference Manual, "Configuration File Grammar"): the statements
// `acl NAME { LIST };`, `key NAME { algorithm A; secret "S"; };`, `options { ... };` (of which
// `recursion`, `allow-recursion`, `allow-query-cache` and `allow-query` are read), `view NAME {
// match-clients { LIST }; recursion ...; zone ... };` and `zone NAME { type ...; file "..."; };`
// (inside views, or at top level when there are no views: then one implicit view matches every
// client).
//
// Address match lists, as BIND's dns_acl_match evaluates them: the elements are tried in order and
// the first element that matches decides, accepting, or rejecting when it is written with `!`.
// Elements: addresses and prefixes (a/n), `any`, `none` (which is `!any`: it matches every address
// and rejects it), `localhost`, `localnets`, `key NAME` (matches only queries signed with that TSIG
// key; the twin's clients never sign), ACL names and nested lists. A nested list or ACL name
// matches only when its own evaluation accepts; a rejection inside it is "no match" for that
// element and the next element is tried (so negation applies only at the level where it is
// written, and `!` before a nested list never turns an inner rejection into a match).
//
// View selection: "named picks the first view, in the order of named.conf, whose match-clients
// list matches the client's source address" (match-destinations is not read). A view without
// match-clients matches everyone.
//
// Recursion (ARM, "recursion" and "allow-recursion"): a view's setting, else the options', else
// yes; it is available to a client whose address allow-recursion accepts; without allow-recursion,
// allow-query-cache, then allow-query, then "localnets; localhost;" stand for it.
//
// Zone files (RFC 1035 section 5.1, BIND's $ORIGIN, $INCLUDE and $TTL from RFC 2308): one record
// a line, "( ... )" joins lines, ';' starts a comment, a blank owner repeats the previous owner,
// '@' is the origin, a name without a final '.' is relative to the origin, TTL and class in either
// order. A record without a TTL takes $TTL; without $TTL, as named's loader does, the last TTL
// written (with the warning "using RFC1035 TTL semantics"), or for an SOA before any TTL the SOA's
// minimum, which becomes the default ("no TTL specified; using SOA MINTTL instead"); any other
// record before a TTL is known rejects the zone. `$INCLUDE FILE [ORIGIN]` reads FILE as named
// does, relative to its working folder (the `directory` option), not to the including file; the
// origin and the last owner are restored after it, $TTL carries on.
//
// Answers to a query (RD set, as stub resolvers send): the zone of the view with the longest
// origin that the name is under; none: REFUSED, or a recursive lookup (outside the model) when
// the view offers recursion to the client. Records of the queried type; a CNAME at the name is
// answered and followed ("restart") while its target is in the same zone; into another zone of
// the view only when recursion is available, and out of the view's zones by recursion; otherwise
// named answers the CNAME alone (NOERROR) and leaves the rest to the client. Each restart may
// follow one CNAME; the CNAME met at restart 11 (named's max-restarts) makes the answer SERVFAIL
// ("max. restarts reached"), with the CNAMEs so far, each once (a loop ends this way). A name with
// records of other types, or with names below it, is NODATA (NOERROR, empty); otherwise the
// wildcard "*.<closest encloser>" answers: its records of the type, its CNAME, or NODATA when it
// owns only other types; no wildcard: NXDOMAIN.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/result.h"
#include "frontend/exported_file.h"

namespace ct {

struct AddressMatchElement {
  enum class Kind { kPrefix, kAny, kNone, kLocalhost, kLocalnets, kKey, kAcl, kList };
  Kind kind = Kind::kAny;
  bool negated = false;
  std::uint32_t address = 0;  // kPrefix
  int prefix = 32;
  std::string acl;            // kAcl: the ACL's name; kKey: the key's name
  std::vector<AddressMatchElement> list;  // kList
  SourceLocation where;
};

struct Acl {
  std::string name;
  std::vector<AddressMatchElement> elements;
  SourceLocation where;
};

// A TSIG key statement, kept for export (the twin's queries are never signed).
struct TsigKey {
  std::string name;
  std::string algorithm;
  std::string secret;
  SourceLocation where;
};

// The options that decide whether a view recurses for a client (unset: inherited, see above).
struct RecursionOptions {
  std::optional<bool> recursion;
  std::optional<std::vector<AddressMatchElement>> allow_recursion;
  std::optional<std::vector<AddressMatchElement>> allow_query_cache;
  std::optional<std::vector<AddressMatchElement>> allow_query;
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
  RecursionOptions recursion;
  SourceLocation where;
};

struct NamedConf {
  std::vector<Acl> acls;
  std::vector<TsigKey> keys;
  RecursionOptions options;   // from the options statement
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
  Diagnostics warnings;  // what named warns about when it loads the zone (TTL defaults)
};

// The file system seam for $INCLUDE: the text of the file named (as written) at `where`, and the
// path it was read from (the same path twice is a loop).
struct ZoneText {
  std::string path;
  std::string text;
};
using ZoneIncludeReader = std::function<Result<ZoneText>(const std::string& name, const SourceLocation& where)>;
inline constexpr int kMaxZoneIncludeDepth = 16;

// Without `include`, a $INCLUDE is an error.
Result<Zone> parse_zone(const std::string& text, const std::string& origin, const std::string& path,
                        const ZoneIncludeReader& include = {});

// One view's zones, loaded.
struct DnsModel {
  NamedConf conf;
  std::vector<std::vector<Zone>> zones;  // per view, parallel to conf.views[v].zones
  Diagnostics warnings;                  // the zones' warnings, in load order
};

// How an address match list decides for one client.
enum class AclMatch { kNoMatch, kAccept, kReject };
struct AclDecision {
  AclMatch match = AclMatch::kNoMatch;
  const AddressMatchElement* element = nullptr;  // the top-level element that decided
  std::vector<std::string> notes;  // nested rejections that counted as "no match"
};
AclDecision match_address_list(const NamedConf& conf, const std::vector<AddressMatchElement>& list, std::uint32_t client);

// Whether `view` offers recursion to `client` (named's RA flag), and why.
struct RecursionChoice {
  bool available = false;
  std::string why;
};
RecursionChoice recursion_for(const NamedConf& conf, std::size_t view, std::uint32_t client);

struct ViewChoice {
  std::optional<std::size_t> view;  // none: no view matches (named refuses the query)
  std::vector<std::string> reasons;  // for each view in order, why it matched or not
};
ViewChoice select_view(const NamedConf& conf, std::uint32_t client);

// named's restart limit: the CNAME met at this restart makes the answer SERVFAIL.
inline constexpr int kMaxRestarts = 11;

struct DnsAnswer {
  // NOERROR | NXDOMAIN | REFUSED | SERVFAIL, or RECURSIVE: named looks `recursive_lookup` up in
  // the wider DNS (outside the model), and the rcode is what that gives.
  std::string rcode = "NOERROR";
  bool recursion_available = false;  // named's RA flag for this client
  std::string recursive_lookup;
  std::string chain_stops_at;        // the CNAME target named leaves to the client (CNAME alone)
  std::optional<std::size_t> view;
  std::optional<std::size_t> zone;  // index in the view's zones
  std::vector<DnsRecord> answer;    // CNAME chain then the final records
  std::vector<std::string> reasons;
  // The final addresses (A records at the end of the chain).
  [[nodiscard]] std::vector<std::string> addresses() const;
};

// The answer named gives `client` for (name, type); `recursion_desired` is the query's RD flag.
DnsAnswer resolve_dns(const DnsModel& dns, std::uint32_t client, const std::string& name, const std::string& type = "A",
                      bool recursion_desired = true);

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
