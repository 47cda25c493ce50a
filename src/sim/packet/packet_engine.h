// The packet engine's core: a discrete-event simulation of packets on channels with credit-based,
// link-level flow control per virtual lane (InfiniBand Architecture Specification vol. 1, rel.
// 1.3, ch. 7.9 "Flow control": credits count 64-byte blocks of the receiver's buffer, one pool per
// VL; a sender transmits a packet on a VL only with credits for all its blocks). It knows channels
// and flows, nothing about switches or the fabric; sim/packet/packet_simulation.h makes channels of
// the fabric's links. No drops: a packet enters a buffer only with credits for it (lossless by
// construction; the engine checks it and counts drops, always 0).
//
// Channels. A channel is one direction of a link: a line rate, a one-way propagation delay, and
// at its far end either a NIC (the packet is delivered when its tail arrives) or a switch that
// forwards it after `forward_latency`, store-and-forward (from the tail's arrival) or cut-through
// (from the head's; never so early that the next channel would finish before the tail arrived).
// The far end's input buffer holds `credit_blocks` 64-byte blocks per VL (-1: unlimited, NVLink).
//
// Packets. A flow of S bytes is cut into ceil(S / mtu) packets of mtu bytes, the last one smaller
// (the payload alone: headers are not modelled). Serialization of b bytes at rate R takes
// round(8 b 10^12 / R) ps at the channel's rate when it starts. A packet carries its place in its
// path (an offset into the path pool) and the channels it came over, is on and goes to next, and
// comes from a pool.
//
// Spraying. A flow may hold several paths of the same length from the same first channel (a
// sprayed flow: one per member combination of the ECMP groups on its way); its packet n (counted
// from 0 in the order they are made) takes path n mod paths. A packet delivered after a later one
// of its flow arrived out of order (counted per flow: the receiver's reordering).
//
// A channel's events: it starts the next packet when idle; its serialization ends (kTxDone); the
// packet arrives at the far end (kArrive, at the tail plus forward latency for store-and-forward,
// the head plus forward latency for cut-through; at a NIC: the tail) and joins the output queue of
// its next channel; when its tail has left on that next channel (or it was delivered), its blocks
// are freed in the buffer it occupied and the credits travel back over the link (kCredit, one
// propagation delay later).
//
// Queue discipline. Per channel and VL, one FIFO output queue of the packets that arrived for it.
// VL arbitration: round robin over the VLs whose head packet has credits (a simplification of the
// specification's high/low-priority weighted tables: all VLs weigh the same). A source injects
// lazily: when a channel's queue for a VL is empty, the next active flow of that VL starting there
// (round robin, in activation order) makes its next packet; forwarded packets go first.
//
// Credit stall: the time a channel had a packet to send but no VL with credits for its head.
// Deadlock: when no event is left but packets wait for credits, the channels wait for each other;
// deadlock() names the cycles of channels (each one's far-end buffer full of packets that wait for
// the next one's credits): the credit loops of Dally & Seitz (IEEE ToC C-36(5), 1987). The
// channels wait for each other as a graph; every strongly connected component of it with a cycle
// is one loop, and every channel of such a component is in it.
//
// PFC (IEEE 802.1Qbb, priority-based flow control; RoCE v2 fabrics). A channel with `pfc` set
// has no credits: its sender transmits whenever the priority (the VL) is not paused. The far end
// counts the bytes of the channel's packets it holds per priority (the ingress queue: from the
// packet's arrival until its tail has left on the next channel, as for credits). When an arrival
// brings it to `xoff_bytes` or more, the far end sends an XOFF PAUSE frame upstream; it arrives one
// propagation delay later and stops the sender from starting a packet of that priority (one being
// serialized finishes). When the queue has drained to `xon_bytes` or less the far end sends an XON
// (a PAUSE of zero quanta), again one propagation delay upstream. PAUSE frames are not serialized
// and carry no timer (a sender stays paused until the XON: the refreshing XOFFs a switch sends are
// one long PAUSE here). The bytes that arrive after the XOFF land in the headroom; a packet that
// finds more than xoff + headroom bytes would be dropped: the engine counts it as a drop (never with
// the headroom sized for the link, see packet_simulation.h) and keeps it. PAUSE time: the time a
// channel stood idle, stopped by a PAUSE, with a packet of the paused priority to send.
//
// ECN and DCQCN (RoCE v2; red_marking.h, dcqcn.h). A channel with `ecn.enabled` is a switch's
// egress port that marks packets (CE) by RED on its priority's queue, at dequeue (the bytes left
// behind the departing packet) or at enqueue (the bytes the arriving packet joins), one draw per
// packet from the port's own stream seeded by set_seed(). Only forwarded packets are marked (a
// NIC's own packets are not in a switch's queue). With enable_dcqcn(), every flow's source is
// paced at its DCQCN rate: after a packet of b bytes it may start the next one b 8 / Rc later
// (Rc read when the packet starts); when no flow of a channel may send yet, the channel wakes at
// the earliest time one may (kCongestion). A marked packet delivered at the receiver makes a CNP
// unless the flow had one within cnp_interval; the CNP reaches the sender one path latency later
// (the sum of the path's propagation and switch latencies: a CNP is small and sent at the highest
// priority, so it is neither serialized nor queued here) and cuts the flow's rate.
//
// Flows start at their start time, or `delay` after the last flow they wait for completes;
// complete when their last packet is delivered (a zero-byte flow or one with no path: at once).
// Faults: a channel's rate changes at a scheduled instant (0: it stops; a packet being serialized
// finishes at the old rate); move_flow() gives a flow a new path for its packets not yet injected
// (those in flight keep theirs). Time is in ps (core/units.h: up to about 10^6 s).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "core/units.h"
#include "core/rng.h"
#include "sim/load_log.h"
#include "sim/packet/dcqcn.h"
#include "sim/packet/packet_event_queue.h"
#include "sim/packet/red_marking.h"

