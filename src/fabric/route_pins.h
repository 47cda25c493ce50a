// Routes written by name, resolved into hops on the fabric: the `path` cells of a flow table
// (traffic/flow_table.h documents the grammar), "A -- B[ #k][ up|down]" hops separated by '|', a
// link id, "host3/gpu2 nvlink out|in", or one switch name (the shortest path from src through it
// to dst, lowest cable ids on ties). Every name goes through the fabric's name directory; the
// cable of "A -- B #k" is the k-th joining A and B in link-id order (topology/cable_index.h).
//
// A route as --csv-flows writes it is walked in one forward pass: each hop continues from where
// the previous one ended, so the near end is known without a lookup and the far end is parsed by
// the printed-name grammar and indexed directly. Any other spelling falls back to a resolution of
// the hop's text (cached per distinct text), which gives the located diagnostic when it fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "fabric/name_directory.h"
#include "routing/route_hop.h"

namespace ct {

// The ends a route runs between: backend ports (invalid when the flow's endpoint is a GPU or not
// given), and src as written (the walk matches it against the first hop's text).
struct RouteEnds {
  VertexId src;
  VertexId dst;
  std::string_view src_text;
};

class RoutePinner {
 public:
  // `names` outlives the pinner. A text given to pin() need not outlive the call (the caches keep
  // copies of the names they hold), so a streamed table's pieces can be given up as it is read.
  // Diagnostics name `file` and `field` (the column or key the routes are read from).
  RoutePinner(const NameDirectory& names, std::string file, std::string field);
  ~RoutePinner();
  RoutePinner(const RoutePinner&) = delete;
  RoutePinner& operator=(const RoutePinner&) = delete;

  // Appends the hops of `text`, written at line:column, to `hops`. Problems are appended to
  // `errors` (while it holds fewer than `max_errors`); the hops appended then are not meaningful.
  void pin(std::string_view text, const RouteEnds& ends, int line, int column, std::vector<RouteHop>& hops,
           Diagnostics& errors, std::size_t max_errors);

 private:
  class Walker;
  std::unique_ptr<Walker> walker_;
};

}  // namespace ct
