#include "diagnose/gnmi_reader.h"

#include <charconv>
#include <vector>

#include <nlohmann/json.hpp>

namespace ct {
namespace {

// 9999-12-31T23:59:59.999Z in ns would overflow int64: gNMI timestamps are int64 ns, so any
// positive one is in range; this keeps the millisecond form in counter_reader's range.
constexpr std::int64_t kNsPerMs = 1'000'000;
constexpr std::size_t kMaxErrors = 20;  // a file that is not gnmic output at all stops here

struct Piece {
  std::string_view text;
  int line = 1;
};

// The top-level JSON values of `text`, one after the other (a gnmic subscribe stream), found by
// bracket depth outside strings. An unterminated value is returned as it is (the parser reports it).
std::vector<Piece> top_level_values(std::string_view text) {
  std::vector<Piece> out;
  int line = 1, depth = 0, start_line = 1;
  std::size_t start = 0;
  bool in_string = false, escape = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (escape) {
        escape = false;
      } else if (c == '\\') {
        escape = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (depth == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n')) continue;
    if (depth == 0) {
      start = i;
      start_line = line;
    }
    if (c == '"') {
      in_string = true;
      if (depth == 0) depth = -1;  // a bare string at top level: one value, handed to the parser
    } else if (c == '{' || c == '[') {
      depth = depth < 0 ? depth : depth + 1;
    } else if (c == '}' || c == ']') {
      --depth;
    }
    if (depth == 0 || (depth < 0 && !in_string)) {
      out.push_back(Piece{text.substr(start, i + 1 - start), start_line});
      depth = 0;
    }
  }
  if (depth != 0 || in_string) out.push_back(Piece{text.substr(start), start_line});
  return out;
}

// "interface[name=Ethernet1/1]" -> "Ethernet1/1"; "" when absent.
std::string interface_name(std::string_view path) {
  const std::string_view key = "interface[name=";
  const std::size_t at = path.find(key);
  if (at == std::string_view::npos) return "";
  const std::size_t begin = at + key.size();
  const std::size_t end = path.find(']', begin);
  if (end == std::string_view::npos) return "";
  std::string_view name = path.substr(begin, end - begin);
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
  return std::string(name);
}

// The leaf name without a module prefix.
std::string_view leaf_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  std::string_view leaf = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t colon = leaf.rfind(':');
  return colon == std::string_view::npos ? leaf : leaf.substr(colon + 1);
}

// A counter64 value: an unsigned JSON number, or a string of digits (JSON_IETF).
bool counter_value(const nlohmann::json& v, std::uint64_t& out) {
  if (v.is_number_unsigned()) {
    out = v.get<std::uint64_t>();
    return true;
  }
  if (v.is_number_integer()) {
    if (v.get<std::int64_t>() < 0) return false;
    out = static_cast<std::uint64_t>(v.get<std::int64_t>());
    return true;
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
  }
  return false;
}

}  // namespace

bool looks_like_gnmi(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[') &&
         text.find("\"updates\"") != std::string_view::npos;
}

Result<Scrape> read_gnmi_json(std::string_view text, const std::string& file) {
  Scrape scrape;
  scrape.file = file;
  Diagnostics errors;
  const std::vector<Piece> pieces = top_level_values(text);
  if (pieces.empty()) return Diagnostic{SourceLocation{file, 1, 1}, "gnmi", "empty: no notification"};
  auto sample = [&](const std::string& source, const std::string& device, bool transmit, const nlohmann::json& value,
                    std::int64_t time_ms, int line, const std::string& field) {
    std::uint64_t v = 0;
    if (!counter_value(value, v)) {
      errors.push_back(Diagnostic{SourceLocation{file, line, 1}, field,
                                  "'" + value.dump().substr(0, 40) + "' is not a counter64 (an integer 0.." +
                                      std::to_string(UINT64_MAX) + ")"});
      return;
    }
    CounterSample c;
    c.instance = source;
    c.device = device;
    c.transmit = transmit;
    c.kind = CounterKind::kSwitch;
    c.count = v;
    c.time_ms = time_ms;
    c.where = SourceLocation{file, line, 1};
    scrape.samples.push_back(std::move(c));
  };
  auto notification = [&](const nlohmann::json& n, int line) {
    const SourceLocation at{file, line, 1};
    if (!n.is_object()) {
      errors.push_back(Diagnostic{at, "notification", "expected a JSON object (gnmic --format json), got " +
                                                          std::string(n.type_name())});
      return;
    }
    if (!n.contains("source") || !n["source"].is_string() || n["source"].get_ref<const std::string&>().empty()) {
      errors.push_back(Diagnostic{at, "source", "missing: which device sent this notification"});
      return;
    }
    if (!n.contains("timestamp") || !n["timestamp"].is_number_integer() || n["timestamp"].get<std::int64_t>() <= 0) {
      errors.push_back(Diagnostic{at, "timestamp", "missing or not a positive integer (ns since the epoch)"});
      return;
    }
    const std::string source = n["source"].get<std::string>();
    const std::int64_t time_ms = n["timestamp"].get<std::int64_t>() / kNsPerMs;
    const std::string prefix = n.value("prefix", std::string());
    if (!n.contains("updates")) return;  // deletes only
    if (!n["updates"].is_array()) {
      errors.push_back(Diagnostic{at, "updates", "not an array"});
      return;
    }
    for (const nlohmann::json& u : n["updates"]) {
      if (!u.is_object() || !u.contains("Path") || !u["Path"].is_string() || !u.contains("values") ||
          !u["values"].is_object()) {
        errors.push_back(Diagnostic{at, "updates", "an update without a Path and its values"});
        continue;
      }
      const std::string path = prefix.empty() ? u["Path"].get<std::string>() : prefix + "/" + u["Path"].get<std::string>();
      if (path.find("subinterface") != std::string::npos || path.find("interface[") == std::string::npos) {
        ++scrape.ignored_lines;
        continue;
      }
      const std::string device = interface_name(path);
      if (device.empty()) {
        errors.push_back(Diagnostic{at, "Path", "'" + path + "' names no interface (interface[name=...])"});
        continue;
      }
      for (const auto& [key, value] : u["values"].items()) {
        const std::string_view leaf = leaf_of(path);
        if (leaf == "out-octets" || leaf == "in-octets") {
          sample(source, device, leaf == "out-octets", value, time_ms, line, std::string(leaf));
        } else if (leaf == "counters" && value.is_object()) {
          for (const auto& [k, v] : value.items()) {
            const std::string_view l = leaf_of(k);
            if (l == "out-octets" || l == "in-octets") sample(source, device, l == "out-octets", v, time_ms, line, std::string(l));
          }
        } else {
          ++scrape.ignored_lines;
        }
      }
    }
  };
  for (const Piece& p : pieces) {
    if (errors.size() >= kMaxErrors) break;
    nlohmann::json j = nlohmann::json::parse(p.text, nullptr, false);
    if (j.is_discarded()) {
      errors.push_back(Diagnostic{SourceLocation{file, p.line, 1}, "gnmi", "not valid JSON (truncated?)"});
      continue;
    }
    if (j.is_array()) {
      for (const nlohmann::json& n : j) notification(n, p.line);
    } else {
      notification(j, p.line);
    }
  }
  if (errors.empty() && scrape.samples.empty()) {
    errors.push_back(Diagnostic{SourceLocation{file, 1, 1}, "updates",
                                "no interface counter: no update of an interface's out-octets or in-octets"});
  }
  if (!errors.empty()) return errors;
  return scrape;
}

}  // namespace ct
