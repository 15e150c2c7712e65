// Tests of the errors faults answer with (emulator/fault/injector.h:
// ImmediateError, OutcomeUnknown): exact types, messages and
// ThrottlingReasons per operation and table mode; transaction reasons.
#include <gtest/gtest.h>

#include <string>

#include "emulator/fault/injector.h"

namespace ddblab::fault {
namespace {

using Json = nlohmann::json;

constexpr char kArn[] = "arn:aws:dynamodb:us-east-1:000000000000:table/T";

TableFacts Provisioned(std::string_view) {
  return TableFacts{true, false, kArn, {"pk"}};
}
TableFacts OnDemand(std::string_view) {
  return TableFacts{true, true, kArn, {"pk"}};
}

Decision Fired(Effect effect, std::vector<size_t> items = {}) {
  Decision d;
  d.effect = effect;
  d.rule_id = "r";
  d.table = "T";
  d.items = std::move(items);
  return d;
}

Error ErrorFor(Operation op, const Json& request, Effect effect,
               const TableResolver& resolve, std::vector<size_t> items = {}) {
  const CallView call = DescribeCall(op, request);
  std::optional<Error> e =
      ImmediateError(call, Fired(effect, std::move(items)), resolve);
  EXPECT_TRUE(e.has_value());
  return e.value_or(Error{});
}

const Json kPut = {{"TableName", "T"}, {"Item", {{"pk", {{"S", "a"}}}}}};
const Json kGet = {{"TableName", "T"}, {"Key", {{"pk", {{"S", "a"}}}}}};

TEST(FaultErrors, ThrottleProvisionedWrite) {
  Error e = ErrorFor(Operation::kPutItem, kPut, Effect::kThrottle, Provisioned);
  EXPECT_EQ(e.type, ErrorType::kProvisionedThroughputExceeded);
  EXPECT_EQ(e.Name(), "ProvisionedThroughputExceededException");
  EXPECT_EQ(e.message,
            "The level of configured provisioned throughput for the table was "
            "exceeded. Consider increasing your provisioning level with the "
            "UpdateTable API.");
  EXPECT_EQ(e.extra, Json::parse(R"({"ThrottlingReasons": [{"reason":
      "TableWriteProvisionedThroughputExceeded", "resource":
      "arn:aws:dynamodb:us-east-1:000000000000:table/T"}]})"));
}

TEST(FaultErrors, ThrottleProvisionedRead) {
  Error e = ErrorFor(Operation::kGetItem, kGet, Effect::kThrottle, Provisioned);
  EXPECT_EQ(e.type, ErrorType::kProvisionedThroughputExceeded);
  EXPECT_EQ(e.extra["ThrottlingReasons"][0]["reason"],
            "TableReadProvisionedThroughputExceeded");
}

TEST(FaultErrors, ThrottleOnDemand) {
  Error e = ErrorFor(Operation::kUpdateItem, kGet, Effect::kThrottle, OnDemand);
  EXPECT_EQ(e.type, ErrorType::kThrottling);
  EXPECT_EQ(e.Name(), "ThrottlingException");
  EXPECT_EQ(e.message,
            "Throughput exceeds the current capacity of your table or index. "
            "DynamoDB is automatically scaling your table or index so please "
            "try again shortly. If exceptions persist, check if you have a "
            "hot key: https://docs.aws.amazon.com/amazondynamodb/latest/"
            "developerguide/bp-partition-key-design.html");
  EXPECT_EQ(e.extra, Json::parse(R"({"throttlingReasons": [{"reason":
      "TableWriteKeyRangeThroughputExceeded", "resource":
      "arn:aws:dynamodb:us-east-1:000000000000:table/T"}]})"));
  Error q = ErrorFor(Operation::kQuery, Json{{"TableName", "T"}},
                     Effect::kThrottle, OnDemand);
  EXPECT_EQ(q.extra["throttlingReasons"][0]["reason"],
            "TableReadKeyRangeThroughputExceeded");
}

TEST(FaultErrors, ThrottleControlPlane) {
  Error e = ErrorFor(Operation::kDescribeTable, Json{{"TableName", "T"}},
                     Effect::kThrottle, Provisioned);
  EXPECT_EQ(e.type, ErrorType::kThrottling);
  EXPECT_EQ(e.message, "Rate exceeded");
  EXPECT_TRUE(e.extra.is_null());
}

