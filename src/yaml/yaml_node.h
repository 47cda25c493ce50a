// The project's YAML node: what the one reader (yaml/yaml_reader.h) builds from libyaml's events.
//
// A YamlNode is a handle (a tree and an index, 16 bytes, copied freely) to one node of a tree that
// the YamlReader which loaded it owns: it stays valid while that reader lives. A node is null,
// a scalar, a sequence or a mapping (or undefined: the handle of no node, what a look-up that
// finds nothing gives). Each keeps the line and column (1-based; the column counts bytes) where
// it is written, a scalar its text and whether it was quoted, a sequence its items and a mapping
// its keys and values, both in file order. An alias is the node of its anchor, shared: a tree
// holds each written node once, however often aliases name it (the reader bounds the expanded
// count, kMaxYamlNodes).
//
// YAML 1.2's core schema, as the project reads it: a plain scalar "", "~", "null", "Null" or
// "NULL" (and an empty value) is null; every other scalar is text, read as a number, a size or a
// bool by the field that wants one (yaml/yaml_reader.h's typed readers), never guessed here. A
// quoted or block scalar (and one tagged "!") is never null and never a number: its tag() is "!".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ct {

class YamlNode;
template <bool kEntries>
class YamlRange;

// The nodes of one document stream, flat: children of a node are a contiguous run of `children`
// (a mapping's are key, value, key, value, ...). Built by the reader only.
struct YamlTree {
  enum class Kind : std::uint8_t { kUndefined, kNull, kScalar, kSequence, kMapping };
  struct Data {
    Kind kind = Kind::kUndefined;
    int line = 0;
    int column = 0;
    std::uint32_t text = 0;   // scalar: index into texts; else 0 ("")
    std::uint32_t tag = 0;    // index into tags: 0 "?" (plain, untagged), 1 "!" (quoted), or explicit
    std::uint32_t begin = 0;  // first child in `children`
    std::uint32_t count = 0;  // children (a mapping: twice its entries)
  };
  std::vector<Data> nodes;
  std::vector<std::uint32_t> children;
  std::vector<std::string> texts{std::string()};
  std::vector<std::string> tags{"?", "!"};
};

class YamlNode {
 public:
  using Kind = YamlTree::Kind;

  YamlNode() = default;  // undefined
  YamlNode(const YamlTree* tree, std::uint32_t index) : tree_(tree), index_(index) {}

  [[nodiscard]] Kind kind() const { return tree_ == nullptr ? Kind::kUndefined : data().kind; }
  [[nodiscard]] bool is_defined() const { return kind() != Kind::kUndefined; }
  [[nodiscard]] bool is_null() const { return kind() == Kind::kNull; }
  [[nodiscard]] bool is_scalar() const { return kind() == Kind::kScalar; }
  [[nodiscard]] bool is_sequence() const { return kind() == Kind::kSequence; }
  [[nodiscard]] bool is_mapping() const { return kind() == Kind::kMapping; }
  explicit operator bool() const { return is_defined(); }

  // A scalar's text; "" for every other node.
  [[nodiscard]] const std::string& scalar() const {
    return tree_ == nullptr ? empty_text() : tree_->texts[data().text];
  }
  // "!" for a quoted or block scalar, "?" for a plain one and an untagged collection, else the
  // explicit tag as written and resolved ("tag:yaml.org,2002:str" for !!str).
  [[nodiscard]] const std::string& tag() const { return tree_ == nullptr ? empty_text() : tree_->tags[data().tag]; }
  [[nodiscard]] bool quoted() const { return tree_ != nullptr && data().tag == 1; }
  // 1-based; 0 for an undefined node.
  [[nodiscard]] int line() const { return tree_ == nullptr ? 0 : data().line; }
  [[nodiscard]] int column() const { return tree_ == nullptr ? 0 : data().column; }

  // A sequence's items or a mapping's entries; 0 for every other node.
  [[nodiscard]] std::size_t size() const {
    if (tree_ == nullptr) return 0;
    const auto& d = data();
    return d.kind == Kind::kMapping ? d.count / 2 : d.count;
  }
  // The i-th item of a sequence; undefined past the end or on another node.
  [[nodiscard]] YamlNode operator[](std::size_t i) const {
    if (!is_sequence() || i >= data().count) return {};
    return child(data().begin + static_cast<std::uint32_t>(i));
  }
  // The value of the first scalar key `key` of a mapping; undefined when there is none.
  [[nodiscard]] YamlNode operator[](std::string_view key) const {
    if (!is_mapping()) return {};
    const auto& d = data();
    for (std::uint32_t i = 0; i < d.count; i += 2) {
      const YamlNode k = child(d.begin + i);
      if (k.is_scalar() && k.scalar() == key) return child(d.begin + i + 1);
    }
    return {};
  }
  // The i-th entry of a mapping.
  [[nodiscard]] YamlNode key(std::size_t i) const { return child(data().begin + 2 * static_cast<std::uint32_t>(i)); }
  [[nodiscard]] YamlNode value(std::size_t i) const { return child(data().begin + 2 * static_cast<std::uint32_t>(i) + 1); }

  // Ranges for range-for: items() gives each item of a sequence, entries() each (key, value) of a
  // mapping as a std::pair (.first, .second); both are empty on every other node.
  [[nodiscard]] YamlRange<false> items() const;
  [[nodiscard]] YamlRange<true> entries() const;

  // The same node of the same tree (an alias and its anchor are the same node).
  bool operator==(const YamlNode& other) const { return tree_ == other.tree_ && index_ == other.index_; }

 private:
  [[nodiscard]] const YamlTree::Data& data() const { return tree_->nodes[index_]; }
  [[nodiscard]] YamlNode child(std::uint32_t at) const { return {tree_, tree_->children[at]}; }
  static const std::string& empty_text() {
    static const std::string kEmpty;
    return kEmpty;
  }

  const YamlTree* tree_ = nullptr;
  std::uint32_t index_ = 0;
};

template <bool kEntries>
class YamlRange {
 public:
  class Iterator {
   public:
    Iterator(const YamlTree* tree, std::uint32_t at) : tree_(tree), at_(at) {}
    auto operator*() const {
      if constexpr (kEntries) {
        return std::pair<YamlNode, YamlNode>(YamlNode(tree_, tree_->children[at_]),
                                             YamlNode(tree_, tree_->children[at_ + 1]));
      } else {
        return YamlNode(tree_, tree_->children[at_]);
      }
    }
    Iterator& operator++() {
      at_ += kEntries ? 2 : 1;
      return *this;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    const YamlTree* tree_;
    std::uint32_t at_;
  };
  YamlRange(const YamlTree* tree, std::uint32_t begin, std::uint32_t count) : tree_(tree), begin_(begin), count_(count) {}
  [[nodiscard]] Iterator begin() const { return {tree_, begin_}; }
  [[nodiscard]] Iterator end() const { return {tree_, begin_ + count_}; }

 private:
  const YamlTree* tree_;
  std::uint32_t begin_;
  std::uint32_t count_;
};

inline YamlRange<false> YamlNode::items() const {
  if (!is_sequence()) return {nullptr, 0, 0};
  return {tree_, data().begin, data().count};
}

inline YamlRange<true> YamlNode::entries() const {
  if (!is_mapping()) return {nullptr, 0, 0};
  return {tree_, data().begin, data().count};
}

}  // namespace ct
