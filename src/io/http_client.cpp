#include "io/http_client.h"

#include <curl/curl.h>
#include <dlfcn.h>

#include <memory>

#include <fmt/format.h>

#include "io/files.h"

namespace ct {
namespace {

struct Sink {
  std::string body;
  std::uint64_t limit = 0;
  bool over = false;
};

std::size_t write_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const std::size_t n = size * count;
  if (sink->body.size() + n > sink->limit) {
    sink->over = true;
    return 0;  // libcurl stops with CURLE_WRITE_ERROR
  }
  sink->body.append(data, n);
  return n;
}

// libcurl, loaded when the first request is made rather than linked: its library and the ~30 it
// needs (TLS, Kerberos, LDAP, SSH, ...) cost about 7 ms of CPU to map and relocate at every start of
// the process, most of a small command's time, and only `diagnose --prometheus` asks over HTTP.
// The functions are those of libcurl 7.x/8.x's stable ABI (soname libcurl.so.4).
struct Curl {
  decltype(&::curl_global_init) global_init = nullptr;
  decltype(&::curl_easy_init) easy_init = nullptr;
  decltype(&::curl_easy_cleanup) easy_cleanup = nullptr;
  decltype(&::curl_easy_escape) easy_escape = nullptr;
  decltype(&::curl_free) free = nullptr;
  decltype(&::curl_easy_strerror) easy_strerror = nullptr;
  decltype(&::curl_easy_setopt) easy_setopt = nullptr;
  decltype(&::curl_easy_perform) easy_perform = nullptr;
  decltype(&::curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&::curl_slist_append) slist_append = nullptr;
  decltype(&::curl_slist_free_all) slist_free_all = nullptr;
  bool ready = false;  // every function found and the process-wide state set up
};

template <typename F>
bool bind(void* library, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(library, name));  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
  return out != nullptr;
}

// Loaded and set up once (curl_global_init is not thread-safe; a function-local static is).
const Curl& curl_library() {
  static const Curl curl = [] {
    Curl c;
    void* library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return c;
    const bool found = bind(library, "curl_global_init", c.global_init) && bind(library, "curl_easy_init", c.easy_init) &&
                       bind(library, "curl_easy_cleanup", c.easy_cleanup) &&
                       bind(library, "curl_easy_escape", c.easy_escape) && bind(library, "curl_free", c.free) &&
                       bind(library, "curl_easy_strerror", c.easy_strerror) &&
                       bind(library, "curl_easy_setopt", c.easy_setopt) &&
                       bind(library, "curl_easy_perform", c.easy_perform) &&
                       bind(library, "curl_easy_getinfo", c.easy_getinfo) &&
                       bind(library, "curl_slist_append", c.slist_append) &&
                       bind(library, "curl_slist_free_all", c.slist_free_all);
    c.ready = found && c.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    return c;
  }();
  return curl;
}

std::string query_string(const Curl& lib, CURL* curl, const HttpGet& r) {
  std::string q;
  for (const auto& [k, v] : r.params) {
    char* ek = lib.easy_escape(curl, k.data(), static_cast<int>(k.size()));
    char* ev = lib.easy_escape(curl, v.data(), static_cast<int>(v.size()));
    q += q.empty() ? "?" : "&";
    q += ek == nullptr ? "" : ek;
    q += "=";
    q += ev == nullptr ? "" : ev;
    lib.free(ek);
    lib.free(ev);
  }
  return q;
}

HttpFailure failure_of(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
      return HttpFailure::kUnreachable;
    case CURLE_OPERATION_TIMEDOUT:
      return HttpFailure::kTimeout;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
      return HttpFailure::kTls;
    default:
      return HttpFailure::kOther;
  }
}

std::string failure_text(const Curl& lib, HttpFailure f, CURLcode code, const char* detail, const HttpGet& r) {
  const std::string why = detail != nullptr && detail[0] != '\0' ? detail : lib.easy_strerror(code);
  switch (f) {
    case HttpFailure::kUnreachable:
      return "unreachable: " + why;
    case HttpFailure::kTimeout:
      return "no complete answer within " + fmt::format("{:g}", r.timeout_s) + " s (raise the timeout, or narrow the query)";
    case HttpFailure::kTls:
      return "TLS: " + why + (r.ca_file.empty() ? "" : " (CA file " + r.ca_file + ")");
    default:
      return why;
  }
}

}  // namespace

std::string url_for_messages(const std::string& url) {
  std::string u = url.substr(0, url.find_first_of("?#"));
  const std::size_t scheme = u.find("://");
  const std::size_t host = scheme == std::string::npos ? 0 : scheme + 3;
  const std::size_t slash = u.find('/', host);
  const std::size_t at = u.rfind('@', slash == std::string::npos ? u.size() : slash);
  if (at != std::string::npos && at >= host) u.erase(host, at + 1 - host);
  return u;
}

HttpOutcome http_get(const HttpGet& request) {
  const Curl& lib = curl_library();
  if (!lib.ready) {
    return HttpOutcome{HttpFailure::kOther, "libcurl (libcurl.so.4, Debian libcurl4) could not be loaded or set up", {}};
  }
  HttpOutcome out;
  const std::unique_ptr<CURL, void (*)(CURL*)> curl(lib.easy_init(), lib.easy_cleanup);
  if (!curl) return HttpOutcome{HttpFailure::kOther, "libcurl could not start a request", {}};
  auto limit = max_input_bytes();
  Sink sink;
  sink.limit = limit ? limit.value() : kDefaultMaxInputBytes;
  const std::string url = request.url + query_string(lib, curl.get(), request);
  char detail[CURL_ERROR_SIZE] = {};
  CURL* c = curl.get();
  lib.easy_setopt(c, CURLOPT_URL, url.c_str());
  lib.easy_setopt(c, CURLOPT_HTTPGET, 1L);
  lib.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  lib.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  lib.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  lib.easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_s * 1000.0));  // NOLINT(google-runtime-int)
  lib.easy_setopt(c, CURLOPT_ERRORBUFFER, detail);
  lib.easy_setopt(c, CURLOPT_WRITEFUNCTION, write_body);
  lib.easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  lib.easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
  if (!request.ca_file.empty()) lib.easy_setopt(c, CURLOPT_CAINFO, request.ca_file.c_str());
  if (!request.basic_auth.empty()) {
    lib.easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    lib.easy_setopt(c, CURLOPT_USERPWD, request.basic_auth.c_str());
  }
  curl_slist* headers = lib.slist_append(nullptr, "Accept: application/json");
  std::string bearer;
  if (!request.bearer_token.empty()) {
    bearer = "Authorization: Bearer " + request.bearer_token;
    headers = lib.slist_append(headers, bearer.c_str());
  }
  lib.easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  const CURLcode code = lib.easy_perform(c);
  lib.slist_free_all(headers);
  if (sink.over) {
    return HttpOutcome{HttpFailure::kOther,
                       "the reply is larger than " + describe_input_limit(sink.limit) + " (" + kMaxInputVariable +
                           "); narrow the query",
                       {}};
  }
  if (code != CURLE_OK) {
    const HttpFailure f = failure_of(code);
    return HttpOutcome{f, failure_text(lib, f, code, detail, request), {}};
  }
  lib.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.reply.status);
  char* type = nullptr;
  lib.easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type);
  if (type != nullptr) out.reply.content_type = type;
  out.reply.body = std::move(sink.body);
  return out;
}

}  // namespace ct
