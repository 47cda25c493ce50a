// The one YAML reader (yaml/yaml_reader.h): each class of bad input gives one diagnostic at the
// line and column worked out by hand from the text below it, naming the field, and the value is not
// returned.
#include "yaml/yaml_reader.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ct {
namespace {

using ::testing::HasSubstr;

// Reads `text`, then hands each of its top-level keys to the table below: name (text), count
// (integer 1..100 nodes, required), ratio (number in (0, 10]), bytes (size), gap (duration),
// speed (speed), mode (one of fast, slow).
struct Read {
  Diagnostics errors;
  std::optional<std::string> name;
  std::optional<long long> count;
  std::optional<double> ratio;
  std::optional<Bytes> bytes;
  std::optional<TimePs> gap;
  std::optional<BitsPerSecond> speed;
  std::optional<int> mode;
  bool loaded = false;
};

Read read(const std::string& text) {
  YamlReader r("t.yaml");
  Read out;
  const auto root = r.load(text);
  out.loaded = root.has_value();
  if (root) {
    r.mapping(*root, *root, "",
              {{"name", [&](auto& k, auto& v, auto& f) { out.name = r.text(k, v, f); }},
               {"count", [&](auto& k, auto& v, auto& f) { out.count = r.integer(k, v, f, {1, 100, "nodes"}); },
                YamlReader::Presence::kRequired, "how many nodes"},
               {"ratio", [&](auto& k, auto& v, auto& f) { out.ratio = r.number(k, v, f, {0, 10, true, ""}); }},
               {"bytes", [&](auto& k, auto& v, auto& f) { out.bytes = r.size(k, v, f); }},
               {"gap", [&](auto& k, auto& v, auto& f) { out.gap = r.duration(k, v, f); }},
               {"speed", [&](auto& k, auto& v, auto& f) { out.speed = r.speed(k, v, f); }},
               {"mode", [&](auto& k, auto& v, auto& f) {
                  out.mode = r.choice<int>(k, v, f, {{"fast", 1}, {"slow", 2}});
                }}});
  }
  out.errors = r.take_errors();
  return out;
}

// The only diagnostic of a read.
Diagnostic only(const Read& r) {
  EXPECT_EQ(r.errors.size(), 1u) << format_diagnostics(r.errors);
  return r.errors.empty() ? Diagnostic{} : r.errors.front();
}

TEST(YamlReader, ReadsEveryTypeWithinItsRange) {
  const Read r = read("name: lab\ncount: 100\nratio: 0.5\nbytes: 64KiB\ngap: 1.5ms\nspeed: 1.6T\nmode: slow\n");
  ASSERT_TRUE(r.errors.empty()) << format_diagnostics(r.errors);
  EXPECT_EQ(r.name, "lab");
  EXPECT_EQ(r.count, 100);
  EXPECT_EQ(r.ratio, 0.5);
  EXPECT_EQ(r.bytes, Bytes(65536));                  // 64 x 1024
  EXPECT_EQ(r.gap, TimePs(1'500'000'000));           // 1.5 x 10^9 ps
  EXPECT_EQ(r.speed, BitsPerSecond(1'600'000'000'000));
  EXPECT_EQ(r.mode, 2);
}

TEST(YamlReader, UnknownFieldSuggestsTheNearestName) {
  // "cont" is one deletion from "count": distance 1, within the limit max(1, 4 / 3) = 1.
  const Diagnostic d = only(read("count: 3\ncont: 4\n"));
  EXPECT_EQ(format_diagnostic(d), "t.yaml:2:1: error: cont: unknown field (did you mean 'count'?)");
  // Nothing near: no suggestion.
  EXPECT_EQ(only(read("count: 3\nzzzzzz: 4\n")).message, "unknown field");
}

TEST(YamlReader, RepeatedAndMissingFields) {
  EXPECT_EQ(format_diagnostic(only(read("count: 3\nname: a\ncount: 4\n"))),
            "t.yaml:3:1: error: count: field written twice (first at line 1)");
  EXPECT_EQ(format_diagnostic(only(read("name: a\n"))), "t.yaml:1:1: error: count: missing: how many nodes");
}

TEST(YamlReader, WrongTypeSaysWhatWasExpectedAndGot) {
  // The value starts at column 8 of line 2 ("count: " is 7 characters).
  EXPECT_EQ(format_diagnostic(only(read("name: a\ncount: [1, 2]\n"))),
            "t.yaml:2:8: error: count: expected an integer, got a list");
  EXPECT_EQ(only(read("count: \"7\"\n")).message, "expected an integer, got the quoted string \"7\"");
  EXPECT_EQ(only(read("count: 2\nname: {a: 1}\n")).message, "expected a text value, got a mapping");
  const Read r = read("count: lots\n");
  EXPECT_EQ(only(r).message, "expected an integer, got 'lots'");
  EXPECT_FALSE(r.count.has_value());
}

TEST(YamlReader, OutOfRangeNamesTheLimitsAndTheUnit) {
  const Read r = read("count: 101\n");
  EXPECT_EQ(format_diagnostic(only(r)), "t.yaml:1:8: error: count: must be between 1 and 100 nodes, got 101");
  EXPECT_FALSE(r.count.has_value());
  // (0, 10]: 0 itself is out.
  EXPECT_EQ(only(read("count: 1\nratio: 0\n")).message, "must be above 0 and at most 10, got 0");
  EXPECT_EQ(only(read("count: 1\nratio: 10.5\n")).message, "must be above 0 and at most 10, got 10.5");
  EXPECT_EQ(describe_range(IntegerRange{.max = 1'000'000, .unit = "nodes"}), "at most 1000000 nodes");
  EXPECT_EQ(describe_range(NumberRange{.min = 0, .unit = "m"}), "at least 0 m");
}

TEST(YamlReader, NanAndInfinityAreRefusedAndNotStored) {
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "infinity", ".nan", ".inf"}) {
    const Read r = read(std::string("count: 1\nratio: ") + bad + "\n");
    EXPECT_EQ(only(r).message, std::string("expected a number, got '") + bad + "'") << bad;
    EXPECT_FALSE(r.ratio.has_value()) << bad;
  }
}

TEST(YamlReader, IntegersThatOverflowAreOutOfRange) {
  // 2^63 = 9223372036854775808 does not fit a long long: out of range, not "not an integer".
  const Read r = read("count: 9223372036854775808\n");
  EXPECT_EQ(only(r).message, "must be between 1 and 100 nodes, got 9223372036854775808");
  EXPECT_FALSE(r.count.has_value());
  // 1e999 overflows a double.
  EXPECT_EQ(only(read("count: 1\nratio: 1e999\n")).message, "must be above 0 and at most 10, got 1e999");
  // Sizes, durations and speeds with their own limits (core/units.h).
  EXPECT_THAT(only(read("count: 1\nspeed: 18446744073709551616G\n")).message, HasSubstr("above the largest speed"));
  EXPECT_THAT(only(read("count: 1\nbytes: 2000000TB\n")).message, HasSubstr("above the largest size"));
  EXPECT_THAT(only(read("count: 1\ngap: 9223372036854775807ns\n")).message, HasSubstr("above the longest duration"));
}

TEST(YamlReader, ChoiceListsTheOptionsWithASuggestion) {
  EXPECT_EQ(only(read("count: 1\nmode: fat\n")).message,
            "expected one of fast, slow; got 'fat' (did you mean 'fast'?)");
}

TEST(YamlReader, InvalidUtf8IsRefusedAtItsLine) {
  // 0xFF can never appear in UTF-8; 0xC3 starts a two-byte sequence that the space does not finish;
  // 0xED 0xA0 0x80 would encode the surrogate U+D800.
  const Read r = read("count: 1\nname: \"caf\xC3\xA9 \xFF\"\n");
  EXPECT_FALSE(r.loaded);
  EXPECT_EQ(format_diagnostic(only(r)),
            "t.yaml:2:7: error: name: invalid UTF-8 (byte 0xFF at offset 6 of 'caf\xC3\xA9 \\xFF'): YAML files must be UTF-8");
  EXPECT_EQ(invalid_utf8_offset("ok \xC3\xA9"), std::string_view::npos);
  EXPECT_EQ(invalid_utf8_offset("\xC3 "), 0u);
  EXPECT_EQ(invalid_utf8_offset("a\xED\xA0\x80"), 1u);
  EXPECT_EQ(invalid_utf8_offset("\xF4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(invalid_utf8_offset("\xC0\xAF"), 0u);          // overlong "/"
  // In a key too, with the key's path.
  const Read key = read("count: 1\nn\xFE: 2\n");
  EXPECT_EQ(only(key).where.line, 2);
}

TEST(YamlReader, EchoedValuesAreEscapedAndTruncated) {
  EXPECT_EQ(excerpt("a\x1B[2Jb\n\t\x7F"), "a\\e[2Jb\\n\\t\\x7F");
  const std::string long_value(1'000'000, 'x');
  EXPECT_EQ(excerpt(long_value), std::string(kExcerptLength, 'x') + "...");
  // Cut at a character, never inside a UTF-8 sequence: 81 two-byte characters keep 80 of them.
  std::string accents;
  for (int i = 0; i < 81; ++i) accents += "\xC3\xA9";
  EXPECT_EQ(excerpt(accents), accents.substr(0, 160) + "...");
  // Through the reader: an ESC in a value does not reach the terminal.
  const Diagnostic d = only(read("count: \"\\e[2J\"\n"));
  EXPECT_EQ(d.message, "expected an integer, got the quoted string \"\\e[2J\"");
  const Diagnostic big = only(read("count: " + long_value + "\n"));
  EXPECT_EQ(big.message, "expected an integer, got '" + std::string(kExcerptLength, 'x') + "...'");
}

// A "billion laughs" file: a holds 10 scalars, b 10 aliases of a, ..., i 10 aliases of h: 10^9
// scalars once expanded. An alias shares its anchor's node, so loading is cheap; the walk refuses it
// after kMaxYamlNodes nodes instead of visiting 10^9.
TEST(YamlReader, AliasBombIsRefused) {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) bomb += std::string(i > 0 ? ", " : "") + "*" + static_cast<char>(c - 1);
    bomb += "]\n";
  }
  const Read r = read(bomb);
  EXPECT_FALSE(r.loaded);
  EXPECT_THAT(only(r).message, HasSubstr("alias bomb"));
  // A few aliases are fine.
  const Read small = read("count: &n 3\nname: x\nmode: &m fast\n");
  EXPECT_TRUE(small.errors.empty()) << format_diagnostics(small.errors);
}

TEST(YamlReader, DeepNestingIsRefused) {
  // kMaxYamlDepth + 1 nested lists below the key: the walk stops at the first level too deep.
  const std::string deep = "count: " + std::string(kMaxYamlDepth + 1, '[') + std::string(kMaxYamlDepth + 1, ']') + "\n";
  const Read r = read(deep);
  EXPECT_FALSE(r.loaded);
  EXPECT_THAT(only(r).message, HasSubstr("nested deeper than 64 levels"));
  // Far deeper: refused while it is read, at the first node too deep (nothing deeper is built),
  // the 65th '[' of line 2 at column 8 + 64 = 72, with its path (cut as every echo is) and what
  // is written there.
  const Read very = read("name: a\ncount: " + std::string(100'000, '[') + std::string(100'000, ']') + "\n");
  EXPECT_FALSE(very.loaded);
  std::string path = "count";
  for (int i = 0; i < kMaxYamlDepth; ++i) path += "[0]";
  EXPECT_EQ(format_diagnostic(only(very)), "t.yaml:2:72: error: " + excerpt(path) +
                                               ": nested deeper than 64 levels (here: '[[[[[[[[[[[[[[[[[[[['); refused");
  // Block nesting, 1000 levels of "- " each indented one more: the parser's own place.
  std::string block = "count:\n";
  for (int i = 1; i <= 1000; ++i) block += std::string(static_cast<std::size_t>(i), ' ') + "-\n";
  const Read blocks = read(block);
  EXPECT_FALSE(blocks.loaded);
  EXPECT_THAT(only(blocks).message, HasSubstr("nested deeper than 64 levels"));
  EXPECT_GT(only(blocks).where.line, 1);
}

// A key written twice in any mapping of the file, at any depth, is refused by load() with the line
// of the first (a parser alone keeps both and hands out one; kubectl refuses the file). Every key
// twice is reported, each at its second occurrence, with its dotted path.
TEST(YamlReader, DuplicateKeysAreRefusedAtLoad) {
  YamlReader r("m.yaml");
  const auto docs = r.load_all(
      "kind: Gateway\n"             // 1
      "kind: GatewayClass\n"        // 2: again
      "spec:\n"                     // 3
      "  listeners:\n"              // 4
      "  - name: http\n"            // 5
      "    port: 80\n"              // 6
      "    port: 8080\n"            // 7: again
      "---\n"
      "a: {b: 1, b: 2}\n");         // 9: again, at column 11
  EXPECT_FALSE(docs.has_value());
  ASSERT_EQ(r.errors().size(), 3u) << format_diagnostics(r.errors());
  EXPECT_EQ(format_diagnostic(r.errors()[0]), "m.yaml:2:1: error: kind: field written twice (first at line 1)");
  EXPECT_EQ(format_diagnostic(r.errors()[1]),
            "m.yaml:7:5: error: spec.listeners[0].port: field written twice (first at line 6)");
  EXPECT_EQ(format_diagnostic(r.errors()[2]), "m.yaml:9:11: error: a.b: field written twice (first at line 9)");
}

// A mapping of many keys is checked through a hash once past 32 keys (the short ones are searched
// in place): 40 keys k0..k39 with k3 written again as the 41st line and k39 as the 42nd, inside a
// mapping whose own short sibling mapping repeats a key of the long one without error (the check
// is per mapping). Expected: two errors, at lines 42 and 43 (line 1 is "big:"), naming the first.
TEST(YamlReader, DuplicateKeysAreRefusedInALongMapping) {
  std::string text = "big:\n";
  for (int i = 0; i < 40; ++i) text += "  k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  text += "  k3: again\n  k39: again\nsmall: {k3: 1, k39: 2}\n";
  YamlReader r("m.yaml");
  const auto docs = r.load_all(text);
  EXPECT_FALSE(docs.has_value());
  ASSERT_EQ(r.errors().size(), 2u) << format_diagnostics(r.errors());
  EXPECT_EQ(format_diagnostic(r.errors()[0]), "m.yaml:42:3: error: big.k3: field written twice (first at line 5)");
  EXPECT_EQ(format_diagnostic(r.errors()[1]), "m.yaml:43:3: error: big.k39: field written twice (first at line 41)");
}

// A NUL byte is named and placed (a parser alone reads it as the end of the text or as UTF-16);
// other control characters but tab, LF and CR likewise. The NUL of "b\0" is line 2, column 10.
TEST(YamlReader, NulAndControlBytesAreNamedWhereTheyAre) {
  const Read nul = read(std::string("count: 3\nname: ab\0c\n", 20));
  EXPECT_FALSE(nul.loaded);
  EXPECT_EQ(format_diagnostic(only(nul)),
            "t.yaml:2:9: error: a NUL byte (0x00): YAML text cannot contain NUL; is this a binary or UTF-16 file?");
  const Read bell = read("count: 3\n\x07name: a\n");
  EXPECT_FALSE(bell.loaded);
  EXPECT_EQ(only(bell).where.line, 2);
  EXPECT_THAT(only(bell).message, HasSubstr("a control character (byte 0x07)"));
  EXPECT_TRUE(read("count: 3\r\nname: a\tb\r\n").errors.empty());
}

TEST(YamlReader, AllDiagnosticsAtOnceInFileOrder) {
  const Read r = read("count: 0\nratio: x\nmode: no\nspeed: 9Q\n");
  ASSERT_EQ(r.errors.size(), 4u) << format_diagnostics(r.errors);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r.errors[i].where.line, i + 1);
}

TEST(YamlReader, SyntaxErrorAtTheEndOfATruncatedFile) {
  // The flow list never closes: the error is placed just after "[1" on line 2 (column 10).
  const Diagnostic d = only(read("count: 1\nratio: [1\n\n"));
  EXPECT_EQ(d.where.line, 2);
  EXPECT_EQ(d.where.column, 10);
  EXPECT_THAT(d.message, HasSubstr("before the end of the file"));
}

// load_all (Kubernetes manifests): every document, each checked like load()'s one; a bad document
// anywhere refuses the text with the diagnostic at its own line.
TEST(YamlReader, LoadAllReadsEveryDocumentWithTheSameBounds) {
  YamlReader r("m.yaml");
  const auto docs = r.load_all("kind: A\n---\nkind: B\n---\n");
  ASSERT_TRUE(docs.has_value()) << format_diagnostics(r.errors());
  ASSERT_GE(docs->size(), 2u);
  EXPECT_EQ((*docs)[1]["kind"].scalar(), "B");

  YamlReader deep("d.yaml");
  const std::string nested = "kind: A\n---\nkind: " + std::string(kMaxYamlDepth + 1, '[') +
                             std::string(kMaxYamlDepth + 1, ']') + "\n";
  EXPECT_FALSE(deep.load_all(nested).has_value());
  ASSERT_EQ(deep.errors().size(), 1u) << format_diagnostics(deep.errors());
  EXPECT_EQ(deep.errors()[0].where.line, 3);
  EXPECT_THAT(deep.errors()[0].message, HasSubstr("nested deeper than 64 levels"));

  YamlReader broken("b.yaml");
  EXPECT_FALSE(broken.load_all("kind: A\n---\nkind: [B\n---\nkind: C\n").has_value());
  ASSERT_EQ(broken.errors().size(), 1u) << format_diagnostics(broken.errors());
  EXPECT_THAT(broken.errors()[0].message, HasSubstr("YAML syntax error"));
}

// The located node type (yaml/yaml_node.h): YAML 1.2 core-schema nulls, text that stays text,
// quoting, byte columns past non-ASCII text, entries and items in file order, aliases shared.
TEST(YamlNode, NullsScalarsAndQuotingAsTheProjectReadsThem) {
  YamlReader r("n.yaml");
  const auto root = r.load(
      "a: ~\nb: null\nc: NULL\nd:\ne: \"null\"\nf: 'x'\ng: 1e3\nh: true\ni: |\n  text\nj: !!str 5\nk: 0x10\n");
  ASSERT_TRUE(root.has_value()) << format_diagnostics(r.errors());
  for (const char* k : {"a", "b", "c", "d"}) EXPECT_TRUE((*root)[k].is_null()) << k;
  EXPECT_TRUE((*root)["e"].is_scalar());
  EXPECT_EQ((*root)["e"].scalar(), "null");
  EXPECT_TRUE((*root)["e"].quoted());
  EXPECT_EQ((*root)["e"].tag(), "!");
  EXPECT_TRUE((*root)["f"].quoted());
  EXPECT_FALSE((*root)["g"].quoted());
  EXPECT_EQ((*root)["g"].tag(), "?");
  EXPECT_EQ((*root)["g"].scalar(), "1e3");  // numbers and bools stay text for the typed readers
  EXPECT_EQ((*root)["h"].scalar(), "true");
  EXPECT_EQ((*root)["i"].scalar(), "text\n");
  EXPECT_TRUE((*root)["i"].quoted());
  EXPECT_EQ((*root)["j"].tag(), "tag:yaml.org,2002:str");
  EXPECT_FALSE((*root)["j"].quoted());
  EXPECT_EQ((*root)["k"].scalar(), "0x10");
  EXPECT_FALSE((*root)["missing"].is_defined());
  EXPECT_FALSE((*root)["a"]["x"].is_defined());
  EXPECT_FALSE((*root)[std::size_t{0}].is_defined());
  EXPECT_EQ(root->size(), 11u);
  // The typed readers refuse a quoted number as before.
  EXPECT_EQ(only(read("count: \"3\"\n")).message, "expected an integer, got the quoted string \"3\"");
  // An empty file is one null document.
  YamlReader e("e.yaml");
  const auto empty = e.load("# nothing\n");
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->is_null());
}

