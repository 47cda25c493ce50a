// The one seam between the frontend model and YAML: multi-document text in, a tree of nodes out,
// each node with the file:line:column it came from. The text is loaded by the project's reader (yaml/yaml_reader.h load_all: syntax errors,
// nesting depth, alias expansion and UTF-8 bounded and reported as for every other input); the
// manifests' own rules (unknown kinds skipped, unknown fields warned as kubectl does) read this
// tree (docs/architecture.md says why they do not use the reader's field tables). Nothing else in
// src/frontend/ reads YAML nodes.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/result.h"

namespace ct {

// A parsed YAML node: a scalar, a sequence or a mapping (keys in file order), with its location.
struct YamlValue {
  enum class Kind { kNull, kScalar, kSequence, kMapping };
  Kind kind = Kind::kNull;
  std::string scalar;
  std::vector<YamlValue> items;                              // sequence
  std::vector<std::pair<std::string, YamlValue>> entries;    // mapping, file order
  std::vector<SourceLocation> key_where;                     // mapping: where each key is
  SourceLocation where;

  [[nodiscard]] bool is_map() const { return kind == Kind::kMapping; }
  [[nodiscard]] bool is_seq() const { return kind == Kind::kSequence; }
  [[nodiscard]] bool is_scalar() const { return kind == Kind::kScalar; }
  // The value of `key` in a mapping, or nullptr.
  [[nodiscard]] const YamlValue* get(const std::string& key) const;
};

// Every document of `text` (documents that are empty or null are skipped). A syntax error is one
// diagnostic at its line and column.
Result<std::vector<YamlValue>> parse_yaml_documents(const std::string& text, const std::string& file);

}  // namespace ct
