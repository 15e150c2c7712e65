// emulator/server/target.h: the X-Amz-Target header.
//
// "DynamoDB_20120810.<Op>" names a DynamoDB operation and
// "DynamoDBStreams_20120810.<Op>" a DynamoDB Streams one. Only operations in
// the current service models are accepted (emulator/api/operation.h's
// InApiModel, the one list of names); anything else is an
// UnknownOperationException at the protocol layer. Whether an accepted
// operation is implemented is the engine's business.
//
// Thread-safety: pure functions over constant tables.
#pragma once

#include <optional>
#include <string_view>

namespace ddblab::server {

enum class Service { kDynamoDB, kStreams };

struct Target {
  Service service;
  std::string_view operation;  // points into the parsed header
};

inline constexpr std::string_view kDynamoDbPrefix = "DynamoDB_20120810";
inline constexpr std::string_view kStreamsPrefix = "DynamoDBStreams_20120810";

// Nullopt when the prefix or the operation is unknown.
std::optional<Target> ParseTarget(std::string_view header);

// Whether `op` is an operation of the service's model.
bool IsKnownOperation(Service service, std::string_view op);

}  // namespace ddblab::server