namespace ct {

inline constexpr std::int64_t kCreditBlockBytes = 64;  // IBA vol. 1, 7.9.4: one credit = 64 bytes
inline constexpr std::int64_t kUnlimitedCredits = -1;

struct PacketChannelSpec {
  BitsPerSecond rate{0};
  TimePs propagation{0};      // one way; credits come back over the same delay
  TimePs forward_latency{0};  // at the far end (a switch's port to port latency); 0 at a NIC
  bool cut_through = false;   // the far end forwards from the head
  std::int64_t credit_blocks = kUnlimitedCredits;  // per VL, the far end's input buffer
  bool pfc = false;                 // PFC instead of credits (credit_blocks unused)
  std::int64_t xoff_bytes = 0;      // per priority, at the far end
  std::int64_t xon_bytes = 0;
  std::int64_t headroom_bytes = 0;  // above xoff: what may still arrive after the XOFF
  RedEcnSpec ecn{};                 // ECN marking at this egress port (RoCE v2)
};

struct PacketFlowRequest {
  std::span<const std::uint32_t> path;  // channels, hop by hop
  Bytes size{0};
  TimePs start{0};
  std::span<const std::uint32_t> after;  // earlier flows it waits for
  TimePs delay{0};
  std::uint8_t vl = 0;
  bool gated = false;  // injects only the bytes allow() has given it (in-network aggregation)
  std::uint32_t paths = 1;  // spraying: `path` holds this many paths of equal length, one after the other
};

// In-network aggregation (sim/packet/sharp_aggregation.h) drives the gated flows: told when one
// starts, when one of its packets is delivered at its far end and when one's packet has left its
// first channel; it gives them bytes to send (allow()) and frees the buffers it kept.
class PacketAggregator {
 public:
  virtual ~PacketAggregator() = default;
  virtual void on_activate(std::uint32_t flow) = 0;
  // True: the aggregator keeps the packet's blocks in the far end's buffer (release_buffer() frees them).
  virtual bool on_deliver(std::uint32_t flow, std::uint32_t bytes) = 0;
  virtual void on_sent(std::uint32_t flow, std::uint32_t bytes) = 0;
  virtual void on_timer(std::uint32_t tag) = 0;
};

struct PacketChannelStats {
  std::int64_t carried_bytes = 0;
  std::int64_t packets = 0;
  std::int64_t peak_queue_bytes = 0;  // output queue, all VLs
  double queue_byte_ps = 0;           // the output queue's bytes integrated over time
  TimePs busy{0};
  TimePs credit_stall{0};
  TimePs pause_time{0};          // PFC: a packet to send, its priority paused (summed over priorities)
  std::int64_t pause_frames = 0;  // PFC: XOFF frames this channel's far end sent upstream
  std::int64_t ecn_marks = 0;     // ECN: packets this egress port marked (summed over priorities)
  // Its load: its rate while it sends (starts a packet, or is serializing one), 0 otherwise. The
  // time it sent at a positive rate up to its last load change; when that was; its load and rate
  // since; the highest load it had.
  TimePs saturated{0};
  TimePs load_changed{0};
  BitsPerSecond load{0};
  BitsPerSecond load_rate{0};
  BitsPerSecond peak_load{0};
};

// The channels' load changes in the order they happened (each time one starts or stops sending,
// or its rate changes while it sends): the channel, the time, the load (bits/s; 0: it stopped).
enum class PacketFlowState : std::uint8_t { kWaiting, kActive, kDone };

// A deadlocked run's credit loops: one cycle of channels per loop (a strongly connected component
// of the channels' wait graph that holds a cycle), each listed once from its least channel, the
// loops in the order of their least channels; and every channel of every loop, in increasing id
// (a loop may hold more channels than the one cycle listed). Both empty without a deadlock.
struct PacketDeadlock {
  std::vector<std::vector<std::uint32_t>> cycles;
  std::vector<std::uint32_t> channels;
  [[nodiscard]] bool empty() const { return cycles.empty(); }
};

class PacketEngine {
 public:
  // PRECONDITION: 1 <= mtu < 2^24, 1 <= vls <= 15.
  PacketEngine(std::int64_t mtu, std::uint8_t vls);