TEST(YamlNode, PlacesAreLinesAndByteColumnsInFileOrder) {
  YamlReader r("p.yaml");
  // "é" is two bytes: the value of "bé" starts at byte column 6 (b, 0xC3 0xA9, ':', ' ', then 6).
  const auto root = r.load("a: 1\r\nb\xC3\xA9: [x, {k: v}]\n- \n");
  EXPECT_FALSE(root.has_value());  // a list item after a mapping: a syntax error
  const auto good = r.load("z: 1\r\nb\xC3\xA9: [x, {k: v}]\nlist:\n- one\n-   two\n");
  ASSERT_TRUE(good.has_value()) << format_diagnostics(r.errors());
  const YamlNode flow = (*good)["b\xC3\xA9"];
  EXPECT_EQ(flow.line(), 2);
  EXPECT_EQ(flow.column(), 6);
  EXPECT_EQ(flow[1]["k"].column(), 14);
  std::vector<std::string> keys;
  for (const auto& [key, value] : good->entries()) keys.push_back(key.scalar());
  EXPECT_EQ(keys, (std::vector<std::string>{"z", "b\xC3\xA9", "list"}));
  std::vector<std::pair<int, int>> places;
  for (const YamlNode item : (*good)["list"].items()) places.emplace_back(item.line(), item.column());
  EXPECT_EQ(places, (std::vector<std::pair<int, int>>{{4, 3}, {5, 5}}));
  EXPECT_EQ(r.at(good->key(2)).line, 3);
}

