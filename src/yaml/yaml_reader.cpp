#include "yaml/yaml_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>
#include <yaml.h>

#include "core/suggest.h"
#include "core/text.h"

namespace ct {
namespace {


std::string with_unit(const std::string& number, const char* unit) {
  return unit[0] == '\0' ? number : number + " " + unit;
}

template <typename T>
std::string range_text(T min, T max, bool has_min, bool has_max, bool min_open, const char* unit) {
  const std::string lo = fmt::format("{}", min);
  const std::string hi = with_unit(fmt::format("{}", max), unit);
  if (has_min && has_max) {
    return min_open ? fmt::format("above {} and at most {}", lo, hi) : fmt::format("between {} and {}", lo, hi);
  }
  if (has_max) return "at most " + hi;
  return (min_open ? "above " : "at least ") + with_unit(lo, unit);
}

}  // namespace

std::string describe_range(const IntegerRange& r) {
  return range_text(r.min, r.max, r.min != std::numeric_limits<long long>::min(),
                    r.max != std::numeric_limits<long long>::max(), false, r.unit);
}

std::string describe_range(const NumberRange& r) {
  return range_text(r.min, r.max, std::isfinite(r.min), std::isfinite(r.max), r.min_open, r.unit);
}

std::size_t invalid_utf8_offset(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {  // ASCII, nearly every byte of our inputs
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::string join_field(const std::string& path, std::string_view name) {
  return path.empty() ? std::string(name) : path + "." + std::string(name);
}

YamlReader::YamlReader(std::string file, Syntax syntax) : file_(std::move(file)), syntax_(syntax) {}

// ---- locations and diagnostics ----

SourceLocation YamlReader::at(const YamlNode& node) const {
  return node.is_defined() ? SourceLocation{file_, node.line(), node.column()} : SourceLocation{file_, 0, 0};
}

SourceLocation YamlReader::at(const YamlNode& key, const YamlNode& value) const {
  return !value.is_defined() || value.is_null() ? at(key) : at(value);
}

std::string YamlReader::describe(const YamlNode& node) {
  switch (node.kind()) {
    case YamlNode::Kind::kMapping: return "a mapping";
    case YamlNode::Kind::kSequence: return "a list";
    case YamlNode::Kind::kScalar: return "'" + excerpt(node.scalar()) + "'";
    case YamlNode::Kind::kNull:
    case YamlNode::Kind::kUndefined: break;
  }
  return "nothing";
}

std::string YamlReader::describe_value(const YamlNode& node) {
  if (node.is_scalar() && node.quoted()) return "the quoted string \"" + excerpt(node.scalar()) + "\"";
  return describe(node);
}

void YamlReader::error(SourceLocation where, std::string field, std::string message) {
  errors_.push_back(Diagnostic{std::move(where), std::move(field), std::move(message), Severity::kError});
}

void YamlReader::error(const YamlNode& key, const YamlNode& value, const std::string& field, std::string message) {
  error(at(key, value), field, std::move(message));
}

// ---- loading ----

namespace {

// The line and column (1-based; the column counts bytes) of text[offset].
SourceLocation at_offset(const std::string& file, const std::string& text, std::size_t offset) {
  const auto line_start = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  const std::size_t column = offset - (line_start == std::string::npos ? 0 : line_start + 1);
  const auto lines = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  return {file, static_cast<int>(lines) + 1, static_cast<int>(column) + 1};
}

}  // namespace

// YAML 1.2 section 5.1: a stream holds printable characters only; of the C0 controls, tab, line
// feed and carriage return. A NUL would end libyaml's input or read as UTF-16, so the byte is
// refused here, by name, where it is (`control`: its offset, found by YamlText, or npos).
bool YamlReader::check_characters(const std::string& text, std::size_t control) {
  if (control == std::string::npos) return true;
  {
    const std::size_t i = control;
    const auto c = static_cast<unsigned char>(text[i]);
    error(at_offset(file_, text, i), "",
          c == 0 ? std::string("a NUL byte (0x00): YAML text cannot contain NUL; is this a binary or UTF-16 file?")
                 : fmt::format("a control character (byte 0x{:02X}): YAML text allows only tab, line feed and carriage return "
                               "among control characters (YAML 1.2 section 5.1)",
                               c));
    return false;
  }
}

namespace {

// The text libyaml reads, and how to turn its marks (line and column in characters, lines broken
// as libyaml breaks them: LF, CR LF, CR, NEL, LS, PS) into byte columns and offsets. libyaml
// refuses a byte that is not UTF-8 where it reads it, before the scalar it belongs to is known;
// each such byte is given to it as 'x' instead (one byte for one, so every mark stays where it
// was), and the scalars that held one get their bytes back (restore()), for the walk to name them
// in their scalar as it names every other bad scalar.
class YamlText {
 public:
  // One pass over the bytes: the first C0 control character but tab, LF and CR (control()), the
  // bytes that are not UTF-8, the line starts.
  explicit YamlText(const std::string& text) : original_(text) {
    line_starts_.push_back(0);
    bool ascii = true;
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
      // Eight bytes at a time while each is printable ASCII (0x20..0x7F): a byte below 0x20 sets
      // its top bit in w - 0x20.., one above 0x7F has it set in w; either stops the skip.
      while (i + 8 <= n) {
        std::uint64_t w = 0;
        std::memcpy(&w, text.data() + i, 8);
        if (((w - 0x2020202020202020ULL) | w) & 0x8080808080808080ULL) break;
        i += 8;
      }
      if (i >= n) break;
      const auto c = static_cast<unsigned char>(text[i]);
      if (c >= 0x20 && c < 0x80) continue;
      std::size_t next = 0;  // the start of the next line, when a break ends here
      if (c == '\n') {
        next = i + 1;
      } else if (c == '\r') {
        next = i + 1 < n && text[i + 1] == '\n' ? i + 2 : i + 1;
      } else if (c < 0x20) {
        if (c == '\t') continue;
        control_ = i;
        return;  // refused: nothing more is needed
      } else {
        ascii = false;
        const std::size_t length = utf8_sequence(text, i);
        if (length == 0) {
          replaced_.push_back(i);
          continue;
        }
        const auto c1 = static_cast<unsigned char>(text[i + 1]);
        if ((c == 0xC2 && c1 == 0x85) || (c == 0xE2 && c1 == 0x80 && (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xA8)) {
          next = i + length;  // NEL, LS, PS
        } else {
          i += length - 1;
          continue;
        }
      }
      ascii_.push_back(ascii);
      ascii = true;
      line_starts_.push_back(next);
      i = next - 1;
    }
    ascii_.push_back(ascii);
    if (!replaced_.empty()) {
      cleaned_ = text;
      for (const std::size_t at : replaced_) cleaned_[at] = 'x';
    }
  }

  // The offset of the first control character YAML refuses, or npos.
  [[nodiscard]] std::size_t control() const { return control_; }
  // Whether every byte is UTF-8 (then so is every scalar libyaml gives: it refuses escapes of
  // surrogates and of code points past U+10FFFF).
  [[nodiscard]] bool utf8() const { return replaced_.empty(); }
  // Whether every byte is ASCII.
  [[nodiscard]] bool ascii() const { return std::find(ascii_.begin(), ascii_.end(), false) == ascii_.end(); }
  [[nodiscard]] const std::string& parsed() const { return replaced_.empty() ? original_ : cleaned_; }
  [[nodiscard]] std::size_t size() const { return original_.size(); }

  // The byte offset of libyaml's mark (0-based line and character column).
  [[nodiscard]] std::size_t offset(const yaml_mark_t& mark) const {
    if (mark.line >= line_starts_.size()) return original_.size();
    const std::size_t start = line_starts_[mark.line];
    if (ascii_[mark.line]) return std::min(start + mark.column, original_.size());
    const std::string& t = parsed();
    std::size_t at = start;
    for (std::size_t c = 0; c < mark.column && at < t.size(); ++c) at += std::max<std::size_t>(1, utf8_sequence(t, at));
    return std::min(at, t.size());
  }
  // 1-based line and byte column.
  [[nodiscard]] std::pair<int, int> place(const yaml_mark_t& mark) const {
    const std::size_t line = std::min<std::size_t>(mark.line, line_starts_.size() - 1);
    return {static_cast<int>(line) + 1, static_cast<int>(offset(mark) - line_starts_[line]) + 1};
  }

  // What is written from `mark` to the end of its line, or the whole line when nothing is.
  [[nodiscard]] std::string_view here(const yaml_mark_t& mark) const {
    const std::string_view t = parsed();
    const std::size_t from = std::min(offset(mark), t.size());
    const std::size_t line_end = std::min(t.find('\n', from), t.size());
    std::string_view rest = trim(t.substr(from, line_end - from));
    if (rest.empty()) {
      const std::size_t line_start = from == 0 ? 0 : t.rfind('\n', from - 1) + 1;  // npos + 1 = 0
      rest = trim(t.substr(line_start, line_end - line_start));
    }
    return rest;
  }

  // A scalar written from `begin` to `end` that held a byte given to libyaml as 'x': its text as
  // written (the quotes of a quoted one left out).
  [[nodiscard]] std::optional<std::string> restore(const yaml_mark_t& begin, const yaml_mark_t& end,
                                                   yaml_scalar_style_t style) const {
    if (replaced_.empty()) return std::nullopt;
    const std::size_t from = offset(begin);
    const std::size_t to = offset(end);
    const auto it = std::lower_bound(replaced_.begin(), replaced_.end(), from);
    if (it == replaced_.end() || *it >= to) return std::nullopt;
    const bool quoted = style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    if (quoted && to - from >= 2) return original_.substr(from + 1, to - from - 2);
    return original_.substr(from, to - from);
  }

 private:
  const std::string& original_;
  std::string cleaned_;
  std::vector<std::size_t> replaced_;
  std::vector<std::size_t> line_starts_;
  std::vector<bool> ascii_;
  std::size_t control_ = std::string::npos;
};

// libyaml's parser, freed however the parse ends.
class EventParser {
 public:
  explicit EventParser(const std::string& text) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    yaml_parser_set_encoding(&parser_, YAML_UTF8_ENCODING);
  }
  ~EventParser() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  EventParser(const EventParser&) = delete;
  EventParser& operator=(const EventParser&) = delete;

  // The next event, or null after a syntax error.
  const yaml_event_t* next() {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = yaml_parser_parse(&parser_, &event_) != 0;
    return has_event_ ? &event_ : nullptr;
  }
  [[nodiscard]] const yaml_parser_t& state() const { return parser_; }

 private:
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
};

bool is_null_text(std::string_view s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

// Builds a YamlTree from the events, one node per event (an alias: its anchor's node again).
class TreeBuilder {
 public:
  struct Refusal {
    std::pair<int, int> place;
    std::string field;
    std::string message;
  };

  TreeBuilder(YamlTree& tree, const YamlText& text) : tree_(tree), text_(text) {}

  // Takes one event; a refusal stops the parse.
  std::optional<Refusal> take(const yaml_event_t& e) {
    switch (e.type) {
      case YAML_DOCUMENT_START_EVENT:
        anchors_.clear();
        break;
      case YAML_DOCUMENT_END_EVENT:
        if (!document_) document_ = add_node(e.start_mark, YamlTree::Kind::kNull, 0, 0);  // nothing in it
        documents.push_back(*document_);
        document_.reset();
        break;
      case YAML_SCALAR_EVENT: return scalar(e);
      case YAML_SEQUENCE_START_EVENT:
        return open(e, YamlTree::Kind::kSequence, e.data.sequence_start.anchor, e.data.sequence_start.tag);
      case YAML_MAPPING_START_EVENT:
        return open(e, YamlTree::Kind::kMapping, e.data.mapping_start.anchor, e.data.mapping_start.tag);
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: close(); break;
      case YAML_ALIAS_EVENT: {
        const std::string name(reinterpret_cast<const char*>(e.data.alias.anchor));
        const auto it = anchors_.find(name);
        if (it == anchors_.end()) {
          return Refusal{text_.place(e.start_mark), "", "YAML syntax error: unknown anchor '" + excerpt(name) + "'"};
        }
        attach(it->second);
        aliases = true;
        break;
      }
      default: break;
    }
    return std::nullopt;
  }

  std::vector<std::uint32_t> documents;
  bool aliases = false;  // whether a node is shared (then check_tree counts it as often as it is named)

 private:
  struct Open {
    std::uint32_t node;
    std::size_t first;  // its children so far: pending_[first..]
  };

  std::uint32_t add_node(const yaml_mark_t& mark, YamlTree::Kind kind, std::uint32_t text, std::uint32_t tag) {
    const auto [line, column] = text_.place(mark);
    tree_.nodes.push_back({kind, line, column, text, tag, 0, 0});
    return static_cast<std::uint32_t>(tree_.nodes.size() - 1);
  }

  std::uint32_t tag_index(const yaml_char_t* tag, std::uint32_t implicit) {
    if (tag == nullptr) return implicit;
    const std::string_view t(reinterpret_cast<const char*>(tag));
    for (std::uint32_t i = 0; i < tree_.tags.size(); ++i) {
      if (tree_.tags[i] == t) return i;
    }
    tree_.tags.emplace_back(t);
    return static_cast<std::uint32_t>(tree_.tags.size() - 1);
  }

  void name_anchor(const yaml_char_t* anchor, std::uint32_t node) {
    if (anchor != nullptr) anchors_[std::string(reinterpret_cast<const char*>(anchor))] = node;
  }

  // More than kMaxYamlDepth containers around a new node: refused there, with the path of keys.
  std::optional<Refusal> too_deep(const yaml_mark_t& mark) const {
    if (open_.size() <= static_cast<std::size_t>(kMaxYamlDepth)) return std::nullopt;
    std::string path;
    for (const Open& o : open_) {
      const std::size_t written = pending_.size() - o.first;
      if (tree_.nodes[o.node].kind == YamlTree::Kind::kSequence) {
        path += fmt::format("[{}]", written);
      } else {
        const YamlNode key(&tree_, written % 2 == 1 ? pending_.back() : 0);
        const std::string part = written % 2 == 1 && key.is_scalar() ? excerpt(key.scalar()) : "?";
        path += (path.empty() ? "" : ".") + part;
      }
    }
    return Refusal{text_.place(mark), excerpt(path),
                   fmt::format("nested deeper than {} levels (here: '{}'); refused", kMaxYamlDepth,
                               excerpt(text_.here(mark).substr(0, 20)))};
  }

  std::optional<Refusal> scalar(const yaml_event_t& e) {
    if (auto refusal = too_deep(e.start_mark)) return refusal;
    const auto& s = e.data.scalar;
    const std::string_view value(reinterpret_cast<const char*>(s.value), s.length);
    const bool plain = s.style == YAML_PLAIN_SCALAR_STYLE;
    const std::uint32_t tag = tag_index(s.tag, plain ? 0 : 1);
    std::uint32_t node = 0;
    if (s.tag == nullptr && plain && is_null_text(value)) {
      node = add_node(e.start_mark, YamlTree::Kind::kNull, 0, tag);
    } else {
      const auto restored = text_.restore(e.start_mark, e.end_mark, s.style);
      tree_.texts.emplace_back(restored ? std::string_view(*restored) : value);
      node = add_node(e.start_mark, YamlTree::Kind::kScalar, static_cast<std::uint32_t>(tree_.texts.size() - 1), tag);
    }
    name_anchor(s.anchor, node);
    attach(node);
    return std::nullopt;
  }

 public:
  // The same nodes from a reading that is not libyaml's (SubsetParser below): an untagged plain
  // scalar, a collection opened and closed, at a 1-based line and byte column.
  void plain_scalar_at(int line, int column, std::string_view value) {
    std::uint32_t node = 0;
    if (is_null_text(value)) {
      node = add_node_at(line, column, YamlTree::Kind::kNull, 0, 0);
    } else {
      tree_.texts.emplace_back(value);
      node = add_node_at(line, column, YamlTree::Kind::kScalar, static_cast<std::uint32_t>(tree_.texts.size() - 1), 0);
    }
    attach(node);
  }
  void open_at(int line, int column, YamlTree::Kind kind) {
    open_.push_back({add_node_at(line, column, kind, 0, 0), pending_.size()});
  }
  void close_open() { close(); }
  void end_document() {
    documents.push_back(*document_);
    document_.reset();
  }
  [[nodiscard]] std::size_t depth() const { return open_.size(); }

 private:
  std::uint32_t add_node_at(int line, int column, YamlTree::Kind kind, std::uint32_t text, std::uint32_t tag) {
    tree_.nodes.push_back({kind, line, column, text, tag, 0, 0});
    return static_cast<std::uint32_t>(tree_.nodes.size() - 1);
  }

  std::optional<Refusal> open(const yaml_event_t& e, YamlTree::Kind kind, const yaml_char_t* anchor,
                              const yaml_char_t* tag) {
    if (auto refusal = too_deep(e.start_mark)) return refusal;
    const std::uint32_t node = add_node(e.start_mark, kind, 0, tag_index(tag, 0));
    name_anchor(anchor, node);
    open_.push_back({node, pending_.size()});
    return std::nullopt;
  }

  void close() {
    const Open o = open_.back();
    open_.pop_back();
    YamlTree::Data& d = tree_.nodes[o.node];
    d.begin = static_cast<std::uint32_t>(tree_.children.size());
    d.count = static_cast<std::uint32_t>(pending_.size() - o.first);
    tree_.children.insert(tree_.children.end(), pending_.begin() + static_cast<std::ptrdiff_t>(o.first), pending_.end());
    pending_.resize(o.first);
    attach(o.node);
  }

  void attach(std::uint32_t node) {
    if (open_.empty()) {
      document_ = node;
    } else {
      pending_.push_back(node);
    }
  }

  YamlTree& tree_;
  const YamlText& text_;
  std::vector<Open> open_;
  std::vector<std::uint32_t> pending_;  // the children of the open containers, innermost last
  std::optional<std::uint32_t> document_;
  std::unordered_map<std::string, std::uint32_t> anchors_;
};


// A strict subset of YAML read without libyaml, for the large files of this project (a scenario's
// list of one-line flow mappings, 280 instructions a byte in libyaml's scanner): block mappings
// and sequences indented by spaces, one-line flow mappings, plain scalars on one line, comments.
// Its nodes are those libyaml's events give (the same places, texts and nulls; yaml_reader_test
// compares the two readings on the project's files and on thousands of mutations of them).
// Anything else -- quotes, anchors, aliases, tags, block scalars, flow sequences, a scalar folded
// over lines, an empty value, a document marker, a tab, a byte that is not printable ASCII, and
// every syntax error -- makes it give up, and libyaml reads the text from the start: the subset
// decides how fast a file is read, never what it means or which error it gets.
class SubsetParser {
 public:
  SubsetParser(const std::string& text, TreeBuilder& builder) : text_(text), builder_(builder) {}

  // False: the text is not in the subset (what was built is to be thrown away).
  bool parse() {
    if (!split_lines() || lines_.empty() || !block_node(-1) || at_ != lines_.size()) return false;
    builder_.end_document();
    return true;
  }

 private:
  using Kind = YamlTree::Kind;
  struct Line {
    const char* begin;  // the line's first byte
    const char* end;    // its line feed, or the end of the text
    int number;         // 1-based
    int indent;         // spaces before its first character
  };
  // Where a plain scalar stopped: at the end of the line or a comment, at ": ", at a flow
  // mapping's ',' or '}', or at something outside the subset.
  enum class Stop { kEnd, kColon, kFlow, kFail };
  struct Scan {
    const char* end;    // past the scalar's last character (spaces after it left out)
    const char* after;  // past the ':' of kColon; the ',' or '}' of kFlow
    Stop stop;
  };
  static constexpr std::ptrdiff_t kMaxKey = 1000;  // libyaml looks 1,024 characters ahead for ':', spaces included

  // The lines that hold more than spaces and a comment; false at a byte or a line outside the subset.
  bool split_lines() {
    const char* p = text_.data();
    const char* const end = p + text_.size();
    for (const char c : {'\t', '\r', '\x7f'}) {
      if (std::memchr(p, c, text_.size()) != nullptr) return false;
    }
    lines_.reserve(text_.size() / 32);
    for (int number = 1; p < end; ++number) {
      const char* eol = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      if (eol == nullptr) eol = end;
      const char* q = p;
      while (q < eol && *q == ' ') ++q;
      if (q < eol && *q != '#') {
        if (q == p && eol - p >= 3 && (std::memcmp(p, "---", 3) == 0 || std::memcmp(p, "...", 3) == 0)) return false;
        lines_.push_back({p, eol, number, static_cast<int>(q - p)});
      }
      p = eol + 1;
    }
    return true;
  }

  [[nodiscard]] bool more() const { return at_ < lines_.size(); }
  [[nodiscard]] const Line& line() const { return lines_[at_]; }
  [[nodiscard]] const char* first() const { return line().begin + line().indent; }
  [[nodiscard]] int column(const char* p) const { return static_cast<int>(p - line().begin) + 1; }
  [[nodiscard]] bool dash(const char* p) const { return *p == '-' && (p + 1 == line().end || p[1] == ' '); }
  // Nothing but spaces and a comment from `p` to the end of the line.
  [[nodiscard]] bool rest_empty(const char* p) const {
    const char* q = p;
    while (q < line().end && *q == ' ') ++q;
    return q == line().end || (*q == '#' && q > p);
  }
  void scalar(const char* p, const char* end) { builder_.plain_scalar_at(line().number, column(p), {p, static_cast<std::size_t>(end - p)}); }

  // What a byte may be in a plain scalar of the subset: kMiddle after its first byte (every
  // printable byte but the space, ": ", " #" and the flow indicators, handled apart), kStart first
  // as well (not an indicator of YAML 1.2 section 5.3; '-' only before a kMiddle byte).
  static constexpr std::uint8_t kMiddle = 1;
  static constexpr std::uint8_t kStart = 2;
  static constexpr std::array<std::uint8_t, 256> kPlainBytes = [] {
    std::array<std::uint8_t, 256> t{};
    for (int c = 0x21; c < 0x7F; ++c) t[static_cast<std::size_t>(c)] = kMiddle;
    for (const char c : std::string_view(":#,[]{}")) t[static_cast<unsigned char>(c)] = 0;
    for (int c = 0x21; c < 0x7F; ++c) {
      if (std::string_view("-?:,[]{}#&*!|>'\"%@`").find(static_cast<char>(c)) == std::string_view::npos) {
        t[static_cast<std::size_t>(c)] |= kStart;
      }
    }
    return t;
  }();
  static bool middle(char c) { return (kPlainBytes[static_cast<unsigned char>(c)] & kMiddle) != 0; }
  [[nodiscard]] bool starts_plain(const char* p) const {
    if ((kPlainBytes[static_cast<unsigned char>(*p)] & kStart) != 0) return true;
    return *p == '-' && p + 1 < line().end && middle(p[1]);
  }

  // The plain scalar that begins at `p` (in a flow mapping when `flow`), on this line.
  [[nodiscard]] Scan scan(const char* p, bool flow) const {
    const Scan fail{p, p, Stop::kFail};
    const char* const e = line().end;
    if (p == e || !starts_plain(p)) return fail;
    for (const char* q = p + 1;;) {
      if (q == e) return {q, q, Stop::kEnd};
      if (*q == ' ') {
        const char* r = q;
        while (r < e && *r == ' ') ++r;
        if (r == e || *r == '#') return {q, r, Stop::kEnd};
        if (*r == ':' && (r + 1 == e || r[1] == ' ')) return {q, r + 1, Stop::kColon};
        if (flow && (*r == ',' || *r == '}')) return {q, r, Stop::kFlow};
        if (!middle(*r)) return fail;
        q = r + 1;
      } else if (*q == ':') {
        return q + 1 == e || q[1] == ' ' ? Scan{q, q + 1, Stop::kColon} : fail;
      } else if (flow && (*q == ',' || *q == '}')) {
        return {q, q, Stop::kFlow};
      } else if (!middle(*q)) {
        return fail;
      } else {
        ++q;
      }
    }
  }

  // A block collection on the lines from here, indented more than `parent`.
  bool block_node(int parent) {
    if (!more() || line().indent <= parent) return false;  // an empty value
    return dash(first()) ? sequence(line().indent) : mapping(line().indent, first());
  }

  // The items written "- " at indent `n`.
  bool sequence(int n) {
    if (builder_.depth() >= static_cast<std::size_t>(kMaxYamlDepth)) return false;
    builder_.open_at(line().number, n + 1, Kind::kSequence);
    while (more() && line().indent == n && dash(first())) {
      if (rest_empty(first() + 1)) return false;  // the item on the lines below
      const char* p = first() + 1;
      while (*p == ' ') ++p;
      if (!item(p)) return false;
    }
    if (more() && line().indent > n) return false;
    builder_.close_open();
    return true;
  }

  // A sequence item written at `p`: a flow mapping, a mapping whose first key is here, or a scalar.
  bool item(const char* p) {
    if (*p == '{') {
      const char* after = flow_mapping(p);
      if (after == nullptr || !rest_empty(after)) return false;
      ++at_;
      return true;
    }
    const Scan s = scan(p, false);
    if (s.stop == Stop::kColon) return mapping(static_cast<int>(p - line().begin), p);
    if (s.stop != Stop::kEnd) return false;
    scalar(p, s.end);
    ++at_;
    return true;
  }

  // The entries whose keys are at indent `m`, the first at `p`.
  bool mapping(int m, const char* p) {
    if (builder_.depth() >= static_cast<std::size_t>(kMaxYamlDepth)) return false;
    builder_.open_at(line().number, m + 1, Kind::kMapping);
    for (;;) {
      const Scan key = scan(p, false);
      if (key.stop != Stop::kColon || key.after - p > kMaxKey) return false;
      scalar(p, key.end);
      if (!value(m, key.after)) return false;
      if (!more() || line().indent < m) break;
      if (line().indent > m || dash(first())) return false;
      p = first();
    }
    builder_.close_open();
    return true;
  }

  // The value of a key of indent `m` whose ':' ends before `p`; on the next line after it.
  bool value(int m, const char* p) {
    const char* v = p;
    while (v < line().end && *v == ' ') ++v;
    if (v == line().end || *v == '#') {  // on the lines below (a '#' here follows a space)
      ++at_;
      if (more() && line().indent == m && dash(first())) return sequence(m);
      return block_node(m);
    }
    if (*v == '{') {
      const char* after = flow_mapping(v);
      if (after == nullptr || !rest_empty(after)) return false;
    } else {
      const Scan s = scan(v, false);
      if (s.stop != Stop::kEnd) return false;
      scalar(v, s.end);
    }
    ++at_;
    return true;
  }

  // The flow mapping whose '{' is at `p`, on this line: past its '}', or null.
  const char* flow_mapping(const char* p) {
    if (builder_.depth() >= static_cast<std::size_t>(kMaxYamlDepth)) return nullptr;
    builder_.open_at(line().number, column(p), Kind::kMapping);
    const char* const e = line().end;
    const auto skip = [&] {
      while (p < e && *p == ' ') ++p;
    };
    ++p;
    skip();
    if (p < e && *p == '}') {
      builder_.close_open();
      return p + 1;
    }
    for (;;) {
      const Scan key = scan(p, true);
      if (key.stop != Stop::kColon || key.after - p > kMaxKey) return nullptr;
      scalar(p, key.end);
      p = key.after;
      skip();
      const Scan value = scan(p, true);
      if (value.stop != Stop::kFlow) return nullptr;
      scalar(p, value.end);
      p = value.after;
      if (*p == '}') {
        builder_.close_open();
        return p + 1;
      }
      ++p;
      skip();
      if (p == e || *p == '}') return nullptr;  // a trailing comma, or the mapping goes on below
    }
  }

  const std::string& text_;
  TreeBuilder& builder_;
  std::vector<Line> lines_;
  std::size_t at_ = 0;  // the line being read
};

}  // namespace

namespace {

// libyaml's error as a diagnostic of `r`.
void syntax_error(YamlReader& r, const YamlText& source, const yaml_parser_t& parser) {
  const bool reader = parser.error == YAML_READER_ERROR;
  const std::string problem = parser.problem != nullptr ? parser.problem : "unreadable text";
  if (reader) {
    // libyaml's own character checks (a C1 control, DEL): at the byte, named.
    const std::size_t offset = std::min(parser.problem_offset, source.size());
    r.error(at_offset(r.file(), source.parsed(), offset), "",
          offset < source.size()
              ? fmt::format("{} (byte 0x{:02X}); refused", problem, static_cast<unsigned char>(source.parsed()[offset]))
              : problem);
    return;
  }
  std::string context;
  if (parser.context != nullptr) {
    const auto [line, column] = source.place(parser.context_mark);
    context = fmt::format(" ({} that began at line {}, column {})", parser.context, line, column);
  }
  const std::string message = "YAML syntax error: " + problem;
  if (source.offset(parser.problem_mark) >= source.size()) {
    // Just after the last character that is not white space: where a truncated file stops,
    // rather than the empty line after its final newline.
    const std::string& text = source.parsed();
    const auto last = text.find_last_not_of(" \t\r\n");
    SourceLocation where{r.file(), 1, 1};
    if (last != std::string::npos) {
      const auto line_start = text.rfind('\n', last);
      where.column = static_cast<int>(last - (line_start == std::string::npos ? 0 : line_start + 1) + 2);
      where.line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(last), '\n') + 1);
    }
    r.error(where, "", message + " before the end of the file" + context);
    return;
  }
  const auto [line, column] = source.place(parser.problem_mark);
  r.error({r.file(), line, column}, "", message + context);
}

}  // namespace

std::optional<std::vector<YamlNode>> YamlReader::parse_checked(const std::string& text, bool all) {
  const YamlText source(text);
  if (!check_characters(text, source.control())) return std::nullopt;
  auto tree = std::make_unique<YamlTree>();
  // About one node in eight to ten bytes in the inputs of this project (a scenario's flow
  // mappings: one in eight): room for one in four reserved, so that a large file's tree is not
  // moved as it grows (the pages not written are never touched).
  const auto reserve = [&] {
    tree->nodes.reserve(text.size() / 4);
    tree->texts.reserve(text.size() / 4);
    tree->children.reserve(text.size() / 4);
  };
  reserve();
  read_by_subset_ = false;
  if (!all && syntax_ == Syntax::kSubsetFirst && source.ascii()) {
    TreeBuilder subset(*tree, source);
    read_by_subset_ = SubsetParser(text, subset).parse();
    if (read_by_subset_) return checked(std::move(tree), subset.documents, false, false);
    *tree = YamlTree();
    reserve();
  }
  TreeBuilder builder(*tree, source);
  EventParser parser(source.parsed());
  for (;;) {
    const yaml_event_t* e = parser.next();
    if (e == nullptr) {
      syntax_error(*this, source, parser.state());
      return std::nullopt;
    }
    if (auto refusal = builder.take(*e)) {
      error({file_, refusal->place.first, refusal->place.second}, std::move(refusal->field), std::move(refusal->message));
      return std::nullopt;
    }
    if (e->type == YAML_STREAM_END_EVENT || (!all && !builder.documents.empty())) break;
  }
  if (builder.documents.empty() && !all) {  // an empty stream: one empty document
    tree->nodes.push_back({YamlTree::Kind::kNull, 1, 1, 0, 0, 0, 0});
    builder.documents.push_back(static_cast<std::uint32_t>(tree->nodes.size() - 1));
  }
  return checked(std::move(tree), builder.documents, !source.utf8(), builder.aliases);
}

namespace {

// Whether a mapping of `tree` has two scalar keys of the same text. A short mapping's keys are
// compared pairwise, a long one's sorted.
bool repeated_key(const YamlTree& tree) {
  constexpr std::uint32_t kPairwise = 16;  // keys
  std::vector<std::string_view> sorted;
  for (const YamlTree::Data& d : tree.nodes) {
    if (d.kind != YamlTree::Kind::kMapping) continue;
    const auto key = [&](std::uint32_t i) -> const YamlTree::Data& { return tree.nodes[tree.children[d.begin + 2 * i]]; };
    const std::uint32_t n = d.count / 2;
    if (n <= kPairwise) {
      for (std::uint32_t i = 1; i < n; ++i) {
        const YamlTree::Data& a = key(i);
        if (a.kind != YamlTree::Kind::kScalar) continue;
        for (std::uint32_t j = 0; j < i; ++j) {
          if (key(j).kind == YamlTree::Kind::kScalar && tree.texts[key(j).text] == tree.texts[a.text]) return true;
        }
      }
      continue;
    }
    sorted.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      if (key(i).kind == YamlTree::Kind::kScalar) sorted.emplace_back(tree.texts[key(i).text]);
    }
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return true;
  }
  return false;
}

}  // namespace

