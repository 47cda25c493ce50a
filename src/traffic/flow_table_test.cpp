// The flow table reader (traffic/flow_table.h) on a hand-built fabric: two leaves of two hosts,
// two spines, two parallel cables between every leaf and spine (tests/support/fabric_fixtures.h).
// Link ids, as the builder numbers them: host h's NIC link is h (host -> leaf h / 2); leaf l to
// spine s, cable p, is 4 + (2l + s) x 2 + p. So from host0 to host2 through spine 1 the shortest
// route with the lowest cable ids is: link 0 up, link 6 up (leaf 0 -> spine 1, cable 0), link 10
// down (spine 1 -> leaf 1, cable 0), link 2 down.
#include "traffic/flow_table.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "support/fabric_fixtures.h"
#include "support/text_pieces.h"

namespace ct {
namespace {

const Topology& topology() {
  static const Topology t = [] {
    Topology x = fixtures::two_tier(2, 2, 2, 2);
    x.gpus_per_host = 2;
    return x;
  }();
  return t;
}

Result<FlowTable> parse(const std::string& text) {
  static const NameDirectory names(topology());
  return parse_flow_table("flows.csv", text, names);
}

std::string first_error(const Result<FlowTable>& r) {
  if (r.ok()) return "no error";
  return format_diagnostic(r.errors().front());
}

RouteHop up(std::uint32_t l) { return {RouteHopKind::kLinkUp, l}; }
RouteHop down(std::uint32_t l) { return {RouteHopKind::kLinkDown, l}; }

std::vector<RouteHop> route_of(const FlowTable& t, std::size_t f) {
  return {t.hops.begin() + t.flows[f].route_begin, t.hops.begin() + t.flows[f].route_begin + t.flows[f].route_size};
}

TEST(FlowTable, ReadsEveryColumnExactly) {
  const auto r = parse(
      "# a comment, then the header in another order\n"
      "bytes,src,dst,flow,start_s,after,delay_s,weight,udp_src_port,operation,path\n"
      "1048576,host0/nic0,host2/nic0,7,0.000000000001,,,2.5,49152,a,\n"
      "64KiB,host1/nic0,host3/nic0,3,0.0000000000015,7,0.5,,,a,p0/spine/1\n"
      "\n"
      "100,host0/gpu0,host0/gpu1,9,1e-3,7 3,,,,b,\n"
      "5,host0/nic0,host2/nic0,10,,,,,,b,host0/nic0 -- p0/leaf/0 | p0/leaf/0 -- p0/spine/0 #1 | "
      "p0/leaf/1 -- p0/spine/0 #1 down | host2/nic0 -- p0/leaf/1\n");
  ASSERT_TRUE(r.ok()) << first_error(r);
  const FlowTable& t = r.value();
  ASSERT_EQ(t.flows.size(), 4U);
  ASSERT_EQ(t.operations, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.flows[0].id, 7U);
  EXPECT_EQ(t.flows[0].bytes.value(), 1048576);
  EXPECT_EQ(t.flows[0].start.value(), 1);  // 1 ps, read exactly
  EXPECT_EQ(t.flows[0].weight, 2.5);
  EXPECT_TRUE(t.flows[0].has_udp_port);
  EXPECT_EQ(t.flows[0].udp_src_port, 49152);
  EXPECT_EQ(t.flows[0].src_port, VertexId(0));
  EXPECT_EQ(t.flows[0].dst_port, VertexId(2));
  EXPECT_EQ(t.flows[0].route_size, 0U);
  EXPECT_EQ(t.flows[1].bytes.value(), 65536);
  EXPECT_EQ(t.flows[1].start.value(), 2);  // 1.5 ps rounds half up
  EXPECT_EQ(t.flows[1].delay.value(), 500'000'000'000);
  EXPECT_FALSE(t.flows[1].has_udp_port);
  ASSERT_EQ(t.flows[1].after_size, 1U);
  EXPECT_EQ(t.after[t.flows[1].after_begin], 0U);  // row of id 7
  // host1 -> host3 through spine 1: link 1 up, leaf 0 -> spine 1 cable 0 (6), spine 1 -> leaf 1 (10), link 3 down.
  EXPECT_EQ(route_of(t, 1), (std::vector<RouteHop>{up(1), up(6), down(10), down(3)}));
  EXPECT_EQ(t.flows[2].src_gpu, 0U);
  EXPECT_EQ(t.flows[2].dst_gpu, 1U);
  EXPECT_EQ(t.flows[2].start.value(), 1'000'000'000);  // 1e-3 s
  ASSERT_EQ(t.flows[2].after_size, 2U);
  EXPECT_EQ(t.after[t.flows[2].after_begin + 1], 1U);
  // Directions follow the walk from src; "#1" is the second of two parallel cables (ids 5 and 9).
  EXPECT_EQ(route_of(t, 3), (std::vector<RouteHop>{up(0), up(5), down(9), down(2)}));
}

// Pinned routes are read by walking from src: each hop must start where the previous one ended.
// host0 -> host2 over spine 1's second cables, by the numbering above: link 0 up, leaf 0 -> spine
// 1 cable 1 = 4 + (0 + 1) x 2 + 1 = 7 up, spine 1 -> leaf 1 cable 1 = 4 + (2 + 1) x 2 + 1 = 11
// down, link 2 down. The same route by link ids (resolved without the walk) must read the same.
TEST(FlowTable, PinnedRoutesWalkFromSrc) {
  const std::string header = "flow,src,dst,bytes,path\n";
  const std::vector<RouteHop> expected = {up(0), up(7), down(11), down(2)};
  for (const char* path : {
           // as --csv-flows writes it
           "host0/nic0 -- p0/leaf/0 up | p0/leaf/0 -- p0/spine/1 #1 up | p0/leaf/1 -- p0/spine/1 #1 down | "
           "host2/nic0 -- p0/leaf/1 down",
           // ends in either order, directions left to the walk, spacing loose
           "p0/leaf/0--host0/nic0|p0/spine/1 -- p0/leaf/0 #1|p0/spine/1 -- p0/leaf/1 #1 | p0/leaf/1 -- host2/nic0",
           // link ids
           "0 up | 7 up | 11 down | 2 down",
       }) {
    const auto r = parse(header + "0,host0/nic0,host2/nic0,1," + path + "\n");
    ASSERT_TRUE(r.ok()) << path << ": " << first_error(r);
    EXPECT_EQ(route_of(r.value(), 0), expected) << path;
  }
  // An unknown name is located (line, column of the path cell, field) with a did-you-mean; a hop
  // that does not continue the walk says where the walk is.
  const std::string row = "0,host0/nic0,host2/nic0,1,";
  const auto typo = parse(header + row + "host0/nic0 -- p0/leaf/0 up | p0/leaf/0 -- p0/spnie/1 up\n");
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(first_error(typo).rfind("flows.csv:2:27: error: path: no ", 0), 0U) << first_error(typo);
  EXPECT_NE(first_error(typo).find("did you mean 'p0/spine/1'"), std::string::npos) << first_error(typo);
  const auto jump = parse(header + row + "host0/nic0 -- p0/leaf/0 up | p0/leaf/1 -- p0/spine/0 up\n");
  EXPECT_EQ(first_error(jump), "flows.csv:2:27: error: path: hop 2: 'p0/leaf/1 -- p0/spine/0 up' starts at p0/leaf/1, "
                               "but the route is at p0/leaf/0");
  const auto backwards = parse(header + row + "host0/nic0 -- p0/leaf/0 down\n");
  EXPECT_EQ(first_error(backwards), "flows.csv:2:27: error: path: hop 1: 'host0/nic0 -- p0/leaf/0 down' starts at "
                                    "p0/leaf/0, but the route is at host0/nic0");
  const auto third = parse(header + row + "host0/nic0 -- p0/leaf/0 | p0/leaf/0 -- p0/spine/1 #2\n");
  EXPECT_EQ(first_error(third).rfind("flows.csv:2:27: error: path: 'p0/leaf/0 -- p0/spine/1 #2': cable #2 does not exist", 0),
            0U)
      << first_error(third);
  const auto short_route = parse(header + row + "host0/nic0 -- p0/leaf/0 | p0/leaf/0 -- p0/spine/1\n");
  EXPECT_EQ(first_error(short_route), "flows.csv:2:27: error: path: the route ends at p0/spine/1, not at dst host2/nic0");
}

// The reader takes --csv-flows' own spelling in one pass (the walk) and every other spelling
// through the general hop reader; rows in either must read the same. Each route below is written
// once as --csv-flows writes it and then spoiled so that each hop in turn, or every cell, leaves
// the one-pass reader: a doubled space, a tab, a quoted cell, a CRLF line end, the ends swapped,
// a cable by link id. Routes as in the numbering above: host h's link h; leaf l to spine s,
// cable p, 4 + (2l + s) x 2 + p.
TEST(FlowTable, EverySpellingOfARouteReadsTheSame) {
  const std::string header = "flow,src,dst,bytes,start_s,path\n";
  struct Route {
    std::string src, dst;
    std::vector<std::string> hops;  // as --csv-flows writes them
    std::vector<RouteHop> expected;
  };
  const std::vector<Route> routes = {
      {"host0/nic0", "host2/nic0",
       {"host0/nic0 -- p0/leaf/0 up", "p0/leaf/0 -- p0/spine/1 #1 up", "p0/leaf/1 -- p0/spine/1 #1 down",
        "host2/nic0 -- p0/leaf/1 down"},
       {up(0), up(7), down(11), down(2)}},
      {"host3/nic0", "host1/nic0",
       {"host3/nic0 -- p0/leaf/1 up", "p0/leaf/1 -- p0/spine/0 up", "p0/leaf/0 -- p0/spine/0 down",
        "host1/nic0 -- p0/leaf/0 down"},
       {up(3), up(8), down(4), down(1)}},
      {"host0/nic0", "host1/nic0", {"host0/nic0 -- p0/leaf/0 up", "host1/nic0 -- p0/leaf/0 down"}, {up(0), down(1)}},
  };
  const auto join = [](const std::vector<std::string>& hops) {
    std::string out;
    for (const std::string& h : hops) out += (out.empty() ? "" : " | ") + h;
    return out;
  };
  std::vector<std::string> rows;
  std::vector<RouteHop> expected;
  for (const Route& r : routes) {
    const auto row = [&](const std::string& path) {
      rows.push_back(std::to_string(rows.size()) + "," + r.src + "," + r.dst + ",1000,0.000000000001," + path);
      expected.insert(expected.end(), r.expected.begin(), r.expected.end());
    };
    row(join(r.hops));
    for (std::size_t k = 0; k < r.hops.size(); ++k) {
      std::vector<std::string> spoiled = r.hops;
      const std::string h = r.hops[k];
      const std::size_t sep = h.find(" -- ");
      const std::size_t end_b = h.find(' ', sep + 4);
      const std::string a = h.substr(0, sep);
      const std::string b = h.substr(sep + 4, end_b == std::string::npos ? std::string::npos : end_b - sep - 4);
      const std::string tail = end_b == std::string::npos ? "" : h.substr(end_b);
      for (const std::string& variant : {a + "  -- " + b + tail, a + " --\t" + b + tail, b + " -- " + a + tail,
                                         "\t" + a + " -- " + b + tail + " "}) {
        spoiled[k] = variant;
        row(join(spoiled));
      }
    }
    row("\"" + join(r.hops) + "\"");
  }
  std::string text = header;
  for (std::size_t i = 0; i < rows.size(); ++i) text += rows[i] + (i % 3 == 1 ? "\r\n" : "\n");
  const auto t = parse(text);
  ASSERT_TRUE(t.ok()) << first_error(t);
  ASSERT_EQ(t->flows.size(), rows.size());
  EXPECT_EQ(t->hops, expected);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(t->flows[i].start.value(), 1) << rows[i];
    EXPECT_EQ(t->flows[i].bytes.value(), 1000) << rows[i];
  }
  // And by link ids, which only the general reader takes.
  const auto ids = parse(header + "0,host0/nic0,host2/nic0,1,,0 up | 7 up | 11 down | 2 down\n");
  ASSERT_TRUE(ids.ok()) << first_error(ids);
  EXPECT_EQ(route_of(ids.value(), 0), routes[0].expected);
}

// Seconds are read exactly as written, to the picosecond, up to 10^6 s.
TEST(FlowTable, SecondsAreExact) {
  const std::vector<std::pair<std::string, std::int64_t>> good = {
      {"0", 0},
      {"0.000000000000", 0},
      {"12", 12'000'000'000'000},
      {"5.", 5'000'000'000'000},
      {".5", 500'000'000'000},
      {"0.0000000000004", 0},                     // the 13th digit rounds down
      {"0.0000000000005", 1},                     // and half up
      {"0.1234567890125", 123'456'789'013},
      {"1000000", 1'000'000'000'000'000'000},     // the largest
      {"2.5e-6", 2'500'000},
      {"1E3", 1'000'000'000'000'000},
      // Twelve decimals, as --csv-flows writes them (read eight digits at a time): every digit
      // position counts, whole seconds of one to seven digits.
      {"0.123456789012", 123'456'789'012},
      {"7.000000000009", 7'000'000'000'009},
      {"0.900000000000", 900'000'000'000},
      {"0.000010000000", 10'000'000},
      {"0999999.999999999999", 999'999'999'999'999'999},
      {"1000000.000000000000", 1'000'000'000'000'000'000},
  };
  for (const auto& [text, ps] : good) {
    const auto r = parse("flow,src,dst,bytes,start_s\n0,host0/nic0,host2/nic0,1," + text + "\n");
    ASSERT_TRUE(r.ok()) << text << ": " << first_error(r);
    EXPECT_EQ(r->flows[0].start.value(), ps) << text;
  }
  for (const std::string text : {"1000000.000000000001", "0001000000", "9999999", "99999999", ".", "1.2.3", "1,5", "0x10", "1e7", "+1",
                                 "1 2", "1.e", "1000001.000000000000", "0.00000000000a", "0.0000000/0000", "0.000:00000000",
                                 "0.00000000000\xba", "0.\xff" "00000000000", "-0.000000000001", "0x0.000000000000",
                                 "12345678.000000000000"}) {
    const auto r = parse("flow,src,dst,bytes,start_s\n0,host0/nic0,host2/nic0,1,\"" + text + "\"\n");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(first_error(r).rfind("flows.csv:2:27: error: start_s:", 0), 0U) << text << ": " << first_error(r);
  }
}

// Each bad value is refused with file:line:column and the column's name.
TEST(FlowTable, BadInputIsLocated) {
  const std::string header = "flow,src,dst,bytes,start_s,udp_src_port,weight,after,path\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0,host0/nic0,host2/nic0,1000000000000000001,,,,,", "flows.csv:2:25: error: bytes:"},
      {"0,host0/nic0,host2/nic0,10,-1,,,,", "flows.csv:2:28: error: start_s: '-1': expected seconds"},
      {"0,host0/nic0,host2/nic0,10,1000001,,,,", "flows.csv:2:28: error: start_s"},
      {"0,host0/nic0,host2/nic0,10,,65536,,,", "flows.csv:2:29: error: udp_src_port: '65536': expected an integer in 0..65535"},
      {"0,host0/nic0,host2/nic0,10,,,0,,", "flows.csv:2:30: error: weight: '0': expected a number in (0, 1e6]"},
      {"0,host0/nic0,host2/nic0,10,,,nan,,", "flows.csv:2:30: error: weight"},
      {"0,host9/nic0,host2/nic0,10,,,,,", "flows.csv:2:3: error: src:"},
      {"0,host0/nic0,host0/nic0,10,,,,,", "flows.csv:2:3: error: src: src and dst are the same port"},
      {"0,host0/nic0,host2/nic0,10,,,,4,", "flows.csv:2:31: error: after: flow 4 is not an earlier row"},
      {"0,host0/nic0,host2/nic0,10,,,,,p0/spine/7", "flows.csv:2:32: error: path:"},
      {"0,host0/nic0,host2/nic0,10,,,,,host1/nic0 -- p0/leaf/0 up", "flows.csv:2:32: error: path: hop 1"},
      {"0,host0/nic0,host2/nic0,10,,,,,host0/nic0 -- p0/leaf/0 up | host2/nic0 -- p0/leaf/1 down",
       "flows.csv:2:32: error: path: hop 2"},
      {"0,host0/nic0,host2/nic0,10,,,,,p0/leaf/0 -- p0/spine/0 #2", "flows.csv:2:32: error: path:"},
      {"0,host0/nic0,host2/nic0,10,,,,,host0/nic0 -- p0/leaf/0 up*0.5", "flows.csv:2:32: error: path:"},
      {"0,host0/gpu0,host2/gpu0,10,,,,,", "flows.csv:2:3: error: src: GPUs on different hosts"},
      {"0,host0/nic0,host2/nic0,10,,,,", "flows.csv:2:1: error: 8 cells, but the header names 9 columns"},
  };
  for (const auto& [row, expected] : cases) {
    const auto r = parse(header + row + "\n");
    ASSERT_FALSE(r.ok()) << row;
    EXPECT_EQ(first_error(r).rfind(expected, 0), 0U) << row << "\n  got: " << first_error(r) << "\n  want: " << expected;
  }
  EXPECT_EQ(first_error(parse("flow,src,dst,byts\n")).rfind("flows.csv:1:14: error: header: unknown column 'byts'", 0), 0U)
      << first_error(parse("flow,src,dst,byts\n"));
  EXPECT_NE(first_error(parse("flow,src,dst,byts\n")).find("did you mean 'bytes'"), std::string::npos);
  EXPECT_EQ(first_error(parse("flow,src,dst\n")).rfind("flows.csv:1:1: error: header: missing column 'bytes'", 0), 0U);
  EXPECT_EQ(first_error(parse("flow,src,dst,bytes\n0,host0/nic0,host2/nic0,1\n0,host1/nic0,host3/nic0,1\n"))
                .rfind("flows.csv:3:1: error: flow: flow id 0 appears twice", 0),
            0U);
  EXPECT_EQ(first_error(parse("flow,src,dst,bytes,operation\n0,host0/nic0,host2/nic0,1,a\n1,host0/nic0,host2/nic0,1,b\n"
                              "2,host0/nic0,host2/nic0,1,a\n"))
                .rfind("flows.csv:4:27: error: operation: operation 'a' appeared before", 0),
            0U);
  EXPECT_EQ(first_error(parse("")).rfind("flows.csv:1:1: error: no header line", 0), 0U);
}

// Every field of every flow, the hops, the waits and the operations, one line a flow.
std::string fingerprint(const FlowTable& t) {
  std::ostringstream out;
  for (const std::string& op : t.operations) out << "operation " << op << "\n";
  for (const TableFlow& f : t.flows) {
    out << f.line << ": " << f.operation << " " << f.id << " " << f.src_gpu << " " << f.dst_gpu << " "
        << f.src_port.value() << " " << f.dst_port.value() << " " << f.bytes.value() << " " << f.start.value() << " "
        << f.delay.value() << " " << f.weight << " " << f.has_udp_port << f.udp_src_port << " " << f.instance << f.iteration
        << f.step << f.channel << f.qp << " route";
    for (std::uint32_t h = f.route_begin; h < f.route_begin + f.route_size; ++h) {
      out << " " << static_cast<int>(t.hops[h].kind) << ":" << t.hops[h].index;
    }
    out << " after";
    for (std::uint32_t a = f.after_begin; a < f.after_begin + f.after_size; ++a) out << " " << t.after[a];
    out << "\n";
  }
  return out.str();
}

// Read a piece at a time (a few lines each, every piece overwriting the last in one buffer:
// support/text_pieces.h), a table reads as it does whole. The names the reader caches by their
// text (GPUs, hops spelled otherwise than --csv-flows writes them, a switch to route through) are
// kept as copies, so the rows of later pieces that name them again resolve alike; quoted cells
// and CRLF lines too. Errors: the same, located alike, when they fall in the first piece that has
// one; the pieces after it are not read.
TEST(FlowTable, AStreamedTableReadsAsTheWholeText) {
  std::string text = "flow,src,dst,bytes,operation,after,path\n";
  for (int i = 0; i < 24; ++i) {
    const std::string id = std::to_string(i);
    const std::string op = "\"step, " + std::to_string(i / 6) + "\"";
    const std::string after = i > 0 ? std::to_string(i - 1) : "";
    switch (i % 4) {
      case 0: text += id + ",host0/gpu0,host0/gpu1,1KiB," + op + "," + after + ",\n"; break;
      case 1:
        text += id + ",host0/nic0,host2/nic0,1000," + op + "," + after +
                ",host0/nic0  -- p0/leaf/0 | p0/leaf/0 -- p0/spine/0 #1 | p0/leaf/1 -- p0/spine/0 #1 down | "
                "host2/nic0 -- p0/leaf/1\r\n";
        break;
      case 2: text += id + ",host1/nic0,host3/nic0,2000," + op + "," + after + ",p0/spine/1\n"; break;
      default: text += id + ",host3/nic0,host1/nic0,3000," + op + "," + after + ",\"3 up | 8 up | 4 down | 1 down\"\n";
    }
  }
  static const NameDirectory names(topology());
  const auto whole = parse(text);
  ASSERT_TRUE(whole.ok()) << first_error(whole);
  ASSERT_EQ(whole->flows.size(), 24U);
  ASSERT_EQ(whole->operations.size(), 4U);
  for (const std::size_t lines : {1, 2, 3, 5, 100}) {
    test::TextPieces pieces(text, lines);
    const auto streamed = parse_flow_table("flows.csv", pieces, names);
    ASSERT_TRUE(streamed.ok()) << lines << " lines a piece: " << first_error(streamed);
    EXPECT_EQ(fingerprint(streamed.value()), fingerprint(whole.value())) << lines << " lines a piece";
  }

  // Errors at lines 3 and 6: in one piece, both, as whole; in pieces of 4 lines, line 3's alone.
  const std::string bad = "flow,src,dst,bytes\n0,host0/nic0,host2/nic0,1\n1,host0/nic0,host2/nic0,x\n"
                          "2,host0/nic0,host2/nic0,1\n3,host0/nic0,host2/nic0,1\n4,host0/nic0,nowhere,1\n"
                          "5,host0/nic0,host2/nic0,1\n";
  const auto bad_whole = parse(bad);
  ASSERT_FALSE(bad_whole.ok());
  ASSERT_EQ(bad_whole.errors().size(), 2U);
  test::TextPieces one(bad, 100);
  EXPECT_EQ(format_diagnostics(parse_flow_table("flows.csv", one, names).errors()), format_diagnostics(bad_whole.errors()));
  test::TextPieces four(bad, 4);
  const auto first_piece = parse_flow_table("flows.csv", four, names);
  ASSERT_FALSE(first_piece.ok());
  ASSERT_EQ(first_piece.errors().size(), 1U);
  EXPECT_EQ(format_diagnostic(first_piece.errors().front()), format_diagnostic(bad_whole.errors().front()));
  EXPECT_EQ(four.pieces(), 1U);
}

}  // namespace
}  // namespace ct
