// Inputs of any size read a piece at a time (issue 23 item 3): a counter scrape is parsed as the
// one loader reads it (io/files.h FileTextSource, core/text_source.h), so a file that is wrong in
// its first line is reported after one piece, however large it is. The file here is 8 GiB, sparse
// (its first line, then holes that read as zeros): read whole it would need 8 GiB of memory and
// minutes; streamed, the error comes after at most two pieces have been read (the loader's
// counters say so; nothing is timed). The good path reads the same samples streamed as whole.
// Port maps are read the same way.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "diagnose/counter_inputs.h"
#include "diagnose/counter_reader.h"
#include "diagnose/port_map.h"
#include "io/files.h"
#include "support/fixture_fabric.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

TEST(StreamedInputs, AHugeScrapeWrongInItsFirstLineIsNotReadToItsEnd) {
  const fs::path dir = fs::temp_directory_path() / "ct_streamed_scrape";
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
  const fs::path dir = fs::temp_directory_path() / "ct_streamed_same";
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

// A port map of 8 GiB (sparse, as above) whose first row names a switch the fabric lacks: refused at
// that row after at most two pieces (read whole, before this change, it needed 8 GiB of memory).
TEST(StreamedInputs, AHugePortMapWrongInItsFirstRowIsNotReadToItsEnd) {
  const fs::path dir = fs::temp_directory_path() / "ct_streamed_map";
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
  const fs::path dir = fs::temp_directory_path() / "ct_streamed_map_same";
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