TEST(YamlNode, AnAliasIsItsAnchorsNode) {
  YamlReader r("a.yaml");
  const auto root = r.load("base: &b {speed: 800G}\nother: *b\n");
  ASSERT_TRUE(root.has_value()) << format_diagnostics(r.errors());
  EXPECT_TRUE((*root)["base"] == (*root)["other"]);
  EXPECT_EQ((*root)["other"]["speed"].scalar(), "800G");
  EXPECT_EQ((*root)["other"].line(), 1);  // where the anchored node is written
  YamlReader u("u.yaml");
  EXPECT_FALSE(u.load("a: *nowhere\n").has_value());
  EXPECT_EQ(format_diagnostic(u.errors().at(0)), "u.yaml:1:4: error: YAML syntax error: unknown anchor 'nowhere'");
}

// libyaml's syntax errors keep its own words, where it found the problem and what it was
// reading; its character checks (DEL and the C1 controls, which YAML 1.2 section 5.1 excludes
// too) name the byte.
TEST(YamlNode, SyntaxErrorsSayWhatWasBeingRead) {
  YamlReader r("s.yaml");
  EXPECT_FALSE(r.load("a: 1\nb: {c: 2\nd: 3\n").has_value());
  EXPECT_EQ(format_diagnostic(r.errors().at(0)),
            "s.yaml:3:2: error: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping that "
            "began at line 2, column 4)");
  YamlReader d("d.yaml");
  EXPECT_FALSE(d.load("a: x\x7Fy\n").has_value());
  EXPECT_EQ(format_diagnostic(d.errors().at(0)), "d.yaml:1:5: error: control characters are not allowed (byte 0x7F); refused");
}

