#include "io/http_client.h"

#include <curl/curl.h>

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

// libcurl's process-wide state, set up once before the first handle (curl_global_init is not
// thread-safe; a function-local static is).
void global_init() {
  static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  (void)done;
}

std::string query_string(CURL* curl, const HttpGet& r) {
  std::string q;
  for (const auto& [k, v] : r.params) {
    char* ek = curl_easy_escape(curl, k.data(), static_cast<int>(k.size()));
    char* ev = curl_easy_escape(curl, v.data(), static_cast<int>(v.size()));
    q += q.empty() ? "?" : "&";
    q += ek == nullptr ? "" : ek;
    q += "=";
    q += ev == nullptr ? "" : ev;
    curl_free(ek);
    curl_free(ev);
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

std::string failure_text(HttpFailure f, CURLcode code, const char* detail, const HttpGet& r) {
  const std::string why = detail != nullptr && detail[0] != '\0' ? detail : curl_easy_strerror(code);
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
  global_init();
  HttpOutcome out;
  const std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return HttpOutcome{HttpFailure::kOther, "libcurl could not start a request", {}};
  auto limit = max_input_bytes();
  Sink sink;
  sink.limit = limit ? limit.value() : kDefaultMaxInputBytes;
  const std::string url = request.url + query_string(curl.get(), request);
  char detail[CURL_ERROR_SIZE] = {};
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_s * 1000.0));  // NOLINT(google-runtime-int)
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, detail);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, write_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
  if (!request.ca_file.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, request.ca_file.c_str());
  if (!request.basic_auth.empty()) {
    curl_easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(c, CURLOPT_USERPWD, request.basic_auth.c_str());
  }
  curl_slist* headers = curl_slist_append(nullptr, "Accept: application/json");
  std::string bearer;
  if (!request.bearer_token.empty()) {
    bearer = "Authorization: Bearer " + request.bearer_token;
    headers = curl_slist_append(headers, bearer.c_str());
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  const CURLcode code = curl_easy_perform(c);
  curl_slist_free_all(headers);
  if (sink.over) {
    return HttpOutcome{HttpFailure::kOther,
                       "the reply is larger than " + describe_input_limit(sink.limit) + " (" + kMaxInputVariable +
                           "); narrow the query",
                       {}};
  }
  if (code != CURLE_OK) {
    const HttpFailure f = failure_of(code);
    return HttpOutcome{f, failure_text(f, code, detail, request), {}};
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.reply.status);
  char* type = nullptr;
  curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type);
  if (type != nullptr) out.reply.content_type = type;
  out.reply.body = std::move(sink.body);
  return out;
}

}  // namespace ct
