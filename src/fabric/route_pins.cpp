#include "fabric/route_pins.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cassert>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "core/text.h"
#include "core/text_source.h"

namespace ct {
namespace {

// A hop's text drops spaces and tabs in front, and a CRLF file's '\r' too at its end.
[[gnu::always_inline]] inline std::string_view trim_hop(std::string_view s) { return trim(s, kSpaceTab, kSpaceTabCr); }

struct ResolvedHop {
  bool ok = false;
  bool is_switch = false;  // a named switch: the route through it
  VertexId sw;
  bool directed = false;   // a direction was written (or an NVLink hop)
  RouteHop hop;
};

// Shortest paths toward one switch (BFS over the cables), lowest link id among equal parents.
struct TowardSwitch {
  std::vector<std::uint32_t> distance;
  std::vector<LinkId> parent;  // the link toward the switch
};


}  // namespace

class RoutePinner::Walker {
 public:
  Walker(const NameDirectory& names, std::string file, std::string field)
      : names_(names), t_(names.topology()), file_(std::move(file)), field_(std::move(field)) {}

  void pin(std::string_view text, const RouteEnds& ends, int line, int column, std::vector<RouteHop>& hops,
           Diagnostics& errors, std::size_t max_errors) {
    line_ = line;
    column_ = column;
    hops_out_ = &hops;
    errors_ = &errors;
    max_errors_ = max_errors;
    route(text, ends);
  }

 private:
  [[nodiscard]] SourceLocation where() const { return {file_, line_, column_}; }
  void error(std::string message) {
    if (errors_->size() < max_errors_) errors_->push_back(Diagnostic{where(), field_, std::move(message)});
  }
  void take(const Diagnostics& ds) {
    for (const Diagnostic& d : ds) {
      if (errors_->size() < max_errors_) errors_->push_back(d);
    }
  }

  // One hop's text, resolved once per distinct text.
  ResolvedHop hop(std::string_view text) {
    if (auto it = hops_.find(text); it != hops_.end()) return it->second;
    ResolvedHop r;
    if (text.find('*') != std::string_view::npos) {
      error(fmt::format("'{}': a hop with a share (*x, a sprayed flow) cannot be pinned; leave the path empty so that the "
                        "fabric routes the flow again",
                        excerpt(text)));
      hops_.emplace(kept_.keep(text), r);
      return r;
    }
    std::string_view rest = text;
    auto strip = [&](std::string_view suffix) {
      if (rest.size() > suffix.size() && rest.ends_with(suffix)) {
        rest = trim_hop(rest.substr(0, rest.size() - suffix.size()));
        return true;
      }
      return false;
    };
    if (strip(" nvlink out") || strip(" nvlink in")) {
      const bool out = text.ends_with("out");
      auto g = names_.gpu(rest, where(), field_);
      if (g) {
        r.ok = true;
        r.directed = true;
        r.hop = {out ? RouteHopKind::kNvlinkOut : RouteHopKind::kNvlinkIn, g.value()};
      } else {
        take(g.errors());
      }
      hops_.emplace(kept_.keep(text), r);
      return r;
    }
    int direction = 0;  // 1 up, -1 down, 0 not written
    if (strip(" up")) {
      direction = 1;
    } else if (strip(" down")) {
      direction = -1;
    }
    const NameDirectory::CableSpelling spelled = NameDirectory::split_cable_number(rest);
    if (!spelled.ok) {
      error(fmt::format("'{}': expected 'A -- B #k' with k a cable index from 0", excerpt(text)));
      hops_.emplace(kept_.keep(text), r);
      return r;
    }
    const std::size_t which = spelled.k.value_or(0);
    rest = spelled.bundle;
    if (rest.find("--") == std::string_view::npos && !all_digits(rest)) {
      auto sw = names_.backend_switch(rest, where(), field_);
      if (sw) {
        r.ok = true;
        r.is_switch = true;
        r.sw = sw.value();
      } else {
        take(sw.errors());
      }
      hops_.emplace(kept_.keep(text), r);
      return r;
    }
    std::vector<LinkId> cables;
    if (const std::size_t sep = rest.find("--"); sep != std::string_view::npos) {
      // "A -- B": both ends through the name directory (once per distinct name), then the cables
      // that join them in id order (the directory's meaning, without its per-call copies).
      const auto a = vertex_named(rest.substr(0, sep));
      const auto b = vertex_named(rest.substr(sep + 2));
      if (a && b) {
        for (const Adjacency& adj : names_.cable_index().cables(*a, *b)) cables.push_back(adj.link);
        if (cables.empty()) {
          error(fmt::format("no cable joins {} and {}", t_.vertex_name(*a), t_.vertex_name(*b)));
        }
      }
    } else if (auto links = names_.links(spelled.bundle, where(), field_)) {
      cables = std::move(links).value();
    } else {
      take(links.errors());
    }
    if (!cables.empty() && which >= cables.size()) {
      error(NameDirectory::cable_number_error(excerpt(text), which, cables.size()));
    } else if (!cables.empty()) {
      r.ok = true;
      r.directed = direction != 0;
      r.hop = {direction < 0 ? RouteHopKind::kLinkDown : RouteHopKind::kLinkUp, cables[which].value()};
    }
    hops_.emplace(kept_.keep(text), r);
    return r;
  }

