#include "sim/packet/packet_engine.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ct {
namespace {

constexpr std::uint32_t kNone = 0xFFFF'FFFFU;
constexpr std::uint32_t kCnp = 0;   // kCongestion's payload: a CNP reaches the flow's sender
constexpr std::uint32_t kWake = 1;  // a channel's paced flows may send
__extension__ typedef __int128 Wide;  // 8 b 10^12 overflows 64 bits past 1.1 MB

}  // namespace

PacketEngine::PacketEngine(std::int64_t mtu, std::uint8_t vls) : mtu_(mtu), vls_(vls) {
  assert(mtu >= 1 && mtu < (1 << 24) && vls >= 1 && vls <= 15);
}

std::uint32_t PacketEngine::append_paths(std::span<const std::uint32_t> path, std::uint32_t paths) {
  const auto begin = static_cast<std::uint32_t>(path_pool_.size());
  const std::size_t length = path.size() / paths;
  for (std::uint32_t i = 0; i < paths; ++i) {
    const auto one = path.subspan(i * length, length);
    path_pool_.insert(path_pool_.end(), one.begin(), one.end());
    path_pool_.push_back(kNone);
  }
  return begin;
}

std::uint32_t PacketEngine::add_channel(const PacketChannelSpec& spec) {
  Channel& ch = channels_.emplace_back();
  ch.rate = spec.rate;
  ch.propagation = spec.propagation;
  ch.forward_latency = spec.forward_latency;
  ch.cut_through = spec.cut_through;
  ch.pfc = spec.pfc;
  ch.limited = spec.credit_blocks != kUnlimitedCredits;
  ch.xoff_bytes = spec.xoff_bytes;
  ch.xon_bytes = spec.xon_bytes;
  ch.buffer_limit = spec.pfc ? spec.xoff_bytes + spec.headroom_bytes : spec.credit_blocks;
  ch.ecn = spec.ecn;
  ch.ecn_dequeue = spec.ecn.enabled && spec.ecn.point == EcnMarkPoint::kDequeue;
  ch.ecn_enqueue = spec.ecn.enabled && spec.ecn.point == EcnMarkPoint::kEnqueue;
  rest_.emplace_back().spec = spec;
  for (std::uint8_t v = 0; v < vls_; ++v) vl_states_.emplace_back().credits = spec.credit_blocks;
  // A channel made during the run (a path new at reconvergence) gets its ECN stream and its
  // per-priority mark counts as finalize() gives the others.
  const auto c = static_cast<std::uint32_t>(channels_.size() - 1);
  if (finalized_) {
    ecn_rng_.emplace_back(seed_, 0, stream_of({kEcnStreamTag, c}));
    ecn_marks_.resize(channels_.size() * vls_, 0);
  }
  return c;
}

std::uint32_t PacketEngine::add_flow(const PacketFlowRequest& request) {
  assert(request.vl < vls_ && request.paths >= 1 && request.path.size() % request.paths == 0 &&
         request.path.size() / request.paths <= 0xFFFFU);
  Flow& f = flows_.emplace_back();
  f.path_begin = append_paths(request.path, request.paths);
  f.path_size = static_cast<std::uint32_t>(request.path.size() / request.paths);
  f.paths = request.paths;
  f.size = request.size.value();
  f.start = request.start;
  f.delay = request.delay;
  f.vl = request.vl;
  f.gated = request.gated;
  f.waiting_for = static_cast<std::uint32_t>(request.after.size());
  after_begin_.push_back(static_cast<std::uint32_t>(after_pool_.size()));
  after_pool_.insert(after_pool_.end(), request.after.begin(), request.after.end());
  return static_cast<std::uint32_t>(flows_.size() - 1);
}

void PacketEngine::schedule_rate(std::uint32_t channel, TimePs at, double fraction) {
  queue_.push(at, PacketEventKind::kRate, static_cast<std::uint32_t>(rate_changes_.size()));
  rate_changes_.push_back({channel, fraction});
}

void PacketEngine::schedule_timer(TimePs at, std::uint32_t tag) { queue_.push(at, PacketEventKind::kTimer, tag); }

// An aggregation timer is a kTimer whose payload is 1.
void PacketEngine::schedule_aggregation(TimePs at, std::uint32_t tag) { queue_.push(at, PacketEventKind::kTimer, tag, 1); }

