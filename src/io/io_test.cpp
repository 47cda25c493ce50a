#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "io/files.h"
#include "io/loaders.h"

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
