// emulator/server/handler_slot.h: a RequestHandler that forwards to the
// engine's once it is open (serve.cc, embedded_server.cc).
//
// Lets the port be bound before the engine opens (the engine learns its
// endpoint address), and the engine be destroyed (database closed) while
// the Protocol and server still exist.
//
// Ownership: owns the handler set.
// Thread-safety: Set() happens before serving and Reset() after the server
// drained, so no call races them; the calls are the handler's.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "emulator/server/request_handler.h"

namespace ddblab::server {

class HandlerSlot final : public RequestHandler {
 public:
  void Set(std::unique_ptr<RequestHandler> handler) {
    handler_ = std::move(handler);
  }
  void Reset() { handler_.reset(); }
  RequestHandler& get() { return *handler_; }

  Result<nlohmann::json> Call(std::string_view operation,
                              const nlohmann::json& request) override {
    return handler_->Call(operation, request);
  }
  Result<nlohmann::json> CallStreams(std::string_view operation,
                                     const nlohmann::json& request) override {
    return handler_->CallStreams(operation, request);
  }
  DeferredAnswer CallDeferred(std::string_view operation,
                              const nlohmann::json& request) override {
    return handler_->CallDeferred(operation, request);
  }
  DeferredAnswer CallStreamsDeferred(std::string_view operation,
                                     const nlohmann::json& request) override {
    return handler_->CallStreamsDeferred(operation, request);
  }
  DeferredAnswer CallAs(const Caller& caller, std::string_view operation,
                        const nlohmann::json& request) override {
    return handler_->CallAs(caller, operation, request);
  }
  DeferredAnswer CallStreamsAs(const Caller& caller, std::string_view operation,
                               const nlohmann::json& request) override {
    return handler_->CallStreamsAs(caller, operation, request);
  }
  void StopWaiting() override {
    if (handler_) handler_->StopWaiting();
  }

 private:
  std::unique_ptr<RequestHandler> handler_;
};

}  // namespace ddblab::server
