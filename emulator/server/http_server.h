// emulator/server/http_server.h: the Protocol on an event-loop HTTP/1.1
// server (Boost.Asio + Boost.Beast's parser), optionally over TLS.
//
// Every open connection is served as soon as it has a request: reads and
// writes are asynchronous, so an idle keep-alive connection, or a client
// that sent half a request and went silent, holds no thread. There are
// `threads` event loops, each an io_context with its own thread; a new
// connection goes to the loop with the fewest open connections, and its
// reads, Protocol call and writes all run on that loop's thread (no
// hand-off, no wake-up of another thread). A response is one write, tried
// at once without blocking. Handlers may block (a clock wait, a slow engine
// call): a watchdog adds a thread to a loop whose threads have all been
// inside a handler for a few milliseconds without one finishing, so a
// blocked request never stops the others (at most one thread per open
// connection). A response due later (WireResponse::due: a latency fault)
// blocks nothing: it is held, with no thread per response, by one hold
// thread waiting on the engine's clock (http_hold.h), and written when due
// (or the connection dropped, for lost_response); a held request does not
// count as inside a handler. Responses made here rather than by the Protocol
// (400 on an unparseable request, 413 on a body over 16 MB, 400
// RequestLimitExceeded over `request_memory_budget`, 503 when over
// `max_connections` or shutting down) carry the same x-amzn-RequestId /
// x-amz-crc32 / Date headers. A response with `drop_connection` set closes
// the connection without writing a byte.
//
// Connections idle (no byte read or written) for `idle_timeout_seconds`
// are closed. Over `max_connections` open connections, a new connection is
// answered at once with a 503 and closed.
//
// Shutdown(): stop accepting, wait until no request is inside the Protocol,
// answer any later request with 503 without calling the Protocol, write
// every held response at once whatever the clock (they were executed), and
// close every connection once its pending response is written — after it
// returns, the RequestHandler behind the Protocol may be destroyed. Serve()
// returns once the connections are closed.
//
// Ownership: borrows the Protocol and Logger (must outlive it).
// Thread-safety: Bind() then Serve() on one thread; Shutdown() from any
// thread, any number of times.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <ctime>
#include <memory>
#include <string>

#include "emulator/api/mutex.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"
#include "emulator/server/logger.h"
#include "emulator/server/protocol.h"

namespace ddblab::server {

inline constexpr size_t kDefaultMaxConnections = 10000;
inline constexpr size_t kDefaultRequestMemoryBudget = size_t{1} << 30;
// A DynamoDB JSON body parsed into nlohmann::json takes about 18 times its
// size (290 MB for a 16 MB body); with the body itself, 20.
inline constexpr size_t kRequestMemoryFactor = 20;

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8000;  // 0: any free port
  // Event loops (one thread each at start); 0: one per core. Threads are
  // added to a loop while its handlers block (see above).
  size_t threads = 0;
  // Idle connections are closed after this long.
  time_t idle_timeout_seconds = 60;
  // Open connections served at once; over it, new ones get a 503.
  size_t max_connections = kDefaultMaxConnections;
  // Memory that requests being read and answered may take, charged when a
  // request's header arrives (before its body is read) at
  // kRequestMemoryFactor times its Content-Length (16 MB for a chunked
  // body): the body, and the JSON parsed from it once authenticated. A
  // request over what is left is answered 400 RequestLimitExceeded (which
  // SDKs retry) without reading its body.
  size_t request_memory_budget = kDefaultRequestMemoryBudget;
  // Both set: serve HTTPS with this PEM certificate (chain) and key.
  std::string tls_cert_file;
  std::string tls_key_file;
};

// The thread count HttpServer starts with for `threads == 0`.
size_t DefaultThreadCount();

class HttpServer {
 public:
  HttpServer(Protocol& protocol, Logger& logger, HttpServerOptions options);
  ~HttpServer();

  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Loads the TLS certificate and key (if set), binds and listens; returns
  // the bound port. Fails with a message naming the address when the port
  // is taken or the host does not resolve, or naming the file when the
  // certificate or key cannot be loaded.
  Result<int> Bind();

  // Serves connections until Shutdown(); blocks. Call after Bind() succeeded.
  void Serve();

  void Shutdown();

  int port() const { return port_; }

  class Impl;

 private:
  friend class Impl;
  bool EnterRequest();
  void LeaveRequest();

  Protocol& protocol_;
  Logger& logger_;
  HttpServerOptions options_;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;

  Mutex mu_;
  std::condition_variable_any drained_;
  size_t in_flight_ DDBLAB_GUARDED_BY(mu_) = 0;
  bool closed_ DDBLAB_GUARDED_BY(mu_) = false;
};

}  // namespace ddblab::server
