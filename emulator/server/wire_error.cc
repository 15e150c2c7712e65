#include "emulator/server/wire_error.h"

#include <nlohmann/json.hpp>

namespace ddblab::server {
namespace {

std::string Dump(const nlohmann::json& value) {
  // Never throws: invalid UTF-8 (which a parsed request cannot contain) is
  // replaced rather than reported.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string_view ErrorNamespace(const Error& error) {
  switch (error.type) {
    case ErrorType::kValidation:
      return "com.amazon.coral.validate";
    case ErrorType::kSerialization:
    case ErrorType::kUnknownOperation:
    case ErrorType::kMissingAuthenticationToken:
    case ErrorType::kIncompleteSignature:
    case ErrorType::kInvalidSignature:
    case ErrorType::kUnrecognizedClient:
    case ErrorType::kAccessDenied:
      return "com.amazon.coral.service";
    case ErrorType::kThrottling:
      // Control-plane throttling is a Coral availability error with the
      // text "Rate exceeded"; data-plane ThrottlingException is modeled.
      if (error.message == "Rate exceeded")
        return "com.amazon.coral.availability";
      return "com.amazonaws.dynamodb.v20120810";
    default:
      return "com.amazonaws.dynamodb.v20120810";
  }
}

bool UsesCapitalMessage(ErrorType type) {
  switch (type) {
    case ErrorType::kTransactionCanceled:
    case ErrorType::kIdempotentParameterMismatch:
    case ErrorType::kTransactionInProgress:
    case ErrorType::kSerialization:
    // Observed AWS body: {"__type":"com.amazon.coral.service#
    // AccessDeniedException","Message":"User: ... is not authorized ..."}.
    case ErrorType::kAccessDenied:
      return true;
    default:
      return false;
  }
}

int HttpStatusFor(ErrorType type) {
  if (type == ErrorType::kServiceUnavailable) return 503;
  return type == ErrorType::kInternalServerError ? 500 : 400;
}

std::string ErrorBody(const Error& error) {
  // nlohmann objects keep their keys in byte order, which is the order AWS
  // writes the members after "__type".
  nlohmann::json members = nlohmann::json::object();
  if (error.extra.is_object()) {
    for (const auto& [key, value] : error.extra.items()) {
      if (key != "__type") members[key] = value;
    }
  }
  if (!error.message.empty()) {
    members[UsesCapitalMessage(error.type) ? "Message" : "message"] =
        error.message;
  }
  std::string type(ErrorNamespace(error));
  type += '#';
  type += error.Name();
  std::string body = "{\"__type\":";
  body += Dump(type);
  for (const auto& [key, value] : members.items()) {
    body += ',';
    body += Dump(key);
    body += ':';
    body += Dump(value);
  }
  body += '}';
  return body;
}

WireResponse ErrorResponse(const Error& error) {
  WireResponse response;
  response.status = HttpStatusFor(error.type);
  response.content_type = std::string(kAmzJson10);
  response.body = ErrorBody(error);
  response.drop_connection = error.type == ErrorType::kOutcomeUnknown;
  return response;
}

}  // namespace ddblab::server
