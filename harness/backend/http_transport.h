// harness/backend/http_transport.h: one HTTP exchange, behind an interface
// so HttpBackend's signing, checksums and retries are tested with a
// scripted fake as well as over real sockets.
//
// HttplibTransport keeps one keep-alive connection per thread-free client
// (cpp-httplib; HTTPS with OpenSSL, the system CA store plus an optional
// extra CA file). A failure to get a complete response is an Error of type
// kOutcomeUnknown with extra {"Transport": "connect" | "closed" |
// "timeout"} ("timeout": no response within the read timeout, or the
// connect timed out; SDKs charge a retry after one 10 quota tokens, not 5).
//
// Thread-safety: Transport implementations must allow concurrent Send
// calls; HttplibTransport serialises them on its one connection.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/mutex.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"

namespace httplib {
class Client;
}

namespace ddblab::harness {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "POST";  // GET, POST, PUT or DELETE
  std::string path = "/";
  HttpHeaders headers;
  std::string body;
};

struct HttpResponse {
  int status = 0;
  HttpHeaders headers;
  std::string body;

  // The first value of a header (case-insensitive name).
  const std::string* Header(std::string_view name) const;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // "http://host:port" or "https://host[:port]".
  virtual const std::string& base_url() const = 0;
  // The Host header value SigV4 signs (port only when not the default).
  virtual const std::string& host_header() const = 0;
  virtual Result<HttpResponse> Send(const HttpRequest& request) = 0;
};

struct TransportOptions {
  std::string ca_cert_file;
  Duration connect_timeout = std::chrono::seconds(10);
  Duration read_timeout = std::chrono::seconds(60);
};

class HttplibTransport final : public Transport {
 public:
  // `base_url` is scheme://host[:port] with no path. A bad URL is a
  // ValidationException.
  static Result<std::unique_ptr<HttplibTransport>> Open(
      const std::string& base_url, const TransportOptions& options);
  ~HttplibTransport() override;

  const std::string& base_url() const override { return base_url_; }
  const std::string& host_header() const override { return host_header_; }
  Result<HttpResponse> Send(const HttpRequest& request) override;

 private:
  HttplibTransport() = default;
  std::string base_url_;
  std::string host_header_;
  Duration read_timeout_{};
  Mutex mu_;
  std::unique_ptr<httplib::Client> client_ DDBLAB_GUARDED_BY(mu_);
};

}  // namespace ddblab::harness