  // A vertex by name, resolved once per distinct spelling.
  std::optional<VertexId> vertex_named(std::string_view name) {
    name = trim_hop(name);
    if (auto it = vertices_.find(name); it != vertices_.end()) {
      if (it->second.valid()) return it->second;
      return std::nullopt;
    }
    if (auto port = names_.nic_port_spelled(name)) {
      vertices_.emplace(kept_.keep(name), *port);
      return port;
    }
    auto v = names_.vertex(name, where(), field_);
    if (!v) take(v.errors());
    vertices_.emplace(kept_.keep(name), v ? v.value() : VertexId::invalid());
    return v ? std::optional<VertexId>(v.value()) : std::nullopt;
  }

  const TowardSwitch& toward(VertexId sw) {
    auto [it, fresh] = toward_.try_emplace(sw.value());
    if (!fresh) return it->second;
    TowardSwitch& tw = it->second;
    constexpr std::uint32_t kFar = std::numeric_limits<std::uint32_t>::max();
    tw.distance.assign(t_.vertex_count(), kFar);
    tw.parent.assign(t_.vertex_count(), LinkId::invalid());
    std::vector<VertexId> queue{sw};
    tw.distance[sw.value()] = 0;
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const VertexId v = queue[q];
      for (const Adjacency& a : t_.neighbors(v)) {
        const std::uint32_t u = a.neighbor.value();
        if (tw.distance[u] == kFar) {
          tw.distance[u] = tw.distance[v.value()] + 1;
          queue.push_back(a.neighbor);
        }
        if (tw.distance[u] == tw.distance[v.value()] + 1 &&
            (!tw.parent[u].valid() || a.link.value() < tw.parent[u].value())) {
          tw.parent[u] = a.link;
        }
      }
    }
    return tw;
  }

  [[nodiscard]] RouteHop directed_hop(LinkId l, VertexId from) const {
    return {t_.link_a[l.value()] == from ? RouteHopKind::kLinkUp : RouteHopKind::kLinkDown, l.value()};
  }

  void route_through(VertexId sw, const RouteEnds& ends) {
    if (!ends.src.valid() || !ends.dst.valid()) {
      error("a route through a named switch needs port endpoints (src and dst)");
      return;
    }
    const TowardSwitch& tw = toward(sw);
    if (!tw.parent[ends.src.value()].valid() || !tw.parent[ends.dst.value()].valid()) {
      error(fmt::format("no path from {} through {} to {}", t_.vertex_name(ends.src),
                                          t_.vertex_name(sw), t_.vertex_name(ends.dst)));
      return;
    }
    for (VertexId v = ends.src; v != sw;) {
      const LinkId l = tw.parent[v.value()];
      hops_out_->push_back(directed_hop(l, v));
      v = t_.other_end(l, v);
    }
    const std::size_t down_begin = hops_out_->size();
    for (VertexId v = ends.dst; v != sw;) {
      const LinkId l = tw.parent[v.value()];
      const VertexId up = t_.other_end(l, v);
      hops_out_->push_back(directed_hop(l, up));
      v = up;
    }
    std::reverse(hops_out_->begin() + static_cast<std::ptrdiff_t>(down_begin), hops_out_->end());
  }

  // How the fast path left a hop: not taken (hop() resolves it or says why), or taken with more
  // hops after its '|', or taken as the last.
  enum class Walked : std::uint8_t { kNo, kMore, kLast };

  // a == b for the short names of a route, eight bytes at a time without a library call.
  static bool same(std::string_view a, std::string_view b) {
    const std::size_t n = a.size();
    if (n != b.size()) return false;
    if (n < 8) return a == b;
    const auto at = [](std::string_view s, std::size_t i) {
      std::uint64_t w = 0;
      std::memcpy(&w, s.data() + i, 8);
      return w;
    };
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      if (at(a, i) != at(b, i)) return false;
    }
    return at(a, n - 8) == at(b, n - 8);  // the last eight bytes (overlapping the loop's)
  }

  // The end of a name as the topology prints it at p: the first space, tab or '|' (or e); sixteen
  // bytes at a time where SSE2 is there.
  static const char* name_end(const char* p, const char* e) {
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' ');
    const __m128i bar = _mm_set1_epi8('|');
    const __m128i tab = _mm_set1_epi8('\t');
    for (; e - p >= 16; p += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, bar)), _mm_cmpeq_epi8(v, tab));
      if (const auto bits = static_cast<unsigned>(_mm_movemask_epi8(hit)); bits != 0) return p + std::countr_zero(bits);
    }