void PacketEngine::allow(std::uint32_t f, std::int64_t bytes) {
  Flow& flow = flows_[f];
  flow.allowed += bytes;
  if (flow.state == PacketFlowState::kActive && flow.path_size > 0) try_send(path_pool_[flow.path_begin]);
}

void PacketEngine::move_flow(std::uint32_t f, std::span<const std::uint32_t> path, std::uint32_t paths) {
  assert(!path.empty() && paths >= 1 && path.size() % paths == 0 && path.size() / paths <= 0xFFFFU);
  Flow& flow = flows_[f];
  const std::uint32_t old_first = flow.path_size > 0 ? path_pool_[flow.path_begin] : kNone;
  flow.path_begin = append_paths(path, paths);
  flow.path_size = static_cast<std::uint32_t>(path.size() / paths);
  flow.paths = paths;
  if (flow.state != PacketFlowState::kActive || flow.injected == flow.size || old_first == path.front()) return;
  auto& old_sources = rest_[old_first].sources;
  const auto it = std::find(old_sources.begin(), old_sources.end(), f);
  if (it != old_sources.end()) old_sources.erase(it);
  channels_[old_first].has_sources = !old_sources.empty();
  rest_[path.front()].sources.push_back(f);
  channels_[path.front()].has_sources = true;
  try_send(path.front());
}

void PacketEngine::finalize() {
  finalized_ = true;
  // Flows waiting for each flow, in flow order (CSR).
  dependents_begin_.assign(flows_.size() + 1, 0);
  for (const std::uint32_t a : after_pool_) ++dependents_begin_[a + 1];
  for (std::size_t f = 0; f < flows_.size(); ++f) dependents_begin_[f + 1] += dependents_begin_[f];
  dependents_.resize(after_pool_.size());
  std::vector<std::uint32_t> fill(dependents_begin_.begin(), dependents_begin_.end() - 1);
  for (std::uint32_t f = 0; f < flows_.size(); ++f) {
    const std::uint32_t end = f + 1 < flows_.size() ? after_begin_[f + 1] : static_cast<std::uint32_t>(after_pool_.size());
    for (std::uint32_t k = after_begin_[f]; k < end; ++k) dependents_[fill[after_pool_[k]]++] = f;
  }
  for (std::uint32_t f = 0; f < flows_.size(); ++f) {
    if (flows_[f].waiting_for == 0) queue_.push(flows_[f].start, PacketEventKind::kStart, f);
  }
  ecn_rng_.reserve(channels_.size());
  for (std::uint32_t c = 0; c < channels_.size(); ++c) ecn_rng_.emplace_back(seed_, 0, stream_of({kEcnStreamTag, c}));
  ecn_marks_.assign(channels_.size() * vls_, 0);
}

TimePs PacketEngine::serialization(std::int64_t bytes, BitsPerSecond rate) const {
  TxMemo& memo = tx_memo_[static_cast<std::uint64_t>(bytes ^ (rate.value() >> 20)) & 7U];
  if (memo.bytes == bytes && memo.rate == rate.value()) return memo.tx;
  const auto r = static_cast<Wide>(rate.value());
  const Wide num = static_cast<Wide>(bytes) * 8 * 1'000'000'000'000LL;
  memo = {bytes, rate.value(), TimePs(static_cast<std::int64_t>((num + r / 2) / r))};
  return memo.tx;
}

