// harness/consumer/event.h: the JSON Lambda builds for a DynamoDB stream
// mapping: a record as the function receives it, the on-failure invocation
// record, and the ISO-8601 times both use.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"

namespace ddblab::harness::consumer {

using json = nlohmann::json;

// A GetRecords record as Lambda delivers it: the same members plus
// eventSourceARN, and the TTL service's userIdentity with Lambda's lower-case
// member names ({"type": "Service", "principalId": "dynamodb.amazonaws.com"}).
// Takes the record by value: a caller that no longer needs it moves it in.
json ToLambdaRecord(json streams_record, std::string_view stream_arn);

// The length of value.dump() (compact, UTF-8 kept as is), counted without
// writing it out. For the 6 MB payload limit.
size_t SerializedSize(const json& value);

// "2019-11-14T00:13:49.717Z" (with_millis) or "2019-11-14T00:13:19Z".
std::string IsoTime(TimePoint t, bool with_millis);

// arn:aws:lambda:<region>:<account>:function:<name> from the stream ARN's
// region and account; a name that already is an ARN is returned as is.
std::string FunctionArn(std::string_view function_name,
                        std::string_view stream_arn);

struct DiscardedBatch {
  std::string condition;  // RetryAttemptsExhausted | RecordAgeExceeded
  int64_t invoke_count = 0;
  std::string request_id;
  std::string function_arn;
  std::string shard_id;
  std::string stream_arn;
  std::string first_sequence_number;
  std::string last_sequence_number;
  int64_t first_created = 0;  // epoch seconds
  int64_t last_created = 0;
  int64_t batch_size = 0;
};

// The invocation record Lambda sends to the OnFailure destination.
json OnFailureRecord(const DiscardedBatch& batch, TimePoint now);

}  // namespace ddblab::harness::consumer