#endif
    while (p != e && *p != ' ' && *p != '|' && *p != '\t') ++p;
    return p;
  }

  // The first hop of `rest`, "A -- B[ #k][ up|down]" as --csv-flows writes it, resolved in one
  // forward pass by walking on from `at`, where the previous hop ended (written `at_text`, empty
  // when unknown): the end written as at_text is `at` without a lookup, the other end is parsed
  // by the name directory's printed-name grammar and indexed directly, and the cable is the k-th
  // of those joining the two in link-id order (NameDirectory::cable). Appends the hop, moves
  // `at` and `at_text` on and `rest` past the hop's '|'. kNo, having changed nothing, for
  // anything else (another spelling, an unknown name, a hop that does not continue the walk, no
  // such cable): route() then gives the hop to hop(), which resolves it or gives the located
  // diagnostic.
  Walked walk(std::string_view& rest, VertexId& at, std::string_view& at_text) {
    const char* p = rest.data();
    const char* const e = p + rest.size();
    while (p != e && (*p == ' ' || *p == '\t')) ++p;
    // The ends' texts; `far_is_b` says which one is not where the walk stands, and `known` that
    // the other was matched to at_text already (a name ends at a space, tab or '|').
    std::string_view a_text;
    std::string_view b_text;
    bool far_is_b = true;
    bool known = false;
    const std::size_t at_size = at_text.size();
    if (at_size != 0 && static_cast<std::size_t>(e - p) > at_size + 4 && same(std::string_view(p, at_size), at_text) &&
        std::memcmp(p + at_size, " -- ", 4) == 0) {
      // "at -- far": an up hop as --csv-flows writes it.
      a_text = std::string_view(p, at_size);
      p += at_size + 4;
      known = true;
    } else {
      const char* const a_begin = p;
      p = name_end(p, e);
      a_text = std::string_view(a_begin, static_cast<std::size_t>(p - a_begin));
      if (a_text.empty() || e - p < 4 || std::memcmp(p, " -- ", 4) != 0) return Walked::kNo;
      p += 4;
      if (at_size != 0 && static_cast<std::size_t>(e - p) >= at_size && same(std::string_view(p, at_size), at_text) &&
          (static_cast<std::size_t>(e - p) == at_size || p[at_size] == ' ' || p[at_size] == '|' || p[at_size] == '\t')) {
        // "far -- at": a down hop.
        b_text = std::string_view(p, at_size);
        p += at_size;
        far_is_b = false;
        known = true;
      }
    }
    if (far_is_b) {
      const char* const b_begin = p;
      p = name_end(p, e);
      b_text = std::string_view(b_begin, static_cast<std::size_t>(p - b_begin));
      if (b_text.empty()) return Walked::kNo;
    }
    std::uint32_t which = 0;
    if (e - p >= 3 && p[0] == ' ' && p[1] == '#') {
      p += 2;
      const char* const digits = p;
      for (; p != e && *p >= '0' && *p <= '9' && p - digits < 9; ++p) which = which * 10 + static_cast<std::uint32_t>(*p - '0');
      if (p == digits || (p != e && *p >= '0' && *p <= '9')) return Walked::kNo;
    }
    int direction = 0;  // 1 up, -1 down, 0 not written
    if (e - p >= 3 && p[0] == ' ' && p[1] == 'u' && p[2] == 'p') {
      direction = 1;
      p += 3;
    } else if (e - p >= 5 && std::memcmp(p, " down", 5) == 0) {
      direction = -1;
      p += 5;
    }
    while (p != e && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    Walked next = Walked::kLast;
    if (p != e) {
      if (*p != '|') return Walked::kNo;
      ++p;
      next = Walked::kMore;
    }
    VertexId far;
    if (known) {
      far = names_.printed_vertex(far_is_b ? b_text : a_text);
    } else {
      const VertexId a = names_.printed_vertex(a_text);
      const VertexId b = names_.printed_vertex(b_text);
      if (!a.valid() || !b.valid() || (a != at && b != at)) return Walked::kNo;
      far_is_b = a == at;
      far = far_is_b ? b : a;
    }
    if (!far.valid() || far == at) return Walked::kNo;
    const VertexId near = at;
    const LinkId link = names_.cable_index().cable(near, far, which);
    if (!link.valid()) return Walked::kNo;
    // Up is from the cable's lower end: between tiers, the lower tier's end (topology.h), else look.
    const bool up = t_.tier[near.value()] != t_.tier[far.value()] ? t_.tier[near.value()] < t_.tier[far.value()]
                                                                   : t_.link_a[link.value()] == near;
    assert(up == (t_.link_a[link.value()] == near));
    if ((direction == 1 && !up) || (direction == -1 && up)) return Walked::kNo;
    hops_out_->push_back({up ? RouteHopKind::kLinkUp : RouteHopKind::kLinkDown, link.value()});
    at = far;
    at_text = far_is_b ? b_text : a_text;
    rest = std::string_view(p, static_cast<std::size_t>(e - p));
    return next;
  }

  void route(std::string_view text_of_route, const RouteEnds& ends) {
    const std::size_t route_begin = hops_out_->size();
    std::string_view rest = text_of_route;
    const std::string_view src_text = ends.src_text;
    VertexId at = ends.src;  // where the walk stands (invalid: unknown)
    // The walk matches the text where it stands as a whole name: src's text, if it is one.
    const bool src_is_name = name_end(src_text.data(), src_text.data() + src_text.size()) == src_text.data() + src_text.size();
    std::string_view at_text = ends.src.valid() && src_is_name ? src_text : std::string_view();
    std::size_t n = 0;
    bool ok = true;
    while (ok) {
      ++n;
      if (at.valid()) {
        const Walked w = walk(rest, at, at_text);
        if (w == Walked::kLast) break;
        if (w == Walked::kMore) continue;
      }
      const std::size_t bar = rest.find('|');
      const std::string_view text = trim_hop(rest.substr(0, bar));
      at_text = {};
      const ResolvedHop h = hop(text);
      if (!h.ok) {
        ok = false;
      } else if (h.is_switch) {
        if (n == 1 && bar == std::string_view::npos) {
          route_through(h.sw, ends);
          at = ends.dst;
        } else {
          error(fmt::format("hop {}: '{}' is a switch; a route is one switch or a list of links",
                                              n, excerpt(text)));
          ok = false;
        }
      } else if (h.hop.kind == RouteHopKind::kNvlinkOut || h.hop.kind == RouteHopKind::kNvlinkIn) {
        hops_out_->push_back(h.hop);
      } else {
        RouteHop hp = h.hop;
        const LinkId l(hp.index);
        if (!h.directed) {
          if (at == t_.link_a[l.value()]) {
            hp.kind = RouteHopKind::kLinkUp;
          } else if (at == t_.link_b[l.value()]) {
            hp.kind = RouteHopKind::kLinkDown;
          } else {
            error(fmt::format("hop {}: '{}': give its direction (up or down); it does not continue "
                                                "a walk from src",
                                                n, excerpt(text)));
            ok = false;
            break;
          }
        }
        const VertexId from = hp.kind == RouteHopKind::kLinkUp ? t_.link_a[l.value()] : t_.link_b[l.value()];
        if (at.valid() && from != at) {
          error(fmt::format("hop {}: '{}' starts at {}, but the route is at {}", n, excerpt(text),
                                              t_.vertex_name(from), t_.vertex_name(at)));
          ok = false;
          break;
        }
        at = t_.other_end(l, from);
        hops_out_->push_back(hp);
      }
      if (bar == std::string_view::npos) break;
      rest = rest.substr(bar + 1);
    }
    if (ok && hops_out_->size() > route_begin && ends.dst.valid() && at.valid() && at != ends.dst) {
      error(fmt::format("the route ends at {}, not at dst {}", t_.vertex_name(at), t_.vertex_name(ends.dst)));
    }
  }

  const NameDirectory& names_;
  const Topology& t_;
  std::string file_;
  std::string field_;
  int line_ = 0;
  int column_ = 0;
  std::vector<RouteHop>* hops_out_ = nullptr;
  Diagnostics* errors_ = nullptr;
  std::size_t max_errors_ = 0;
  // Keyed by copies (kept_): a streamed table's text is given up a piece at a time.
  std::unordered_map<std::string_view, ResolvedHop> hops_;
  std::unordered_map<std::string_view, VertexId> vertices_;
  KeptTexts kept_;
  std::unordered_map<std::uint32_t, TowardSwitch> toward_;
};

RoutePinner::RoutePinner(const NameDirectory& names, std::string file, std::string field)
    : walker_(std::make_unique<Walker>(names, std::move(file), std::move(field))) {}
RoutePinner::~RoutePinner() = default;

void RoutePinner::pin(std::string_view text, const RouteEnds& ends, int line, int column, std::vector<RouteHop>& hops,
                      Diagnostics& errors, std::size_t max_errors) {
  walker_->pin(text, ends, line, column, hops, errors, max_errors);
}

}  // namespace ct