bool PacketEngine::step() {
  if (!finalized_) finalize();
  if (queue_.empty()) return false;
  const PacketEvent e = queue_.pop();
  now_ = e.time;
  ++events_;
  // The run is bound by memory latency (docs/performance.md): start loading what the next event
  // most likely reads (the one now on top, unless this event schedules an earlier one).
  if (!queue_.empty()) {
    queue_.prefetch_top();
    const PacketEvent next = queue_.top();
    if (next.kind() == PacketEventKind::kArrive) {
      __builtin_prefetch(&packets_[next.subject()]);
    } else if (next.kind() == PacketEventKind::kTxDone || next.kind() == PacketEventKind::kCredit) {
      __builtin_prefetch(&channels_[next.subject()]);
    }
  }
  switch (e.kind()) {
    case PacketEventKind::kStart: activate(e.subject()); break;
    case PacketEventKind::kTxDone: on_tx_done(e.subject()); break;
    case PacketEventKind::kArrive: on_arrive(e.subject()); break;
    case PacketEventKind::kCredit: on_credit(e.subject(), e.payload); break;
    case PacketEventKind::kRate: {
      const RateChange& change = rate_changes_[e.subject()];
      change_rate(change.channel,
                  BitsPerSecond(std::llround(static_cast<double>(rest_[change.channel].spec.rate.value()) * change.fraction)));
      try_send(change.channel);
      break;
    }
    case PacketEventKind::kTimer:
      if (e.payload == 1 && aggregator_ != nullptr) {
        aggregator_->on_timer(e.subject());
      } else if (on_timer_) {
        on_timer_(e.subject());
      }
      break;
    case PacketEventKind::kPause: on_pause(e.subject(), e.payload); break;
    case PacketEventKind::kCongestion: on_congestion(e.subject(), e.payload); break;
  }
  return true;
}

void PacketEngine::activate(std::uint32_t f) {
  Flow& flow = flows_[f];
  flow.state = PacketFlowState::kActive;
  flow.started = now_;
  if (flow.size == 0 || flow.path_size == 0) {
    complete(f);
    return;
  }
  const std::uint32_t c = path_pool_[flow.path_begin];
  if (dcqcn_) flow.rate = DcqcnRate(rest_[c].spec.rate);
  rest_[c].sources.push_back(f);
  channels_[c].has_sources = true;
  if (flow.gated && aggregator_ != nullptr) aggregator_->on_activate(f);
  try_send(c);
}

void PacketEngine::complete(std::uint32_t f) {
  flows_[f].state = PacketFlowState::kDone;
  flows_[f].completed = now_;
  if (dependents_begin_.empty()) return;
  for (std::uint32_t k = dependents_begin_[f]; k < dependents_begin_[f + 1]; ++k) {
    Flow& d = flows_[dependents_[k]];
    d.ready = std::max(d.ready, now_);
    if (--d.waiting_for == 0) queue_.push(std::max(d.start, d.ready + d.delay), PacketEventKind::kStart, dependents_[k]);
  }
}

std::uint32_t PacketEngine::inject(std::uint32_t c, std::uint8_t vl) {
  ChannelRest& ch = rest_[c];
  const std::size_t n = ch.sources.size();
  TimePs wake{-1};  // DCQCN: the earliest time a paced flow of this VL may send
  // Round robin from the cursor: (cursor + k) mod n, by one division at most (a NIC has one source).
  std::size_t at = ch.source_cursor < n || n == 0 ? ch.source_cursor : ch.source_cursor % n;
  for (std::size_t k = 0; k < n; ++k, at = at + 1 == n ? 0 : at + 1) {
    const std::uint32_t f = ch.sources[at];
    Flow& flow = flows_[f];
    if (flow.vl != vl || (flow.gated && flow.injected >= flow.allowed)) continue;
    if (dcqcn_ && flow.next_send > now_) {
      if (wake.value() < 0 || flow.next_send < wake) wake = flow.next_send;
      continue;
    }
    const std::uint32_t p = new_packet();
    Packet& pk = packets_[p];
    pk.flow = f;
    pk.seq = static_cast<std::uint32_t>(flow.injected / mtu_);
    pk.pos = flow.path_begin + (flow.paths == 1 ? 0 : (pk.seq % flow.paths) * (flow.path_size + 1));
    pk.at = c;
    pk.ahead = path_pool_[pk.pos + 1];
    pk.vl = vl & 0xFU;
    pk.bytes = static_cast<std::uint32_t>(std::min(mtu_, flow.size - flow.injected)) & 0xFF'FFFFU;
    flow.injected += pk.bytes;
    if (dcqcn_) pace(c, f, pk.bytes);
    if (flow.injected == flow.size) {
      ch.sources.erase(ch.sources.begin() + static_cast<std::ptrdiff_t>(at));
      channels_[c].has_sources = !ch.sources.empty();
      ch.source_cursor = static_cast<std::uint32_t>(at == ch.sources.size() ? 0 : at);  // at <= size
    } else {
      ch.source_cursor = static_cast<std::uint32_t>(at + 1 == n ? 0 : at + 1);
    }
    VlState& q = vl_state(c, vl);
    q.head = q.tail = p;
    q.queue_bytes += pk.bytes;
    set_queue(c, pk.bytes);
    return p;
  }
  if (wake.value() >= 0 && (ch.wake_at.value() < 0 || wake < ch.wake_at)) {
    ch.wake_at = wake;
    queue_.push(wake, PacketEventKind::kCongestion, c, kWake);
  }
  return kNone;
}

