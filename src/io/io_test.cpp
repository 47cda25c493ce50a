#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "io/files.h"

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

TEST(Files, ReadMissingFileNamesIt) {
  auto r = read_text_file("/nonexistent-ct-file.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(format_diagnostic(r.errors()[0]).find("/nonexistent-ct-file.yaml"), std::string::npos);
}

}  // namespace
}  // namespace ct
