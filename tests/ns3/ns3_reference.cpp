#include "ns3_reference.h"

#include <ns3/applications-module.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>
#include <ns3/traffic-control-module.h>

#include <map>

namespace ct::ns3ref {
namespace {

ns3::NetDeviceContainer connect(ns3::Ptr<ns3::Node> a, ns3::Ptr<ns3::Node> b, const Ns3Link& link) {
  ns3::PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", ns3::DataRateValue(ns3::DataRate(static_cast<std::uint64_t>(link.rate_bps))));
  // No IP fragmentation: a frame is one datagram (the device's default MTU is 1500).
  p2p.SetDeviceAttribute("Mtu", ns3::UintegerValue(65000));
  p2p.SetChannelAttribute("Delay", ns3::TimeValue(ns3::PicoSeconds(link.delay_ps)));
  p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::QueueSizeValue(ns3::QueueSize("100000p")));
  return p2p.Install(a, b);
}

void picosecond_resolution() {
  static const bool resolution = [] {
    ns3::Time::SetResolution(ns3::Time::PS);
    return true;
  }();
  (void)resolution;
}

// The RED queue's link: dequeue and serialize the next frame whenever the link is idle.
struct RedLink {
  ns3::Ptr<ns3::RedQueueDisc> red;
  std::int64_t tx_ps = 0;
  bool busy = false;
  std::map<std::uint64_t, std::size_t> arrival_of;  // packet uid -> arrival index
  Ns3RedResult* out = nullptr;

  void serve() {
    if (busy) return;
    ns3::Ptr<ns3::QueueDiscItem> item = red->Dequeue();
    if (!item) return;
    const auto ip = ns3::DynamicCast<ns3::Ipv4QueueDiscItem>(item);
    out->marked[arrival_of.at(item->GetPacket()->GetUid())] = ip->GetHeader().GetEcn() == ns3::Ipv4Header::ECN_CE;
    busy = true;
    ns3::Simulator::Schedule(ns3::PicoSeconds(tx_ps), &RedLink::done, this);
  }
  void done() {
    busy = false;
    serve();
  }
  void arrive(std::size_t k, std::uint32_t payload) {
    out->queued[k] = red->GetNPackets();
    ns3::Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>(payload);
    arrival_of[p->GetUid()] = k;
    ns3::Ipv4Header h;
    h.SetEcn(ns3::Ipv4Header::ECN_ECT0);
    h.SetPayloadSize(payload);
    red->Enqueue(ns3::Create<ns3::Ipv4QueueDiscItem>(p, ns3::Mac48Address("00:00:00:00:00:01"), 0x0800, h));
    serve();
  }
};

}  // namespace

Ns3RedResult ns3_red_marks(const Ns3RedQueue& q) {
  picosecond_resolution();
  Ns3RedResult out;
  out.queued.assign(q.arrivals_ps.size(), 0);
  out.marked.assign(q.arrivals_ps.size(), false);
  RedLink link;
  link.out = &out;
  link.tx_ps = static_cast<std::int64_t>((static_cast<long double>(q.frame_bytes) * 8e12L / q.out_rate_bps) + 0.5L);
  link.red = ns3::CreateObject<ns3::RedQueueDisc>();
  link.red->SetAttribute("MaxSize", ns3::QueueSizeValue(ns3::QueueSize("1000000p")));
  link.red->SetAttribute("MinTh", ns3::DoubleValue(q.min_th));
  link.red->SetAttribute("MaxTh", ns3::DoubleValue(q.max_th));
  link.red->SetAttribute("QW", ns3::DoubleValue(1.0));
  link.red->SetAttribute("LInterm", ns3::DoubleValue(1.0 / q.max_p));
  link.red->SetAttribute("UseEcn", ns3::BooleanValue(true));
  link.red->SetAttribute("UseHardDrop", ns3::BooleanValue(false));
  link.red->SetAttribute("Gentle", ns3::BooleanValue(false));
  link.red->SetAttribute("Wait", ns3::BooleanValue(q.wait));
  link.red->SetAttribute("MeanPktSize", ns3::UintegerValue(q.frame_bytes));
  link.red->SetAttribute("LinkBandwidth", ns3::DataRateValue(ns3::DataRate(static_cast<std::uint64_t>(q.out_rate_bps))));
  link.red->AssignStreams(1);
  link.red->Initialize();
  const std::uint32_t payload = q.frame_bytes - 20;  // the IPv4 header makes the frame
  for (std::size_t k = 0; k < q.arrivals_ps.size(); ++k) {
    ns3::Simulator::Schedule(ns3::PicoSeconds(q.arrivals_ps[k]), &RedLink::arrive, &link, k, payload);
  }
  ns3::Simulator::Run();
  ns3::Simulator::Destroy();
  const auto& stats = link.red->GetStats();
  out.forced = stats.GetNMarkedPackets(ns3::RedQueueDisc::FORCED_MARK);
  out.unforced = stats.GetNMarkedPackets(ns3::RedQueueDisc::UNFORCED_MARK);
  return out;
}

