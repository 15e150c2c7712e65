// Tests of fault plan parsing (emulator/fault/plan.h): every field, the
// error paths, and the canonical form.
#include "emulator/fault/plan.h"

#include <gtest/gtest.h>

#include <string>

namespace ddblab::fault {
namespace {

using Json = nlohmann::json;

std::string ErrorOf(const Json& plan) {
  Result<Plan> parsed = ParsePlan(plan);
  EXPECT_FALSE(parsed.ok());
  if (parsed.ok()) return "";
  EXPECT_EQ(parsed.error().type, ErrorType::kValidation);
  return parsed.error().message;
}

TEST(FaultPlan, ParsesEveryField) {
  Result<Plan> plan = ParsePlan(Json::parse(R"({"rules": [
    {"id": "hot", "operation": ["PutItem", "UpdateItem"], "table": "T",
     "key": {"pk": {"S": "a"}}, "nth": [3, 1], "after": 0, "times": 2,
     "probability": 0.5, "from": 100, "until": 200.5, "effect": "throttle"},
    {"operation": "BatchWriteItem", "effect": "unprocessed", "count": 7},
    {"effect": "latency", "duration": "250ms"},
    {"operation": "GetRecords", "effect": "visibility_delay", "duration": 2}
  ]})"));
  ASSERT_TRUE(plan.ok()) << ToString(plan.error());
  ASSERT_EQ(plan->rules.size(), 4u);
  const Rule& hot = plan->rules[0];
  EXPECT_EQ(hot.id, "hot");
  EXPECT_EQ(hot.operations, (std::vector<Operation>{Operation::kPutItem,
                                                    Operation::kUpdateItem}));
  EXPECT_EQ(hot.tables, std::vector<std::string>{"T"});
  EXPECT_EQ(hot.key, Json::parse(R"({"pk": {"S": "a"}})"));
  EXPECT_EQ(hot.nth, (std::vector<int64_t>{1, 3}));  // sorted
  EXPECT_EQ(hot.times, 2);
  EXPECT_EQ(hot.probability, 0.5);
  EXPECT_EQ(hot.from, FromEpochSeconds(100));
  EXPECT_EQ(hot.until, FromEpochSeconds(200) + std::chrono::milliseconds(500));
  EXPECT_EQ(hot.effect, Effect::kThrottle);
  EXPECT_EQ(plan->rules[1].id, "1");  // defaults to the index
  EXPECT_EQ(plan->rules[1].count, 7);
  EXPECT_EQ(plan->rules[2].effect, Effect::kLatency);
  EXPECT_EQ(plan->rules[2].duration, std::chrono::milliseconds(250));
  EXPECT_EQ(plan->rules[3].duration, std::chrono::seconds(2));
}

TEST(FaultPlan, TableArnsBecomeNames) {
  Result<Plan> plan = ParsePlan(Json::parse(
      R"({"rules": [{"table": "arn:aws:dynamodb:us-east-1:1:table/Orders",
                     "effect": "internal_error"}]})"));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->rules[0].tables, std::vector<std::string>{"Orders"});
}

TEST(FaultPlan, LatencyIsAtMostTheSdkReadTimeout) {
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"operation": "GetRecords",
          "effect": "visibility_delay", "duration": "367d"}]})")),
            "rules[0].duration: must be between 0 and 366 days");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "throttle"},
      {"effect": "latency", "duration": "2m"}]})")),
            "rules[1].duration: a latency of at most 60s (the SDKs' read "
            "timeout: botocore gives up after 60s with a ReadTimeoutError), "
            "got \"2m\"");
  EXPECT_EQ(ErrorOf(Json::parse(
                R"({"rules": [{"effect": "latency", "duration": 60.5}]})")),
            "rules[0].duration: a latency of at most 60s (the SDKs' read "
            "timeout: botocore gives up after 60s with a ReadTimeoutError), "
            "got 60.5");
  Result<Plan> at_cap = ParsePlan(
      Json::parse(R"({"rules": [{"effect": "latency", "duration": "1m"}]})"));
  ASSERT_TRUE(at_cap.ok()) << ToString(at_cap.error());
  EXPECT_EQ(at_cap->rules[0].duration, kMaxLatency);
  // visibility_delay does not hold a request: longer delays stay allowed.
  Result<Plan> delay = ParsePlan(Json::parse(
      R"({"rules": [{"effect": "visibility_delay", "duration": "2h"}]})"));
  ASSERT_TRUE(delay.ok()) << ToString(delay.error());
  EXPECT_EQ(delay->rules[0].duration, std::chrono::hours(2));
}