// ---- the reader's own scanner of a subset of YAML against libyaml ----

namespace subset {

// Both readings of one node, field by field and child by child.
::testing::AssertionResult same_node(const YamlNode& a, const YamlNode& b, const std::string& path) {
  if (a.kind() != b.kind() || a.line() != b.line() || a.column() != b.column() || a.scalar() != b.scalar() ||
      a.tag() != b.tag() || a.size() != b.size()) {
    return ::testing::AssertionFailure() << "at " << path << ": kind " << static_cast<int>(a.kind()) << " vs "
                                         << static_cast<int>(b.kind()) << ", place " << a.line() << ":" << a.column()
                                         << " vs " << b.line() << ":" << b.column() << ", '" << a.scalar() << "' vs '"
                                         << b.scalar() << "', tag " << a.tag() << " vs " << b.tag();
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool map = a.is_mapping();
    if (map) {
      if (auto r = same_node(a.key(i), b.key(i), path + ".key" + std::to_string(i)); !r) return r;
    }
    if (auto r = same_node(map ? a.value(i) : a[i], map ? b.value(i) : b[i], path + "[" + std::to_string(i) + "]"); !r) {
      return r;
    }
  }
  return ::testing::AssertionSuccess();
}

// `text` read as the project reads it and by libyaml alone: the same nodes, or the same
// diagnostics. `subset` (optional) receives whether the reader's own scanner read it.
::testing::AssertionResult same_reading(const std::string& text, bool* by_subset = nullptr) {
  YamlReader ours("t.yaml");
  YamlReader theirs("t.yaml", YamlReader::Syntax::kLibyaml);
  const auto a = ours.load(text);
  const auto b = theirs.load(text);
  if (by_subset != nullptr) *by_subset = ours.read_by_subset();
  const std::string ea = format_diagnostics(ours.errors());
  const std::string eb = format_diagnostics(theirs.errors());
  if (a.has_value() != b.has_value() || ea != eb) {
    return ::testing::AssertionFailure() << "diagnostics differ:\n" << ea << "---\n" << eb << "--- text:\n" << text;
  }
  if (!a) return ::testing::AssertionSuccess();
  auto r = same_node(*a, *b, "root");
  if (!r) r << "\n--- text:\n" << text;
  return r;
}

// Scenario-like text that uses every form of the subset.
const std::string kBase =
    "# a scenario\n"
    "scenario:\n"
    "  name: perm  test   # trailing comment\n"
    "  seed: 0x2a\n"
    "  empty: {}\n"
    "  nothing: null\n"
    "  tilde: ~\n"
    "  transfers:\n"
    "    - {name: p0, src: host0/nic0/p0, dst: host1/nic4/p0, bytes: 16558033, qps: 1}\n"
    "    -   {name: p1 , src: h1,dst: -h2 , bytes: 1.5e3}   # c\n"
    "\n"
    "    - name: p2\n"
    "      after: [p0]\n"
    "      size: 4 MiB\n"
    "    - plain item\n"
    "    - key: v\n"
    "      list:\n"
    "      - a\n"
    "      - b: c\n"
    "        d: e\n"
    "  tail:\n"
    "  - x.y/z+1\n"
    "  -  (w)=~$^;<\\\n"
    "other: value\n";

}  // namespace subset

