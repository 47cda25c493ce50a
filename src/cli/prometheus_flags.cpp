#include "cli/prometheus_flags.h"

#include <algorithm>

#include "core/text.h"
#include "diagnose/prometheus_source.h"
#include "io/files.h"
#include "io/http_client.h"

namespace ct::cli {
namespace {

// A credential file's first line, without its line break; never quoted back in an error.
Result<std::string> read_secret(const std::string& path, const std::string& option, bool needs_colon) {
  auto text = read_text_file(path, "a credential file");
  if (!text) return text.errors();
  const std::string_view all = text.value();
  std::string secret(trim(all.substr(0, all.find('\n')), kWhiteSpace));
  if (secret.empty()) return Diagnostic{SourceLocation{path, 1, 1}, option, "the file's first line is empty"};
  // A control character (a CR, a NUL) would end or split the request's Authorization header.
  if (const auto bad = std::find_if(secret.begin(), secret.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
      bad != secret.end()) {
    return Diagnostic{SourceLocation{path, 1, 1}, option,
                      "the first line holds a control character (byte " + std::to_string(static_cast<unsigned char>(*bad)) +
                          "), which no credential has"};
  }
  if (needs_colon && secret.find(':') == std::string::npos) {
    return Diagnostic{SourceLocation{path, 1, 1}, option, "expected USER:PASSWORD on the first line (no ':' found)"};
  }
  return secret;
}

// The CA bundle curl verifies the server with: read here first so that a wrong file (empty, DER,
// a key) is named with its path, not as a TLS failure of the server.
Result<Unit> check_ca_bundle(const std::string& path) {
  auto text = read_text_file(path, "a PEM CA bundle");
  if (!text) return text.errors();
  if (text.value().find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
    return Diagnostic{SourceLocation{path, 1, 1}, "--prometheus-ca",
                      "no PEM certificate: expected a -----BEGIN CERTIFICATE----- block (a DER file converts with "
                      "openssl x509 -inform der)"};
  }
  return Unit{};
}

}  // namespace

CLI::Option* add_prometheus_flags(CLI::App& app, PrometheusFlags& flags) {
  CLI::Option* url = app.add_option("--prometheus", flags.url,
                                    "Read the counters from this Prometheus server's HTTP API (http[s]://host:port[/prefix])");
  app.add_option("--from", flags.from, "With --prometheus: the window's start (RFC 3339 or Unix seconds)")
      ->needs(url);
  app.add_option("--to", flags.to, "With --prometheus: the window's end (RFC 3339 or Unix seconds)")
      ->needs(url);
  app.add_flag("--prometheus-raw", flags.raw,
               "Read every raw sample and compute the rates here (32-bit counter wraps) instead of Prometheus' increase()")
      ->needs(url);
  app.add_option("--prometheus-token-file", flags.token_file, "A file whose first line is the bearer token")->needs(url);
  app.add_option("--prometheus-basic-auth-file", flags.basic_auth_file, "A file whose first line is USER:PASSWORD")
      ->needs(url)
      ->excludes("--prometheus-token-file");
  app.add_option("--prometheus-ca", flags.ca_file, "PEM CA bundle to verify an https server with")->needs(url);
  app.add_option("--prometheus-timeout", flags.timeout_s, "Seconds to wait for each API reply (default 30)")
      ->check(CLI::Range(0.001, 3600.0))
      ->needs(url);
  return url;
}

std::string prometheus_usage_error(const PrometheusFlags& flags) {
  if (flags.url.empty()) return "";
  if (url_for_messages(flags.url) != flags.url.substr(0, flags.url.find_first_of("?#"))) {
    return "--prometheus: the URL carries credentials (USER:PASSWORD@): give them in --prometheus-basic-auth-file, "
           "so that no report or shell history shows them";
  }
  if (flags.from.empty() || flags.to.empty()) return "--prometheus: give the window to read, --from T1 --to T2";
  for (const auto& [option, value] : {std::pair{"--from", &flags.from}, std::pair{"--to", &flags.to}}) {
    if (auto t = parse_time_argument(*value); !t) return std::string(option) + ": " + t.errors().front().message;
  }
  if (parse_time_argument(flags.from).value() >= parse_time_argument(flags.to).value()) {
    return "--from " + flags.from + " is not before --to " + flags.to + ": the window is empty";
  }
  return "";
}

Result<CounterRates> read_prometheus_counters(const PrometheusFlags& flags, const RateOptions& rate_options) {
  HttpGet base;
  base.timeout_s = flags.timeout_s;
  base.ca_file = flags.ca_file;
  Diagnostics errors;
  if (!flags.token_file.empty()) {
    auto token = read_secret(flags.token_file, "--prometheus-token-file", false);
    if (token) base.bearer_token = std::move(token).value();
    else errors.insert(errors.end(), token.errors().begin(), token.errors().end());
  }
  if (!flags.basic_auth_file.empty()) {
    auto auth = read_secret(flags.basic_auth_file, "--prometheus-basic-auth-file", true);
    if (auth) base.basic_auth = std::move(auth).value();
    else errors.insert(errors.end(), auth.errors().begin(), auth.errors().end());
  }
  if (!flags.ca_file.empty()) {
    if (auto ca = check_ca_bundle(flags.ca_file); !ca) errors.insert(errors.end(), ca.errors().begin(), ca.errors().end());
  }
  if (!errors.empty()) return errors;
  std::string root = flags.url;
  while (!root.empty() && root.back() == '/') root.pop_back();
  PrometheusWindow window;
  window.from_ms = parse_time_argument(flags.from).value();
  window.to_ms = parse_time_argument(flags.to).value();
  window.raw = flags.raw;
  window.server = url_for_messages(root);
  const PrometheusGet get = [&](const std::string& path, const QueryParams& params) -> Result<ApiReply> {
    HttpGet r = base;
    r.url = root + path;
    r.params = params;
    HttpOutcome o = http_get(r);
    if (o.failure != HttpFailure::kNone) {
      return Diagnostic{SourceLocation{window.server + path, 0, 0}, "--prometheus", o.message};
    }
    return ApiReply{o.reply.status, std::move(o.reply.body)};
  };
  return fetch_prometheus_rates(get, window, rate_options);
}

}  // namespace ct::cli