std::optional<std::vector<YamlNode>> YamlReader::checked(std::unique_ptr<YamlTree> tree,
                                                         const std::vector<std::uint32_t>& roots, bool check_utf8,
                                                         bool aliases) {
  std::vector<YamlNode> documents;
  documents.reserve(roots.size());
  for (const std::uint32_t d : roots) documents.emplace_back(tree.get(), d);
  // Without an alias every node is walked once: no more than the tree holds, no deeper than the
  // builder let it be, so the walk can find only a repeated key or a scalar that is not UTF-8;
  // when neither can be there, it is not taken (its diagnostics are those of a walk).
  const bool walk = check_utf8 || aliases || tree->nodes.size() > kMaxYamlNodes || repeated_key(*tree);
  trees_.push_back(std::move(tree));
  const std::size_t before = errors_.size();
  for (const YamlNode& document : documents) {
    if (walk) check_tree(document, check_utf8);
  }
  if (errors_.size() > before) return std::nullopt;
  return documents;
}

std::optional<YamlNode> YamlReader::load(const std::string& text) {
  auto documents = parse_checked(text, false);
  if (!documents) return std::nullopt;
  return documents->front();
}

std::optional<std::vector<YamlNode>> YamlReader::load_all(const std::string& text) {
  return parse_checked(text, true);
}

