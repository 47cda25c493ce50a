// Inputs of any size read a piece at a time (issue 23 item 3): a counter scrape is parsed as the
// one loader reads it (io/files.h FileTextSource, core/text_source.h), so a file that is wrong in
// its first line is reported after one piece, however large it is. The file here is 8 GiB, sparse
// (its first line, then holes that read as zeros): read whole it would need 8 GiB of memory and
// minutes; streamed, the error comes after at most two pieces have been read (the loader's
// counters say so; nothing is timed). The good path reads the same samples streamed as whole.
// The same for the other streamed inputs: flow tables (plain and gzip), ss and conntrack output,
// perftest output.
// Port maps are read the same way.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "diagnose/connection_table.h"
#include "diagnose/counter_inputs.h"
#include "diagnose/counter_reader.h"
#include "diagnose/flow_results.h"
#include "diagnose/port_map.h"
#include "io/files.h"
#include "support/fixture_fabric.h"
#include "support/gzip_text.h"
#include "support/test_paths.h"
#include "traffic/flow_table.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

TEST(StreamedInputs, AHugeScrapeWrongInItsFirstLineIsNotReadToItsEnd) {
  const fs::path dir = testing_support::scratch_dir("ct_streamed_scrape");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "huge.prom").string();
  {
    std::ofstream out(path);
    out << "node_network_transmit_bytes_total{device=\"eth0\"} twelve\n";
  }
  ASSERT_EQ(truncate(path.c_str(), off_t{8} << 30), 0);
  ASSERT_EQ(setenv(kMaxInputVariable, "16GiB", 1), 0);
  auto source = FileTextSource::open(path, "a counter scrape");
  ASSERT_EQ(unsetenv(kMaxInputVariable), 0);
  ASSERT_TRUE(source.ok()) << format_diagnostics(source.errors());
  const auto scrape = read_prometheus_text(*source.value(), path, 0);
  ASSERT_FALSE(scrape.ok());
  EXPECT_EQ(scrape.errors().front().where.file, path);
  EXPECT_EQ(scrape.errors().front().where.line, 1);
  EXPECT_NE(scrape.errors().front().message.find("twelve"), std::string::npos) << scrape.errors().front().message;
  EXPECT_LE(source.value()->bytes_read(), 2 * kTextPiece + (std::uint64_t{64} << 10));
  fs::remove_all(dir);
}

// Through read_scrapes, as `diagnose --counters` gives them: the same samples streamed and whole,
// with pieces boundaries inside the text (3 MiB of samples), and a gzip scrape streamed too.
TEST(StreamedInputs, AStreamedScrapeReadsAsTheWholeText) {
  const fs::path dir = testing_support::scratch_dir("ct_streamed_same");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string text = "# HELP node_network_transmit_bytes_total Network device statistic transmit_bytes.\n";
  for (int i = 0; text.size() < 3 * kTextPiece; ++i) {
    text += "node_network_transmit_bytes_total{device=\"eth" + std::to_string(i) + "\",job=\"node\"} " +
            std::to_string(1000 + i) + " 1700000000000\n";
  }
  const std::string path = (dir / "a.prom").string();
  { std::ofstream(path) << text; }
  CounterInputs whole;
  whole.scrapes.push_back(TextInput{path, text});
  whole.instances.push_back("host-a");
  CounterInputs streamed = whole;
  auto source = FileTextSource::open(path);
  ASSERT_TRUE(source.ok());
  streamed.scrapes.front() = TextInput{path, "", std::shared_ptr<TextSource>(std::move(source).value())};
  const auto a = read_scrapes(whole);
  const auto b = read_scrapes(streamed);
  ASSERT_TRUE(a.ok()) << format_diagnostics(a.errors());
  ASSERT_TRUE(b.ok()) << format_diagnostics(b.errors());
  ASSERT_EQ(a->front().samples.size(), b->front().samples.size());
  EXPECT_GT(a->front().samples.size(), std::size_t{30000});
  for (std::size_t i = 0; i < a->front().samples.size(); ++i) {
    const CounterSample& x = a->front().samples[i];
    const CounterSample& y = b->front().samples[i];
    ASSERT_TRUE(x.device == y.device && x.count == y.count && x.time_ms == y.time_ms && x.instance == y.instance &&
                x.where.line == y.where.line && x.where.column == y.where.column)
        << "sample " << i;
  }
  fs::remove_all(dir);
}

// A sparse file of `size` bytes that begins with `head` (the rest reads as zeros, no line break),
// opened through the loader with a limit above its size.
std::unique_ptr<FileTextSource> huge_file(const fs::path& path, const std::string& head, off_t size) {
  { std::ofstream(path) << head; }
  EXPECT_EQ(truncate(path.c_str(), size), 0);
  EXPECT_EQ(setenv(kMaxInputVariable, "16GiB", 1), 0);
  auto source = FileTextSource::open(path.string());
  EXPECT_EQ(unsetenv(kMaxInputVariable), 0);
  EXPECT_TRUE(source.ok()) << format_diagnostics(source.errors());
  return source ? std::move(source).value() : nullptr;
}

