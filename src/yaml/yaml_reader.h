// The one YAML reader of the project: every input file (cluster spec and its routing block,
// scenario, catalog, flow files; the frontend's manifests through load_all) is read through it, so that every file gets the same checks and the same
// messages.
//
// A file is read in two steps.
//   1. load(): the text is checked for bytes no YAML stream may hold (a NUL or another control
//      character but tab, line feed and carriage return, YAML 1.2 section 5.1), named and placed at
//      their line and column; libyaml's parser (its event API, non-recursive) turns it into the
//      project's located nodes (yaml/yaml_node.h), refusing more than kMaxYamlDepth levels of
//      nesting as it goes (at the first node too deep, so nothing deeper is built). A text written
//      wholly in the plain subset of block collections, one-line flow mappings and one-line plain
//      scalars is first read by the reader's own scanner into the same nodes, ten times faster;
//      anything else, and every syntax error, is left to libyaml from the start. Then one bounded
//      walk over the tree refuses what could hang or mislead a later step: a key written twice in
//      one mapping (the first line named; the Kubernetes API server and kubectl refuse these too),
//      more than kMaxYamlNodes nodes once aliases are expanded (a "billion laughs" file of nine
//      aliases of ten aliases expands to 10^9 nodes; an alias shares its anchor's node, and the
//      walk stops at the first node past the bound, so it costs at most kMaxNodes steps), and
//      scalars that are not valid UTF-8 (RFC 3629; a YAML stream must be Unicode, and text that
//      reaches JSON output must be UTF-8; the bytes are named in the scalar that holds them).
//      Syntax errors become diagnostics at the mark libyaml gives, with what it was parsing and
//      where that began, or at the end of the text when it stops there.
//   2. The caller walks the tree with a field table per mapping (mapping()): each field a name and a
//      reader, required or optional. Unknown fields get a did-you-mean (core/suggest.h), repeated
//      ones name the line of the first, missing required ones are reported at the mapping. Typed
//      readers (text, integer, number, duration, size, speed, choice) check the type and the range
//      where the value is read and name the field's unit and limits; a value that fails is never
//      returned, so nothing downstream sees NaN, infinity or an overflowed integer.
//
// Every problem is a Diagnostic at file:line:column with the dotted field path
// (backend.oversubscription[0]); reading goes on after an error, so a file's problems are all
// reported at once, in the order they occur in the file. Values echoed in messages go through
// core/text.h excerpt(): at most kExcerptLength characters, control characters escaped.
#pragma once

#include <cstdint>
#include <memory>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/diagnostic.h"
#include "core/text.h"
#include "core/units.h"
#include "yaml/yaml_node.h"


namespace ct {

inline constexpr int kMaxYamlDepth = 64;                  // nested mappings and lists
inline constexpr std::size_t kMaxYamlNodes = 1'000'000;   // nodes, aliases expanded

// Offset of the first byte that does not belong to a well-formed UTF-8 sequence (overlong forms,
// surrogates and code points above U+10FFFF are ill-formed, RFC 3629 section 4), or npos.
std::size_t invalid_utf8_offset(std::string_view text);

// Limits of an integer field, in the field's unit ("nodes", "ns", "queue pairs"). A bound left at
// its default is no bound: a field whose lower bound is a design rule checked by validate() with
// its own message gives only the upper bound that keeps the value from overflowing where it is
// used (e.g. {.max = 1'000'000, .unit = "nodes"}).
struct IntegerRange {
  long long min = std::numeric_limits<long long>::min();
  long long max = std::numeric_limits<long long>::max();
  const char* unit = "";
};

// Limits of a real-valued field; an open lower bound excludes its value ((0, 1e6] is
// {.min = 0, .max = 1e6, .min_open = true}). Infinite bounds are no bounds; NaN and infinities are
// refused whatever the range.
struct NumberRange {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;
  const char* unit = "";
};

// "between 1 and 64 channels", "at most 1000000 nodes", "above 0 and at most 1e+06 us".
std::string describe_range(const IntegerRange& range);
std::string describe_range(const NumberRange& range);

class YamlReader {
 public:
  using Handler = std::function<void(const YamlNode& key, const YamlNode& value, const std::string& field)>;
  enum class Presence { kOptional, kRequired };
  // One row of a mapping's field table.
  struct Field {
    std::string_view name;
    Handler read;
    Presence presence = Presence::kOptional;
    std::string_view missing = {};  // what the field is, for "missing" messages ("" = generic)
  };
  using ItemReader = std::function<void(const YamlNode& item, const std::string& path)>;

  // How load() reads a text: the subset of YAML that the project's large files are written in
  // by the reader's own scanner (the same nodes as libyaml's, in a fraction of the time), anything
  // else by libyaml; or everything by libyaml (the tests that compare the two readings).
  enum class Syntax { kSubsetFirst, kLibyaml };

  explicit YamlReader(std::string file, Syntax syntax = Syntax::kSubsetFirst);