TEST(FaultPlan, ErrorsNameThePath) {
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "throttle"},
      {"effect": "throttle"}, {"effect": "thorttle"}]})")),
            "rules[2].effect: unknown effect \"thorttle\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"operation": "PutItme",
      "effect": "throttle"}]})")),
            "rules[0].operation: unknown operation \"PutItme\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"operation": ["GetItem", "X"],
      "effect": "throttle"}]})")),
            "rules[0].operation[1]: unknown operation \"X\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"operation": "PutItem"}]})")),
            "rules[0].effect: is required");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "latency"}]})")),
            "rules[0].duration: is required for effect \"latency\"");
  EXPECT_EQ(
      ErrorOf(Json::parse(
          R"({"rules": [{"effect": "latency", "duration": "5 parsecs"}]})")),
      "rules[0].duration: invalid duration '5 parsecs': unknown unit "
      "' parsecs' (expected a number with an optional unit us, ms, s, m, h or "
      "d, e.g. 90s, 1.5m, 250ms)");
  EXPECT_EQ(ErrorOf(Json::parse(
                R"({"rules": [{"effect": "throttle", "probability": 1.5}]})")),
            "rules[0].probability: must be a number from 0 to 1");
  EXPECT_EQ(ErrorOf(Json::parse(
                R"({"rules": [{"effect": "throttle", "nth": [0]}]})")),
            "rules[0].nth[0]: must be at least 1");
  EXPECT_EQ(
      ErrorOf(Json::parse(
          R"({"rules": [{"operation": "GetItem", "effect": "unprocessed"}]})")),
      "rules[0].operation: effect \"unprocessed\" applies to "
      "BatchWriteItem, BatchGetItem, not \"GetItem\"");
  EXPECT_EQ(ErrorOf(Json::parse(
                R"({"rules": [{"effect": "throttle", "count": 2}]})")),
            "rules[0].count: applies only to effect \"unprocessed\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "throttle",
      "from": 10, "until": 5}]})")),
            "rules[0].until: must be later than \"from\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"id": "a", "effect": "throttle"},
      {"id": "a", "effect": "throttle"}]})")),
            "rules[1].id: duplicate rule id \"a\"");
  EXPECT_EQ(
      ErrorOf(Json::parse(R"({"rules": [{"effect": "throttle", "wat": 1}]})")),
      "rules[0].wat: unknown field (expected id, operation, table, key, "
      "nth, after, times, probability, from, until, effect, count, "
      "duration, index)");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rulez": []})")),
            "rulez: unknown field (expected \"rules\")");
  EXPECT_EQ(ErrorOf(Json::parse(R"([1])")),
            "the plan must be a JSON object {\"rules\": [...]}");
  Result<Plan> text = ParsePlanText("{\"rules\": [");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message, "the plan is not valid JSON");
}

TEST(FaultPlan, CanonicalFormRoundTrips) {
  const Json document = Json::parse(R"({"rules": [
    {"id": "x", "operation": "GetRecords", "effect": "visibility_delay",
     "duration": "1.5s", "times": 3}]})");
  Result<Plan> plan = ParsePlan(document);
  ASSERT_TRUE(plan.ok());
  const Json canonical = PlanToJson(*plan);
  EXPECT_EQ(canonical, Json::parse(R"({"rules": [{"id": "x",
      "operation": ["GetRecords"], "effect": "visibility_delay",
      "duration": 1.5, "times": 3}]})"));
  Result<Plan> again = ParsePlan(canonical);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(PlanToJson(*again), canonical);
}