// Depth, node count (aliases expanded), UTF-8 of every scalar and keys written twice in a mapping,
// in one walk that stops at the first bound crossed. The path of keys is kept as indices and
// pointers to the keys' text, and spelled out only for a diagnostic; the keys of the mappings
// being walked are one stack (a mapping's own keys are the top of it while it is walked), so the
// walk allocates nothing per node.
void YamlReader::check_tree(const YamlNode& root, bool check_utf8) {
  std::size_t nodes = 0;
  bool stop = false;
  struct PathPart {
    std::size_t index = 0;
    const std::string* key = nullptr;  // null: a sequence index; else a mapping key's text
  };
  static const std::string kComplexKey = "?";
  std::vector<PathPart> path;
  std::vector<std::pair<std::string_view, int>> keys;  // scalar key -> line where first written
  constexpr std::size_t kScanned = 32;
  const auto path_text = [&] {
    std::string out;
    for (const PathPart& p : path) {
      if (p.key == nullptr) {
        out += fmt::format("[{}]", p.index);
      } else {
        out += (out.empty() ? "" : ".") + (p.key == &kComplexKey ? kComplexKey : excerpt(*p.key));
      }
    }
    return out;
  };
  const auto check_scalar = [&](const YamlNode& n) {
    if (!check_utf8) return;
    const std::string& s = n.scalar();
    if (const std::size_t bad = invalid_utf8_offset(s); bad != std::string_view::npos) {
      error(at(n), path_text(),
            fmt::format("invalid UTF-8 (byte 0x{:02X} at offset {} of '{}'): YAML files must be UTF-8",
                        static_cast<unsigned char>(s[bad]), bad, excerpt(s)));
    }
  };
  std::function<void(const YamlNode&, int)> walk = [&](const YamlNode& n, int depth) {
    if (stop) return;
    if (++nodes > kMaxYamlNodes) {
      error(at(n), path_text(),
            fmt::format("more than {} YAML nodes once aliases are expanded (an alias bomb?); refused", kMaxYamlNodes));
      stop = true;
      return;
    }
    if (depth > kMaxYamlDepth) {
      error(at(n), path_text(), fmt::format("nested deeper than {} levels; refused", kMaxYamlDepth));
      stop = true;
      return;
    }
    if (n.is_scalar()) {
      check_scalar(n);
    } else if (n.is_sequence()) {
      std::size_t i = 0;
      for (const YamlNode item : n.items()) {
        if (stop) break;
        path.push_back({i++, nullptr});
        walk(item, depth + 1);
        path.pop_back();
      }
    } else if (n.is_mapping()) {
      const std::size_t own = keys.size();
      std::unordered_map<std::string_view, int> many;  // this mapping's keys, once there are many
      for (const auto& entry : n.entries()) {
        if (stop) break;
        const YamlNode& key = entry.first;
        if (key.is_scalar()) {
          check_scalar(key);
          path.push_back({0, &key.scalar()});
          const std::string_view k = key.scalar();
          const int line = key.line();
          // A short mapping's keys are searched in the stack; past kScanned keys they are hashed.
          const auto own_begin = keys.begin() + static_cast<std::ptrdiff_t>(own);
          int first_line = 0;
          if (many.empty() && keys.size() - own < kScanned) {
            const auto it = std::find_if(own_begin, keys.end(), [&](const auto& e) { return e.first == k; });
            if (it != keys.end()) first_line = it->second;
          } else {
            if (many.empty()) many.insert(own_begin, keys.end());
            if (const auto it = many.find(k); it != many.end()) first_line = it->second;
          }
          if (first_line != 0) {
            error(at(key), path_text(), fmt::format("field written twice (first at line {})", first_line));
          } else if (many.empty()) {
            keys.emplace_back(k, line);
          } else {
            many.emplace(k, line);
          }
        } else {
          path.push_back({0, &kComplexKey});
          walk(key, depth + 1);
        }
        walk(entry.second, depth + 1);
        path.pop_back();
      }
      keys.resize(own);
    }
  };
  walk(root, 0);
}

