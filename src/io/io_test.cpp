#include <filesystem>
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "io/dns_files.h"
#include "io/files.h"
#include "io/gzip_reader.h"
#include "io/loaders.h"
#include "io/output_set.h"
#include "support/gzip_text.h"
#include "support/test_paths.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

TEST(Files, AtomicWriteReplacesAndLeavesNoTemporary) {
  const fs::path dir = testing_support::scratch_dir("ct_io_test");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto target = (dir / "out.txt").string();
  ASSERT_TRUE(write_file_atomic(target, "first\n").ok());
  ASSERT_TRUE(write_file_atomic(target, "second\n").ok());
  EXPECT_EQ(read_text_file(target).value(), "second\n");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1);
  fs::remove_all(dir);
}

TEST(Files, WriteIntoMissingFolderFailsWithPath) {
  auto r = write_file_atomic("/nonexistent-ct-dir/out.txt", "x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors()[0].where.file, "/nonexistent-ct-dir/out.txt");
}

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

// Two files, the first existing: both replaced, no temporary or backup left.
TEST(OutputSet, CommitsEveryFile) {
  const fs::path dir = testing_support::scratch_dir("ct_output_set_ok");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(write_file_atomic((dir / "a.txt").string(), "old a\n").ok());
  OutputSet outputs;
  outputs.stage((dir / "a.txt").string(), "new a\n");
  outputs.stage((dir / "b.txt").string(), "b\n");
  EXPECT_EQ(outputs.size(), 2U);
  EXPECT_EQ(outputs.clash(), "");
  ASSERT_TRUE(outputs.commit().ok());
  EXPECT_EQ(read_text_file((dir / "a.txt").string()).value(), "new a\n");
  EXPECT_EQ(read_text_file((dir / "b.txt").string()).value(), "b\n");
  EXPECT_EQ(entries(dir), 2U);
  fs::remove_all(dir);
}

// A later output that cannot be written (a folder, then a missing folder): the earlier outputs are
// neither created nor changed, and nothing is left behind.
TEST(OutputSet, ALaterFailureLeavesEveryTargetAsItWas) {
  const fs::path dir = testing_support::scratch_dir("ct_output_set_fail");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir / "folder");
  ASSERT_TRUE(write_file_atomic((dir / "a.txt").string(), "old a\n").ok());
  for (const fs::path& bad : {dir / "folder", dir / "missing" / "c.txt"}) {
    OutputSet outputs;
    outputs.stage((dir / "a.txt").string(), "new a\n");
    outputs.stage((dir / "b.txt").string(), "b\n");
    outputs.stage(bad.string(), "c\n");
    auto r = outputs.commit();
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.errors()[0].where.file, bad.string());
    EXPECT_NE(r.errors()[0].message.find("nothing was written"), std::string::npos) << r.errors()[0].message;
    EXPECT_EQ(read_text_file((dir / "a.txt").string()).value(), "old a\n");
    EXPECT_FALSE(fs::exists(dir / "b.txt"));
    EXPECT_EQ(entries(dir), 2U);  // a.txt and folder
    EXPECT_TRUE(fs::is_empty(dir / "folder"));
  }
  fs::remove_all(dir);
}

// A set that is never committed writes nothing.
TEST(OutputSet, AnUncommittedSetLeavesNoTrace) {
  const fs::path dir = testing_support::scratch_dir("ct_output_set_none");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    OutputSet outputs;
    outputs.stage((dir / "a.txt").string(), "a\n");
  }
  EXPECT_EQ(entries(dir), 0U);
  fs::remove_all(dir);
}