  std::uint32_t add_channel(const PacketChannelSpec& spec);
  // PRECONDITION: the path's channels exist, fewer than 2^16; after names earlier flows; vl < vls;
  // each channel's credits (when limited) hold one packet of the flow.
  std::uint32_t add_flow(const PacketFlowRequest& request);
  // Channel's rate becomes `fraction` of its nominal rate at `at`.
  void schedule_rate(std::uint32_t channel, TimePs at, double fraction);
  void schedule_timer(TimePs at, std::uint32_t tag);
  // The seed of the ECN marking streams (one per channel). Before the first step().
  void set_seed(std::uint64_t seed) { seed_ = seed; }
  // DCQCN at every flow's source. Before the first step().
  void enable_dcqcn(const DcqcnParams& params) {
    dcqcn_ = true;
    dcqcn_params_ = params;
  }
  void set_on_timer(std::function<void(std::uint32_t)> f) { on_timer_ = std::move(f); }
  // Keeps the first `limit` load changes (a LoadLog, full when `limit` is reached) for
  // take_load_log(). Before the first step().
  void keep_load_log(std::size_t limit) { load_log_.set_limit(limit); }
  // The load changes kept; the engine keeps none from then on.
  LoadLog take_load_log() { return std::exchange(load_log_, LoadLog()); }
  // Told when a channel's output queue (all VLs) changes: the bytes it holds from then on.
  void set_on_queue(std::function<void(std::uint32_t, TimePs, std::int64_t)> f) { on_queue_ = std::move(f); }
  // Aggregation: its timers run `aggregator`'s on_timer; a gated flow may inject `bytes` more.
  void set_aggregator(PacketAggregator* aggregator) { aggregator_ = aggregator; }
  void schedule_aggregation(TimePs at, std::uint32_t tag);
  void allow(std::uint32_t flow, std::int64_t bytes);
  // Frees `bytes` a delivered packet kept in channel c's far-end buffer (its credits travel back).
  void release_buffer(std::uint32_t c, std::uint8_t vl, std::uint32_t bytes) { release(c, vl, bytes); }
  // The flow's packets not yet injected take `path` from now on (`paths` paths of equal length,
  // one after the other, as in PacketFlowRequest). PRECONDITION: not empty, fewer than 2^16
  // channels per path.
  void move_flow(std::uint32_t flow, std::span<const std::uint32_t> path, std::uint32_t paths = 1);

  // Runs one event; false when none is left.
  bool step();
  void run() {
    while (step()) {
    }
  }

