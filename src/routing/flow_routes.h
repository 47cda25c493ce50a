// Where a set of flows puts its traffic under one load-balancing scheme, as a fluid model.
//
// A flow is carried by one or more sub-flows. A sub-flow is one rate (one QP, one plane's share,
// one flowlet, or the whole flow) that crosses directed links (path_walker.h) each with a
// fraction of that rate: 1 on every hop of a hashed path; 1/n per member and tier when packets
// are sprayed. Sub-flow s carries `share[s]` of its flow's bytes of epoch `epoch[s]`; epochs are
// consecutive periods of equal bytes (flowlets), so a flow's bytes are spread evenly over the
// epochs and, within an epoch, over its sub-flows by their shares.
//
// The load of a directed link (in flows) is sum over sub-flows of fraction x share, averaged over
// epochs: a hashed flow adds 1 to each link of its path; 4 QPs of one flow on one link add 1.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ct {

struct FlowRoutes {
  std::uint32_t flow_count = 0;
  std::uint32_t epochs = 1;
  // ---- sub-flows ----
  std::vector<std::uint32_t> owner;  // flow index
  std::vector<std::uint32_t> epoch;
  std::vector<double> share;
  std::vector<std::uint32_t> begin{0};  // CSR: entries of sub-flow s are begin[s] .. begin[s+1]-1
  // ---- entries ----
  std::vector<std::uint32_t> link;  // directed link 2 x LinkId + (down ? 1 : 0)
  std::vector<double> fraction;
  // ---- per flow ----
  std::vector<std::uint8_t> reached;  // 1 when every sub-flow reached the destination
  // Groups with >= 2 members that traffic entered (sorted, unique).
  std::vector<std::uint32_t> entered_groups;

  [[nodiscard]] std::size_t subflow_count() const { return owner.size(); }
  [[nodiscard]] std::span<const std::uint32_t> links(std::size_t s) const {
    return {link.data() + begin[s], link.data() + begin[s + 1]};
  }
  [[nodiscard]] std::span<const double> fractions(std::size_t s) const {
    return {fraction.data() + begin[s], fraction.data() + begin[s + 1]};
  }

  void start_subflow(std::uint32_t flow, std::uint32_t epoch_index, double bytes_share) {
    owner.push_back(flow);
    epoch.push_back(epoch_index);
    share.push_back(bytes_share);
    begin.push_back(begin.back());
  }
  // Adds an entry to the sub-flow started last.
  void add(std::uint32_t directed_link, double rate_fraction) {
    link.push_back(directed_link);
    fraction.push_back(rate_fraction);
    ++begin.back();
  }

  // Load of every directed link (index = directed link id, size 2 x link count).
  [[nodiscard]] std::vector<double> link_loads(std::size_t link_count) const;
};

}  // namespace ct
