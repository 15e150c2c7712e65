// cli/namespace_router.h: `ddblab serve --namespace access-key|
// access-key+region`: one Emulator per namespace, picked by who signed the
// request (server::Caller), as DynamoDB Local keeps a database per access
// key and region without -sharedDb.
//
// Each namespace is opened on first use (a DynamoDB call signed with its
// key, or a control request naming it) with the same Options but its own
// database file (namespace_files.h): its own tables, streams, TTL queue,
// fault plan and counters, capacity ledger and consistency model. They share
// the one clock (Options.clock: with --clock manual every namespace sees
// each move). Each namespace also has a Protocol of its own that holds its
// control routes (the routes cli/control_*.h add for one engine, with their
// extensions: hosted mappings, reset and clock hooks); the server's Protocol
// forwards a control request with ?namespace= to it
// (control_namespaces.h).
//
// With mode kShared there is no router: the server's handler is the one
// EmulatorHandler (today's cost).
//
// Ownership: owns the namespaces (engines and their control Protocols); a
// namespace lives until the router is destroyed. Thread-safety: CallAs,
// Get, List and ForEach may run on many threads at once (one mutex guards
// the map; opening a namespace holds it); SetControlRoutes before serving;
// StopControl once at shutdown, after the server drained.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/namespace_files.h"
#include "emulator/api/clock.h"
#include "emulator/api/options.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/logger.h"
#include "emulator/server/protocol.h"
#include "emulator/server/request_handler.h"

namespace ddblab::cli {

class NamespaceRouter final : public server::RequestHandler {
 public:
  using OpenFn = std::function<Result<std::unique_ptr<server::RequestHandler>>(
      const Options&)>;
  using AddRoutesFn =
      std::function<Status(server::RequestHandler&, server::Protocol&)>;

  // One namespace: its engine and the Protocol holding its control routes
  // (null until SetControlRoutes).
  struct Namespace {
    NamespaceKey key;
    std::unique_ptr<server::RequestHandler> handler;
    std::unique_ptr<server::Protocol> control;
  };

  // `open` opens one engine (the hooks' chain); `base` are the server's
  // Options (db_path is --db: each namespace gets NamespaceDbPath of it).
  // `log` receives the namespaces' control-route errors.
  NamespaceRouter(NamespaceMode mode, Options base, OpenFn open,
                  std::ostream& log);
  ~NamespaceRouter() override;

  // Opens every namespace whose file lies next to --db (a restart).
  Status OpenExisting();

  // `add` registers the control routes of one engine on a Protocol; run
  // for every namespace opened so far and every later one.
  Status SetControlRoutes(AddRoutesFn add);

  // The namespace of `key`, opened (empty, or from its file) if new.
  Result<Namespace*> Get(const NamespaceKey& key);
  // The namespace a request signed by `caller` goes to.
  NamespaceKey KeyOf(const server::Caller& caller) const;
  // The namespaces opened so far, sorted by key.
  std::vector<Namespace*> List() const;

  NamespaceMode mode() const { return mode_; }
  // The server's clock (Options.clock, else a SystemClock of its own).
  Clock& clock() { return *clock_; }

  // Runs every namespace's control-extension stop hooks (hosted mappings
  // let go of their engines).
  void StopControl();

  // Without a caller there is no namespace: an InternalServerError.
  Result<nlohmann::json> Call(std::string_view operation,
                              const nlohmann::json& request) override;
  Result<nlohmann::json> CallStreams(std::string_view operation,
                                     const nlohmann::json& request) override;
  DeferredAnswer CallAs(const server::Caller& caller,
                        std::string_view operation,
                        const nlohmann::json& request) override;
  DeferredAnswer CallStreamsAs(const server::Caller& caller,
                               std::string_view operation,
                               const nlohmann::json& request) override;
  void StopWaiting() override;

 private:
  // The caller's namespace (opened on first use); a failure to open it is
  // logged and becomes an InternalServerError naming it.
  Result<Namespace*> OpenFor(const server::Caller& caller);
  Result<Namespace*> GetLocked(const NamespaceKey& key);
  Status AddControlLocked(Namespace& ns);

  const NamespaceMode mode_;
  const Options base_;
  const OpenFn open_;
  std::shared_ptr<Clock> clock_;
  // What each namespace's control Protocol borrows: access is checked by
  // the server's Protocol before it forwards, so these accept everything.
  server::Logger logger_;
  server::Authenticator authenticator_;

  mutable std::mutex mu_;
  AddRoutesFn add_routes_;                                  // guarded by mu_
  std::map<NamespaceKey, std::unique_ptr<Namespace>> map_;  // guarded by mu_
  bool stopping_ = false;                                   // guarded by mu_
};

}  // namespace ddblab::cli
