// fuzz/http_request_fuzz.cc: libFuzzer target for the HTTP front door.
//
// The input is fed to Boost.Beast's request_parser<string_body> with the
// server's limits (headers 64 KiB, body 16 MiB: emulator/server/
// http_session.h) in eager mode, as a connection does; a request that parses
// becomes a WireRequest as Session::Answer builds it (method, target split
// at the first '?', every header, the body) and goes to a Protocol whose
// Authenticator verifies SigV4 (AKIDFUZZ / fuzzsecret, ManualClock at
// 2024-01-01T00:00:00Z) and whose RequestHandler answers {} to everything.
// Every outcome must be a response with a status in 200..599: no crash,
// hang, leak or sanitizer report. The Protocol is built once; only its
// request-id generator keeps state between inputs.
//
//   ./build-fuzz/fuzz/http_request_fuzz -max_total_time=60 \
//       fuzz-corpus/http_request fuzz/corpus/http_request
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/logger.h"
#include "emulator/server/protocol.h"
#include "emulator/server/request_handler.h"

namespace {

namespace http = boost::beast::http;
using ddblab::server::WireRequest;

// http_session.h's kMaxHeaderBytes (an internal header of the server).
constexpr uint32_t kMaxHeaderBytes = 32 * 1024 + 2;

class EmptyHandler : public ddblab::server::RequestHandler {
 public:
  ddblab::Result<nlohmann::json> Call(std::string_view,
                                      const nlohmann::json&) override {
    return nlohmann::json::object();
  }
  ddblab::Result<nlohmann::json> CallStreams(std::string_view,
                                             const nlohmann::json&) override {
    return nlohmann::json::object();
  }
};

struct Server {
  Server()
      : log(nullptr),
        logger(ddblab::server::LogLevel::kError, log),
        authenticator(Config(), clock),
        protocol(handler, authenticator, clock, logger, {}) {}

  static ddblab::server::AuthConfig Config() {
    ddblab::server::AuthConfig config;
    config.mode = ddblab::server::AuthMode::kVerify;
    config.credentials.Add({"AKIDFUZZ", "fuzzsecret", ""});
    return config;
  }

  std::ostream log;  // no buffer: discards
  ddblab::server::Logger logger;
  ddblab::ManualClock clock;
  EmptyHandler handler;
  ddblab::server::Authenticator authenticator;
  ddblab::server::Protocol protocol;
};

std::string_view View(boost::beast::string_view s) {
  return {s.data(), s.size()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Server* server = new Server();
  http::request_parser<http::string_body> parser;
  parser.header_limit(kMaxHeaderBytes);
  parser.body_limit(ddblab::server::kMaxRequestBytes);
  parser.eager(true);
  boost::system::error_code ec;
  size_t offset = 0;
  while (!parser.is_done() && offset < size) {
    const size_t used =
        parser.put(boost::asio::buffer(data + offset, size - offset), ec);
    if (ec == http::error::need_more) break;
    if (ec || used == 0) return 0;
    offset += used;
  }
  if (!parser.is_done()) {
    parser.put_eof(ec);
    if (ec || !parser.is_done()) return 0;
  }
  const auto& request = parser.get();
  WireRequest wire;
  wire.method = std::string(View(request.method_string()));
  const std::string_view target = View(request.target());
  const size_t question = target.find('?');
  wire.path = std::string(target.substr(0, question));
  if (question != std::string_view::npos) {
    wire.query = std::string(target.substr(question + 1));
  }
  for (const auto& field : request) {
    wire.headers.emplace_back(std::string(View(field.name_string())),
                              std::string(View(field.value())));
  }
  wire.body = request.body();
  const ddblab::server::WireResponse response = server->protocol.Handle(wire);
  if (response.status < 200 || response.status > 599) std::abort();
  return 0;
}
