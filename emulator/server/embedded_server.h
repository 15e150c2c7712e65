// emulator/server/embedded_server.h: the server of `ddblab serve`, started
// and stopped inside another program (`ddblab run` with command actors
// starts one per run).
//
//   ServeOptions options;  options.port = 0;  // any free port
//   auto server = EmbeddedServer::Start(options, hooks);
//   ... (*server)->endpoint() ...            // "http://127.0.0.1:41234"
//   server->reset();                         // stops it
//
// What RunServe does, without its process-wide parts: no signal handling,
// no control token file (the token is only in memory: control_token()), no
// startup lines. With hooks.schedule, a ScheduleGate sits in front of the
// engine as in RunServe. Requests are served on a thread of the server's own
// from Start until Stop. Stop (and the destructor) shut down as RunServe does
// after a signal: stop the handler's waits, stop accepting and finish
// in-flight requests, stop the extensions, close the engine; then wait
// for the serving thread (open keep-alive connections are closed).
//
// Ownership: owns the engine's handler, the Protocol and the HTTP server;
// the hooks are used during Start only.
// Thread-safety: Start, Stop and the destructor from one thread; the
// accessors from any thread.
#pragma once

#include <memory>
#include <string>

#include "emulator/api/result.h"
#include "emulator/server/serve.h"

namespace ddblab::server {

class EmbeddedServer {
 public:
  // Binds, opens the engine through `hooks` and serves. An error says why
  // (the port, the database, a control route).
  static Result<std::unique_ptr<EmbeddedServer>> Start(
      const ServeOptions& options, const ServeHooks& hooks);
  ~EmbeddedServer();

  EmbeddedServer(const EmbeddedServer&) = delete;
  EmbeddedServer& operator=(const EmbeddedServer&) = delete;

  int port() const;
  const std::string& endpoint() const;  // "http://127.0.0.1:PORT"
  // The X-Ddblab-Token of the control endpoints (ControlMode kLocalToken),
  // else "".
  const std::string& control_token() const;

  // Shuts down (see above); later calls do nothing.
  void Stop();

  class State;

 private:
  explicit EmbeddedServer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace ddblab::server