// ---- structure ----

bool YamlReader::mapping(const YamlNode& owner, const YamlNode& node, const std::string& path,
                         const std::vector<Field>& fields) {
  if (!node.is_mapping()) {
    error(owner, node, path, "expected a mapping of fields, got " + describe(node));
    return false;
  }
  // The line where each field was first written (0: not yet), on the stack for a usual table.
  constexpr std::size_t kOnStack = 32;
  std::array<int, kOnStack> stack_lines{};
  std::vector<int> heap_lines;
  if (fields.size() > kOnStack) heap_lines.assign(fields.size(), 0);
  int* const first_line = fields.size() > kOnStack ? heap_lines.data() : stack_lines.data();
  std::string field;  // path.name; one buffer for every field of the mapping
  for (const auto& [key, value] : node.entries()) {
    if (!key.is_scalar()) {
      error(at(key), path, "expected a field name, got " + describe(key));
      continue;
    }
    const std::string& name = key.scalar();
    const auto match = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return name == f.name; });
    if (match == fields.end()) {
      std::vector<std::string> names;
      for (const auto& f : fields) names.emplace_back(f.name);
      error(at(key), join_field(path, excerpt(name)), "unknown field" + did_you_mean(name, names));
      continue;
    }
    field.assign(path);
    if (!path.empty()) field += '.';
    field += name;
    int& first = first_line[match - fields.begin()];
    if (first != 0) {
      error(at(key), field, fmt::format("field written twice (first at line {})", first));
      continue;
    }
    first = std::max(1, key.line());
    match->read(key, value, field);
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (first_line[i] != 0 || fields[i].presence != Presence::kRequired) continue;
    error(at(node), join_field(path, fields[i].name),
          fields[i].missing.empty() ? std::string("missing required field")
                                    : "missing: " + std::string(fields[i].missing));
  }
  return true;
}

