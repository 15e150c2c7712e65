// harness/consumer/config.h: an event source mapping's configuration.
//
// The fields of Lambda's CreateEventSourceMapping that apply to a DynamoDB
// stream, with Lambda's ranges and defaults. ParseEsmConfig reads them from
// the request's JSON field names and answers a bad value with Lambda's
// validation error; ToJson renders the mapping object Lambda returns.
//
// Lambda's InvalidParameterValueException has no ErrorType of its own in
// ddblab's error catalog: such an Error has type kValidation and carries its
// Lambda name in extra["__type"]; LambdaErrorName() reads it.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::harness::consumer {

using json = nlohmann::json;

struct EsmConfig {
  // One of the two names the stream: the stream ARN, or a table whose latest
  // stream is read (a ddblab convenience; Lambda takes the ARN only).
  std::string event_source_arn;
  std::string table_name;
  std::string function_name;  // name or ARN
  bool enabled = true;
  std::string starting_position;  // TRIM_HORIZON | LATEST
  int64_t batch_size = 100;
  int64_t maximum_batching_window_in_seconds = 0;
  int64_t parallelization_factor = 1;
  int64_t maximum_retry_attempts = -1;
  int64_t maximum_record_age_in_seconds = -1;
  bool bisect_batch_on_function_error = false;
  bool report_batch_item_failures = false;   // FunctionResponseTypes
  std::string on_failure_destination;        // empty: none
  int64_t tumbling_window_in_seconds = 0;    // 0: no window
  std::vector<std::string> filter_patterns;  // FilterCriteria.Filters[].Pattern
};

// Reads a CreateEventSourceMapping request body (Lambda's field names).
// Unknown fields are ignored, as the fields Lambda has for other sources.
Result<EsmConfig> ParseEsmConfig(const json& request);

// Applies an UpdateEventSourceMapping body to `config` (StartingPosition and
// EventSourceArn cannot change). `FilterCriteria: {}` clears the filters.
Result<EsmConfig> UpdateEsmConfig(const EsmConfig& config, const json& request);

// Checks ranges and the filter patterns.
Status ValidateEsmConfig(const EsmConfig& config);

// The configuration fields of the mapping object (no UUID/State).
json ConfigToJson(const EsmConfig& config);

// "InvalidParameterValueException" for errors made by InvalidParameter(),
// else the error's own name.
std::string LambdaErrorName(const Error& error);
Error InvalidParameter(std::string message);

}  // namespace ddblab::harness::consumer
