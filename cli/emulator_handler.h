// cli/emulator_handler.h: the engine's Emulator as the server's
// RequestHandler.
//
// Owns the Emulator; destroying the handler closes the database.
// Thread-safety: as Emulator (Call/CallStreams from many threads).
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "emulator/api/emulator.h"
#include "emulator/server/protocol.h"
#include "emulator/server/request_handler.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

class EmulatorHandler final : public server::RequestHandler {
 public:
  // Emulator::Open(options), wrapped.
  static Result<std::unique_ptr<server::RequestHandler>> Open(
      const Options& options);

  explicit EmulatorHandler(std::unique_ptr<Emulator> emulator)
      : emulator_(std::move(emulator)) {}

  Result<nlohmann::json> Call(std::string_view operation,
                              const nlohmann::json& request) override {
    return emulator_->Call(operation, request);
  }
  Result<nlohmann::json> CallStreams(std::string_view operation,
                                     const nlohmann::json& request) override {
    return emulator_->CallStreams(operation, request);
  }

  DeferredAnswer CallDeferred(std::string_view operation,
                              const nlohmann::json& request) override {
    return emulator_->CallDeferred(operation, request);
  }
  DeferredAnswer CallStreamsDeferred(std::string_view operation,
                                     const nlohmann::json& request) override {
    return emulator_->CallStreamsDeferred(operation, request);
  }
  void StopWaiting() override { emulator_->StopWaiting(); }

  Emulator& emulator() { return *emulator_; }

 private:
  std::unique_ptr<Emulator> emulator_;
};

// Wraps hooks.open so that `adjust` edits the Options (flags of a control
// layer) before the engine opens.
void AdjustOptions(server::ServeHooks& hooks,
                   std::function<void(Options&)> adjust);

// Wraps hooks.add_routes so that, after the routes added before, `add`
// registers routes for the engine's Emulator. `what` names them in the
// InternalServerError given when the handler is not an EmulatorHandler.
void AddEngineRoutes(server::ServeHooks& hooks, std::string what,
                     std::function<Status(Emulator&, server::Protocol&)> add);

}  // namespace ddblab::cli