void PacketEngine::pace(std::uint32_t c, std::uint32_t f, std::uint32_t bytes) {
  Flow& flow = flows_[f];
  flow.rate.advance(dcqcn_params_, now_);
  const auto rc = BitsPerSecond(std::max<std::int64_t>(1, std::llround(flow.rate.rate())));
  flow.next_send = now_ + (rc >= rest_[c].spec.rate ? TimePs(0) : serialization(bytes, rc));
  flow.rate.on_sent(dcqcn_params_, bytes);
}

void PacketEngine::mark(std::uint32_t c, std::uint32_t p, std::int64_t queued) {
  if (!red_mark(channels_[c].ecn, queued, ecn_rng_[c])) return;
  packets_[p].ce = true;
  ++ecn_marks_[c * vls_ + packets_[p].vl];
}

// The notification point: a CE packet delivered; a CNP unless the flow had one within the interval.
void PacketEngine::notify(std::uint32_t p) {
  const Packet& pk = packets_[p];
  Flow& flow = flows_[pk.flow];
  ++flow.marked;
  if (!dcqcn_ || (flow.last_cnp.value() >= 0 && now_ - flow.last_cnp < dcqcn_params_.cnp_interval)) return;
  flow.last_cnp = now_;
  ++flow.cnps;
  TimePs back{0};
  for (std::uint32_t k = pk.pos; path_pool_[k] != kNone; --k) {  // the path, from its last channel back
    const Channel& ch = channels_[path_pool_[k]];
    back += ch.propagation + ch.forward_latency;
  }
  queue_.push_lane(now_ + back, PacketEventKind::kCongestion, pk.flow, kCnp);
}

void PacketEngine::on_congestion(std::uint32_t subject, std::uint32_t payload) {
  if (payload == kWake) {
    ChannelRest& ch = rest_[subject];
    if (ch.wake_at == now_) ch.wake_at = TimePs(-1);
    try_send(subject);
    return;
  }
  Flow& flow = flows_[subject];
  if (flow.state != PacketFlowState::kActive) return;
  flow.rate.advance(dcqcn_params_, now_);
  flow.rate.on_cnp(dcqcn_params_, now_);
}

std::uint32_t PacketEngine::head_for(std::uint32_t c, std::uint8_t vl) {
  const VlState& q = vl_state(c, vl);
  if (q.head != kNone) return q.head;
  return channels_[c].has_sources ? inject(c, vl) : kNone;
}

bool PacketEngine::try_send(std::uint32_t c) {
  Channel& ch = channels_[c];
  if (ch.busy || ch.rate.value() <= 0) return false;
  bool pending = false;
  bool held = false;  // a packet (or a flow that could make one) waits behind a PAUSE
  for (std::uint8_t k = 0; k < vls_; ++k) {
    const auto vl = static_cast<std::uint8_t>((ch.next_vl + k) % vls_);
    if ((ch.paused >> vl & 1U) != 0) {
      const auto& sources = rest_[c].sources;
      held = held || vl_state(c, vl).head != kNone ||
             (ch.has_sources && std::any_of(sources.begin(), sources.end(), [&](std::uint32_t f) { return flows_[f].vl == vl; }));
      continue;
    }
    const std::uint32_t p = head_for(c, vl);
    if (p == kNone) continue;
    pending = true;
    if (ch.limited && vl_state(c, vl).credits < blocks(packets_[p].bytes)) continue;
    ch.next_vl = static_cast<std::uint8_t>((vl + 1) % vls_);
    if (ch.stall_since.value() >= 0) {
      rest_[c].credit_stall += now_ - ch.stall_since;
      ch.stall_since = TimePs(-1);
    }
    if (ch.pause_since.value() >= 0) {
      rest_[c].pause_time += now_ - ch.pause_since;
      ch.pause_since = TimePs(-1);
    }
    send(c, vl, p);
    return true;
  }
  if (pending && ch.stall_since.value() < 0) ch.stall_since = now_;
  if (held && ch.pause_since.value() < 0) ch.pause_since = now_;
  if (!held && ch.pause_since.value() >= 0) {
    rest_[c].pause_time += now_ - ch.pause_since;
    ch.pause_since = TimePs(-1);
  }
  return false;
}

