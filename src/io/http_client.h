// The network seam: one HTTP(S) GET with query parameters, through libcurl (curl.se/libcurl),
// loaded (libcurl.so.4) when the first request is made, not linked: a process that asks nothing
// over HTTP does not map it and the libraries it needs.
// Small and general: the caller builds the request (URL, parameters, credentials, CA file,
// timeout) and reads the status and body; nothing here knows what is asked.
//
// Credentials never leave the request: a bearer token goes in the Authorization header, basic
// auth through libcurl's user/password (also a header); neither is ever put in the URL, an error
// message or a log. Redirects are not followed (a redirect would carry the credentials to another
// host). A failure's message does not name the URL: the caller locates it, with url_for_messages()
// (no query, no user:password@ part).
//
// Failures are values (HttpFailure says which), each with a message a user can act on:
//   kUnreachable  no connection (refused, name not resolved, network down);
//   kTimeout      no complete reply within timeout_s (connecting included);
//   kTls          the server's certificate is not trusted by the CA file, or the handshake failed;
//   kOther        anything else libcurl reports (a malformed URL, an unsupported scheme).
// An HTTP error status (4xx, 5xx) is not a failure here: the reply is returned, body included, for
// the caller to explain (an API's error text is in its body).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace ct {

struct HttpGet {
  std::string url;  // scheme://host[:port]/path
  std::vector<std::pair<std::string, std::string>> params;  // appended as ?k=v&..., percent-encoded
  double timeout_s = 30;
  std::string basic_auth;    // "user:password", or empty
  std::string bearer_token;  // or empty
  std::string ca_file;       // PEM bundle to verify the server with (empty: the system's)
};

enum class HttpFailure : std::uint8_t { kNone, kUnreachable, kTimeout, kTls, kOther };

struct HttpReply {
  long status = 0;  // NOLINT(google-runtime-int): libcurl's type
  std::string body;
  std::string content_type;
};

struct HttpOutcome {
  HttpFailure failure = HttpFailure::kNone;
  std::string message;  // when failure != kNone: what happened, never a credential
  HttpReply reply;      // when failure == kNone
};

// Sends the GET and waits for the whole reply (at most max_input_bytes() of body: io/files.h).
HttpOutcome http_get(const HttpGet& request);

// `url` without a query, a fragment or a user:password@ part: what a message may show.
std::string url_for_messages(const std::string& url);

}  // namespace ct