  [[nodiscard]] TimePs now() const { return now_; }
  [[nodiscard]] std::uint64_t events() const { return events_; }
  [[nodiscard]] std::size_t channel_count() const { return channels_.size(); }
  [[nodiscard]] std::size_t flow_count() const { return flows_.size(); }
  [[nodiscard]] PacketFlowState state(std::uint32_t f) const { return flows_[f].state; }
  [[nodiscard]] TimePs start_time(std::uint32_t f) const { return flows_[f].started; }
  [[nodiscard]] TimePs completion_time(std::uint32_t f) const { return flows_[f].completed; }
  [[nodiscard]] std::int64_t delivered_bytes(std::uint32_t f) const { return flows_[f].delivered; }
  // DCQCN: CNPs the flow's receiver sent; packets it received marked; the flow's current rate.
  [[nodiscard]] std::int64_t cnps(std::uint32_t f) const { return flows_[f].cnps; }
  [[nodiscard]] std::int64_t marked_received(std::uint32_t f) const { return flows_[f].marked; }
  [[nodiscard]] const DcqcnRate& dcqcn_rate(std::uint32_t f) const { return flows_[f].rate; }
  [[nodiscard]] std::int64_t size(std::uint32_t f) const { return flows_[f].size; }
  [[nodiscard]] std::uint8_t vl(std::uint32_t f) const { return flows_[f].vl; }
  [[nodiscard]] std::span<const std::uint32_t> path(std::uint32_t f, std::uint32_t i = 0) const {
    return {path_pool_.data() + flows_[f].path_begin + std::size_t{i} * (flows_[f].path_size + 1), flows_[f].path_size};
  }
  [[nodiscard]] std::uint32_t paths(std::uint32_t f) const { return flows_[f].paths; }
  // Packets of the flow delivered after a later packet of it (spraying, a move_flow()).
  [[nodiscard]] std::int64_t out_of_order(std::uint32_t f) const { return flows_[f].out_of_order; }
  // Statistics up to now().
  [[nodiscard]] PacketChannelStats channel_stats(std::uint32_t c) const;
  [[nodiscard]] BitsPerSecond rate(std::uint32_t c) const { return channels_[c].rate; }
  [[nodiscard]] std::uint64_t drops() const { return drops_; }
  // ECN: packets of priority `vl` that channel c's egress port marked (0 before the first step()).
  [[nodiscard]] std::int64_t ecn_marks(std::uint32_t c, std::uint8_t vl) const {
    return ecn_marks_.empty() ? 0 : ecn_marks_[c * vls_ + vl];
  }
  [[nodiscard]] std::size_t peak_packets() const { return peak_packets_; }
  // The credit loops the run ended in (packets waiting for credits that can never come): one
  // cycle per loop, empty when none. PRECONDITION: step() returned false.
  [[nodiscard]] PacketDeadlock deadlock() const;
  // The flows with a packet held in the far-end buffer of one of `channels` (a packet that came
  // over it and waits in the next channel's output queue), in increasing id: given deadlock()'s
  // channels, the flows in a credit loop; a flow stalled and not among them is blocked behind one
  // (its packets wait upstream of the loops, or were never made) or stopped by a failed path.
  // PRECONDITION: step() returned false.
  [[nodiscard]] std::vector<std::uint32_t> flows_holding(std::span<const std::uint32_t> channels) const;

 private:
  // A channel's state, laid out by what its events touch (the run is bound by memory latency,
  // docs/performance.md): the first cache line at every send and end of serialization; the second
  // at every change of its output queue, and at every arrival at its far end (the buffer's
  // limits); the third on ECN marking and when it starts or stops sending. What is left
  // (the spec, the rarer statistics, the flows injecting here) is in ChannelRest.
  struct alignas(64) Channel {
    BitsPerSecond rate{0};
    TimePs propagation{0};
    TimePs forward_latency{0};
    TimePs stall_since{-1};
    TimePs pause_since{-1};  // PFC: since when a packet waits behind a PAUSE
    // The packet on the wire: the channel whose buffer it frees, or on its first hop its flow.
    std::uint32_t sending_from = 0;
    std::uint32_t sending_bytes = 0;
    std::uint16_t paused = 0;     // PFC: priorities paused by the far end (bit per VL)
    std::uint16_t xoff_sent = 0;  // PFC: priorities this channel's far end has paused
    std::uint8_t next_vl = 0;
    std::uint8_t sending_vl = 0;
    bool busy = false;
    bool loaded = false;
    bool cut_through = false;
    bool pfc = false;
    bool limited = false;  // credits, not unlimited
    bool has_sources = false;  // ChannelRest::sources is not empty
    bool ecn_dequeue = false;  // ECN marking, at dequeue
    bool ecn_enqueue = false;  // ECN marking, at enqueue
    bool sending_first = false;

