#include "emulator/api/error.h"

#include <utility>

namespace ddblab {

std::string_view ErrorTypeName(ErrorType type) {
  switch (type) {
    case ErrorType::kValidation:
      return "ValidationException";
    case ErrorType::kSerialization:
      return "SerializationException";
    case ErrorType::kResourceNotFound:
      return "ResourceNotFoundException";
    case ErrorType::kResourceInUse:
      return "ResourceInUseException";
    case ErrorType::kConditionalCheckFailed:
      return "ConditionalCheckFailedException";
    case ErrorType::kTransactionCanceled:
      return "TransactionCanceledException";
    case ErrorType::kTransactionConflict:
      return "TransactionConflictException";
    case ErrorType::kTransactionInProgress:
      return "TransactionInProgressException";
    case ErrorType::kIdempotentParameterMismatch:
      return "IdempotentParameterMismatchException";
    case ErrorType::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceededException";
    case ErrorType::kThrottling:
      return "ThrottlingException";
    case ErrorType::kRequestLimitExceeded:
      return "RequestLimitExceeded";
    case ErrorType::kLimitExceeded:
      return "LimitExceededException";
    case ErrorType::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceededException";
    case ErrorType::kDuplicateItem:
      return "DuplicateItemException";
    case ErrorType::kExpiredIterator:
      return "ExpiredIteratorException";
    case ErrorType::kTrimmedDataAccess:
      return "TrimmedDataAccessException";
    case ErrorType::kUnknownOperation:
      return "UnknownOperationException";
    case ErrorType::kMissingAuthenticationToken:
      return "MissingAuthenticationTokenException";
    case ErrorType::kIncompleteSignature:
      return "IncompleteSignatureException";
    case ErrorType::kInvalidSignature:
      return "InvalidSignatureException";
    case ErrorType::kUnrecognizedClient:
      return "UnrecognizedClientException";
    case ErrorType::kTableNotFound:
      return "TableNotFoundException";
    case ErrorType::kTableAlreadyExists:
      return "TableAlreadyExistsException";
    case ErrorType::kTableInUse:
      return "TableInUseException";
    case ErrorType::kBackupNotFound:
      return "BackupNotFoundException";
    case ErrorType::kBackupInUse:
      return "BackupInUseException";
    case ErrorType::kPolicyNotFound:
      return "PolicyNotFoundException";
    case ErrorType::kAccessDenied:
      return "AccessDeniedException";
    case ErrorType::kInternalServerError:
      return "InternalServerError";
    case ErrorType::kServiceUnavailable:
      return "ServiceUnavailable";
    case ErrorType::kOutcomeUnknown:
      return "OutcomeUnknown";
  }
  return "InternalServerError";
}

std::string_view Error::Name() const { return ErrorTypeName(type); }

Error Error::Of(ErrorType type, std::string message) {
  return Error{type, std::move(message), nullptr};
}
Error Error::Validation(std::string message) {
  return Of(ErrorType::kValidation, std::move(message));
}
Error Error::Serialization(std::string message) {
  return Of(ErrorType::kSerialization, std::move(message));
}
Error Error::ResourceNotFound(std::string message) {
  return Of(ErrorType::kResourceNotFound, std::move(message));
}
Error Error::ResourceInUse(std::string message) {
  return Of(ErrorType::kResourceInUse, std::move(message));
}
Error Error::ConditionalCheckFailed(std::string message) {
  return Of(ErrorType::kConditionalCheckFailed, std::move(message));
}
Error Error::LimitExceeded(std::string message) {
  return Of(ErrorType::kLimitExceeded, std::move(message));
}
Error Error::Internal(std::string message) {
  return Of(ErrorType::kInternalServerError, std::move(message));
}

std::string ToString(const Error& error) {
  std::string out(error.Name());
  out += ": ";
  out += error.message;
  return out;
}

}  // namespace ddblab
