// harness/backend/http_transport.cc: BeastTransport on Boost.Beast (HTTPS
// through Asio's OpenSSL stream).
#include "harness/backend/http_transport.h"

#include <openssl/ssl.h>
#include <poll.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "common/sigv4/sigv4.h"

namespace ddblab::harness {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using ErrorCode = boost::system::error_code;

Error TransportError(std::string kind, std::string message) {
  Error error = Error::Of(ErrorType::kOutcomeUnknown, std::move(message));
  error.extra = nlohmann::json{{"Transport", std::move(kind)}};
  return error;
}

int64_t Millis(Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

}  // namespace

// One connection and the io_context its operations run on (one operation
// at a time, run to completion by Send's thread).
struct BeastTransport::Connection {
  asio::io_context io;
  std::optional<asio::ssl::context> tls;  // https: made on first connect
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;

  beast::tcp_stream& tcp() {
    return secure ? beast::get_lowest_layer(*secure) : *plain;
  }
  bool open() { return (plain || secure) && tcp().socket().is_open(); }
  void Close() {
    if (plain || secure) {
      ErrorCode ignored;
      tcp().socket().close(ignored);
    }
    plain.reset();
    secure.reset();
    buffer.clear();
  }
  // Runs the operation started by `start` (which is handed the completion
  // handler) to its end.
  template <typename Start>
  ErrorCode Run(Start start) {
    ErrorCode result = asio::error::would_block;
    start([&result](ErrorCode ec, auto&&...) { result = ec; });
    io.restart();
    io.run();
    return result;
  }
  // A kept connection the peer closed (or wrote to) while idle: readable
  // before a request was sent.
  bool Stale() {
    pollfd fd{tcp().socket().native_handle(), POLLIN, 0};
    return ::poll(&fd, 1, 0) != 0;
  }
};

const std::string* HttpResponse::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (sigv4::HeaderNameEquals(key, name)) return &value;
  }
  return nullptr;
}

Result<std::unique_ptr<BeastTransport>> BeastTransport::Open(
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
  size_t bracket = authority.rfind(']');
  if (colon != std::string::npos &&
      (bracket == std::string::npos || colon > bracket)) {
    host = authority.substr(0, colon);
    try {
      size_t used = 0;
      port = std::stoi(authority.substr(colon + 1), &used);
      if (used != authority.size() - colon - 1 || port <= 0 || port > 65535) {
        return Error::Validation("bad port in endpoint: " + base_url);
      }
    } catch (...) {
      return Error::Validation("bad port in endpoint: " + base_url);
    }
  }
  auto transport = std::unique_ptr<BeastTransport>(new BeastTransport());
  transport->base_url_ = base_url;
  transport->host_header_ =
      (port == (https ? 443 : 80)) ? host : host + ":" + std::to_string(port);
  transport->host_ = host;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    transport->host_ = host.substr(1, host.size() - 2);
  }
  transport->port_ = std::to_string(port);
  transport->https_ = https;
  transport->options_ = options;
  return transport;
}

BeastTransport::~BeastTransport() {
  MutexLock lock(mu_);
  if (connection_) connection_->Close();
}

