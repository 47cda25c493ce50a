#include "yaml/yaml_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

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
    const std::size_t length = utf8_sequence(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::string join_field(const std::string& path, std::string_view name) {
  return path.empty() ? std::string(name) : path + "." + std::string(name);
}

YamlReader::YamlReader(std::string file) : file_(std::move(file)) {}

// ---- locations and diagnostics ----

SourceLocation YamlReader::at(const YAML::Mark& mark) const {
  if (mark.is_null() || mark.line < 0) return {file_, 0, 0};
  return {file_, mark.line + 1, mark.column + 1};
}

SourceLocation YamlReader::at(const YAML::Node& node) const {
  return node.IsDefined() ? at(node.Mark()) : SourceLocation{file_, 0, 0};
}

SourceLocation YamlReader::at(const YAML::Node& key, const YAML::Node& value) const {
  return !value.IsDefined() || value.IsNull() ? at(key) : at(value);
}

std::string YamlReader::describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "'" + excerpt(node.Scalar()) + "'";
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: break;
  }
  return "nothing";
}

std::string YamlReader::describe_value(const YAML::Node& node) {
  if (node.IsScalar() && node.Tag() == "!") return "the quoted string \"" + excerpt(node.Scalar()) + "\"";
  return describe(node);
}

void YamlReader::error(SourceLocation where, std::string field, std::string message) {
  errors_.push_back(Diagnostic{std::move(where), std::move(field), std::move(message), Severity::kError});
}

void YamlReader::error(const YAML::Node& key, const YAML::Node& value, const std::string& field, std::string message) {
  error(at(key, value), field, std::move(message));
}

// ---- loading ----

// The line and column (1-based; the column counts bytes) of text[offset].
SourceLocation YamlReader::at_offset(const std::string& text, std::size_t offset) const {
  const auto line_start = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  const std::size_t column = offset - (line_start == std::string::npos ? 0 : line_start + 1);
  const auto lines = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  return {file_, static_cast<int>(lines) + 1, static_cast<int>(column) + 1};
}

// YAML 1.2 section 5.1: a stream holds printable characters only; of the C0 controls, tab, line
// feed and carriage return. yaml-cpp reads a NUL as the end of a scalar or as an escape, so the
// byte is refused here, by name, where it is.
bool YamlReader::check_characters(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') continue;
    error(at_offset(text, i), "",
          c == 0 ? std::string("a NUL byte (0x00): YAML text cannot contain NUL; is this a binary or UTF-16 file?")
                 : fmt::format("a control character (byte 0x{:02X}): YAML text allows only tab, line feed and carriage return "
                               "among control characters (YAML 1.2 section 5.1)",
                               c));
    return false;
  }
  return true;
}

namespace {

// Where nesting first goes past kMaxYamlDepth in flow style ('[' and '{' outside quotes and
// comments), or npos: the place to blame when yaml-cpp's own depth guard stops the parse, since
// its mark is where its scanner had got to, often the end of the line.
std::size_t flow_depth_offset(const std::string& text) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')) {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (c == '"' && text[i] == '\\') ++i;
      }
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxYamlDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string::npos;
}

}  // namespace

void YamlReader::syntax_error(const std::string& text, const YAML::Exception& e) {
  if (!e.mark.is_null() && e.mark.pos >= 0 && static_cast<std::size_t>(e.mark.pos) >= text.size()) {
    // Just after the last character that is not white space: where a truncated file stops,
    // rather than the empty line after its final newline.
    const auto last = text.find_last_not_of(" \t\r\n");
    SourceLocation where{file_, 1, 1};
    if (last != std::string::npos) {
      const auto line_start = text.rfind('\n', last);
      where.column = static_cast<int>(last - (line_start == std::string::npos ? 0 : line_start + 1) + 2);
      where.line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(last), '\n') + 1);
    }
    error(where, "", "YAML syntax error: " + e.msg + " before the end of the file");
  } else {
    error(at(e.mark), "", "YAML syntax error: " + e.msg);
  }
}

std::optional<std::vector<YAML::Node>> YamlReader::parse_checked(
    const std::string& text, const std::function<std::vector<YAML::Node>()>& parse) {
  std::vector<YAML::Node> documents;
  if (!check_characters(text)) return std::nullopt;
  try {
    documents = parse();
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's recursive parser stops itself (no stack overflow) far below what would
    // overflow; the walk below would refuse anything past kMaxYamlDepth anyway.
    const std::size_t flow = flow_depth_offset(text);
    const SourceLocation where = flow != std::string::npos ? at_offset(text, flow) : at(e.mark);
    const std::size_t from = std::min(text.size(), flow != std::string::npos ? flow : static_cast<std::size_t>(std::max(0, e.mark.pos)));
    // What is there: the line from that place on, or the whole line when nothing follows.
    const std::size_t line_end = std::min(text.find('\n', from), text.size());
    const std::size_t line_start = from == 0 ? 0 : text.rfind('\n', from - 1) + 1;  // npos + 1 = 0
    std::string_view here = trim(std::string_view(text).substr(from, line_end - from));
    if (here.empty()) here = trim(std::string_view(text).substr(line_start, line_end - line_start));
    error(where, "",
          fmt::format("nested deeper than {} levels (the parser gave up at {} levels; here: '{}'); refused", kMaxYamlDepth,
                      e.depth(), excerpt(here.substr(0, 20))));
    return std::nullopt;
  } catch (const YAML::Exception& e) {
    syntax_error(text, e);
    return std::nullopt;
  }
  const std::size_t before = errors_.size();
  for (const YAML::Node& document : documents) check_tree(document);
  if (errors_.size() > before) return std::nullopt;
  return documents;
}

