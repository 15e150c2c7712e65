// tests/emulator/expr/legacy_params_test.cc: CheckParameterStyles, the
// request-level checks on mixing legacy and expression parameters.
#include <gtest/gtest.h>

#include <string>

#include "emulator/expr/legacy.h"
#include "tests/emulator/expr/expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsValidation;

nlohmann::json J(std::string_view text) { return nlohmann::json::parse(text); }

constexpr char kMixed[] =
    "Can not use both expression and non-expression parameters in the same "
    "request: ";
constexpr char kNames[] =
    "ExpressionAttributeNames can only be specified when using expressions";
constexpr char kValues[] =
    "ExpressionAttributeValues can only be specified when using expressions: ";

struct Case {
  const char* operation;
  const char* request;
  std::string message;  // empty: ok
};

TEST(LegacyParamsTest, CheckParameterStyles) {
  const std::string m = kMixed;
  const Case cases[] = {
      // GetItem.
      {"GetItem", R"({"AttributesToGet": ["a"], "ProjectionExpression": "a"})",
       m + "Non-expression parameters: {AttributesToGet} Expression "
           "parameters: {ProjectionExpression}"},
      {"GetItem", R"({"AttributesToGet": ["a"]})", ""},
      {"GetItem", R"({"AttributesToGet": ["a"], "ProjectionExpression": null})",
       ""},
      {"GetItem", R"({"ExpressionAttributeNames": {"#a": "a"}})", kNames},
      {"GetItem",
       R"({"ExpressionAttributeNames": {"#a": "a"}, "ProjectionExpression": "#a"})",
       ""},
      // GetItem has no ExpressionAttributeValues member: ignored.
      {"GetItem", R"({"ExpressionAttributeValues": {":a": {"S": "a"}}})", ""},
      // Members another operation has are ignored.
      {"GetItem", R"({"Expected": {}, "ProjectionExpression": "a"})", ""},
      // PutItem / DeleteItem.
      {"PutItem", R"({"Expected": {}, "ConditionExpression": "a = :v"})",
       m + "Non-expression parameters: {Expected} Expression parameters: "
           "{ConditionExpression}"},
      {"DeleteItem",
       R"({"Expected": {}, "ConditionalOperator": "OR", "ConditionExpression": "x"})",
       m + "Non-expression parameters: {Expected, ConditionalOperator} "
           "Expression parameters: {ConditionExpression}"},
      {"PutItem",
       R"({"ConditionalOperator": "OR", "ConditionExpression": "x"})",
       m + "Non-expression parameters: {ConditionalOperator} Expression "
           "parameters: {ConditionExpression}"},
      {"PutItem", R"({"ExpressionAttributeNames": {"#a": "a"}})", kNames},
      {"PutItem", R"({"ExpressionAttributeValues": {":a": {"S": "a"}}})",
       std::string(kValues) + "ConditionExpression is null"},
      {"DeleteItem",
       R"({"Expected": {"a": {"Exists": false}}, "ExpressionAttributeValues": {":a": {"S": "a"}}})",
       std::string(kValues) + "ConditionExpression is null"},
      {"PutItem",
       R"({"ConditionExpression": "a = :a", "ExpressionAttributeValues": {":a": {"S": "a"}}})",
       ""},
      // UpdateItem.
      {"UpdateItem", R"({"AttributeUpdates": {}, "ConditionExpression": "x"})",
       m + "Non-expression parameters: {AttributeUpdates} Expression "
           "parameters: {ConditionExpression}"},
      {"UpdateItem",
       R"({"Expected": {}, "AttributeUpdates": {}, "UpdateExpression": "SET a = :v",
           "ConditionExpression": "x"})",
       m + "Non-expression parameters: {AttributeUpdates, Expected} "
           "Expression parameters: {UpdateExpression, ConditionExpression}"},
      {"UpdateItem", R"({"ExpressionAttributeValues": {":a": {"S": "a"}}})",
       std::string(kValues) +
           "UpdateExpression and ConditionExpression are null"},
      {"UpdateItem",
       R"({"UpdateExpression": "SET a = :a", "ExpressionAttributeValues": {":a": {"S": "a"}}})",
       ""},
      {"UpdateItem", R"({"AttributeUpdates": {}, "Expected": {}})", ""},
      // Query.
      {"Query",
       R"({"KeyConditions": {}, "QueryFilter": {}, "AttributesToGet": ["a"],
           "ConditionalOperator": "OR", "KeyConditionExpression": "x",
           "FilterExpression": "y", "ProjectionExpression": "z"})",
       m + "Non-expression parameters: {AttributesToGet, QueryFilter, "
           "ConditionalOperator, KeyConditions} Expression parameters: "
           "{ProjectionExpression, FilterExpression, KeyConditionExpression}"},
      {"Query", R"({"QueryFilter": {}, "KeyConditionExpression": "x"})",
       m + "Non-expression parameters: {QueryFilter} Expression parameters: "
           "{KeyConditionExpression}"},
      // KeyConditions only conflicts with KeyConditionExpression.
      {"Query", R"({"KeyConditions": {}, "FilterExpression": "y"})", ""},
      {"Query",
       R"({"KeyConditions": {}, "AttributesToGet": ["a"], "FilterExpression": "y"})",
       m + "Non-expression parameters: {AttributesToGet} Expression "
           "parameters: {FilterExpression}"},
      {"Query",
       R"({"KeyConditions": {}, "ProjectionExpression": "a", "ExpressionAttributeValues": {":a": {"S": "a"}}})",
       std::string(kValues) +
           "FilterExpression and KeyConditionExpression are null"},
      {"Query",
       R"({"KeyConditions": {}, "ExpressionAttributeNames": {"#a": "a"}})",
       kNames},
      {"Query",
       R"({"KeyConditionExpression": "a = :a", "ExpressionAttributeValues": {":a": {"S": "a"}}})",
       ""},
      // Scan.
      {"Scan", R"({"ScanFilter": {}, "ProjectionExpression": "a"})",
       m + "Non-expression parameters: {ScanFilter} Expression parameters: "
           "{ProjectionExpression}"},
      {"Scan",
       R"({"ScanFilter": {}, "AttributesToGet": ["a"], "FilterExpression": "a"})",
       m + "Non-expression parameters: {AttributesToGet, ScanFilter} "
           "Expression parameters: {FilterExpression}"},
      {"Scan",
       R"({"ProjectionExpression": "a", "ExpressionAttributeValues": {":a": {"S": "a"}}})",
       std::string(kValues) + "FilterExpression is null"},
      {"Scan", R"({"ScanFilter": {}, "ConditionalOperator": "OR"})", ""},
      // BatchGetItem: checked per table, AttributesToGet and
      // ProjectionExpression remembered across tables.
      {"BatchGetItem",
       R"({"RequestItems": {"t1": {"Keys": [], "AttributesToGet": ["a"]},
                            "t2": {"Keys": [], "ProjectionExpression": "b"}}})",
       m + "Non-expression parameters: {AttributesToGet} Expression "
           "parameters: {ProjectionExpression}"},
      {"BatchGetItem",
       R"({"RequestItems": {"t1": {"Keys": [], "ProjectionExpression": "a"},
                            "t2": {"Keys": [], "ExpressionAttributeNames": {"#a": "a"}}}})",
       kNames},
      {"BatchGetItem",
       R"({"RequestItems": {"t1": {"Keys": [], "AttributesToGet": ["a"]},
                            "t2": {"Keys": [], "AttributesToGet": ["b"]}}})",
       ""},
      // Operations without legacy parameters, and odd requests.
      {"TransactWriteItems", R"({"ExpressionAttributeNames": {"#a": "a"}})",
       ""},
      {"GetItem", "null", ""},
      {"BatchGetItem", R"({"RequestItems": []})", ""},
  };
  for (const Case& c : cases) {
    Status s = CheckParameterStyles(J(c.request), c.operation);
    if (c.message.empty()) {
      EXPECT_TRUE(s.ok()) << c.operation << " " << c.request << " "
                          << (s.ok() ? "" : ToString(s.error()));
    } else {
      EXPECT_TRUE(IsValidation(s, c.message))
          << c.operation << " " << c.request;
    }
  }
}

}  // namespace
}  // namespace ddblab::expr