TEST(YamlSubset, ReadsTheProjectsFilesAsLibyamlDoes) {
  const char* root = std::getenv("CT_SOURCE_DIR");
  ASSERT_NE(root, nullptr);
  std::size_t files = 0;
  std::size_t by_subset = 0;
  for (const char* dir : {"examples", "catalog", "tests", "src", "docs", "bench"}) {
    const std::filesystem::path base = std::filesystem::path(root) / dir;
    if (!std::filesystem::exists(base)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(base)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      bool subset = false;
      EXPECT_TRUE(subset::same_reading(text, &subset)) << entry.path();
      ++files;
      by_subset += subset ? 1 : 0;
    }
  }
  EXPECT_GT(files, 50u);
  EXPECT_GT(by_subset, files / 5) << "the subset reads too few of the project's files to be compared";
}

TEST(YamlSubset, EveryMutationOfAScenarioReadsAsLibyamlReadsIt) {
  bool subset = false;
  ASSERT_TRUE(subset::same_reading(subset::kBase, &subset));
  EXPECT_FALSE(subset) << "the base holds a flow sequence: libyaml's";
  std::string base = subset::kBase;
  base.replace(base.find("[p0]"), 4, "p0");
  ASSERT_TRUE(subset::same_reading(base, &subset));
  ASSERT_TRUE(subset) << "the base without its flow sequence is in the subset";
  // Each byte replaced by each of these, deleted, or with one of these inserted before it.
  const std::string bytes = " :-#{},[]\n\tax0'\"&*!|>?%@`~.";
  std::size_t variants = 0;
  std::size_t in_subset = 0;
  for (std::size_t i = 0; i < base.size(); ++i) {
    std::vector<std::string> texts = {base.substr(0, i) + base.substr(i + 1)};
    for (const char c : bytes) {
      std::string replaced = base;
      replaced[i] = c;
      texts.push_back(std::move(replaced));
      texts.push_back(base.substr(0, i) + c + base.substr(i));
    }
    for (const std::string& text : texts) {
      ASSERT_TRUE(subset::same_reading(text, &subset)) << "variant at byte " << i;
      ++variants;
      in_subset += subset ? 1 : 0;
    }
  }
  EXPECT_GT(in_subset, variants / 4);
}