std::vector<std::int64_t> ns3_completion_times(const Ns3Chain& c) {
  picosecond_resolution();
  ns3::Config::SetDefault("ns3::PfifoFastQueueDisc::MaxSize", ns3::QueueSizeValue(ns3::QueueSize("100000p")));
  ns3::NodeContainer routers;
  routers.Create(static_cast<std::uint32_t>(c.chain.size()));
  ns3::NodeContainer senders;
  senders.Create(static_cast<std::uint32_t>(c.flows.size()));
  ns3::Ptr<ns3::Node> receiver = ns3::CreateObject<ns3::Node>();
  ns3::InternetStackHelper stack;
  stack.Install(routers);
  stack.Install(senders);
  stack.Install(receiver);
  ns3::Ipv4AddressHelper addresses;
  addresses.SetBase("10.0.0.0", "255.255.255.252");
  const auto first_hop = c.chain.empty() ? receiver : routers.Get(0);
  ns3::Ipv4Address receiver_address;
  for (std::uint32_t i = 0; i < c.chain.size(); ++i) {
    const auto next = i + 1 < c.chain.size() ? routers.Get(i + 1) : receiver;
    const auto interfaces = addresses.Assign(connect(routers.Get(i), next, c.chain[i]));
    addresses.NewNetwork();
    if (next == receiver) receiver_address = interfaces.GetAddress(1);
  }
  for (std::uint32_t f = 0; f < c.flows.size(); ++f) {
    const auto interfaces = addresses.Assign(connect(senders.Get(f), first_hop, c.flows[f].access));
    addresses.NewNetwork();
    if (c.chain.empty()) receiver_address = interfaces.GetAddress(1);
  }
  ns3::Ipv4GlobalRoutingHelper::PopulateRoutingTables();

  // Receiver: one UDP socket, port 9; a datagram's source port names its flow (49152 + f).
  std::vector<std::int64_t> last(c.flows.size(), -1);
  std::vector<std::uint32_t> got(c.flows.size(), 0);
  ns3::Ptr<ns3::Socket> sink = ns3::Socket::CreateSocket(receiver, ns3::UdpSocketFactory::GetTypeId());
  sink->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), 9));
  sink->SetRecvCallback(ns3::MakeCallback(+[](std::vector<std::int64_t>* out, std::vector<std::uint32_t>* count,
                                              ns3::Ptr<ns3::Socket> s) {
    ns3::Address from;
    while (ns3::Ptr<ns3::Packet> p = s->RecvFrom(from)) {
      const auto f = static_cast<std::size_t>(ns3::InetSocketAddress::ConvertFrom(from).GetPort() - 49152);
      (*out)[f] = ns3::Simulator::Now().GetPicoSeconds();
      ++(*count)[f];
    }
  }).Bind(&last, &got));
  const std::uint32_t payload = c.frame_bytes - 8 - 20 - 2;
  std::vector<ns3::Ptr<ns3::Socket>> sockets;
  for (std::uint32_t f = 0; f < c.flows.size(); ++f) {
    ns3::Ptr<ns3::Socket> s = ns3::Socket::CreateSocket(senders.Get(f), ns3::UdpSocketFactory::GetTypeId());
    s->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), static_cast<std::uint16_t>(49152 + f)));
    s->Connect(ns3::InetSocketAddress(receiver_address, 9));
    sockets.push_back(s);
    ns3::Simulator::Schedule(ns3::PicoSeconds(c.flows[f].start_ps), +[](ns3::Ptr<ns3::Socket> socket, std::uint32_t n,
                                                                         std::uint32_t bytes) {
      for (std::uint32_t k = 0; k < n; ++k) socket->Send(ns3::Create<ns3::Packet>(bytes));
    }, s, c.flows[f].packets, payload);
  }
  ns3::Simulator::Run();
  ns3::Simulator::Destroy();
  for (std::size_t f = 0; f < c.flows.size(); ++f) {
    if (got[f] != c.flows[f].packets) last[f] = -1;  // a frame lost: no completion
  }
  return last;
}

}  // namespace ct::ns3ref
