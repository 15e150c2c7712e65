// emulator/server/http_server.h: the Protocol on a cpp-httplib server.
//
// Binds a TCP socket (port 0: any free port), serves HTTP/1.1 with
// keep-alive on a thread pool sized to the machine, and hands every request
// to the Protocol. Responses the HTTP library makes itself (400 on a bad
// request line, 413 on a body over 16 MB) get the same x-amzn-RequestId /
// x-amz-crc32 / Date headers, and the CRC is recomputed when the library
// compresses a body, so x-amz-crc32 always matches the bytes sent.
//
// Shutdown(): stop accepting, wait until no request is inside the Protocol,
// and answer any later request with 503 without calling the Protocol — after
// it returns, the RequestHandler behind the Protocol may be destroyed. Serve()
// then returns once open connections finish (at most the keep-alive timeout).
//
// Ownership: borrows the Protocol and Logger (must outlive it).
// Thread-safety: Bind() then Serve() on one thread; Shutdown() from any
// thread, any number of times.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>

#include "emulator/api/result.h"
#include "emulator/server/logger.h"
#include "emulator/server/protocol.h"

namespace ddblab::server {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8000;  // 0: any free port
  // Worker threads; 0 sizes the pool to the machine (4 per core, at least
  // 16: a keep-alive connection holds a worker while it is open).
  size_t threads = 0;
  time_t keep_alive_timeout_seconds = 5;
};

// The pool size HttpServer uses for `threads == 0`.
size_t DefaultThreadCount();

class HttpServer {
 public:
  HttpServer(Protocol& protocol, Logger& logger, HttpServerOptions options);
  ~HttpServer();

  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; returns the bound port. Fails with a message naming
  // the address when the port is taken or the host does not resolve.
  Result<int> Bind();

  // Serves connections until Shutdown(); blocks. Call after Bind() succeeded.
  void Serve();

  void Shutdown();

  int port() const { return port_; }

 private:
  class Impl;
  bool EnterRequest();
  void LeaveRequest();

  Protocol& protocol_;
  Logger& logger_;
  HttpServerOptions options_;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;

  std::mutex mu_;
  std::condition_variable drained_;
  size_t in_flight_ = 0;  // guarded by mu_
  bool closed_ = false;   // guarded by mu_
};

}  // namespace ddblab::server
