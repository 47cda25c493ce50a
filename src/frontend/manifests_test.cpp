// Manifest loading: multi-document files, unknown kinds listed, unknown fields warned about with
// their line, and bad input rejected with file:line:column and the field.
#include "frontend/manifest_parser.h"

#include <gtest/gtest.h>

namespace ct {
namespace {

TEST(Manifests, KindsUnknownKindsAndWarnings) {
  const std::string text =
      "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports: [{port: 80}]\n  colour: blue\n"
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n";
  auto m = parse_manifests({{"f.yaml", text}});
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->services.size(), 1u);
  EXPECT_EQ(m->services[0].meta.ns, "default");
  EXPECT_EQ(m->services[0].meta.where.line, 1);
  ASSERT_EQ(m->unknown.size(), 1u);
  EXPECT_EQ(m->unknown[0].meta.kind, "ConfigMap");
  EXPECT_EQ(m->unknown[0].meta.where.line, 8);  // the second document starts on line 8
  ASSERT_EQ(m->warnings.size(), 1u);
  EXPECT_EQ(format_diagnostic(m->warnings[0]), "f.yaml:6:3: warning: spec.colour: unknown field (ignored)");
}

TEST(Manifests, DuplicateObjectIsAnError) {
  const std::string doc = "apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: x}\n";
  auto m = parse_manifests({{"a.yaml", doc}, {"b.yaml", doc}});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(format_diagnostic(m.errors()[0]),
            "b.yaml:1:1: error: metadata.name: duplicate object Service x/a (first defined at a.yaml:1)");
}

TEST(Manifests, SyntaxAndTypeErrorsNameTheLine) {
  auto m = parse_manifests({{"s.yaml", "kind: Service\nmetadata: {name: a\n"}});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.errors()[0].where.file, "s.yaml");
  EXPECT_GT(m.errors()[0].where.line, 0);
  auto t = parse_manifests({{"t.yaml", "kind: Service\nmetadata: {name: a}\nspec:\n  ports: [{port: eighty}]\n"}});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(format_diagnostic(t.errors()[0]), "t.yaml:4:18: error: spec.ports[].port: expected an integer, got 'eighty'");
  auto u = parse_manifests({{"u.yaml", "apiVersion: v1\nmetadata: {name: a}\n"}});
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.errors()[0].field, "kind");
}

// The bounds of the project's YAML reader hold for manifests too (the fuzz test found an alias bomb
// that took over 20 s): 9 levels of 9 aliases = 9^9 nodes once expanded, over the 1,000,000 allowed;
// a byte 0xFF in a name is not UTF-8. Each is an error at its line, nothing is half-read.
TEST(Manifests, AliasBombAndInvalidUtf8AreRefused) {
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 9; ++level) {
    bomb += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int k = 0; k < 9; ++k) bomb += (k ? ", *a" : "*a") + std::to_string(level - 1);
    bomb += "]\n";
  }
  auto m = parse_manifests({{"bomb.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n" + bomb}});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.errors()[0].message.find("alias bomb"), std::string::npos) << m.errors()[0].message;
  EXPECT_GT(m.errors()[0].where.line, 3);
  auto u = parse_manifests({{"u.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: \"a\xff\"}\n"}});
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.errors()[0].where.line, 3);
  EXPECT_NE(u.errors()[0].message.find("invalid UTF-8 (byte 0xFF"), std::string::npos) << u.errors()[0].message;
}

}  // namespace
}  // namespace ct
