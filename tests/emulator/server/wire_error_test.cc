#include "emulator/server/wire_error.h"

#include <gtest/gtest.h>

#include "emulator/server/crc32.h"

namespace ddblab::server {
namespace {

using nlohmann::json;

TEST(WireErrorTest, MissingAuthenticationTokenMatchesRecordedBody) {
  Error e = Error::Of(ErrorType::kMissingAuthenticationToken,
                      "Request is missing Authentication Token");
  WireResponse r = ErrorResponse(e);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.content_type, "application/x-amz-json-1.0");
  EXPECT_EQ(r.body,
            "{\"__type\":\"com.amazon.coral.service#"
            "MissingAuthenticationTokenException\",\"message\":\"Request is "
            "missing Authentication Token\"}");
  EXPECT_EQ(Crc32(r.body), 2088342776u);
}

TEST(WireErrorTest, ValidationUsesCoralValidateNamespace) {
  EXPECT_EQ(ErrorBody(Error::Validation("bad")),
            "{\"__type\":\"com.amazon.coral.validate#ValidationException\","
            "\"message\":\"bad\"}");
}

TEST(WireErrorTest, SerializationUsesCapitalMessage) {
  EXPECT_EQ(
      ErrorBody(Error::Serialization("Start of list found where not expected")),
      "{\"__type\":\"com.amazon.coral.service#SerializationException\","
      "\"Message\":\"Start of list found where not expected\"}");
  EXPECT_EQ(ErrorBody(Error::Serialization("")),
            "{\"__type\":\"com.amazon.coral.service#SerializationException\"}");
}

TEST(WireErrorTest, UnknownOperationHasNoMessage) {
  EXPECT_EQ(ErrorBody(Error::Of(ErrorType::kUnknownOperation, "")),
            "{\"__type\":\"com.amazon.coral.service#"
            "UnknownOperationException\"}");
}

TEST(WireErrorTest, TransactionCanceledPutsReasonsBeforeMessage) {
  Error e = Error::Of(ErrorType::kTransactionCanceled,
                      "Transaction cancelled, please refer cancellation "
                      "reasons for specific reasons [ConditionalCheckFailed, "
                      "None]");
  e.extra = json::parse(
      R"({"CancellationReasons":[{"Code":"ConditionalCheckFailed","Message":"The conditional request failed"},{"Code":"None"}]})");
  EXPECT_EQ(
      ErrorBody(e),
      "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
      "TransactionCanceledException\",\"CancellationReasons\":[{\"Code\":"
      "\"ConditionalCheckFailed\",\"Message\":\"The conditional request "
      "failed\"},{\"Code\":\"None\"}],\"Message\":\"Transaction cancelled, "
      "please refer cancellation reasons for specific reasons "
      "[ConditionalCheckFailed, None]\"}");
}

TEST(WireErrorTest, ConditionalCheckFailedCarriesItem) {
  Error e = Error::ConditionalCheckFailed("The conditional request failed");
  e.extra = json::parse(R"({"Item":{"pk":{"S":"a"}}})");
  EXPECT_EQ(ErrorBody(e),
            "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
            "ConditionalCheckFailedException\",\"Item\":{\"pk\":{\"S\":\"a\"}"
            "},\"message\":\"The conditional request failed\"}");
}

TEST(WireErrorTest, ExtraCannotOverrideTypeOrMessage) {
  Error e = Error::Validation("real");
  e.extra = json::parse(R"({"__type":"x#Y","message":"fake"})");
  EXPECT_EQ(ErrorBody(e),
            "{\"__type\":\"com.amazon.coral.validate#ValidationException\","
            "\"message\":\"real\"}");
}

struct EnvelopeCase {
  ErrorType type;
  std::string_view ns;
  std::string_view message_key;
  int status;
};

TEST(WireErrorTest, NamespaceCasingAndStatusPerType) {
  const EnvelopeCase cases[] = {
      {ErrorType::kValidation, "com.amazon.coral.validate", "message", 400},
      {ErrorType::kSerialization, "com.amazon.coral.service", "Message", 400},
      {ErrorType::kUnknownOperation, "com.amazon.coral.service", "message",
       400},
      {ErrorType::kMissingAuthenticationToken, "com.amazon.coral.service",
       "message", 400},
      {ErrorType::kIncompleteSignature, "com.amazon.coral.service", "message",
       400},
      {ErrorType::kInvalidSignature, "com.amazon.coral.service", "message",
       400},
      {ErrorType::kUnrecognizedClient, "com.amazon.coral.service", "message",
       400},
      {ErrorType::kAccessDenied, "com.amazon.coral.service", "Message", 400},
      {ErrorType::kResourceNotFound, "com.amazonaws.dynamodb.v20120810",
       "message", 400},
      {ErrorType::kResourceInUse, "com.amazonaws.dynamodb.v20120810", "message",
       400},
      {ErrorType::kConditionalCheckFailed, "com.amazonaws.dynamodb.v20120810",
       "message", 400},
      {ErrorType::kTransactionCanceled, "com.amazonaws.dynamodb.v20120810",
       "Message", 400},
      {ErrorType::kTransactionConflict, "com.amazonaws.dynamodb.v20120810",
       "message", 400},
      {ErrorType::kTransactionInProgress, "com.amazonaws.dynamodb.v20120810",
       "Message", 400},
      {ErrorType::kIdempotentParameterMismatch,
       "com.amazonaws.dynamodb.v20120810", "Message", 400},
      {ErrorType::kProvisionedThroughputExceeded,
       "com.amazonaws.dynamodb.v20120810", "message", 400},
      {ErrorType::kThrottling, "com.amazonaws.dynamodb.v20120810", "message",
       400},
      {ErrorType::kRequestLimitExceeded, "com.amazonaws.dynamodb.v20120810",
       "message", 400},
      {ErrorType::kLimitExceeded, "com.amazonaws.dynamodb.v20120810", "message",
       400},
      {ErrorType::kItemCollectionSizeLimitExceeded,
       "com.amazonaws.dynamodb.v20120810", "message", 400},
      {ErrorType::kDuplicateItem, "com.amazonaws.dynamodb.v20120810", "message",
       400},
      {ErrorType::kExpiredIterator, "com.amazonaws.dynamodb.v20120810",
       "message", 400},
      {ErrorType::kTrimmedDataAccess, "com.amazonaws.dynamodb.v20120810",
       "message", 400},
      {ErrorType::kInternalServerError, "com.amazonaws.dynamodb.v20120810",
       "message", 500},
  };
  for (const EnvelopeCase& c : cases) {
    Error e = Error::Of(c.type, "text");
    WireResponse r = ErrorResponse(e);
    SCOPED_TRACE(std::string(e.Name()));
    EXPECT_EQ(r.status, c.status);
    json body = json::parse(r.body);
    EXPECT_EQ(body["__type"], std::string(c.ns) + "#" + std::string(e.Name()));
    EXPECT_EQ(body[std::string(c.message_key)], "text");
    EXPECT_EQ(body.size(), 2u);
    EXPECT_TRUE(r.body.starts_with("{\"__type\":"));
  }
}

TEST(WireErrorTest, ControlPlaneRateExceededIsCoralAvailability) {
  EXPECT_EQ(ErrorBody(Error::Of(ErrorType::kThrottling, "Rate exceeded")),
            "{\"__type\":\"com.amazon.coral.availability#ThrottlingException\","
            "\"message\":\"Rate exceeded\"}");
}

}  // namespace
}  // namespace ddblab::server
