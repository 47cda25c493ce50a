#include "frontend/manifest_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "routing/port_address.h"
#include "yaml/yaml_reader.h"

namespace ct {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }
bool label_char(char c) { return digit(c) || (c >= 'a' && c <= 'z') || c == '-'; }

// log10 of the suffix's multiplier (binary suffixes as powers of 2 in log10), or nullopt.
std::optional<double> suffix_log10(std::string_view s) {
  static constexpr std::pair<std::string_view, double> kSuffixes[] = {
      {"", 0},   {"n", -9}, {"u", -6}, {"m", -3}, {"k", 3},  {"M", 6},  {"G", 9},  {"T", 12}, {"P", 15}, {"E", 18},
      {"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
  for (const auto& [name, power] : kSuffixes) {
    if (s == name) return name.ends_with('i') ? power * std::log10(2.0) : power;
  }
  if (s.size() >= 2 && (s[0] == 'e' || s[0] == 'E')) {
    std::string_view e = s.substr(1);
    if (e.front() == '+' || e.front() == '-') e.remove_prefix(1);
    if (e.empty() || !std::all_of(e.begin(), e.end(), digit)) return std::nullopt;
    double exponent = 0;
    std::from_chars(s.data() + (s[1] == '+' ? 2 : 1), s.data() + s.size(), exponent);
    return exponent;
  }
  return std::nullopt;
}

std::string label_rule(std::string_view label, std::size_t max, const char* what) {
  if (label.empty()) return fmt::format("an empty {}", what);
  if (label.size() > max) return fmt::format("{} characters, more than the {} a {} may have", label.size(), max, what);
  const auto bad = std::find_if_not(label.begin(), label.end(), label_char);
  if (bad != label.end()) {
    return fmt::format("character '{}' in label '{}': a {} takes only lower-case letters, digits and '-'",
                       excerpt(std::string_view(&*bad, 1)), excerpt(label), what);
  }
  if (label.front() == '-' || label.back() == '-') return fmt::format("a {} must start and end with a letter or digit", what);
  return "";
}

}  // namespace

std::string quantity_problem(std::string_view text) {
  const std::string kGrammar =
      "expected a quantity: a number and at most one suffix (Ki Mi Gi Ti Pi Ei, n u m k M G T P E, or an exponent e3)";
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const std::size_t number_start = i;
  std::size_t digits = 0;
  while (i < text.size() && digit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && digit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return kGrammar;
  const auto power = suffix_log10(text.substr(i));
  if (!power) return fmt::format("{}; '{}' is not a suffix", kGrammar, text.substr(i));
  if (text.front() == '-') return "must not be negative";
  const std::string number(text.substr(number_start, i - number_start));
  const double mantissa = std::strtod(number.c_str(), nullptr);
  if (mantissa != 0 && std::log10(mantissa) + *power >= std::log10(9223372036854775807.0)) {
    return "too large: beyond 2^63 - 1, the largest value a Kubernetes quantity holds as an integer";
  }
  return "";
}

std::optional<double> quantity_value(std::string_view text) {
  if (!quantity_problem(text).empty()) return std::nullopt;
  const std::size_t end = text.find_first_not_of("+-0123456789.");
  const std::string number(text.substr(0, end));
  const double mantissa = std::strtod(number.c_str(), nullptr);
  const std::string_view suffix = end == std::string_view::npos ? std::string_view() : text.substr(end);
  static constexpr std::pair<std::string_view, int> kBinary[] = {{"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
  for (const auto& [name, bits] : kBinary) {
    if (suffix == name) return std::ldexp(mantissa, bits);
  }
  return mantissa * std::pow(10.0, *suffix_log10(suffix));
}

std::string dns_label_problem(std::string_view text) {
  const std::string rule = label_rule(text, 63, "DNS-1123 label");
  return rule.empty() ? rule : rule + " (RFC 1123)";
}

std::string dns_subdomain_problem(std::string_view text) {
  if (text.size() > 253) return fmt::format("{} characters, more than the 253 a DNS-1123 subdomain may have", text.size());
  for (std::size_t start = 0;;) {
    const std::size_t dot = std::min(text.find('.', start), text.size());
    if (std::string rule = label_rule(text.substr(start, dot - start), 63, "DNS-1123 label"); !rule.empty()) {
      return rule + " (in a DNS-1123 subdomain, RFC 1123)";
    }
    if (dot == text.size()) return "";
    start = dot + 1;
  }
}

std::string hostname_problem(std::string_view text, bool wildcard) {
  std::string_view rest = text;
  if (wildcard && rest.starts_with("*.")) rest.remove_prefix(2);
  if (text.size() > 253) return fmt::format("{} characters, more than the 253 a hostname may have", text.size());
  if (ipv4_problem(rest).empty()) return "an IP address is not a hostname";
  if (rest.find(':') != std::string_view::npos) return "a hostname has no port or ':'";
  std::string rule = dns_subdomain_problem(rest);
  if (!rule.empty() && rest.find('*') != std::string_view::npos) {
    rule += wildcard ? "; a wildcard is only '*.' before the name" : "; no wildcard is allowed here";
  }
  return rule;
}

std::string ipv4_problem(std::string_view text) {
  if (parse_ipv4(std::string(text))) return "";
  return "expected an IPv4 address a.b.c.d with each part 0..255";
}

std::string pool_entry_problem(std::string_view text) {
  if (text.find(':') != std::string_view::npos) return "";
  if (const auto dash = text.find('-'); dash != std::string_view::npos) {
    const auto lo = parse_ipv4(std::string(text.substr(0, dash)));
    const auto hi = parse_ipv4(std::string(text.substr(dash + 1)));
    if (!lo || !hi) return "expected a range a.b.c.d-e.f.g.h of two IPv4 addresses (each part 0..255)";
    if (*lo > *hi) return "the range's first address is above its last";
    return "";
  }
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return "expected a CIDR a.b.c.d/n or a range a.b.c.d-e.f.g.h";
  if (!parse_ipv4(std::string(text.substr(0, slash)))) return "expected a CIDR a.b.c.d/n: the address's parts are 0..255";
  const std::string_view len = text.substr(slash + 1);
  int n = -1;
  const auto [end, ec] = std::from_chars(len.data(), len.data() + len.size(), n);
  if (len.empty() || ec != std::errc() || end != len.data() + len.size() || n < 0 || n > 32) {
    return fmt::format("prefix length '/{}': an IPv4 prefix is /0 to /32", len);
  }
  return "";
}

std::string url_problem(std::string_view text) {
  std::string_view rest = text;
  if (rest.starts_with("https://")) rest.remove_prefix(8);
  else if (rest.starts_with("http://")) rest.remove_prefix(7);
  else return "expected an http:// or https:// URL";
  const std::size_t end = std::min(rest.find('/'), rest.find('?'));
  std::string_view authority = rest.substr(0, end);
  const std::size_t colon = authority.find(':');
  const std::string_view host = authority.substr(0, colon);
  if (host.empty()) return "the URL has no host";
  const auto bad = std::find_if_not(host.begin(), host.end(), [](char c) {
    return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' || c == '$' || c == '_';
  });
  if (bad != host.end()) return fmt::format("character '{}' in the URL's host", excerpt(std::string_view(&*bad, 1)));
  if (colon != std::string_view::npos) {
    const std::string_view port = authority.substr(colon + 1);
    int p = 0;
    const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (port.empty() || ec != std::errc() || ptr != port.data() + port.size() || p < 1 || p > 65535) {
      return fmt::format("port '{}' of the URL: expected 1..65535", excerpt(port));
    }
  }
  return "";
}

}  // namespace ct