bool YamlReader::list(const YamlNode& key, const YamlNode& value, const std::string& field,
                      const ItemReader& read, std::string_view expected) {
  if (!value.is_sequence()) {
    error(key, value, field, fmt::format("expected {}, got {}", expected, describe(value)));
    return false;
  }
  std::string path;  // field[i]; one buffer for every item
  std::size_t i = 0;
  for (const YamlNode item : value.items()) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, i++).ptr;
    path.assign(field).append(1, '[').append(digits, end).append(1, ']');
    read(item, path);
  }
  return true;
}

// ---- typed values ----

bool YamlReader::plain_scalar(const YamlNode& key, const YamlNode& value, const std::string& field,
                              const char* expected) {
  if (value.is_scalar() && !value.quoted()) return true;
  error(key, value, field, fmt::format("expected {}, got {}", expected, describe_value(value)));
  return false;
}

std::optional<std::string> YamlReader::text(const YamlNode& key, const YamlNode& value, const std::string& field,
                                            bool non_empty) {
  if (!value.is_scalar() || (non_empty && value.scalar().empty())) {
    error(key, value, field,
          fmt::format("expected {}, got {}", non_empty ? "a non-empty text value" : "a text value",
                      value.is_scalar() ? std::string("an empty text") : describe(value)));
    return std::nullopt;
  }
  // load() checked every scalar; a tree built otherwise is checked here.
  if (invalid_utf8_offset(value.scalar()) != std::string_view::npos) {
    error(key, value, field, fmt::format("invalid UTF-8 in '{}'", excerpt(value.scalar())));
    return std::nullopt;
  }
  return value.scalar();
}