TEST(FaultPlan, StaleReadAndIndexLagRoundTrip) {
  const Json document = Json::parse(R"({"rules": [
    {"id": "old", "operation": "GetItem", "key": {"pk": {"S": "a"}},
     "effect": "stale_read", "duration": "1s"},
    {"id": "lag", "table": ["arn:aws:dynamodb:us-east-1:1:table/t"],
     "index": "byWindow", "effect": "index_lag", "duration": "5s"}]})");
  Result<Plan> plan = ParsePlan(document);
  ASSERT_TRUE(plan.ok()) << ToString(plan.error());
  ASSERT_EQ(plan->rules.size(), 2u);
  EXPECT_EQ(plan->rules[0].effect, Effect::kStaleRead);
  EXPECT_EQ(plan->rules[0].duration, std::chrono::seconds(1));
  EXPECT_EQ(plan->rules[0].index, "");
  const Rule& lag = plan->rules[1];
  EXPECT_EQ(lag.effect, Effect::kIndexLag);
  EXPECT_EQ(lag.tables, std::vector<std::string>{"t"});
  EXPECT_EQ(lag.index, "byWindow");
  EXPECT_EQ(lag.duration, std::chrono::seconds(5));
  // No operation given: every write operation index_lag applies to.
  EXPECT_EQ(lag.operations.size(), 8u);
  const Json canonical = PlanToJson(*plan);
  EXPECT_EQ(canonical, Json::parse(R"({"rules": [
    {"id": "old", "operation": ["GetItem"], "key": {"pk": {"S": "a"}},
     "effect": "stale_read", "duration": 1.0},
    {"id": "lag", "operation": ["PutItem", "UpdateItem", "DeleteItem",
     "BatchWriteItem", "TransactWriteItems", "ExecuteStatement",
     "BatchExecuteStatement", "ExecuteTransaction"], "table": ["t"],
     "index": "byWindow", "effect": "index_lag", "duration": 5.0}]})"));
  Result<Plan> again = ParsePlan(canonical);
  ASSERT_TRUE(again.ok()) << ToString(again.error());
  EXPECT_EQ(PlanToJson(*again), canonical);
}

TEST(FaultPlan, StaleReadAndIndexLagErrors) {
  EXPECT_EQ(
      ErrorOf(Json::parse(
          R"({"rules": [{"operation": "PutItem", "effect": "stale_read",
              "duration": "1s"}]})")),
      "rules[0].operation: effect \"stale_read\" applies to GetItem, "
      "BatchGetItem, Query, Scan, ExecuteStatement, BatchExecuteStatement, "
      "not \"PutItem\"");
  EXPECT_EQ(
      ErrorOf(Json::parse(
          R"({"rules": [{"operation": "GetItem", "table": "t", "index": "i",
              "effect": "index_lag", "duration": "1s"}]})")),
      "rules[0].operation: effect \"index_lag\" applies to PutItem, "
      "UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems, "
      "ExecuteStatement, BatchExecuteStatement, ExecuteTransaction, not "
      "\"GetItem\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "stale_read"}]})")),
            "rules[0].duration: is required for effect \"stale_read\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "index_lag",
      "table": "t", "index": "i"}]})")),
            "rules[0].duration: is required for effect \"index_lag\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "stale_read",
      "duration": "367d"}]})")),
            "rules[0].duration: must be between 0 and 366 days");
  EXPECT_EQ(ErrorOf(Json::parse(
                R"({"rules": [{"effect": "throttle", "duration": "1s"}]})")),
            "rules[0].duration: applies only to effects \"latency\", "
            "\"visibility_delay\", \"stale_read\" and \"index_lag\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "stale_read",
      "duration": "1s", "index": "i"}]})")),
            "rules[0].index: only an index_lag rule names an index");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "index_lag",
      "duration": "1s", "table": "t", "index": ""}]})")),
            "rules[0].index: must be a non-empty string");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "index_lag",
      "duration": "1s", "table": "t"}]})")),
            "rules[0]: an index_lag rule needs \"index\"");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "index_lag",
      "duration": "1s", "index": "i"}]})")),
            "rules[0]: an index_lag rule names exactly one table");
  EXPECT_EQ(ErrorOf(Json::parse(R"({"rules": [{"effect": "index_lag",
      "duration": "1s", "index": "i", "table": ["t", "u"]}]})")),
            "rules[0]: an index_lag rule names exactly one table");
}

TEST(FaultPlan, EmptyRulesIsAnEmptyPlan) {
  Result<Plan> plan = ParsePlan(Json::parse(R"({"rules": []})"));
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->rules.empty());
}

}  // namespace
}  // namespace ddblab::fault