// Two outputs to one place: stdout twice ("-" and ""), one file spelt two ways (x.txt and
// ./x.txt, a symlink to it, a hard link to it), each pair a clash naming both options, and the
// commit writes nothing (not even the output that had a place of its own). /dev/null takes any
// number of outputs.
TEST(OutputSet, TwoOutputsToOnePlaceClashAndNothingIsWritten) {
  const fs::path dir = testing_support::scratch_dir("ct_output_set_clash");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(write_file_atomic((dir / "x.txt").string(), "old\n").ok());
  fs::create_symlink(dir / "x.txt", dir / "symlink.txt");
  fs::create_hard_link(dir / "x.txt", dir / "hard.txt");
  struct Case {
    std::string first, second, says;
  };
  const std::string x = (dir / "x.txt").string();
  const std::vector<Case> cases = {
      {"-", "", "--a - and --b - both write to stdout"},
      {x, (dir / "." / "x.txt").string(), "are the same file"},
      {x, (dir / "sub" / ".." / "x.txt").string(), "are the same file"},
      {(dir / "new.txt").string(), (dir / "." / "new.txt").string(), "are the same file"},  // neither exists yet
      {x, (dir / "symlink.txt").string(), "are the same file"},
      {x, (dir / "hard.txt").string(), "are the same file"},
      {x, x, "--a and --b both name '" + x + "'"},
  };
  for (const Case& c : cases) {
    OutputSet outputs;
    outputs.stage((dir / "own.txt").string(), "own\n", "--own");
    outputs.stage(c.first, "first\n", "--a");
    outputs.stage(c.second, "second\n", "--b");
    EXPECT_NE(outputs.clash().find(c.says), std::string::npos) << c.second << ": " << outputs.clash();
    testing::internal::CaptureStdout();
    const auto r = outputs.commit();
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
    ASSERT_FALSE(r.ok()) << c.second;
    EXPECT_NE(r.errors()[0].message.find("nothing was written"), std::string::npos);
    EXPECT_EQ(read_text_file(x).value(), "old\n");
    EXPECT_FALSE(fs::exists(dir / "own.txt"));
    EXPECT_FALSE(fs::exists(dir / "new.txt"));
    EXPECT_EQ(entries(dir), 3U);  // x.txt, symlink.txt, hard.txt
  }
  OutputSet discarded;
  discarded.stage("/dev/null", "a\n", "--a");
  discarded.stage("/dev/null", "b\n", "--b");
  EXPECT_EQ(discarded.clash(), "");
  EXPECT_TRUE(discarded.commit().ok());
  fs::remove_all(dir);
}

// Targets that are not regular files: /dev/null (through a symlink, as `-o /dev/stdout` would
// be) is written in place and stays a character device; a symlink to a file stays a symlink and
// its file gets the text; stdout gets its text last.
TEST(OutputSet, DevicesAndSymlinksAreWrittenInPlaceAndStdoutLast) {
  const fs::path dir = testing_support::scratch_dir("ct_output_set_special");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_symlink("/dev/null", dir / "null");
  ASSERT_TRUE(write_file_atomic((dir / "real.txt").string(), "old\n").ok());
  fs::create_symlink(dir / "real.txt", dir / "link.txt");
  OutputSet outputs;
  outputs.stage((dir / "null").string(), "discarded\n");
  outputs.stage((dir / "link.txt").string(), "new\n");
  outputs.stage("-", "first\n");
  testing::internal::CaptureStdout();
  const auto r = outputs.commit();
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(out, "first\n");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_TRUE(fs::is_symlink(dir / "null"));
  EXPECT_TRUE(fs::is_symlink(dir / "link.txt"));
  EXPECT_EQ(read_text_file((dir / "real.txt").string()).value(), "new\n");
  EXPECT_EQ(entries(dir), 3U);  // null, real.txt, link.txt: no temporary or backup left
  fs::remove_all(dir);
}

// A message names the path the user typed, not the file its symlinks resolve to (the write goes
// through the resolved one). The link points into /proc, where no file can be created beside the
// target, not even by root: the commit fails, naming the link, and nothing is left behind.
TEST(OutputSet, AFailureThroughASymlinkNamesTheUsersPath) {
  const fs::path dir = testing_support::scratch_dir("ct_output_set_symlink");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(fs::is_regular_file("/proc/version"));
  fs::create_symlink("/proc/version", dir / "report.txt");
  const std::string typed = (dir / "report.txt").string();
  OutputSet outputs;
  outputs.stage(typed, "text\n");
  const auto r = outputs.commit();
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1U);
  const std::string message = format_diagnostic(r.errors()[0]);
  EXPECT_EQ(r.errors()[0].where.file, typed) << message;
  EXPECT_EQ(message.rfind(typed + ": error: output: cannot create a file beside it: ", 0), 0U) << message;
  EXPECT_EQ(message.find("/proc/version"), std::string::npos) << message;
  EXPECT_TRUE(fs::is_symlink(dir / "report.txt"));
  EXPECT_EQ(entries(dir), 1U);
  fs::remove_all(dir);
}