// What the loader may read of a huge input wrong in its first lines: two pieces and a first chunk.
constexpr std::uint64_t kBoundedRead = 2 * kTextPiece + (std::uint64_t{64} << 10);

const Fabric& lab() { return fixtures::lab_fat_tree_4(); }

// The other streamed readers (issue 23 item 3), each on an 8 GiB sparse file wrong in an early
// line: the error is located at that line (and column, and field) as in the whole text, after at
// most two pieces have been read. A flow table (the row's bytes cell), ss and conntrack output (a
// byte count), perftest output (a QP number).
TEST(StreamedInputs, HugeTablesWrongEarlyAreNotReadToTheirEnd) {
  const fs::path dir = testing_support::scratch_dir("ct_streamed_tables");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const off_t size = off_t{8} << 30;
  {
    const std::string path = (dir / "flows.csv").string();
    auto source = huge_file(path, "flow,src,dst,bytes\n0,host0/nic0,host2/nic0,1000\n1,host1/nic0,host3/nic0,12x\n", size);
    ASSERT_TRUE(source);
    const auto table = parse_flow_table(path, *source, lab().names());
    ASSERT_FALSE(table.ok());
    EXPECT_EQ(format_diagnostic(table.errors().front()).rfind(path + ":3:25: error: bytes: ", 0), 0U)
        << format_diagnostic(table.errors().front());
    EXPECT_LE(source->bytes_read(), kBoundedRead);
  }
  {
    const std::string path = (dir / "ss.txt").string();
    auto source = huge_file(path,
                            "State Recv-Q Send-Q Local Address:Port Peer Address:Port\n"
                            "ESTAB 0 0 192.0.2.1:40000 192.0.2.2:5201\n"
                            "\t cubic bytes_sent:many bytes_received:0\n",
                            size);
    ASSERT_TRUE(source);
    const auto ss = read_ss(*source, path);
    ASSERT_FALSE(ss.ok());
    EXPECT_EQ(format_diagnostic(ss.errors().front()), path + ":3:9: error: bytes_sent: 'many' is not a byte count");
    EXPECT_LE(source->bytes_read(), kBoundedRead);
  }
  {
    const std::string path = (dir / "conntrack.txt").string();
    auto source = huge_file(path,
                            "tcp 6 431999 ESTABLISHED src=192.0.2.1 dst=192.0.2.2 sport=40000 dport=5201 packets=1 "
                            "bytes=lots\n",
                            size);
    ASSERT_TRUE(source);
    const auto ct = read_conntrack(*source, path);
    ASSERT_FALSE(ct.ok());
    EXPECT_EQ(format_diagnostic(ct.errors().front()), path + ":1:87: error: bytes: 'lots' is not a byte count");
    EXPECT_LE(source->bytes_read(), kBoundedRead);
  }
  {
    const std::string path = (dir / "perftest.txt").string();
    auto source = huge_file(path, " local address: LID 0000 QPN 0xzz PSN 0x5a5f2f\n", size);
    ASSERT_TRUE(source);
    const auto pt = read_perftest(*source, path, lab().topology());
    ASSERT_FALSE(pt.ok());
    EXPECT_EQ(format_diagnostic(pt.errors().front()),
              path + ":1:1: error: QPN: missing or not a 24-bit hex QP number (0x0..0xffffff)");
    EXPECT_LE(source->bytes_read(), kBoundedRead);
  }
  fs::remove_all(dir);
}