void PacketEngine::send(std::uint32_t c, std::uint8_t vl, std::uint32_t p) {
  Channel& ch = channels_[c];
  Packet& pk = packets_[p];
  VlState& q = vl_state(c, vl);
  q.head = pk.next;
  if (q.head == kNone) {
    q.tail = kNone;
  } else {
    __builtin_prefetch(&packets_[q.head]);  // the channel's next send reads it
  }
  pk.next = kNone;
  q.queue_bytes -= pk.bytes;
  const bool first = pk.from == kNone;
  if (ch.ecn_dequeue && !first) mark(c, p, q.queue_bytes);
  set_queue(c, -static_cast<std::int64_t>(pk.bytes));
  if (!ch.pfc && ch.limited) q.credits -= blocks(pk.bytes);
  ch.busy = true;
  ch.sending_first = first;
  ch.sending_from = first ? pk.flow : pk.from;
  ch.sending_bytes = pk.bytes;
  ch.sending_vl = vl;
  ++ch.packets;
  ch.carried_bytes += pk.bytes;
  const TimePs tx = serialization(pk.bytes, ch.rate);
  queue_.push_lane(now_ + tx, PacketEventKind::kTxDone, c);
  TimePs arrive = now_ + tx + ch.propagation;
  if (pk.ahead != kNone) {
    if (ch.cut_through) {
      const Channel& next = channels_[pk.ahead];
      const TimePs tx_next = next.rate.value() > 0 ? serialization(pk.bytes, next.rate) : tx;
      arrive = now_ + ch.propagation + std::max(TimePs(0), tx - tx_next);
    }
    arrive += ch.forward_latency;
  }
  queue_.push_lane(arrive, PacketEventKind::kArrive, p);
  set_loaded(c, true);
}

void PacketEngine::release(std::uint32_t c, std::uint8_t vl, std::uint32_t bytes) {
  Channel& ch = channels_[c];
  if (ch.pfc) {
    std::int64_t& held = vl_state(c, vl).occupied;
    held -= bytes;
    if ((ch.xoff_sent >> vl & 1U) != 0 && held <= ch.xon_bytes) {
      ch.xoff_sent = static_cast<std::uint16_t>(ch.xoff_sent & ~(1U << vl));
      queue_.push_lane(now_ + ch.propagation, PacketEventKind::kPause, c, vl);  // XON
    }
    return;
  }
  if (!ch.limited) return;
  const std::uint32_t blocks_freed = blocks(bytes);
  vl_state(c, vl).occupied -= blocks_freed;
  queue_.push_lane(now_ + ch.propagation, PacketEventKind::kCredit, c, (blocks_freed << 4) | vl);
}

void PacketEngine::on_pause(std::uint32_t c, std::uint32_t payload) {
  Channel& ch = channels_[c];
  const std::uint32_t vl = payload & 0xFU;
  if ((payload & 0x10U) != 0) {
    ch.paused = static_cast<std::uint16_t>(ch.paused | (1U << vl));
  } else {
    ch.paused = static_cast<std::uint16_t>(ch.paused & ~(1U << vl));
  }
  try_send(c);
}

void PacketEngine::on_tx_done(std::uint32_t c) {
  Channel& ch = channels_[c];
  ch.busy = false;
  if (!ch.sending_first) {
    release(ch.sending_from, ch.sending_vl, ch.sending_bytes);
  } else if (aggregator_ != nullptr && flows_[ch.sending_from].gated) {
    aggregator_->on_sent(ch.sending_from, ch.sending_bytes);
  }
  if (!try_send(c)) set_loaded(c, false);
}

