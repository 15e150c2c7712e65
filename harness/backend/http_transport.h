// harness/backend/http_transport.h: one HTTP exchange, behind an interface
// so HttpBackend's signing, checksums and retries are tested with a
// scripted fake as well as over real sockets.
//
// BeastTransport keeps one keep-alive connection (Boost.Beast; HTTPS with
// OpenSSL, set up on the first https connection only: the system CA store
// plus an optional extra CA file, the host name checked). A kept connection
// the peer closed while idle is replaced before the request is written. A
// failure to get a complete response is an Error of type kOutcomeUnknown
// with extra {"Transport": "connect" | "closed" | "timeout"} ("timeout": no
// response within the read timeout, or the connect timed out; SDKs charge a
// retry after one 10 quota tokens, not 5).
//
// Thread-safety: Transport implementations must allow concurrent Send
// calls; BeastTransport serialises them on its one connection.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/mutex.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"

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

class BeastTransport final : public Transport {
 public:
  // `base_url` is scheme://host[:port] with no path. A bad URL is a
  // ValidationException. Nothing connects before the first Send.
  static Result<std::unique_ptr<BeastTransport>> Open(
      const std::string& base_url, const TransportOptions& options);
  ~BeastTransport() override;

  const std::string& base_url() const override { return base_url_; }
  const std::string& host_header() const override { return host_header_; }
  // A request without a Host header gets host_header().
  Result<HttpResponse> Send(const HttpRequest& request) override;

 private:
  struct Connection;  // Asio and Beast stay out of this header.
  BeastTransport() = default;
  Status Connect() DDBLAB_REQUIRES(mu_);
  Result<HttpResponse> Exchange(const HttpRequest& request)
      DDBLAB_REQUIRES(mu_);

  std::string base_url_;
  std::string host_header_;
  std::string host_;  // without the [] of an IPv6 literal
  std::string port_;
  bool https_ = false;
  TransportOptions options_;
  Mutex mu_;
  std::unique_ptr<Connection> connection_ DDBLAB_GUARDED_BY(mu_);
};

}  // namespace ddblab::harness