std::optional<long long> YamlReader::integer(const YamlNode& key, const YamlNode& value, const std::string& field,
                                             const IntegerRange& range) {
  if (!plain_scalar(key, value, field, "an integer")) return std::nullopt;
  const std::string& s = value.scalar();
  const char* begin = s.data() + (s.starts_with('+') ? 1 : 0);
  const char* end = s.data() + s.size();
  long long v = 0;
  auto [ptr, ec] = std::from_chars(begin, end, v, 10);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    error(at(value), field, fmt::format("must be {}, got {}", describe_range(range), excerpt(s)));
    return std::nullopt;
  }
  if (ec != std::errc() || ptr != end || begin == end) {
    error(at(value), field, "expected an integer, got '" + excerpt(s) + "'");
    return std::nullopt;
  }
  if (v < range.min || v > range.max) {
    error(at(value), field, fmt::format("must be {}, got {}", describe_range(range), v));
    return std::nullopt;
  }
  return v;
}

std::optional<std::uint64_t> YamlReader::unsigned64(const YamlNode& key, const YamlNode& value,
                                                    const std::string& field) {
  if (!plain_scalar(key, value, field, "an integer")) return std::nullopt;
  const std::string& s = value.scalar();
  const bool hex = s.starts_with("0x") || s.starts_with("0X");
  const char* begin = s.data() + (hex ? 2 : 0);
  const char* end = s.data() + s.size();
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(begin, end, v, hex ? 16 : 10);
  if (begin == end || ec != std::errc() || ptr != end) {
    error(at(value), field,
          "expected a non-negative integer below 2^64 (decimal or 0x hexadecimal), got '" + excerpt(s) + "'");
    return std::nullopt;
  }
  return v;
}

