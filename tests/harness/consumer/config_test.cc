// tests/harness/consumer/config_test.cc: CreateEventSourceMapping fields,
// defaults, ranges and Lambda's validation errors.
#include "harness/consumer/config.h"

#include <gtest/gtest.h>

namespace ddblab::harness::consumer {
namespace {

json Base() {
  return {{"EventSourceArn",
           "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/"
           "2024-01-01T00:00:00.000"},
          {"FunctionName", "f"},
          {"StartingPosition", "TRIM_HORIZON"}};
}

Error ParseError(json fields) {
  json request = Base();
  request.update(fields);
  auto out = ParseEsmConfig(request);
  EXPECT_FALSE(out.ok()) << request.dump();
  return out.ok() ? Error{} : out.error();
}

TEST(EsmConfigTest, Defaults) {
  auto c = ParseEsmConfig(Base());
  ASSERT_TRUE(c.ok()) << ToString(c.error());
  EXPECT_TRUE(c->enabled);
  EXPECT_EQ(c->batch_size, 100);
  EXPECT_EQ(c->maximum_batching_window_in_seconds, 0);
  EXPECT_EQ(c->parallelization_factor, 1);
  EXPECT_EQ(c->maximum_retry_attempts, -1);
  EXPECT_EQ(c->maximum_record_age_in_seconds, -1);
  EXPECT_FALSE(c->bisect_batch_on_function_error);
  EXPECT_FALSE(c->report_batch_item_failures);
  EXPECT_EQ(c->tumbling_window_in_seconds, 0);
  EXPECT_TRUE(c->filter_patterns.empty());
  json j = ConfigToJson(*c);
  EXPECT_EQ(j["FunctionResponseTypes"], json::array());
  EXPECT_EQ(j["DestinationConfig"], json::object());
  EXPECT_FALSE(j.contains("FilterCriteria"));
}

TEST(EsmConfigTest, RangesUseLambdasValidationText) {
  Error e = ParseError({{"BatchSize", 0}});
  EXPECT_EQ(LambdaErrorName(e), "ValidationException");
  EXPECT_EQ(e.message,
            "1 validation error detected: Value '0' at 'batchSize' failed to "
            "satisfy constraint: Member must have value greater than or equal "
            "to 1");
  e = ParseError({{"BatchSize", 10001}, {"ParallelizationFactor", 11}});
  EXPECT_EQ(e.message,
            "2 validation errors detected: Value '10001' at 'batchSize' failed "
            "to satisfy constraint: Member must have value less than or equal "
            "to 10000; Value '11' at 'parallelizationFactor' failed to satisfy "
            "constraint: Member must have value less than or equal to 10");
  EXPECT_EQ(ParseError({{"MaximumBatchingWindowInSeconds", 301}}).message,
            "1 validation error detected: Value '301' at "
            "'maximumBatchingWindowInSeconds' failed to satisfy constraint: "
            "Member must have value less than or equal to 300");
  EXPECT_EQ(ParseError({{"MaximumRetryAttempts", -2}}).message,
            "1 validation error detected: Value '-2' at 'maximumRetryAttempts' "
            "failed to satisfy constraint: Member must have value greater "
            "than or equal to -1");
  EXPECT_EQ(ParseError({{"MaximumRecordAgeInSeconds", 604801}}).message,
            "1 validation error detected: Value '604801' at "
            "'maximumRecordAgeInSeconds' failed to satisfy constraint: Member "
            "must have value less than or equal to 604800");
  EXPECT_EQ(ParseError({{"TumblingWindowInSeconds", 901}}).message,
            "1 validation error detected: Value '901' at "
            "'tumblingWindowInSeconds' failed to satisfy constraint: Member "
            "must have value less than or equal to 900");
  EXPECT_EQ(ParseError({{"FunctionResponseTypes", {"Nope"}}}).message,
            "1 validation error detected: Value '[\"Nope\"]' at "
            "'functionResponseTypes' failed to satisfy constraint: Member must "
            "satisfy constraint: [Member must satisfy enum value set: "
            "[ReportBatchItemFailures]]");
  // Edges are accepted.
  json edges = Base();
  edges.update({{"BatchSize", 10000},
                {"MaximumBatchingWindowInSeconds", 300},
                {"ParallelizationFactor", 10},
                {"MaximumRetryAttempts", 10000},
                {"MaximumRecordAgeInSeconds", 604800},
                {"TumblingWindowInSeconds", 900}});
  EXPECT_TRUE(ParseEsmConfig(edges).ok());
}

TEST(EsmConfigTest, StartingPositionAndSource) {
  json no_start = Base();
  no_start.erase("StartingPosition");
  auto e = ParseEsmConfig(no_start);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(LambdaErrorName(e.error()), "InvalidParameterValueException");
  Error ts = ParseError({{"StartingPosition", "AT_TIMESTAMP"}});
  EXPECT_EQ(LambdaErrorName(ts), "InvalidParameterValueException");
  EXPECT_EQ(ParseError({{"StartingPosition", "OLDEST"}}).message,
            "1 validation error detected: Value 'OLDEST' at "
            "'startingPosition' failed to satisfy constraint: Member must "
            "satisfy enum value set: [TRIM_HORIZON, LATEST, AT_TIMESTAMP]");
  json no_source = Base();
  no_source.erase("EventSourceArn");
  EXPECT_EQ(ParseEsmConfig(no_source).error().message,
            "1 validation error detected: Value null at 'eventSourceArn' "
            "failed to satisfy constraint: Member must not be null");
  json no_function = Base();
  no_function.erase("FunctionName");
  EXPECT_EQ(ParseEsmConfig(no_function).error().message,
            "1 validation error detected: Value null at 'functionName' failed "
            "to satisfy constraint: Member must not be null");
  EXPECT_EQ(ParseError({{"BatchSize", "10"}}).type, ErrorType::kSerialization);
}

TEST(EsmConfigTest, InvalidFilterNamesTheFilter) {
  Error e = ParseError(
      {{"FilterCriteria",
        {{"Filters",
          {{{"Pattern", R"({"eventName": ["INSERT"]})"}},
           {{"Pattern", R"({"eventName": [{"wildcard": "IN*"}]})"}}}}}}});
  EXPECT_EQ(LambdaErrorName(e), "InvalidParameterValueException");
  EXPECT_EQ(e.message,
            "Invalid filter pattern definition. Filters[1]: field eventName: "
            "\"wildcard\" is not supported by event source mapping filters");
  json six = json::array();
  for (int i = 0; i < 6; ++i) six.push_back({{"Pattern", "{}"}});
  EXPECT_EQ(ParseError({{"FilterCriteria", {{"Filters", six}}}}).message,
            "FilterCriteria has 6 filters; at most 5 are allowed.");
}

TEST(EsmConfigTest, UpdateKeepsTheRestAndEmptyFilterCriteriaClears) {
  json request = Base();
  request["FilterCriteria"] = {
      {"Filters", {{{"Pattern", R"({"eventName": ["INSERT"]})"}}}}};
  auto c = ParseEsmConfig(request);
  ASSERT_TRUE(c.ok());
  auto u = UpdateEsmConfig(
      *c, {{"BatchSize", 5}, {"FilterCriteria", json::object()}});
  ASSERT_TRUE(u.ok()) << ToString(u.error());
  EXPECT_EQ(u->batch_size, 5);
  EXPECT_EQ(u->starting_position, "TRIM_HORIZON");
  EXPECT_TRUE(u->filter_patterns.empty());
  auto bad = UpdateEsmConfig(*c, {{"BatchSize", 0}});
  ASSERT_FALSE(bad.ok());
}

}  // namespace
}  // namespace ddblab::harness::consumer