void PacketEngine::on_arrive(std::uint32_t p) {
  Packet& pk = packets_[p];
  const std::uint8_t vl = pk.vl;
  const std::uint32_t over = pk.at;
  Channel& in = channels_[over];
  if (in.pfc) {
    std::int64_t& held = vl_state(over, vl).occupied;
    held += pk.bytes;
    if (held > in.buffer_limit) ++drops_;  // the headroom overflowed
    if ((in.xoff_sent >> vl & 1U) == 0 && held >= in.xoff_bytes) {
      in.xoff_sent = static_cast<std::uint16_t>(in.xoff_sent | (1U << vl));
      ++rest_[over].pause_frames;
      queue_.push_lane(now_ + in.propagation, PacketEventKind::kPause, over, 0x10U | vl);  // XOFF
    }
  } else if (in.limited) {
    std::int64_t& used = vl_state(over, vl).occupied;
    used += blocks(pk.bytes);
    if (used > in.buffer_limit) ++drops_;  // never: a sender needs credits for every block
  }
  if (pk.ahead == kNone) {
    Flow& flow = flows_[pk.flow];
    flow.delivered += pk.bytes;
    if (pk.seq < flow.next_seq) {
      ++flow.out_of_order;
    } else {
      flow.next_seq = pk.seq + 1;
    }
    if (pk.ce) notify(p);
    const std::uint32_t f = pk.flow;
    const std::uint32_t bytes = pk.bytes;
    free_packet(p);  // the aggregator may make packets: `pk` is not used below
    if (!flow.gated || aggregator_ == nullptr || !aggregator_->on_deliver(f, bytes)) release(over, vl, bytes);
    if (flow.delivered == flow.size) complete(f);
    return;
  }
  const std::uint32_t next = pk.ahead;
  pk.from = over;
  pk.at = next;
  pk.ahead = path_pool_[++pk.pos + 1];
  VlState& q = vl_state(next, vl);
  const Channel& out = channels_[next];
  if (out.ecn_enqueue) mark(next, p, q.queue_bytes);
  q.queue_bytes += pk.bytes;
  if (q.tail == kNone) {
    q.head = p;
  } else {
    packets_[q.tail].next = p;
  }
  q.tail = p;
  set_queue(next, pk.bytes);
  try_send(next);
}

void PacketEngine::on_credit(std::uint32_t c, std::uint32_t payload) {
  vl_state(c, static_cast<std::uint8_t>(payload & 0xF)).credits += payload >> 4;
  try_send(c);
}

void PacketEngine::set_queue(std::uint32_t c, std::int64_t delta) {
  Channel& ch = channels_[c];
  ch.queue_byte_ps += static_cast<double>(ch.queue_bytes) * static_cast<double>((now_ - ch.queue_since).value());
  ch.queue_since = now_;
  ch.queue_bytes += delta;
  ch.peak_queue_bytes = std::max(ch.peak_queue_bytes, ch.queue_bytes);
  if (on_queue_) on_queue_(c, now_, ch.queue_bytes);
}

void PacketEngine::set_loaded(std::uint32_t c, bool loaded) {
  Channel& ch = channels_[c];
  if (ch.loaded == loaded) return;
  ch.loaded = loaded;
  if (!loaded) {
    ch.busy_time += now_ - ch.busy_since;
    if (ch.rate.value() <= 0) rest_[c].sent_at_zero += now_ - ch.busy_since;
  }
  ch.busy_since = now_;
  log_load(c, loaded ? ch.rate : BitsPerSecond(0));
}

// Its load, when sending, changes with its rate: the busy time is cut there, so that the time sent
// at rate 0 is known, and the peak load is the highest rate of a stretch in which it sent.
void PacketEngine::change_rate(std::uint32_t c, BitsPerSecond rate) {
  Channel& ch = channels_[c];
  ChannelRest& rest = rest_[c];
  if (ch.packets > rest.packets_at_rate_change || ch.loaded) rest.peak_load = std::max(rest.peak_load, ch.rate);
  rest.packets_at_rate_change = ch.packets;
  if (ch.loaded) {
    ch.busy_time += now_ - ch.busy_since;
    if (ch.rate.value() <= 0) rest.sent_at_zero += now_ - ch.busy_since;
    ch.busy_since = now_;
    rest.peak_load = std::max(rest.peak_load, rate);
  }
  ch.rate = rate;
  if (ch.loaded) log_load(c, rate);
}

