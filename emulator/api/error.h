// emulator/api/error.h: every DynamoDB error ddblab emits, as a value.
//
// An Error carries the DynamoDB exception name (through ErrorType), the exact
// message DynamoDB sends, and optional extra members of the error body
// (CancellationReasons, Item, ...). Only emulator/server knows the wire
// envelope (__type namespace, message casing, HTTP status).
//
// Thread-safety: a plain value type.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ddblab {

enum class ErrorType {
  kValidation,
  kSerialization,
  kResourceNotFound,
  kResourceInUse,
  kConditionalCheckFailed,
  kTransactionCanceled,
  kTransactionConflict,
  kTransactionInProgress,
  kIdempotentParameterMismatch,
  kProvisionedThroughputExceeded,
  kThrottling,
  kRequestLimitExceeded,
  kLimitExceeded,
  kItemCollectionSizeLimitExceeded,
  kDuplicateItem,
  kExpiredIterator,
  kTrimmedDataAccess,
  kUnknownOperation,
  kMissingAuthenticationToken,
  kIncompleteSignature,
  kInvalidSignature,
  kUnrecognizedClient,
  kAccessDenied,
  kTableNotFound,
  // On-demand backups (CreateBackup .. RestoreTableFromBackup).
  kTableAlreadyExists,
  kTableInUse,
  kBackupNotFound,
  kBackupInUse,
  kPolicyNotFound,
  kInternalServerError,
  // HTTP 503 (a `unavailable` fault).
  kServiceUnavailable,
  // Not a DynamoDB exception: the caller cannot know whether the request
  // was applied. In process, the engine's `lost_response` fault (the write
  // was applied, its answer lost; the HTTP server answers it by closing the
  // connection without a response). Over a network, a transport failure
  // seen by a harness backend (connection reset or closed before the
  // response, timeout, corrupted response).
  kOutcomeUnknown,
};

struct Error {
  ErrorType type = ErrorType::kInternalServerError;
  std::string message;
  // Extra members of the error body, e.g. {"CancellationReasons": [...]} or
  // {"Item": {...}}. Null when there are none.
  nlohmann::json extra;

  // The DynamoDB exception name, e.g. "ValidationException".
  std::string_view Name() const;

  static Error Validation(std::string message);
  static Error Serialization(std::string message);
  static Error ResourceNotFound(std::string message);
  static Error ResourceInUse(std::string message);
  static Error ConditionalCheckFailed(std::string message);
  static Error LimitExceeded(std::string message);
  static Error Internal(std::string message);
  static Error Of(ErrorType type, std::string message);

  friend bool operator==(const Error& a, const Error& b) = default;
};

// The exception name for a type, e.g. "ConditionalCheckFailedException".
std::string_view ErrorTypeName(ErrorType type);

// For test output: "ValidationException: <message>".
std::string ToString(const Error& error);

}  // namespace ddblab