TEST(Files, ReadMissingFileNamesIt) {
  auto r = read_text_file("/nonexistent-ct-file.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(format_diagnostic(r.errors()[0]).find("/nonexistent-ct-file.yaml"), std::string::npos);
}

void spill(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// The one loader says what a path is when it is no file: a folder, a dangling link, a loop.
TEST(Files, AFolderALinkLoopAndADanglingLinkAreNamed) {
  const fs::path dir = testing_support::scratch_dir("ct_io_folder");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  fs::create_symlink("b", dir / "a");
  fs::create_symlink("a", dir / "b");
  fs::create_symlink("nowhere.yaml", dir / "dangling.yaml");
  const auto folder = read_text_file((dir / "sub").string(), "a spec file");
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(format_diagnostic(folder.errors()[0]), (dir / "sub").string() + ": error: is a folder, expected a spec file");
  const auto loop = read_text_file((dir / "a").string());
  ASSERT_FALSE(loop.ok());
  EXPECT_NE(loop.errors()[0].message.find("symbolic links"), std::string::npos) << loop.errors()[0].message;
  const auto dangling = read_text_file((dir / "dangling.yaml").string());
  ASSERT_FALSE(dangling.ok());
  EXPECT_EQ(dangling.errors()[0].message, "a symbolic link to 'nowhere.yaml', which does not exist");
  fs::remove_all(dir);
}

// gzip data reads as its text, concatenated members as one; a truncated member is refused; a
// bomb is refused as soon as its text passes the limit, which the error names.
TEST(Files, GzipIsInflatedWithinTheLimit) {
  const fs::path dir = testing_support::scratch_dir("ct_io_gzip");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string text = "flow,src,dst,bytes\n0,host0/nic0,host3/nic0,1000\n";
  spill(dir / "t.csv.gz", test::gzip_text(text) + test::gzip_text("1,host1/nic0,host2/nic0,2000\n"));
  EXPECT_EQ(read_text_file((dir / "t.csv.gz").string()).value(), text + "1,host1/nic0,host2/nic0,2000\n");
  const std::string gz = test::gzip_text(text);
  spill(dir / "cut.csv.gz", gz.substr(0, gz.size() / 2));
  const auto cut = read_text_file((dir / "cut.csv.gz").string());
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.errors()[0].message.find("not valid gzip data"), std::string::npos) << cut.errors()[0].message;
  EXPECT_TRUE(is_gzip(gz));

  // 64 MiB of zeros compress to about 64 kB; with a 1 MiB limit it is refused after 1 MiB.
  spill(dir / "bomb.csv.gz", test::gzip_text(std::string(std::size_t{64} << 20, '0')));
  ASSERT_EQ(setenv(kMaxInputVariable, "1MiB", 1), 0);
  const auto bomb = read_text_file((dir / "bomb.csv.gz").string());
  const auto plain = read_text_file((dir / "bomb.csv.gz").string() + ".none");
  spill(dir / "big.csv", std::string((std::size_t{1} << 20) + 1, 'x'));
  const auto big = read_text_file((dir / "big.csv").string());
  ASSERT_EQ(setenv(kMaxInputVariable, "lots", 1), 0);
  const auto wrong = read_text_file((dir / "t.csv.gz").string());
  ASSERT_EQ(unsetenv(kMaxInputVariable), 0);
  ASSERT_FALSE(bomb.ok());
  EXPECT_EQ(bomb.errors()[0].message,
            "gzip data inflates to more than 1 MiB, the most one input may hold (a decompression bomb?); give "
            "--max-input SIZE (or set CLUSTERTWIN_MAX_INPUT) to read it");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.errors()[0].message,
            "is 1048577 bytes, more than 1 MiB, the most one input may hold; give --max-input SIZE (or set "
            "CLUSTERTWIN_MAX_INPUT) to read it");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.errors()[0].where.file, "environment");
  EXPECT_EQ(kDefaultMaxInputBytes, std::uint64_t{256} << 20);
  fs::remove_all(dir);
}

// A bomb of about 1 MB (64 gzip members of 16 MiB of zeros each: 1 GiB of text) under an 8 MiB
// limit: refused, located at the file and naming the limit, after the first 64 KiB chunk of the
// file has been read and at most one piece beyond the limit inflated (the counters say how much
// was taken, so the bound is checked without timing anything).
TEST(FileTextSource, ABombIsRefusedAfterOneChunk) {
  const fs::path dir = testing_support::scratch_dir("ct_io_bomb");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string member = test::gzip_text(std::string(std::size_t{16} << 20, '0'));
  std::string bomb;
  for (int i = 0; i < 64; ++i) bomb += member;
  const std::string path = (dir / "flows.csv.gz").string();
  spill(path, bomb);
  ASSERT_EQ(setenv(kMaxInputVariable, "8MiB", 1), 0);
  auto source = FileTextSource::open(path, "a flow table");
  ASSERT_EQ(unsetenv(kMaxInputVariable), 0);
  ASSERT_TRUE(source.ok());
  std::string_view piece;
  std::uint64_t pieces = 0;
  while (source.value()->next(piece)) ++pieces;
  ASSERT_TRUE(source.value()->failed().has_value());
  const Diagnostic& error = *source.value()->failed();
  EXPECT_EQ(error.where.file, path);
  EXPECT_NE(error.message.find("more than 8 MiB"), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("--max-input"), std::string::npos) << error.message;
  EXPECT_LE(pieces, 8U);
  EXPECT_GT(bomb.size(), std::size_t{1000000});  // about 1 MB of file, 1 GiB of text
  EXPECT_LE(source.value()->bytes_read(), std::uint64_t{64} << 10);
  EXPECT_LE(source.value()->text_bytes(), (std::uint64_t{8} << 20) + kTextPiece);
  fs::remove_all(dir);
}

