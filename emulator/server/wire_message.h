// emulator/server/wire_message.h: one HTTP request and response, free of
// any HTTP library, so the protocol logic can be tested without sockets.
//
// A WireRequest borrows its body (string_view) from whoever received it; it
// must not outlive that buffer. Thread-safety: plain value types.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/deferred_answer.h"

namespace ddblab::server {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Case-insensitive ASCII comparison of header names.
bool HeaderNameEquals(std::string_view a, std::string_view b);

// The first value of header `name` (case-insensitive), if present.
std::optional<std::string_view> FindHeader(const HeaderList& headers,
                                           std::string_view name);

struct WireRequest {
  std::string method;  // "POST", "GET", ...
  std::string path;    // the path part of the request target, as sent
  std::string query;   // the query string after '?', as sent ("" if none)
  HeaderList headers;  // as received, in order
  std::string_view body;

  std::optional<std::string_view> Header(std::string_view name) const {
    return FindHeader(headers, name);
  }
};

struct WireResponse {
  int status = 200;
  // Empty: no Content-Type header.
  std::string content_type;
  // Response headers other than Content-Type / Content-Length.
  HeaderList headers;
  std::string body;
  bool drop_connection = false;  // lost_response fault: close without answering
  // Latency fault: the HTTP server holds the response (without a thread)
  // until this time on the engine's clock, then writes it (or drops the
  // connection). Unset: at once.
  std::optional<DueTime> due;

  void SetHeader(std::string name, std::string value);
  std::optional<std::string_view> Header(std::string_view name) const {
    return FindHeader(headers, name);
  }
};

}  // namespace ddblab::server
