// Wall-clock times and durations as other tools write them (one parser each for the project):
//   rfc3339_ms        "2026-12-06T09:00:00Z", "2026-12-06T10:00:00.250+01:00" (RFC 3339: a date,
//                     'T' (or 't' or ' '), a time with an optional fraction, 'Z' or an offset),
//                     as ms since 1970-01-01T00:00:00Z; nullopt when malformed or not a real date
//   unix_seconds_ms   "1796296663", "1796296663.435" (up to 12 digits) as ms since 1970
//   go_duration_s     a Go time.Duration as Kubernetes and cert-manager write it ("2160h",
//                     "2160h0m0s", "1h30m", "90m", "45s", "1.5h", "300ms"): numbers, each with a
//                     unit of ns, us, µs, ms, s, m or h; "0" alone; a leading sign; in seconds
// kMaxTimeMs: 9999-12-31T23:59:59.999Z, the last time RFC 3339's four-digit year can write.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ct {

inline constexpr std::int64_t kMaxTimeMs = 253402300799999;

std::optional<std::int64_t> rfc3339_ms(std::string_view s);
std::optional<std::int64_t> unix_seconds_ms(std::string_view s);
std::optional<double> go_duration_s(std::string_view s);

}  // namespace ct
