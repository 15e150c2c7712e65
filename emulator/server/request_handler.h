// emulator/server/request_handler.h: what the HTTP front door calls.
//
// The server parses the wire request, authenticates it and hands the
// operation name and JSON body to a RequestHandler; the answer (a JSON body
// or an Error) goes back on the wire. The engine's Emulator is adapted to it
// by EmulatorHandler (cli/emulator_handler.h); tests use fakes.
//
// Thread-safety: implementations must accept concurrent calls.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "emulator/api/result.h"

namespace ddblab::server {

class RequestHandler {
 public:
  virtual ~RequestHandler() = default;

  // A DynamoDB operation ("PutItem"), the request body as sent.
  virtual Result<nlohmann::json> Call(std::string_view operation,
                                      const nlohmann::json& request) = 0;
  // A DynamoDB Streams operation ("GetRecords").
  virtual Result<nlohmann::json> CallStreams(std::string_view operation,
                                             const nlohmann::json& request) = 0;
};

}  // namespace ddblab::server