Status BeastTransport::Connect() {
  if (!connection_) connection_ = std::make_unique<Connection>();
  Connection& c = *connection_;
  c.Close();
  auto failed = [this](const std::string& what, const ErrorCode& ec) {
    if (ec == beast::error::timeout) {
      return TransportError("timeout", "timed out connecting to " + base_url_ +
                                           " (" + what + ")");
    }
    return TransportError("connect", "could not connect to " + base_url_ +
                                         " (" + what + ": " + ec.message() +
                                         ")");
  };
  ErrorCode ec;
  tcp::resolver resolver(c.io);
  tcp::resolver::results_type endpoints = resolver.resolve(host_, port_, ec);
  if (ec) return failed("resolve " + host_, ec);
  if (https_) {
    if (!c.tls) {
      c.tls.emplace(asio::ssl::context::tls_client);
      c.tls->set_default_verify_paths(ec);
      if (!ec && !options_.ca_cert_file.empty()) {
        c.tls->load_verify_file(options_.ca_cert_file, ec);
      }
      if (ec) {
        c.tls.reset();
        return failed("certificates", ec);
      }
      c.tls->set_verify_mode(asio::ssl::verify_peer);
    }
    c.secure.emplace(c.io, *c.tls);
    c.secure->set_verify_callback(asio::ssl::host_name_verification(host_));
    // SNI, for names only (not IP literals).
    ErrorCode not_ip;
    asio::ip::make_address(host_, not_ip);
    if (not_ip)
      SSL_set_tlsext_host_name(c.secure->native_handle(), host_.c_str());
  } else {
    c.plain.emplace(c.io);
  }
  beast::tcp_stream& stream = c.tcp();
  stream.expires_after(options_.connect_timeout);
  ec = c.Run([&](auto handler) { stream.async_connect(endpoints, handler); });
  if (ec) {
    c.Close();
    return failed("connect", ec);
  }
  stream.socket().set_option(tcp::no_delay(true), ec);
  if (https_) {
    stream.expires_after(options_.connect_timeout);
    ec = c.Run([&](auto handler) {
      c.secure->async_handshake(asio::ssl::stream_base::client, handler);
    });
    if (ec) {
      c.Close();
      return failed("TLS handshake", ec);
    }
  }
  stream.expires_never();
  return OkStatus();
}

Result<HttpResponse> BeastTransport::Exchange(const HttpRequest& request) {
  Connection& c = *connection_;
  http::request<http::string_body> message;
  message.method_string(request.method);
  message.target(request.path);
  message.version(11);
  bool has_host = false;
  for (const auto& [key, value] : request.headers) {
    has_host = has_host || sigv4::HeaderNameEquals(key, "Host");
    message.insert(key, value);
  }
  if (!has_host) message.set(http::field::host, host_header_);
  message.body() = request.body;
  message.prepare_payload();
  // prepare_payload leaves out Content-Length on an empty POST/PUT body.
  if (request.body.empty() && request.method != "GET" &&
      request.method != "DELETE") {
    message.set(http::field::content_length, "0");
  }

  beast::tcp_stream& stream = c.tcp();
  stream.expires_after(options_.read_timeout);
  ErrorCode ec = c.Run([&](auto handler) {
    if (c.secure) {
      http::async_write(*c.secure, message, handler);
    } else {
      http::async_write(*c.plain, message, handler);
    }
  });
  http::response_parser<http::string_body> parser;
  // No limit. Not boost::none: Boost 1.74 compares the length with the
  // optional, and any length is more than none.
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  if (!ec) {
    ec = c.Run([&](auto handler) {
      if (c.secure) {
        http::async_read(*c.secure, c.buffer, parser, handler);
      } else {
        http::async_read(*c.plain, c.buffer, parser, handler);
      }
    });
  }
  if (ec) {
    c.Close();
    if (ec == beast::error::timeout) {
      return TransportError("timeout",
                            "no response from " + base_url_ + " within " +
                                std::to_string(Millis(options_.read_timeout)) +
                                " ms; the request may have been applied");
    }
    return TransportError("closed", "connection to " + base_url_ +
                                        " closed before the response (" +
                                        ec.message() +
                                        "); the request may have been applied");
  }
  stream.expires_never();
  http::response<http::string_body> answer = parser.release();
  HttpResponse response;
  response.status = static_cast<int>(answer.result_int());
  for (const auto& field : answer) {
    response.headers.emplace_back(std::string(field.name_string()),
                                  std::string(field.value()));
  }
  response.body = std::move(answer.body());
  if (!answer.keep_alive()) c.Close();
  return response;
}

Result<HttpResponse> BeastTransport::Send(const HttpRequest& request) {
  MutexLock lock(mu_);
  if (!connection_ || !connection_->open() || connection_->Stale()) {
    DDBLAB_RETURN_IF_ERROR(Connect());
  }
  return Exchange(request);
}

}  // namespace ddblab::harness