std::uint32_t PacketEngine::new_packet() {
  ++live_packets_;
  peak_packets_ = std::max(peak_packets_, live_packets_);
  if (!free_packets_.empty()) {
    const std::uint32_t p = free_packets_.back();
    free_packets_.pop_back();
    packets_[p] = Packet{};
    return p;
  }
  packets_.emplace_back();
  return static_cast<std::uint32_t>(packets_.size() - 1);
}

void PacketEngine::free_packet(std::uint32_t p) {
  --live_packets_;
  free_packets_.push_back(p);
}

PacketChannelStats PacketEngine::channel_stats(std::uint32_t c) const {
  const Channel& ch = channels_[c];
  const ChannelRest& rest = rest_[c];
  PacketChannelStats s;
  s.carried_bytes = ch.carried_bytes;
  s.packets = ch.packets;
  s.peak_queue_bytes = ch.peak_queue_bytes;
  s.queue_byte_ps = ch.queue_byte_ps;
  s.busy = ch.busy_time;
  s.credit_stall = rest.credit_stall;
  s.pause_time = rest.pause_time;
  s.pause_frames = rest.pause_frames;
  for (std::uint8_t vl = 0; vl < vls_; ++vl) s.ecn_marks += ecn_marks(c, vl);
  s.saturated = ch.busy_time - rest.sent_at_zero;
  s.load_changed = ch.busy_since;
  s.load = ch.loaded ? ch.rate : BitsPerSecond(0);
  s.load_rate = ch.rate;
  s.peak_load = ch.packets > rest.packets_at_rate_change ? std::max(rest.peak_load, ch.rate) : rest.peak_load;
  if (ch.loaded) s.busy += now_ - ch.busy_since;
  if (ch.stall_since.value() >= 0) s.credit_stall += now_ - ch.stall_since;
  if (ch.pause_since.value() >= 0) s.pause_time += now_ - ch.pause_since;
  s.queue_byte_ps += static_cast<double>(ch.queue_bytes) * static_cast<double>((now_ - ch.queue_since).value());
  return s;
}