// Pieces are whole lines of about kTextPiece bytes, numbered on by LineCursor; the text read
// piece by piece is the text read whole, plain or gzip, with and without a last '\n'. The size a
// reader may reserve for is known before the first piece, for gzip too.
TEST(FileTextSource, PiecesAreWholeLinesAndAddUpToTheText) {
  const fs::path dir = testing_support::scratch_dir("ct_io_pieces");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string text;
  for (int i = 0; text.size() < 3 * kTextPiece; ++i) text += "line " + std::to_string(i) + std::string(i % 97, 'x') + "\n";
  text += "last, without its line break";
  spill(dir / "t.txt", text);
  spill(dir / "t.txt.gz", test::gzip_text(text));
  for (const char* name : {"t.txt", "t.txt.gz"}) {
    auto source = FileTextSource::open((dir / name).string());
    ASSERT_TRUE(source.ok());
    EXPECT_EQ(source.value()->size_hint(), text.size()) << name;  // gzip: its trailer's ISIZE
    std::string joined;
    std::string_view piece;
    int pieces = 0;
    while (source.value()->next(piece)) {
      ++pieces;
      joined.append(piece);
      if (joined.size() < text.size()) {
        EXPECT_EQ(piece.back(), '\n') << name;
      }
    }
    EXPECT_FALSE(source.value()->failed().has_value());
    EXPECT_EQ(joined, text) << name;
    EXPECT_GE(pieces, 3) << name;
    EXPECT_EQ(source.value()->text_bytes(), text.size());
    EXPECT_EQ(read_text_file((dir / name).string()).value(), text);
  }
  fs::remove_all(dir);
}

// The catalog lookup order (io/loaders.h): the environment first, then the installed layout beside
// the binary (<prefix>/bin/clustertwin -> <prefix>/share/clustertwin/catalog), then the compiled-in
// source catalog. Folders of the test's own stand for an installed prefix and a build tree.
TEST(CatalogDir, EnvironmentThenInstalledLayoutThenBuiltIn) {
  const fs::path root = testing_support::scratch_dir("ct_catalog_dir_test");
  const testing_support::RemoveOnExit remove_root(root);
  fs::remove_all(root);
  const fs::path prefix = root / "prefix";
  fs::create_directories(prefix / "bin");
  const std::string exe = (prefix / "bin" / "clustertwin").string();
  const std::string built_in = "/src/catalog";
  // Nothing installed beside the binary: the build tree's compiled-in folder.
  EXPECT_EQ(resolve_catalog_dir(nullptr, exe, built_in), built_in);
  EXPECT_EQ(resolve_catalog_dir("", exe, built_in), built_in);
  EXPECT_EQ(resolve_catalog_dir(nullptr, "", built_in), built_in);
  // Installed: <prefix>/share/clustertwin/catalog, found from the binary's folder.
  fs::create_directories(prefix / "share" / "clustertwin" / "catalog");
  EXPECT_EQ(resolve_catalog_dir(nullptr, exe, built_in), (prefix / "share" / "clustertwin" / "catalog").string());
  // The environment wins, even over an installed catalog.
  EXPECT_EQ(resolve_catalog_dir("/elsewhere", exe, built_in), "/elsewhere");
  fs::remove_all(root);
}

// A named.conf that declares no zone (empty, or a view without zones) answered nothing and
// `export dns` wrote it out as "wrote 1 file(s)": refused at file:1:1.
TEST(DnsFiles, ANamedConfWithNoZoneIsRefused) {
  const fs::path dir = testing_support::scratch_dir("ct_io_dns_test");
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* text : {"", "options { recursion no; };\n", "view \"inside\" { match-clients { any; }; };\n"}) {
    const std::string path = (dir / "named.conf").string();
    ASSERT_TRUE(write_file_atomic(path, text).ok());
    const auto dns = load_dns(path);
    ASSERT_FALSE(dns.ok()) << text;
    EXPECT_EQ(dns.errors()[0].where.file, path);
    EXPECT_EQ(dns.errors()[0].where.line, 1);
    EXPECT_NE(dns.errors()[0].message.find("no zones"), std::string::npos) << dns.errors()[0].message;
  }
}

}  // namespace
}  // namespace ct