// A gzip flow table of 12 MiB of text, wrong in its third line: refused after a few 64 KiB chunks
// of the file and about two pieces of text inflated, not 12 MiB. Its rows read whole and streamed
// (without the bad line) give the same table.
TEST(StreamedInputs, AGzipFlowTableIsInflatedOnlyAsFarAsItIsRead) {
  const fs::path dir = testing_support::scratch_dir("ct_streamed_gzip");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string rows;
  for (int i = 2; rows.size() < (std::size_t{12} << 20); ++i) {
    rows += std::to_string(i) + ",host" + std::to_string(i % 8) + "/nic0,host" + std::to_string((i + 5) % 8) + "/nic0," +
            std::to_string(1000 + i % 977) + "\n";
  }
  const std::string good = "flow,src,dst,bytes\n0,host0/nic0,host2/nic0,1000\n1,host1/nic0,host3/nic0,1000\n" + rows;
  const std::string bad = "flow,src,dst,bytes\n0,host0/nic0,host2/nic0,1000\n1,host1/nic0,host3/nic0,12x\n" + rows;
  const std::string gz = test::gzip_text(bad, 1);
  ASSERT_FALSE(gz.empty());
  const std::string path = (dir / "flows.csv.gz").string();
  { std::ofstream(path, std::ios::binary) << gz; }
  auto source = FileTextSource::open(path, "a flow table");
  ASSERT_TRUE(source.ok());
  const auto table = parse_flow_table(path, *source.value(), lab().names());
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(format_diagnostic(table.errors().front()).rfind(path + ":3:25: error: bytes: ", 0), 0U)
      << format_diagnostic(table.errors().front());
  EXPECT_LE(source.value()->text_bytes(), 2 * kTextPiece + kTextPiece);
  EXPECT_LE(source.value()->bytes_read(), gz.size() / 4) << gz.size();

  { std::ofstream(path, std::ios::binary) << test::gzip_text(good, 1); }
  auto again = FileTextSource::open(path, "a flow table");
  ASSERT_TRUE(again.ok());
  const auto streamed = parse_flow_table(path, *again.value(), lab().names());
  const auto whole = parse_flow_table(path, good, lab().names());
  ASSERT_TRUE(streamed.ok()) << format_diagnostics(streamed.errors());
  ASSERT_TRUE(whole.ok()) << format_diagnostics(whole.errors());
  ASSERT_EQ(streamed->flows.size(), whole->flows.size());
  EXPECT_GT(streamed->flows.size(), std::size_t{250000});
  EXPECT_EQ(again.value()->text_bytes(), good.size());
  for (std::size_t i = 0; i < whole->flows.size(); ++i) {
    const TableFlow& a = whole->flows[i];
    const TableFlow& b = streamed->flows[i];
    ASSERT_TRUE(a.id == b.id && a.src_port == b.src_port && a.dst_port == b.dst_port && a.bytes == b.bytes && a.line == b.line)
        << "row " << i;
  }
  fs::remove_all(dir);
}

// A port map of 8 GiB (sparse, as above) whose first row names a switch the fabric lacks: refused at
// that row after at most two pieces (read whole, before this change, it needed 8 GiB of memory).
TEST(StreamedInputs, AHugePortMapWrongInItsFirstRowIsNotReadToItsEnd) {
  const fs::path dir = testing_support::scratch_dir("ct_streamed_map");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "huge.csv").string();
  { std::ofstream(path) << "instance,device,vertex,peer\nleaf0,swp1,p0/pod0/leaf/0,p0/pod0/spien/1\n"; }
  ASSERT_EQ(truncate(path.c_str(), off_t{8} << 30), 0);
  ASSERT_EQ(setenv(kMaxInputVariable, "16GiB", 1), 0);
  auto source = FileTextSource::open(path, "a port map");
  ASSERT_EQ(unsetenv(kMaxInputVariable), 0);
  ASSERT_TRUE(source.ok()) << format_diagnostics(source.errors());
  const auto map = read_port_map_csv(*source.value(), path, fixtures::lab_fat_tree_4().names());
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.errors().front().where.file, path);
  EXPECT_EQ(map.errors().front().where.line, 2);
  EXPECT_NE(map.errors().front().message.find("spien"), std::string::npos) << map.errors().front().message;
  EXPECT_LE(source.value()->bytes_read(), 2 * kTextPiece + (std::uint64_t{64} << 10));
  fs::remove_all(dir);
}

// A port map of 3 MiB streamed reads as the whole text: every row found, at its own line, with a
// device name holding a line break on either side of a piece boundary somewhere in the file.
TEST(StreamedInputs, AStreamedPortMapReadsAsTheWholeText) {
  const fs::path dir = testing_support::scratch_dir("ct_streamed_map_same");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string text = "instance,device,vertex,peer\n";
  int rows = 0;
  for (; text.size() < 3 * kTextPiece; ++rows) {
    text += "h" + std::to_string(rows) + ",\"eth\n" + std::to_string(rows) + "\",p0/pod0/leaf/0,p0/pod0/spine/0\n";
  }
  const std::string path = (dir / "map.csv").string();
  { std::ofstream(path) << text; }
  const Fabric& fabric = fixtures::lab_fat_tree_4();
  auto source = FileTextSource::open(path, "a port map");
  ASSERT_TRUE(source.ok());
  const auto whole = read_port_map_csv(text, path, fabric.names());
  const auto streamed = read_port_map_csv(*source.value(), path, fabric.names());
  ASSERT_TRUE(whole.ok()) << format_diagnostics(whole.errors());
  ASSERT_TRUE(streamed.ok()) << format_diagnostics(streamed.errors());
  ASSERT_EQ(whole->size(), static_cast<std::size_t>(rows));
  ASSERT_EQ(streamed->size(), static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    const std::string instance = "h" + std::to_string(i);
    const std::string device = "eth\n" + std::to_string(i);
    const MappedPort* p = streamed->find(instance, device);
    ASSERT_NE(p, nullptr) << instance;
    ASSERT_EQ(p->where.line, 2 + 2 * i) << instance;
    ASSERT_EQ(p->link, whole->find(instance, device)->link);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ct