std::optional<YAML::Node> YamlReader::load(const std::string& text) {
  auto documents = parse_checked(text, [&] { return std::vector<YAML::Node>{YAML::Load(text)}; });
  if (!documents) return std::nullopt;
  return documents->front();
}

std::optional<std::vector<YAML::Node>> YamlReader::load_all(const std::string& text) {
  return parse_checked(text, [&] { return YAML::LoadAll(text); });
}

// Depth, node count (aliases expanded), UTF-8 of every scalar and keys written twice in a mapping,
// in one walk that stops at the first bound crossed. The path of keys is kept as indices and
// pointers to the keys' text, and spelled out only for a diagnostic; the keys of the mappings
// being walked are one stack (a mapping's own keys are the top of it while it is walked), so the
// walk allocates nothing per node.
void YamlReader::check_tree(const YAML::Node& root) {
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
  const auto check_scalar = [&](const YAML::Node& n) {
    const std::string& s = n.Scalar();
    if (const std::size_t bad = invalid_utf8_offset(s); bad != std::string_view::npos) {
      error(at(n), path_text(),
            fmt::format("invalid UTF-8 (byte 0x{:02X} at offset {} of '{}'): YAML files must be UTF-8",
                        static_cast<unsigned char>(s[bad]), bad, excerpt(s)));
    }
  };
  std::function<void(const YAML::Node&, int)> walk = [&](const YAML::Node& n, int depth) {
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
    if (n.IsScalar()) {
      check_scalar(n);
    } else if (n.IsSequence()) {
      std::size_t i = 0;
      for (const YAML::Node& item : n) {
        if (stop) break;
        path.push_back({i++, nullptr});
        walk(item, depth + 1);
        path.pop_back();
      }
    } else if (n.IsMap()) {
      const std::size_t own = keys.size();
      std::unordered_map<std::string_view, int> many;  // this mapping's keys, once there are many
      for (const auto& entry : n) {
        if (stop) break;
        const YAML::Node& key = entry.first;
        if (key.IsScalar()) {
          check_scalar(key);
          path.push_back({0, &key.Scalar()});
          const std::string_view k = key.Scalar();
          const int line = key.Mark().line + 1;
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

bool YamlReader::mapping(const YAML::Node& owner, const YAML::Node& node, const std::string& path,
                         const std::vector<Field>& fields) {
  if (!node.IsMap()) {
    error(owner, node, path, "expected a mapping of fields, got " + describe(node));
    return false;
  }
  std::vector<std::string> names;
  for (const auto& f : fields) names.emplace_back(f.name);
  std::vector<bool> written(fields.size(), false);
  std::map<std::string, int, std::less<>> seen;  // field -> line where first written
  for (const auto& entry : node) {
    const YAML::Node key = entry.first;
    if (!key.IsScalar()) {
      error(at(key), path, "expected a field name, got " + describe(key));
      continue;
    }
    const std::string& name = key.Scalar();
    const auto match = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return name == f.name; });
    if (match == fields.end()) {
      error(at(key), join_field(path, excerpt(name)), "unknown field" + did_you_mean(name, names));
      continue;
    }
    const std::string field = join_field(path, name);
    const SourceLocation where = at(key);
    if (auto [first, inserted] = seen.emplace(name, where.line); !inserted) {
      error(where, field, fmt::format("field written twice (first at line {})", first->second));
      continue;
    }
    written[static_cast<std::size_t>(match - fields.begin())] = true;
    match->read(key, entry.second, field);
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (written[i] || fields[i].presence != Presence::kRequired) continue;
    error(at(node), join_field(path, fields[i].name),
          fields[i].missing.empty() ? std::string("missing required field")
                                    : "missing: " + std::string(fields[i].missing));
  }
  return true;
}

bool YamlReader::list(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                      const ItemReader& read, std::string_view expected) {
  if (!value.IsSequence()) {
    error(key, value, field, fmt::format("expected {}, got {}", expected, describe(value)));
    return false;
  }
  for (std::size_t i = 0; i < value.size(); ++i) read(value[i], fmt::format("{}[{}]", field, i));
  return true;
}

// ---- typed values ----

bool YamlReader::plain_scalar(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                              const char* expected) {
  if (value.IsScalar() && value.Tag() != "!") return true;
  error(key, value, field, fmt::format("expected {}, got {}", expected, describe_value(value)));
  return false;
}

std::optional<std::string> YamlReader::text(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                                            bool non_empty) {
  if (!value.IsScalar() || (non_empty && value.Scalar().empty())) {
    error(key, value, field,
          fmt::format("expected {}, got {}", non_empty ? "a non-empty text value" : "a text value",
                      value.IsScalar() ? std::string("an empty text") : describe(value)));
    return std::nullopt;
  }
  // load() checked every scalar; a tree built otherwise is checked here.
  if (invalid_utf8_offset(value.Scalar()) != std::string_view::npos) {
    error(key, value, field, fmt::format("invalid UTF-8 in '{}'", excerpt(value.Scalar())));
    return std::nullopt;
  }
  return value.Scalar();
}

std::optional<long long> YamlReader::integer(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                                             const IntegerRange& range) {
  if (!plain_scalar(key, value, field, "an integer")) return std::nullopt;
  const std::string& s = value.Scalar();
  const char* begin = s.data() + (s.starts_with('+') ? 1 : 0);
  const char* end = s.data() + s.size();
  long long v = 0;
  auto [ptr, ec] = std::from_chars(begin, end, v, 10);
  const std::string limits = describe_range(range);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    error(at(value), field, fmt::format("must be {}, got {}", limits, excerpt(s)));
    return std::nullopt;
  }
  if (ec != std::errc() || ptr != end || begin == end) {
    error(at(value), field, "expected an integer, got '" + excerpt(s) + "'");
    return std::nullopt;
  }
  if (v < range.min || v > range.max) {
    error(at(value), field, fmt::format("must be {}, got {}", limits, v));
    return std::nullopt;
  }
  return v;
}

std::optional<std::uint64_t> YamlReader::unsigned64(const YAML::Node& key, const YAML::Node& value,
                                                    const std::string& field) {
  if (!plain_scalar(key, value, field, "an integer")) return std::nullopt;
  const std::string& s = value.Scalar();
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

std::optional<double> YamlReader::number(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                                         const NumberRange& range) {
  if (!plain_scalar(key, value, field, "a number")) return std::nullopt;
  const std::string& s = value.Scalar();
  const char* begin = s.data() + (s.starts_with('+') ? 1 : 0);
  const char* end = s.data() + s.size();
  double v = 0;
  auto [ptr, ec] = std::from_chars(begin, end, v);
  const std::string limits = describe_range(range);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    // Too large or too small for a double (1e999, 1e-999): outside any range we accept unless 0 is.
    error(at(value), field, fmt::format("must be {}, got {}", limits, excerpt(s)));
    return std::nullopt;
  }
  if (ec != std::errc() || ptr != end || begin == end || !std::isfinite(v)) {
    error(at(value), field, "expected a number, got '" + excerpt(s) + "'");
    return std::nullopt;
  }
  if ((range.min_open ? !(v > range.min) : !(v >= range.min)) || !(v <= range.max)) {
    error(at(value), field, fmt::format("must be {}, got {}", limits, v));
    return std::nullopt;
  }
  return v;
}

namespace {

// A value in one of core/units.h's formats: a scalar, parsed by `parse` with its own limits.
template <typename T>
std::optional<T> unit_value(YamlReader& r, const YAML::Node& key, const YAML::Node& value, const std::string& field,
                            const char* expected, Result<T> (*parse)(std::string_view)) {
  if (!value.IsScalar()) {
    r.error(key, value, field, std::string("expected ") + expected + ", got " + YamlReader::describe(value));
    return std::nullopt;
  }
  auto parsed = parse(value.Scalar());
  if (!parsed) {
    r.error(key, value, field, parsed.errors().front().message);
    return std::nullopt;
  }
  return parsed.value();
}

}  // namespace

std::optional<TimePs> YamlReader::duration(const YAML::Node& key, const YAML::Node& value, const std::string& field) {
  return unit_value(*this, key, value, field, "a duration such as 250us, 1.5ms or 2s", &parse_duration);
}

std::optional<Bytes> YamlReader::size(const YAML::Node& key, const YAML::Node& value, const std::string& field) {
  return unit_value(*this, key, value, field, "a size such as 1GiB, 64KB or 1048576", &parse_size);
}

std::optional<BitsPerSecond> YamlReader::speed(const YAML::Node& key, const YAML::Node& value,
                                               const std::string& field) {
  return unit_value(*this, key, value, field, "a speed such as 800G or 1.6T", &parse_speed);
}

std::optional<std::size_t> YamlReader::choice_index(const YAML::Node& key, const YAML::Node& value,
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