std::optional<double> YamlReader::number(const YamlNode& key, const YamlNode& value, const std::string& field,
                                         const NumberRange& range) {
  if (!plain_scalar(key, value, field, "a number")) return std::nullopt;
  const std::string& s = value.scalar();
  const char* begin = s.data() + (s.starts_with('+') ? 1 : 0);
  const char* end = s.data() + s.size();
  double v = 0;
  auto [ptr, ec] = std::from_chars(begin, end, v);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    // Too large or too small for a double (1e999, 1e-999): outside any range we accept unless 0 is.
    error(at(value), field, fmt::format("must be {}, got {}", describe_range(range), excerpt(s)));
    return std::nullopt;
  }
  if (ec != std::errc() || ptr != end || begin == end || !std::isfinite(v)) {
    error(at(value), field, "expected a number, got '" + excerpt(s) + "'");
    return std::nullopt;
  }
  if ((range.min_open ? !(v > range.min) : !(v >= range.min)) || !(v <= range.max)) {
    error(at(value), field, fmt::format("must be {}, got {}", describe_range(range), v));
    return std::nullopt;
  }
  return v;
}

namespace {

// A value in one of core/units.h's formats: a scalar, parsed by `parse` with its own limits.
template <typename T>
std::optional<T> unit_value(YamlReader& r, const YamlNode& key, const YamlNode& value, const std::string& field,
                            const char* expected, Result<T> (*parse)(std::string_view)) {
  if (!value.is_scalar()) {
    r.error(key, value, field, std::string("expected ") + expected + ", got " + YamlReader::describe(value));
    return std::nullopt;
  }
  auto parsed = parse(value.scalar());
  if (!parsed) {
    r.error(key, value, field, parsed.errors().front().message);
    return std::nullopt;
  }
  return parsed.value();
}

}  // namespace

std::optional<TimePs> YamlReader::duration(const YamlNode& key, const YamlNode& value, const std::string& field) {
  return unit_value(*this, key, value, field, "a duration such as 250us, 1.5ms or 2s", &parse_duration);
}

std::optional<Bytes> YamlReader::size(const YamlNode& key, const YamlNode& value, const std::string& field) {
  return unit_value(*this, key, value, field, "a size such as 1GiB, 64KB or 1048576", &parse_size);
}

std::optional<BitsPerSecond> YamlReader::speed(const YamlNode& key, const YamlNode& value,
                                               const std::string& field) {
  return unit_value(*this, key, value, field, "a speed such as 800G or 1.6T", &parse_speed);
}

std::optional<std::size_t> YamlReader::choice_index(const YamlNode& key, const YamlNode& value,
                                                    const std::string& field, const std::vector<std::string>& names) {
  const auto name = text(key, value, field);
  if (!name) return std::nullopt;
  const auto it = std::find(names.begin(), names.end(), *name);
  if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  error(key, value, field, fmt::format("expected one of {}; got '{}'{}", list, excerpt(*name), did_you_mean(*name, names)));
  return std::nullopt;
}

}  // namespace ct