namespace {

// The strongly connected components of a wait graph (Tarjan's algorithm, iteratively): each
// vertex's component number, kNoComponent for a vertex not in `live`.
constexpr std::uint32_t kNoComponent = 0xffffffffU;
std::vector<std::uint32_t> components(const std::vector<std::vector<std::uint32_t>>& waits,
                                      const std::vector<std::uint8_t>& live) {
  const std::size_t n = waits.size();
  std::vector<std::uint32_t> comp(n, kNoComponent);
  std::vector<std::uint32_t> order(n, kNoComponent);
  std::vector<std::uint32_t> low(n, 0);
  std::vector<std::uint8_t> on_stack(n, 0);
  std::vector<std::size_t> next_edge(n, 0);
  std::vector<std::uint32_t> stack;
  std::vector<std::uint32_t> calls;
  std::uint32_t counter = 0;
  std::uint32_t comps = 0;
  const auto visit = [&](std::uint32_t v) {
    order[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = 1;
    calls.push_back(v);
  };
  for (std::uint32_t root = 0; root < n; ++root) {
    if (live[root] == 0 || order[root] != kNoComponent) continue;
    visit(root);
    while (!calls.empty()) {
      const std::uint32_t v = calls.back();
      if (next_edge[v] < waits[v].size()) {
        const std::uint32_t w = waits[v][next_edge[v]++];
        if (order[w] == kNoComponent) {
          visit(w);
        } else if (on_stack[w] != 0) {
          low[v] = std::min(low[v], order[w]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back()] = std::min(low[calls.back()], low[v]);
      if (low[v] != order[v]) continue;
      std::uint32_t x = kNoComponent;
      do {
        x = stack.back();
        stack.pop_back();
        on_stack[x] = 0;
        comp[x] = comps;
      } while (x != v);
      ++comps;
    }
  }
  return comp;
}

// A cycle inside component `c` of the wait graph, found by depth-first search from `root` (its
// least vertex) over the component's edges in increasing order: the first back edge closes it.
// Listed from its least vertex. PRECONDITION: the component holds a cycle.
std::vector<std::uint32_t> cycle_in(const std::vector<std::vector<std::uint32_t>>& waits,
                                    const std::vector<std::uint32_t>& comp, std::uint32_t root) {
  const std::uint32_t c = comp[root];
  std::vector<std::uint8_t> on_path(waits.size(), 0);
  std::vector<std::uint8_t> done(waits.size(), 0);
  std::vector<std::size_t> next_edge(waits.size(), 0);
  std::vector<std::uint32_t> stack{root};
  on_path[root] = 1;
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    if (next_edge[v] == waits[v].size()) {
      on_path[v] = 0;
      done[v] = 1;
      stack.pop_back();
      continue;
    }
    const std::uint32_t w = waits[v][next_edge[v]++];
    if (comp[w] != c || done[w] != 0) continue;
    if (on_path[w] != 0) {
      std::vector<std::uint32_t> cycle(std::find(stack.begin(), stack.end(), w), stack.end());
      std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
      return cycle;
    }
    on_path[w] = 1;
    stack.push_back(w);
  }
  return {};
}

}  // namespace

PacketDeadlock PacketEngine::deadlock() const {
  // A channel is blocked when it is idle, up, and every VL queue with a packet lacks credits.
  const std::size_t n = channels_.size();
  std::vector<std::uint8_t> blocked(n, 0);
  for (std::uint32_t c = 0; c < n; ++c) {
    const Channel& ch = channels_[c];
    if (ch.busy || ch.rate.value() <= 0) continue;
    for (std::uint8_t vl = 0; vl < vls_; ++vl) {
      if (vl_state(c, vl).head != kNone) blocked[c] = 1;
    }
  }
  // Waits: the far-end buffer of channel a holds a packet queued for channel b: a waits for b.
  std::vector<std::vector<std::uint32_t>> waits(n);
  for (std::uint32_t b = 0; b < n; ++b) {
    if (blocked[b] == 0) continue;
    for (std::uint8_t vl = 0; vl < vls_; ++vl) {
      for (std::uint32_t p = vl_state(b, vl).head; p != kNone; p = packets_[p].next) {
        const Packet& pk = packets_[p];
        if (pk.from == kNone) continue;
        const std::uint32_t a = pk.from;
        if (blocked[a] != 0 && std::find(waits[a].begin(), waits[a].end(), b) == waits[a].end()) waits[a].push_back(b);
      }
    }
  }
  for (auto& w : waits) std::sort(w.begin(), w.end());
  // Every channel on a cycle: those of a component of two or more, or waiting for itself. Each
  // such component is one credit loop; its cycle is listed from its least channel, the loops in
  // the order of their least channels.
  const std::vector<std::uint32_t> comp = components(waits, blocked);
  std::vector<std::uint32_t> size(n, 0);
  for (std::uint32_t c = 0; c < n; ++c) {
    if (comp[c] != kNoComponent) ++size[comp[c]];
  }
  PacketDeadlock out;
  std::vector<std::uint8_t> listed(n, 0);
  for (std::uint32_t c = 0; c < n; ++c) {
    if (comp[c] == kNoComponent) continue;
    const bool self = std::binary_search(waits[c].begin(), waits[c].end(), c);
    if (size[comp[c]] < 2 && !self) continue;
    out.channels.push_back(c);
    if (listed[comp[c]] != 0) continue;
    listed[comp[c]] = 1;
    out.cycles.push_back(cycle_in(waits, comp, c));
  }
  return out;
}

std::vector<std::uint32_t> PacketEngine::flows_holding(std::span<const std::uint32_t> channels) const {
  // Once no event is left, every live packet waits in an output queue (none is on a wire).
  std::vector<std::uint8_t> held(channels_.size(), 0);
  for (const std::uint32_t c : channels) held[c] = 1;
  std::vector<std::uint8_t> holds(flows_.size(), 0);
  for (std::uint32_t c = 0; c < channels_.size(); ++c) {
    for (std::uint8_t vl = 0; vl < vls_; ++vl) {
      for (std::uint32_t p = vl_state(c, vl).head; p != kNone; p = packets_[p].next) {
        if (packets_[p].from != kNone && held[packets_[p].from] != 0) holds[packets_[p].flow] = 1;
      }
    }
  }
  std::vector<std::uint32_t> out;
  for (std::uint32_t f = 0; f < flows_.size(); ++f) {
    if (holds[f] != 0) out.push_back(f);
  }
  return out;
}

}  // namespace ct
