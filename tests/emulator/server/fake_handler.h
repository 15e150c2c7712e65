// tests/emulator/server/fake_handler.h: a RequestHandler for server tests.
//
// Records every call (and who signed it) and answers with `answer` (default:
// echoes
// {"Operation": op, "Request": body}). Thread-safe.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "emulator/server/request_handler.h"

namespace ddblab::server {

class FakeHandler : public RequestHandler {
 public:
  struct Call {
    std::string service;  // "dynamodb" or "streams"
    std::string operation;
    nlohmann::json request;
    Caller caller;  // empty when called without one (Call / CallStreams)
  };
  using Answer = std::function<Result<nlohmann::json>(
      std::string_view operation, const nlohmann::json& request)>;

  Result<nlohmann::json> Call(std::string_view operation,
                              const nlohmann::json& request) override {
    return Record("dynamodb", operation, request);
  }
  Result<nlohmann::json> CallStreams(std::string_view operation,
                                     const nlohmann::json& request) override {
    return Record("streams", operation, request);
  }
  DeferredAnswer CallAs(const Caller& caller, std::string_view operation,
                        const nlohmann::json& request) override {
    return {Record("dynamodb", operation, request, caller), std::nullopt};
  }
  DeferredAnswer CallStreamsAs(const Caller& caller, std::string_view operation,
                               const nlohmann::json& request) override {
    return {Record("streams", operation, request, caller), std::nullopt};
  }

  std::vector<struct Call> calls() {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }

  Answer answer;

 private:
  Result<nlohmann::json> Record(std::string service, std::string_view op,
                                const nlohmann::json& request,
                                const Caller& caller = {}) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      calls_.push_back({std::move(service), std::string(op), request, caller});
    }
    if (answer) return answer(op, request);
    return nlohmann::json{{"Operation", op}, {"Request", request}};
  }

  std::mutex mu_;
  std::vector<struct Call> calls_;
};

}  // namespace ddblab::server