  // Step 1 above. nullopt when the text cannot be read as a whole (the reason is a diagnostic).
  // The nodes belong to this reader: they stay valid while it lives. Of a stream of several
  // documents, the first.
  std::optional<YamlNode> load(const std::string& text);
  // The same for a stream of documents separated by `---` (Kubernetes manifests), each checked as
  // above; a syntax error anywhere refuses the whole text.
  std::optional<std::vector<YamlNode>> load_all(const std::string& text);

  // Every key of `node` against `fields`, in file order. `owner` is the key that holds `node` (or
  // `node` itself for a list item or the root), where a missing or mistyped mapping is reported.
  // Returns false when `node` is not a mapping.
  bool mapping(const YamlNode& owner, const YamlNode& node, const std::string& path,
               const std::vector<Field>& fields);
  // Each item of a list with its path `field[i]`. Returns false when `value` is not a list.
  bool list(const YamlNode& key, const YamlNode& value, const std::string& field, const ItemReader& read,
            std::string_view expected = "a list");

  // ---- typed values: nullopt (and a diagnostic) when the value is not of the type or range ----
  std::optional<std::string> text(const YamlNode& key, const YamlNode& value, const std::string& field,
                                  bool non_empty = false);
  // Decimal; "+" allowed.
  std::optional<long long> integer(const YamlNode& key, const YamlNode& value, const std::string& field,
                                   const IntegerRange& range);
  // Decimal or 0x hexadecimal, 0 .. 2^64 - 1 (seeds).
  std::optional<std::uint64_t> unsigned64(const YamlNode& key, const YamlNode& value, const std::string& field);
  std::optional<double> number(const YamlNode& key, const YamlNode& value, const std::string& field,
                               const NumberRange& range);
  // core/units.h formats, each with its own limits.
  std::optional<TimePs> duration(const YamlNode& key, const YamlNode& value, const std::string& field);
  std::optional<Bytes> size(const YamlNode& key, const YamlNode& value, const std::string& field);
  std::optional<BitsPerSecond> speed(const YamlNode& key, const YamlNode& value, const std::string& field);
  // One of the names of `options`, with did-you-mean.
  template <typename E>
  std::optional<E> choice(const YamlNode& key, const YamlNode& value, const std::string& field,
                          const std::vector<std::pair<std::string_view, E>>& options) {
    std::vector<std::string> names;
    for (const auto& [name, e] : options) names.emplace_back(name);
    const auto index = choice_index(key, value, field, names);
    if (!index) return std::nullopt;
    return options[*index].second;
  }
  std::optional<std::size_t> choice_index(const YamlNode& key, const YamlNode& value, const std::string& field,
                                          const std::vector<std::string>& names);

  // ---- locations and diagnostics ----
  [[nodiscard]] SourceLocation at(const YamlNode& node) const;
  // A value's location; an empty value has none of its own (libyaml marks where the next token
  // begins), so its key stands in.
  [[nodiscard]] SourceLocation at(const YamlNode& key, const YamlNode& value) const;
  // "a mapping", "a list", "nothing" or the scalar, echoed.
  [[nodiscard]] static std::string describe(const YamlNode& node);
  // "the quoted string "x"" for a quoted scalar, describe() otherwise.
  [[nodiscard]] static std::string describe_value(const YamlNode& node);

  void error(SourceLocation where, std::string field, std::string message);
  void error(const YamlNode& key, const YamlNode& value, const std::string& field, std::string message);

  // Whether the last load() read its text by the reader's own scanner (Syntax::kSubsetFirst).
  [[nodiscard]] bool read_by_subset() const { return read_by_subset_; }

  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] Diagnostics& errors() { return errors_; }
  [[nodiscard]] Diagnostics take_errors() { return std::move(errors_); }

 private:
  bool plain_scalar(const YamlNode& key, const YamlNode& value, const std::string& field, const char* expected);
  // `check_utf8`: whether the scalars may hold bytes that are not UTF-8 (the text did).
  void check_tree(const YamlNode& root, bool check_utf8);
  bool check_characters(const std::string& text, std::size_t control);
  // The documents of `text` (the first only unless `all`), each walked by check_tree; nullopt
  // after a diagnostic.
  std::optional<std::vector<YamlNode>> parse_checked(const std::string& text, bool all);
  // The documents `roots` of `tree`, kept by this reader once check_tree has walked them
  // (`aliases`: whether a node of the tree is shared).
  std::optional<std::vector<YamlNode>> checked(std::unique_ptr<YamlTree> tree, const std::vector<std::uint32_t>& roots,
                                               bool check_utf8, bool aliases);

  std::string file_;
  Syntax syntax_ = Syntax::kSubsetFirst;
  bool read_by_subset_ = false;
  Diagnostics errors_;
  std::vector<std::unique_ptr<YamlTree>> trees_;  // what load() built; the nodes point into them
};

// "a.b" or "b" when the path is empty.
std::string join_field(const std::string& path, std::string_view name);

}  // namespace ct
