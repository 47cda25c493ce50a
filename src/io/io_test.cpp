#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "io/files.h"
#include "io/loaders.h"
#include "io/output_set.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

TEST(Files, AtomicWriteReplacesAndLeavesNoTemporary) {
  const fs::path dir = fs::temp_directory_path() / "ct_io_test";
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
  const fs::path dir = fs::temp_directory_path() / "ct_output_set_ok";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(write_file_atomic((dir / "a.txt").string(), "old a\n").ok());
  OutputSet outputs;
  outputs.stage((dir / "a.txt").string(), "new a\n");
  outputs.stage((dir / "b.txt").string(), "b\n");
  outputs.stage((dir / "b.txt").string(), "b again\n");  // the last staging of a path wins
  EXPECT_EQ(outputs.size(), 2U);
  ASSERT_TRUE(outputs.commit().ok());
  EXPECT_EQ(read_text_file((dir / "a.txt").string()).value(), "new a\n");
  EXPECT_EQ(read_text_file((dir / "b.txt").string()).value(), "b again\n");
  EXPECT_EQ(entries(dir), 2U);
  fs::remove_all(dir);
}

// A later output that cannot be written (a folder, then a missing folder): the earlier outputs are
// neither created nor changed, and nothing is left behind.
TEST(OutputSet, ALaterFailureLeavesEveryTargetAsItWas) {
  const fs::path dir = fs::temp_directory_path() / "ct_output_set_fail";
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
  const fs::path dir = fs::temp_directory_path() / "ct_output_set_none";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    OutputSet outputs;
    outputs.stage((dir / "a.txt").string(), "a\n");
  }
  EXPECT_EQ(entries(dir), 0U);
  fs::remove_all(dir);
}

// Targets that are not regular files: /dev/null (through a symlink, as `-o /dev/stdout` would
// be) is written in place and stays a character device; a symlink to a file stays a symlink and
// its file gets the text; stdout gets every staged text in order.
TEST(OutputSet, DevicesAndSymlinksAreWrittenInPlaceAndStdoutConcatenates) {
  const fs::path dir = fs::temp_directory_path() / "ct_output_set_special";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_symlink("/dev/null", dir / "null");
  ASSERT_TRUE(write_file_atomic((dir / "real.txt").string(), "old\n").ok());
  fs::create_symlink(dir / "real.txt", dir / "link.txt");
  OutputSet outputs;
  outputs.stage((dir / "null").string(), "discarded\n");
  outputs.stage((dir / "link.txt").string(), "new\n");
  outputs.stage("-", "first\n");
  outputs.stage("", "second\n");
  testing::internal::CaptureStdout();
  const auto r = outputs.commit();
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(out, "first\nsecond\n");
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
  const fs::path dir = fs::temp_directory_path() / "ct_output_set_symlink";
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

// The catalog lookup order (io/loaders.h): the environment first, then the installed layout beside
// the binary (<prefix>/bin/clustertwin -> <prefix>/share/clustertwin/catalog), then the compiled-in
// source catalog. Folders of the test's own stand for an installed prefix and a build tree.
TEST(CatalogDir, EnvironmentThenInstalledLayoutThenBuiltIn) {
  const fs::path root = fs::temp_directory_path() / "ct_catalog_dir_test";
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

}  // namespace
}  // namespace ct