    std::int64_t queue_bytes = 0;
    TimePs queue_since{0};
    double queue_byte_ps = 0;
    std::int64_t peak_queue_bytes = 0;
    std::int64_t packets = 0;
    std::int64_t carried_bytes = 0;
    std::int64_t xoff_bytes = 0;    // PFC
    std::int64_t buffer_limit = 0;  // per VL at the far end: PFC xoff + headroom bytes; credits: blocks

    RedEcnSpec ecn;
    TimePs busy_since{0};  // its last load change (sending or not)
    TimePs busy_time{0};
    std::int64_t xon_bytes = 0;  // PFC
  };
  static_assert(sizeof(Channel) == 192);
  struct ChannelRest {
    PacketChannelSpec spec;
    TimePs credit_stall{0};
    TimePs pause_time{0};
    std::int64_t pause_frames = 0;
    TimePs wake_at{-1};  // DCQCN: a pacing wake-up is scheduled
    // Its load while its rate changes (faults): the time it sent at rate 0 (a packet finishing after
    // the link went down); its peak load up to the last rate change, and its packets then.
    TimePs sent_at_zero{0};
    BitsPerSecond peak_load{0};
    std::int64_t packets_at_rate_change = 0;
    std::uint32_t source_cursor = 0;
    std::vector<std::uint32_t> sources;  // active flows injecting here, in activation order
  };
  // Per channel and VL: its output queue and the far end's buffer.
  struct VlState {
    std::uint32_t head = 0xFFFF'FFFFU;  // the output queue, linked through Packet::next
    std::uint32_t tail = 0xFFFF'FFFFU;
    std::int64_t queue_bytes = 0;
    std::int64_t credits = 0;   // the sender's, in blocks
    std::int64_t occupied = 0;  // blocks (PFC: bytes) held in the far end's buffer
  };
  struct Flow {
    std::uint32_t path_begin = 0;
    std::uint32_t path_size = 0;
    std::int64_t size = 0;
    std::int64_t injected = 0;
    std::int64_t delivered = 0;
    TimePs start{0};
    TimePs delay{0};
    TimePs ready{0};  // the last completion it waited for
    TimePs started{-1};
    TimePs completed{-1};
    std::uint32_t waiting_for = 0;
    std::uint8_t vl = 0;
    bool gated = false;
    std::int64_t allowed = 0;  // gated: the bytes it may inject
    PacketFlowState state = PacketFlowState::kWaiting;
    DcqcnRate rate;            // DCQCN's reaction point
    TimePs next_send{0};       // DCQCN: the source's pacing
    TimePs last_cnp{-1};       // DCQCN: the notification point's last CNP
    std::int64_t cnps = 0;
    std::int64_t marked = 0;   // packets delivered with CE
    std::uint32_t paths = 1;   // spraying: paths of path_size channels from path_begin on, each ending in kNone
    std::uint32_t next_seq = 0;  // one more than the highest packet index delivered
    std::int64_t out_of_order = 0;
  };
  // A packet carries its channels (the one it is queued for or crossing, the one it came over, the
  // next one): an arrival and a send read no path; only the channel after the next is looked up,
  // off the arrival's critical path. 32 B, so that no packet straddles two cache lines.
  struct alignas(32) Packet {
    std::uint32_t flow = 0;
    std::uint32_t seq = 0;        // its index in its flow (reordering at the receiver)
    std::uint32_t bytes : 24 = 0;  // at most the MTU
    std::uint32_t vl : 4 = 0;      // its flow's, carried so that an arrival need not read the flow
    std::uint32_t ce : 1 = 0;      // ECN: congestion experienced
    std::uint32_t next = 0xFFFF'FFFFU;  // in an output queue
    std::uint32_t at = 0;               // the channel it is queued for or crossing
    std::uint32_t from = 0xFFFF'FFFFU;  // the channel it came over (its buffer holds it); none on its first hop
    std::uint32_t ahead = 0xFFFF'FFFFU;  // the channel after `at`; none: `at` ends its path
    std::uint32_t pos = 0;               // `at`'s index in the path pool
  };
  static_assert(sizeof(Packet) == 32);
  struct RateChange {
    std::uint32_t channel = 0;
    double fraction = 1.0;
  };

