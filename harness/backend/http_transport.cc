// harness/backend/http_transport.cc: HttplibTransport on cpp-httplib.
#include "harness/backend/http_transport.h"

#include <httplib.h>

#include <chrono>

#include "common/sigv4/sigv4.h"

namespace ddblab::harness {
namespace {

Error TransportError(std::string kind, std::string message) {
  Error error = Error::Of(ErrorType::kOutcomeUnknown, std::move(message));
  error.extra = nlohmann::json{{"Transport", std::move(kind)}};
  return error;
}

}  // namespace

const std::string* HttpResponse::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (sigv4::HeaderNameEquals(key, name)) return &value;
  }
  return nullptr;
}

Result<std::unique_ptr<HttplibTransport>> HttplibTransport::Open(
    const std::string& base_url, const TransportOptions& options) {
  bool https = base_url.starts_with("https://");
  if (!https && !base_url.starts_with("http://")) {
    return Error::Validation("endpoint must start with http:// or https://: " +
                             base_url);
  }
  std::string authority = base_url.substr(https ? 8 : 7);
  if (authority.empty() || authority.find('/') != std::string::npos) {
    return Error::Validation(
        "endpoint must be scheme://host[:port] with no path: " + base_url);
  }
  std::string host = authority;
  int port = https ? 443 : 80;
  size_t colon = authority.rfind(':');
  if (colon != std::string::npos && authority.find(']') == std::string::npos) {
    host = authority.substr(0, colon);
    try {
      port = std::stoi(authority.substr(colon + 1));
    } catch (...) {
      return Error::Validation("bad port in endpoint: " + base_url);
    }
  }
  auto transport = std::unique_ptr<HttplibTransport>(new HttplibTransport());
  transport->base_url_ = base_url;
  transport->host_header_ =
      (port == (https ? 443 : 80)) ? host : host + ":" + std::to_string(port);
  auto made = std::make_unique<httplib::Client>(base_url);
  httplib::Client& client = *made;
  client.set_keep_alive(true);
  // Headers and body go out in separate writes: without TCP_NODELAY each
  // call waits on the peer's delayed ACK (~40 ms).
  client.set_tcp_nodelay(true);
  client.set_decompress(false);
  auto seconds = [](Duration d) {
    return std::chrono::duration_cast<std::chrono::microseconds>(d);
  };
  client.set_connection_timeout(seconds(options.connect_timeout));
  client.set_read_timeout(seconds(options.read_timeout));
  transport->read_timeout_ = options.read_timeout;
  client.set_write_timeout(seconds(options.read_timeout));
  if (https) {
    client.enable_server_certificate_verification(true);
    if (!options.ca_cert_file.empty()) {
      client.set_ca_cert_path(options.ca_cert_file.c_str());
    }
  }
  MutexLock lock(transport->mu_);
  transport->client_ = std::move(made);
  return transport;
}

HttplibTransport::~HttplibTransport() = default;

Result<HttpResponse> HttplibTransport::Send(const HttpRequest& request) {
  httplib::Headers headers;
  std::string content_type;
  for (const auto& [key, value] : request.headers) {
    if (sigv4::HeaderNameEquals(key, "Content-Type")) {
      content_type = value;
      continue;
    }
    headers.emplace(key, value);
  }
  MutexLock lock(mu_);
  // Real time, on purpose: it tells a read timeout (the socket's own real
  // timer ran out) from a connection closed early, which cpp-httplib 0.11
  // reports alike.
  const auto started = std::chrono::steady_clock::now();
  httplib::Result result =
      request.method == "GET" ? client_->Get(request.path, headers)
      : request.method == "DELETE"
          ? (content_type.empty()
                 ? client_->Delete(request.path, headers)
                 : client_->Delete(request.path, headers, request.body,
                                   content_type.c_str()))
      : request.method == "PUT"
          ? client_->Put(request.path, headers, request.body,
                         content_type.c_str())
          : client_->Post(request.path, headers, request.body,
                          content_type.c_str());
  if (!result) {
    httplib::Error error = result.error();
    std::string what = httplib::to_string(error);
    switch (error) {
      case httplib::Error::ConnectionTimeout:
        return TransportError("timeout", "timed out connecting to " +
                                             base_url_ + " (" + what + ")");
      case httplib::Error::Connection:
      case httplib::Error::BindIPAddress:
      case httplib::Error::SSLConnection:
      case httplib::Error::SSLLoadingCerts:
      case httplib::Error::SSLServerVerification:
        return TransportError(
            "connect", "could not connect to " + base_url_ + " (" + what + ")");
      case httplib::Error::Read:
        if (std::chrono::steady_clock::now() - started >= read_timeout_) {
          return TransportError(
              "timeout",
              "no response from " + base_url_ + " within " +
                  std::to_string(
                      std::chrono::duration_cast<std::chrono::milliseconds>(
                          read_timeout_)
                          .count()) +
                  " ms; the request may have been applied");
        }
        return TransportError("closed",
                              "connection to " + base_url_ +
                                  " closed before the response (" + what +
                                  "); the request may have been applied");
      default:
        return TransportError("closed", "request to " + base_url_ +
                                            " failed (" + what +
                                            "); the request may have been "
                                            "applied");
    }
  }
  HttpResponse response;
  response.status = result->status;
  for (const auto& [key, value] : result->headers) {
    response.headers.emplace_back(key, value);
  }
  response.body = std::move(result->body);
  return response;
}

}  // namespace ddblab::harness
