// tests/harness/consumer/filter_test.cc: the filter grammar of Lambda's
// FilterCriteria on DynamoDB stream records.
#include "harness/consumer/filter.h"

#include <gtest/gtest.h>

namespace ddblab::harness::consumer {
namespace {

using json = nlohmann::json;

const json kRecord = json::parse(R"({
  "eventName": "INSERT", "eventSource": "aws:dynamodb",
  "awsRegion": "us-east-1",
  "dynamodb": {
    "ApproximateCreationDateTime": 1704067200, "SizeBytes": 26,
    "Keys": {"pk": {"S": "user#1"}},
    "NewImage": {"pk": {"S": "user#1"}, "status": {"S": "Active"},
                 "n": {"N": "101"}, "tags": {"SS": ["a", "b"]},
                 "nothing": {"NULL": true}, "empty": {"S": ""}}}})");

bool M(const char* pattern) {
  auto p = FilterPattern::Compile(pattern);
  EXPECT_TRUE(p.ok()) << pattern << ": " << p.error().message;
  return p.ok() && p->Match(kRecord);
}

std::string Bad(const char* pattern) {
  auto p = FilterPattern::Compile(pattern);
  EXPECT_FALSE(p.ok()) << pattern;
  return p.ok() ? "" : p.error().message;
}

TEST(FilterTest, EqualsAndNesting) {
  EXPECT_TRUE(M(R"({"eventName": ["INSERT"]})"));
  EXPECT_TRUE(M(R"({"eventName": ["MODIFY", "INSERT"]})"));
  EXPECT_FALSE(M(R"({"eventName": ["insert"]})"));  // no case folding
  EXPECT_TRUE(
      M(R"({"dynamodb": {"NewImage": {"status": {"S": ["Active"]}}}})"));
  // AND across fields.
  EXPECT_FALSE(M(R"({"eventName": ["INSERT"], "awsRegion": ["eu-west-1"]})"));
  // A missing field fails.
  EXPECT_FALSE(
      M(R"({"dynamodb": {"OldImage": {"status": {"S": ["Active"]}}}})"));
  // Numbers in N are strings and compare as strings.
  EXPECT_TRUE(M(R"({"dynamodb": {"NewImage": {"n": {"N": ["101"]}}}})"));
  EXPECT_FALSE(M(R"({"dynamodb": {"NewImage": {"n": {"N": [101]}}}})"));
  // JSON numbers compare by their text.
  EXPECT_TRUE(M(R"({"dynamodb": {"SizeBytes": [26]}})"));
  EXPECT_FALSE(M(R"({"dynamodb": {"SizeBytes": [26.0]}})"));
  EXPECT_TRUE(
      M(R"({"dynamodb": {"NewImage": {"nothing": {"NULL": [true]}}}})"));
  EXPECT_TRUE(M(R"({"dynamodb": {"NewImage": {"empty": {"S": [""]}}}})"));
  // An array field matches when any element does.
  EXPECT_TRUE(M(R"({"dynamodb": {"NewImage": {"tags": {"SS": ["b"]}}}})"));
}

TEST(FilterTest, Operators) {
  EXPECT_TRUE(M(R"({"eventName": [{"anything-but": ["REMOVE"]}]})"));
  EXPECT_FALSE(M(R"({"eventName": [{"anything-but": "INSERT"}]})"));
  EXPECT_TRUE(
      M(R"({"dynamodb": {"SizeBytes": [{"numeric": [">", 10, "<=", 26]}]}})"));
  EXPECT_FALSE(M(R"({"dynamodb": {"SizeBytes": [{"numeric": ["<", 26]}]}})"));
  EXPECT_TRUE(M(R"({"dynamodb": {"SizeBytes": [{"numeric": ["=", 26]}]}})"));
  // numeric does not apply to N strings.
  EXPECT_FALSE(M(
      R"({"dynamodb": {"NewImage": {"n": {"N": [{"numeric": [">", 1]}]}}}})"));
  EXPECT_TRUE(M(R"({"dynamodb": {"NewImage": {"tags": [{"exists": true}]}}})"));
  EXPECT_TRUE(M(R"({"dynamodb": {"OldImage": [{"exists": false}]}})"));
  EXPECT_FALSE(M(R"({"dynamodb": {"NewImage": [{"exists": false}]}})"));
  EXPECT_TRUE(
      M(R"({"dynamodb": {"Keys": {"pk": {"S": [{"prefix": "user#"}]}}}})"));
  EXPECT_TRUE(
      M(R"({"dynamodb": {"Keys": {"pk": {"S": [{"suffix": "#1"}]}}}})"));
  EXPECT_TRUE(M(
      R"({"dynamodb": {"NewImage": {"status": {"S": [{"equals-ignore-case": "active"}]}}}})"));
  EXPECT_TRUE(M(
      R"({"dynamodb": {"Keys": {"pk": {"S": [{"prefix": {"equals-ignore-case": "USER"}}]}}}})"));
  // anything-but does not match a missing field.
  EXPECT_FALSE(M(R"({"userIdentity": [{"anything-but": "x"}]})"));
}

TEST(FilterTest, InvalidPatterns) {
  EXPECT_EQ(Bad("{"), "the pattern is not valid JSON");
  EXPECT_EQ(Bad("null"), "the pattern must be a JSON object");
  EXPECT_EQ(Bad(R"({"eventName": "INSERT"})"),
            "field eventName: must be a list of alternatives or an object, "
            "got \"INSERT\"");
  EXPECT_EQ(Bad(R"({"eventName": []})"),
            "field eventName: an empty list matches nothing");
  EXPECT_EQ(Bad(R"({"a": [{"wildcard": "x*"}]})"),
            "field a: \"wildcard\" is not supported by event source mapping "
            "filters");
  EXPECT_EQ(Bad(R"({"a": [{"cidr": "10.0.0.0/24"}]})"),
            "field a: \"cidr\" is not supported by event source mapping "
            "filters");
  EXPECT_EQ(Bad(R"({"$or": [{"a": ["x"]}, {"b": ["y"]}]})"),
            "\"$or\" is not supported by event source mapping filters");
  EXPECT_EQ(Bad(R"({"a": [{"anything-but": {"prefix": "x"}}]})"),
            "field a: \"anything-but\" with an operator ({\"prefix\":\"x\"}) "
            "is not supported by event source mapping filters");
  EXPECT_EQ(Bad(R"({"a": [{"numeric": [">"]}]})"),
            "field a: \"numeric\" takes one or two [operator, number] pairs");
  EXPECT_EQ(Bad(R"({"a": [{"exists": "yes"}]})"),
            "field a: \"exists\" takes true or false");
  EXPECT_EQ(Bad(R"({"a": [{"bogus": 1}]})"),
            "field a: unknown operator \"bogus\"");
  std::string big = R"({"a": [")" + std::string(5000, 'x') + R"("]})";
  EXPECT_EQ(Bad(big.c_str()),
            "the pattern is 5011 characters long; at most 4096 are allowed");
}

TEST(FilterTest, DuplicateKeysLastWins) {
  EXPECT_TRUE(M(R"({"eventName": ["MODIFY"], "eventName": ["INSERT"]})"));
}

TEST(FilterTest, SetIsAnOrOfPatterns) {
  auto set = FilterSet::Compile(
      {R"({"eventName": ["REMOVE"]})", R"({"eventName": ["INSERT"]})"});
  ASSERT_TRUE(set.ok());
  EXPECT_TRUE(set->Match(kRecord));
  auto none = FilterSet::Compile({R"({"eventName": ["REMOVE"]})"});
  EXPECT_FALSE(none->Match(kRecord));
  EXPECT_TRUE(FilterSet::Compile({})->Match(kRecord));
}

}  // namespace
}  // namespace ddblab::harness::consumer