  [[nodiscard]] TimePs serialization(std::int64_t bytes, BitsPerSecond rate) const;
  [[nodiscard]] static std::uint32_t blocks(std::int64_t bytes) {
    return static_cast<std::uint32_t>((bytes + kCreditBlockBytes - 1) / kCreditBlockBytes);
  }
  VlState& vl_state(std::uint32_t c, std::uint8_t vl) { return vl_states_[c * vls_ + vl]; }
  [[nodiscard]] const VlState& vl_state(std::uint32_t c, std::uint8_t vl) const { return vl_states_[c * vls_ + vl]; }
  // Appends `paths` paths of equal length (one after the other in `path`), each followed by kNone;
  // returns where the first begins.
  std::uint32_t append_paths(std::span<const std::uint32_t> path, std::uint32_t paths);
  void finalize();
  void activate(std::uint32_t f);
  void complete(std::uint32_t f);
  bool try_send(std::uint32_t c);
  void release(std::uint32_t c, std::uint8_t vl, std::uint32_t bytes);
  void on_pause(std::uint32_t c, std::uint32_t payload);
  std::uint32_t head_for(std::uint32_t c, std::uint8_t vl);
  std::uint32_t inject(std::uint32_t c, std::uint8_t vl);
  void send(std::uint32_t c, std::uint8_t vl, std::uint32_t packet);
  void on_tx_done(std::uint32_t c);
  void on_arrive(std::uint32_t packet);
  void on_credit(std::uint32_t c, std::uint32_t payload);
  void on_congestion(std::uint32_t subject, std::uint32_t payload);
  void mark(std::uint32_t c, std::uint32_t packet, std::int64_t queued);
  void notify(std::uint32_t packet);
  void pace(std::uint32_t c, std::uint32_t f, std::uint32_t bytes);
  void set_queue(std::uint32_t c, std::int64_t delta);
  void set_loaded(std::uint32_t c, bool loaded);
  void change_rate(std::uint32_t c, BitsPerSecond rate);
  void log_load(std::uint32_t c, BitsPerSecond load) {
    load_log_.add(c, now_, static_cast<double>(load.value()));
  }
  std::uint32_t new_packet();
  void free_packet(std::uint32_t p);

  std::int64_t mtu_;
  // serialization()'s last answers, by a hash of (bytes, rate): almost every packet is an MTU at
  // one of a few rates, and the exact division is 128-bit.
  struct TxMemo {
    std::int64_t bytes = -1;
    std::int64_t rate = -1;
    TimePs tx{0};
  };
  mutable TxMemo tx_memo_[8];
  std::uint8_t vls_;
  bool finalized_ = false;
  TimePs now_{0};
  std::uint64_t events_ = 0;
  std::uint64_t drops_ = 0;
  PacketEventQueue queue_;
  std::vector<Channel> channels_;
  std::vector<ChannelRest> rest_;    // by channel
  std::vector<VlState> vl_states_;   // channel x VL
  std::vector<Rng> ecn_rng_;           // per channel with ECN marking
  std::vector<std::int64_t> ecn_marks_;  // channel x VL: packets marked (a port's total: their sum)
  std::uint64_t seed_ = 1;
  bool dcqcn_ = false;
  DcqcnParams dcqcn_params_;
  std::vector<Flow> flows_;
  // The flows' paths, each followed by kNone (and the first preceded by one): a packet's next
  // channel is kNone past its path's end, and a path's start is found by walking back.
  std::vector<std::uint32_t> path_pool_{0xFFFF'FFFFU};
  std::vector<std::uint32_t> after_pool_;
  std::vector<std::uint32_t> after_begin_;
  std::vector<std::uint32_t> dependents_;        // CSR by flow: flows waiting for it
  std::vector<std::uint32_t> dependents_begin_;
  std::vector<Packet> packets_;
  std::vector<std::uint32_t> free_packets_;
  std::size_t live_packets_ = 0;
  std::size_t peak_packets_ = 0;
  std::vector<RateChange> rate_changes_;
  PacketAggregator* aggregator_ = nullptr;
  std::function<void(std::uint32_t)> on_timer_;
  LoadLog load_log_;
  std::function<void(std::uint32_t, TimePs, std::int64_t)> on_queue_;
};

}  // namespace ct