TEST(YamlSubset, DeepAndLongTextsAreLeftToLibyaml) {
  std::string deep;
  for (int i = 0; i < kMaxYamlDepth + 2; ++i) deep += std::string(static_cast<std::size_t>(2 * i), ' ') + "k:\n";
  deep += std::string(static_cast<std::size_t>(2 * (kMaxYamlDepth + 2)), ' ') + "v: 1\n";
  EXPECT_TRUE(subset::same_reading(deep));
  EXPECT_TRUE(subset::same_reading("k" + std::string(1100, 'x') + ": 1\n"));
  EXPECT_TRUE(subset::same_reading("- {k" + std::string(1100, 'x') + ": 1}\n"));
  // A key short enough whose ':' is past libyaml's look-ahead because of the spaces before it.
  const std::string spaced = "k" + std::string(990, 'x') + std::string(40, ' ');
  EXPECT_TRUE(subset::same_reading(spaced + ": 1\n"));
  EXPECT_TRUE(subset::same_reading("- {" + spaced + ": 1}\n"));
  // A mapping past the pairwise look-up's 16 keys, with one key written twice.
  std::string many;
  for (int k = 0; k < 20; ++k) many += "key" + std::to_string(k) + ": " + std::to_string(k) + "\n";
  bool by_subset = false;
  EXPECT_TRUE(subset::same_reading(many + "key7: 0\n", &by_subset));
  EXPECT_TRUE(by_subset);  // the subset read it; its duplicate-key check sent it to the full walk
  YamlReader reader("t.yaml");
  EXPECT_FALSE(reader.load(many + "key7: 0\n").has_value());
  EXPECT_TRUE(subset::same_reading("a: 1\na: 2\nb:\n  - {c: 1, c: 2}\n"));
  EXPECT_TRUE(subset::same_reading(""));
  EXPECT_TRUE(subset::same_reading("# only a comment\n"));
  EXPECT_TRUE(subset::same_reading("---\na: 1\n"));
  EXPECT_TRUE(subset::same_reading("a: 1\n..."));
  EXPECT_TRUE(subset::same_reading("a: 1"));
}

}  // namespace
}  // namespace ct