TEST(FaultErrors, ThrottleInATransactionIsACancellationReason) {
  const Json request = Json::parse(R"({"TransactItems": [
      {"Put": {"TableName": "T", "Item": {"pk": {"S": "a"}}}},
      {"Update": {"TableName": "T", "Key": {"pk": {"S": "b"}},
                  "UpdateExpression": "SET v = :v"}}]})");
  Error e = ErrorFor(Operation::kTransactWriteItems, request, Effect::kThrottle,
                     Provisioned, {1});
  EXPECT_EQ(e.type, ErrorType::kTransactionCanceled);
  EXPECT_EQ(e.message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [None, ProvisionedThroughputExceeded]");
  ASSERT_EQ(e.extra["CancellationReasons"].size(), 2u);
  EXPECT_EQ(e.extra["CancellationReasons"][0], Json({{"Code", "None"}}));
  EXPECT_EQ(e.extra["CancellationReasons"][1]["Code"],
            "ProvisionedThroughputExceeded");
  EXPECT_EQ(e.extra["CancellationReasons"][1]["Message"],
            "The level of configured provisioned throughput for the table was "
            "exceeded. Consider increasing your provisioning level with the "
            "UpdateTable API.");
  Error od = ErrorFor(Operation::kTransactWriteItems, request,
                      Effect::kThrottle, OnDemand, {0});
  EXPECT_EQ(od.message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [ThrottlingError, None]");
  EXPECT_EQ(od.extra["CancellationReasons"][0]["Code"], "ThrottlingError");
  EXPECT_EQ(od.extra["CancellationReasons"][0]["Message"],
            "Throughput exceeds the current capacity of your table or index. "
            "DynamoDB is automatically scaling your table or index so please "
            "try again shortly. If exceptions persist, check if you have a "
            "hot key: https://docs.aws.amazon.com/amazondynamodb/latest/"
            "developerguide/bp-partition-key-design.html.");
}

TEST(FaultErrors, Conflict) {
  const Json request = Json::parse(R"({"TransactItems": [
      {"Get": {"TableName": "T", "Key": {"pk": {"S": "a"}}}},
      {"Get": {"TableName": "T", "Key": {"pk": {"S": "b"}}}}]})");
  Error t = ErrorFor(Operation::kTransactGetItems, request, Effect::kConflict,
                     Provisioned, {1});
  EXPECT_EQ(t.type, ErrorType::kTransactionCanceled);
  EXPECT_EQ(t.message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [None, TransactionConflict]");
  EXPECT_EQ(t.extra, Json::parse(R"({"CancellationReasons": [{"Code": "None"},
      {"Code": "TransactionConflict",
       "Message": "Transaction is ongoing for the item."}]})"));
  Error single =
      ErrorFor(Operation::kPutItem, kPut, Effect::kConflict, Provisioned);
  EXPECT_EQ(single.type, ErrorType::kTransactionConflict);
  EXPECT_EQ(single.Name(), "TransactionConflictException");
  EXPECT_EQ(single.message, "Transaction is ongoing for the item");
}

TEST(FaultErrors, TransientErrors) {
  Error internal =
      ErrorFor(Operation::kPutItem, kPut, Effect::kInternalError, OnDemand);
  EXPECT_EQ(internal.Name(), "InternalServerError");
  EXPECT_EQ(internal.message, "Internal server error");
  Error unavailable =
      ErrorFor(Operation::kPutItem, kPut, Effect::kUnavailable, OnDemand);
  EXPECT_EQ(unavailable.type, ErrorType::kServiceUnavailable);
  EXPECT_EQ(unavailable.Name(), "ServiceUnavailable");
  Error limit =
      ErrorFor(Operation::kPutItem, kPut, Effect::kRequestLimit, OnDemand);
  EXPECT_EQ(limit.Name(), "RequestLimitExceeded");
  EXPECT_EQ(limit.message,
            "Throughput exceeds the current throughput limit for your "
            "account. To request a limit increase, contact AWS Support at "
            "https://aws.amazon.com/support");
}

TEST(FaultErrors, StreamsErrors) {
  const Json it = {{"ShardIterator", std::string(kArn) + "/stream/x|1|y"}};
  Error throttle =
      ErrorFor(Operation::kGetRecords, it, Effect::kThrottle, OnDemand);
  EXPECT_EQ(throttle.Name(), "LimitExceededException");
  EXPECT_EQ(throttle.message, "Rate exceeded");
  Error expired =
      ErrorFor(Operation::kGetRecords, it, Effect::kExpiredIterator, OnDemand);
  EXPECT_EQ(expired.Name(), "ExpiredIteratorException");
  EXPECT_EQ(expired.message,
            "The provided iterator exceeds the maximum age allowed.");
  Error trimmed =
      ErrorFor(Operation::kGetRecords, it, Effect::kTrimmed, OnDemand);
  EXPECT_EQ(trimmed.Name(), "TrimmedDataAccessException");
}

TEST(FaultErrors, EffectsThatRunTheCallHaveNoImmediateError) {
  const CallView call = DescribeCall(Operation::kPutItem, kPut);
  for (Effect e : {Effect::kLostResponse, Effect::kUnprocessed,
                   Effect::kLatency, Effect::kEmpty, Effect::kVisibilityDelay,
                   Effect::kStaleRead, Effect::kIndexLag}) {
    EXPECT_FALSE(ImmediateError(call, Fired(e), Provisioned).has_value());
  }
  Error lost = OutcomeUnknown("r");
  EXPECT_EQ(lost.type, ErrorType::kOutcomeUnknown);
}

}  // namespace
}  // namespace ddblab::fault
