// tests/emulator/expr/legacy_test.cc: legacy conditions (Expected,
// QueryFilter / ScanFilter, KeyConditions) converted to the AST and evaluated
// with the expression evaluators. AttributeUpdates / AttributesToGet:
// legacy_update_test.cc; request-level style checks: legacy_params_test.cc.
#include "emulator/expr/legacy.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/emulator/expr/expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsError;
using testing::IsValidation;
using testing::ItemOf;
using testing::Json;
using Type = value::AttributeValue::Type;

nlohmann::json J(std::string_view text) { return nlohmann::json::parse(text); }

constexpr char kInvalid[] = "One or more parameter values were invalid: ";

std::string Invalid(std::string_view rest) {
  return std::string(kInvalid) + std::string(rest);
}

// An item with one value of (almost) every type, for evaluation tables.
constexpr char kItem[] = R"({
  "s": {"S": "hello"}, "n": {"N": "5"}, "b": {"B": "aGkgdGhlcmU="},
  "ss": {"SS": ["dog", "cat"]}, "ns": {"NS": ["2", "4", "7"]},
  "bs": {"BS": ["AQ==", "Ag=="]}, "l": {"L": [{"N": "2"}, {"S": "x"},
  {"BOOL": true}, {"NULL": true}]}, "m": {"M": {"k": {"S": "v"}}},
  "t": {"BOOL": true}, "z": {"NULL": true}})";

bool EvalFilter(std::string_view filter, std::string_view item,
                const char* conditional_operator = nullptr) {
  nlohmann::json op = conditional_operator
                          ? nlohmann::json(conditional_operator)
                          : nlohmann::json();
  auto c = ConvertFilter(J(filter), conditional_operator ? &op : nullptr,
                         "ScanFilter");
  EXPECT_TRUE(c.ok()) << filter << " " << (c.ok() ? "" : ToString(c.error()));
  return c.ok() && EvaluateCondition(*c, ItemOf(item));
}

// ---------------------------------------------------------------------------
// ComparisonOperator semantics (QueryFilter / ScanFilter).

struct EvalCase {
  const char* filter;
  bool want;
};

TEST(LegacyFilterTest, EachComparisonOperatorMatchesDynamoDb) {
  const EvalCase cases[] = {
      {R"({"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "5.0"}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "5"}]}})",
       false},
      {R"({"q": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "5"}]}})",
       false},
      {R"({"ss": {"ComparisonOperator": "EQ", "AttributeValueList": [{"SS": ["cat", "dog"]}]}})",
       true},
      {R"({"m": {"ComparisonOperator": "EQ", "AttributeValueList": [{"M": {"k": {"S": "v"}}}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "NE", "AttributeValueList": [{"N": "5"}]}})",
       false},
      {R"({"n": {"ComparisonOperator": "NE", "AttributeValueList": [{"S": "5"}]}})",
       true},
      {R"({"q": {"ComparisonOperator": "NE", "AttributeValueList": [{"N": "5"}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "LE", "AttributeValueList": [{"N": "5"}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "5"}]}})",
       false},
      {R"({"n": {"ComparisonOperator": "GE", "AttributeValueList": [{"N": "10"}]}})",
       false},
      {R"({"n": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "-1"}]}})",
       true},
      {R"({"s": {"ComparisonOperator": "GT", "AttributeValueList": [{"S": "hellO"}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "LT", "AttributeValueList": [{"S": "9"}]}})",
       false},
      {R"({"q": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "9"}]}})",
       false},
      {R"({"z": {"ComparisonOperator": "NOT_NULL"}})", true},
      {R"({"q": {"ComparisonOperator": "NOT_NULL", "AttributeValueList": []}})",
       false},
      {R"({"q": {"ComparisonOperator": "NULL"}})", true},
      {R"({"z": {"ComparisonOperator": "NULL"}})", false},
      {R"({"s": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "ell"}]}})",
       true},
      {R"({"s": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"N": "1"}]}})",
       false},
      {R"({"b": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"B": "aGVyZQ=="}]}})",
       true},
      {R"({"ss": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "cat"}]}})",
       true},
      {R"({"ss": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "ca"}]}})",
       false},
      {R"({"ns": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"N": "4"}]}})",
       true},
      {R"({"bs": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"B": "Ag=="}]}})",
       true},
      {R"({"l": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"N": "2"}]}})",
       true},
      {R"({"l": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"NULL": true}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"N": "5"}]}})",
       false},
      {R"({"q": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"N": "5"}]}})",
       false},
      {R"({"s": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"S": "dog"}]}})",
       true},
      {R"({"s": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"S": "ell"}]}})",
       false},
      {R"({"ns": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"N": "4"}]}})",
       false},
      {R"({"l": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"N": "1"}]}})",
       true},
      {R"({"s": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"N": "1"}]}})",
       true},
      // A missing attribute neither CONTAINS nor NOT_CONTAINS anything.
      {R"({"q": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"N": "1"}]}})",
       false},
      {R"({"s": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "hel"}]}})",
       true},
      {R"({"s": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "el"}]}})",
       false},
      {R"({"b": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"B": "aGk="}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "5"}]}})",
       false},
      {R"({"n": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "1"}, {"N": "5"}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "1"}, {"N": "2"}]}})",
       false},
      {R"({"ns": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "2"}]}})",
       false},
      {R"({"q": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "2"}]}})",
       false},
      {R"({"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "5"}, {"N": "6"}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "1"}, {"N": "5"}]}})",
       true},
      {R"({"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "6"}, {"N": "9"}]}})",
       false},
      {R"({"s": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "a"}, {"S": "i"}]}})",
       true},
      {R"({"q": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "0"}, {"N": "9"}]}})",
       false},
  };
  for (const EvalCase& c : cases) {
    EXPECT_EQ(EvalFilter(c.filter, kItem), c.want) << c.filter;
  }
}

TEST(LegacyFilterTest, ConditionalOperatorJoinsConditions) {
  constexpr char kTwo[] = R"({
    "n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "5"}]},
    "s": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "no"}]}})";
  EXPECT_FALSE(EvalFilter(kTwo, kItem));
  EXPECT_FALSE(EvalFilter(kTwo, kItem, "AND"));
  EXPECT_TRUE(EvalFilter(kTwo, kItem, "OR"));
  EXPECT_FALSE(EvalFilter(kTwo, R"({"x": {"S": "y"}})", "OR"));
  // An absent or empty filter matches everything.
  EXPECT_TRUE(EvalFilter("null", kItem));
  EXPECT_TRUE(EvalFilter("{}", kItem));
}

// ---------------------------------------------------------------------------
// Operator argument checks (shared by Expected, filters and KeyConditions).

struct ErrorCase {
  const char* input;
  const char* message;  // without the "One or more ..." prefix if `invalid`
  bool invalid = true;
};

TEST(LegacyFilterTest, ArgumentErrors) {
  const ErrorCase cases[] = {
      {R"({"a": {"ComparisonOperator": "EQ"}})",
       "Invalid number of argument(s) for the EQ ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "NE", "AttributeValueList": [{"S": "a"}, {"S": "b"}]}})",
       "Invalid number of argument(s) for the NE ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "NULL", "AttributeValueList": [{"S": "a"}]}})",
       "Invalid number of argument(s) for the NULL ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "NOT_NULL", "AttributeValueList": [{"S": "a"}]}})",
       "Invalid number of argument(s) for the NOT_NULL ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "IN", "AttributeValueList": []}})",
       "Invalid number of argument(s) for the IN ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "1"}]}})",
       "Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "a"}, {"S": "a"}]}})",
       "Invalid number of argument(s) for the BEGINS_WITH ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "LE", "AttributeValueList": [{"SS": ["a"]}]}})",
       "ComparisonOperator LE is not valid for SS AttributeValue type"},
      {R"({"a": {"ComparisonOperator": "GT", "AttributeValueList": [{"BOOL": true}]}})",
       "ComparisonOperator GT is not valid for BOOL AttributeValue type"},
      {R"({"a": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"NS": ["1"]}]}})",
       "ComparisonOperator CONTAINS is not valid for NS AttributeValue type"},
      {R"({"a": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"L": [{"N": "1"}]}]}})",
       "ComparisonOperator NOT_CONTAINS is not valid for L AttributeValue "
       "type"},
      {R"({"a": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"N": "1"}]}})",
       "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"},
      {R"({"a": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "1"}, {"SS": ["a"]}]}})",
       "ComparisonOperator IN is not valid for SS AttributeValue type"},
      {R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"M": {}}, {"M": {}}]}})",
       "ComparisonOperator BETWEEN is not valid for M AttributeValue type"},
      {R"({"a": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "3"}, {"S": "dog"}]}})",
       "AttributeValues inside AttributeValueList must be of same type"},
      {R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "4"}, {"S": "dog"}]}})",
       "AttributeValues inside AttributeValueList must be of same type"},
      {R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "10"}, {"N": "9"}]}})",
       "The BETWEEN condition was provided a range where the lower bound is "
       "greater than the upper bound",
       false},
      {R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "dog"}, {"S": "aardvark"}]}})",
       "The BETWEEN condition was provided a range where the lower bound is "
       "greater than the upper bound",
       false},
      {R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}})",
       "Supplied AttributeValue is empty, must contain exactly one of the "
       "supported datatypes",
       false},
      {R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "b"}]}})",
       "The parameter cannot be converted to a numeric value: b", false},
      {R"({"a": {"AttributeValueList": [{"N": "1"}]}})",
       "1 validation error detected: Value null at "
       "'scanFilter.a.member.comparisonOperator' failed to satisfy "
       "constraint: Member must not be null",
       false},
      {R"({"a": {"ComparisonOperator": "XX"}})",
       "1 validation error detected: Value 'XX' at "
       "'scanFilter.a.member.comparisonOperator' failed to satisfy "
       "constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, "
       "LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, "
       "CONTAINS]",
       false},
      {R"({"a": null})",
       "The filter condition for an attribute cannot be null: a", false},
  };
  for (const ErrorCase& c : cases) {
    const std::string want = c.invalid ? Invalid(c.message) : c.message;
    EXPECT_TRUE(
        IsValidation(ConvertFilter(J(c.input), nullptr, "ScanFilter"), want))
        << c.input;
  }
  // Allowed types: EQ/NE take any type; CONTAINS takes BOOL and NULL.
  for (
      const char* ok : {
          R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"L": []}]}})",
          R"({"a": {"ComparisonOperator": "NE", "AttributeValueList": [{"BS": ["AQ=="]}]}})",
          R"({"a": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"BOOL": false}]}})",
          R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "9"}, {"N": "10"}]}})",
      }) {
    EXPECT_TRUE(ConvertFilter(J(ok), nullptr, "QueryFilter").ok()) << ok;
  }
  EXPECT_TRUE(IsError(ConvertFilter(J("[]"), nullptr, "ScanFilter"),
                      ErrorType::kSerialization,
                      "Start of list found where not expected"));
}

TEST(LegacyFilterTest, ConditionalOperatorErrors) {
  const nlohmann::json kOr = "OR";
  const nlohmann::json kAnd = "AND";
  const nlohmann::json kXor = "XOR";
  constexpr char kOne[] = R"({"a": {"ComparisonOperator": "NULL"}})";
  EXPECT_TRUE(IsValidation(
      ConvertFilter(J(kOne), &kAnd, "ScanFilter"),
      "ConditionalOperator can only be used when Filter or Expected has two "
      "or more elements"));
  EXPECT_TRUE(IsValidation(
      ConvertFilter(nlohmann::json(), &kOr, "QueryFilter"),
      "ConditionalOperator cannot be used without Filter or Expected"));
  EXPECT_TRUE(IsValidation(
      ConvertExpected(J("{}"), &kOr),
      "ConditionalOperator cannot be used without Filter or Expected"));
  EXPECT_TRUE(IsValidation(
      ConvertExpected(J(R"({"a": {"Exists": false}})"), &kOr),
      "ConditionalOperator can only be used when Filter or Expected has two "
      "or more elements"));
  EXPECT_TRUE(IsValidation(
      ConvertFilter(J(kOne), &kXor, "ScanFilter"),
      "1 validation error detected: Value 'XOR' at 'conditionalOperator' "
      "failed to satisfy constraint: Member must satisfy enum value set: "
      "[AND, OR]"));
  // Operator checks come before the ConditionalOperator count.
  EXPECT_TRUE(IsValidation(
      ConvertFilter(J(R"({"a": {"ComparisonOperator": "EQ"}})"), &kAnd,
                    "ScanFilter"),
      Invalid("Invalid number of argument(s) for the EQ ComparisonOperator")));
}

TEST(LegacyFilterTest, QueryFilterOnKeyAttribute) {
  const std::vector<std::string> keys = {"pk", "sk"};
  EXPECT_TRUE(
      CheckQueryFilterKeys(J(R"({"a": {"ComparisonOperator": "NULL"}})"), keys)
          .ok());
  EXPECT_TRUE(IsValidation(
      CheckQueryFilterKeys(
          J(R"({"a": {"ComparisonOperator": "NULL"}, "sk": {"ComparisonOperator": "NULL"}})"),
          keys),
      "QueryFilter can only contain non-primary key attributes: Primary key "
      "attribute: sk"));
}

// ---------------------------------------------------------------------------
// Expected.

TEST(LegacyExpectedTest, FormsEvaluateLikeDynamoDb) {
  constexpr char kStored[] = R"({"a": {"N": "1"}, "b": {"N": "2"}})";
  const EvalCase cases[] = {
      {R"({"a": {"Value": {"N": "1"}}})", true},
      {R"({"a": {"Value": {"N": "2"}}})", false},
      {R"({"z": {"Value": {"N": "1"}}})", false},
      {R"({"a": {"Exists": true, "Value": {"N": "1"}}})", true},
      {R"({"z": {"Exists": false}})", true},
      {R"({"a": {"Exists": false}})", false},
      {R"({"a": {"ComparisonOperator": "EQ", "Value": {"N": "1"}}})", true},
      {R"({"a": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "0"}]}})",
       true},
      {R"({"q": {"ComparisonOperator": "NE", "AttributeValueList": [{"N": "1"}]}})",
       true},
      {R"({"q": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"N": "1"}]}})",
       false},
      {R"({"a": {"ComparisonOperator": "NOT_NULL"}, "c": {"ComparisonOperator": "NULL"}})",
       true},
      {R"({"a": {"Exists": true, "Value": {"N": "1"}},
           "b": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "3"}]}})",
       false},
  };
  for (const EvalCase& c : cases) {
    auto cond = ConvertExpected(J(c.filter), nullptr);
    ASSERT_TRUE(cond.ok()) << c.filter << ToString(cond.error());
    EXPECT_EQ(EvaluateCondition(*cond, ItemOf(kStored)), c.want) << c.filter;
  }
  // OR: one true condition is enough; an empty Expected always holds.
  const nlohmann::json kOr = "OR";
  auto any = ConvertExpected(
      J(R"({"a": {"Value": {"N": "74"}}, "c": {"Exists": false}})"), &kOr);
  ASSERT_TRUE(any.ok());
  EXPECT_TRUE(EvaluateCondition(*any, ItemOf(kStored)));
  EXPECT_FALSE(EvaluateCondition(*any, ItemOf(R"({"c": {"S": "x"}})")));
  auto empty = ConvertExpected(J("{}"), nullptr);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(EvaluateCondition(*empty, value::Item()));
  auto absent = ConvertExpected(nlohmann::json(), nullptr);
  ASSERT_TRUE(absent.ok());
  EXPECT_TRUE(EvaluateCondition(*absent, value::Item()));
  // On a missing item (empty), only absence conditions hold.
  auto insert_only =
      ConvertExpected(J(R"({"pk": {"Exists": false}})"), nullptr);
  ASSERT_TRUE(insert_only.ok());
  EXPECT_TRUE(EvaluateCondition(*insert_only, value::Item()));
}

TEST(LegacyExpectedTest, ShapeErrors) {
  const ErrorCase cases[] = {
      {R"({"a": {"Exists": true}})",
       "Value must be provided when Exists is true for Attribute: a"},
      {R"({"a": {}})",
       "Value must be provided when Exists is null for Attribute: a"},
      {R"({"a": {"Exists": false, "Value": {"N": "1"}}})",
       "Value cannot be used when Exists is false for Attribute: a"},
      {R"({"a": {"Exists": false, "ComparisonOperator": "EQ", "AttributeValueList": [{"N": "3"}]}})",
       "Exists and ComparisonOperator cannot be used together for Attribute: "
       "a"},
      {R"({"a": {"Exists": true, "ComparisonOperator": "NULL"}})",
       "Exists and ComparisonOperator cannot be used together for Attribute: "
       "a"},
      {R"({"a": {"Value": {"N": "3"}, "ComparisonOperator": "EQ", "AttributeValueList": [{"N": "3"}]}})",
       "Value and AttributeValueList cannot be used together for Attribute: a"},
      {R"({"a": {"AttributeValueList": [{"N": "3"}]}})",
       "AttributeValueList can only be used with a ComparisonOperator for "
       "Attribute: a"},
      {R"({"a": {"ComparisonOperator": "EQ"}})",
       "Value or AttributeValueList must be used with ComparisonOperator: EQ "
       "for Attribute: a"},
      {R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "2"}, {"N": "3"}]}})",
       "Invalid number of argument(s) for the EQ ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "NULL", "Value": {"N": "2"}}})",
       "Invalid number of argument(s) for the NULL ComparisonOperator"},
      {R"({"a": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"L": [{"N": "1"}]}]}})",
       "ComparisonOperator CONTAINS is not valid for L AttributeValue type"},
      {R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"NS": ["1"]}, {"NS": ["2"]}]}})",
       "ComparisonOperator BETWEEN is not valid for NS AttributeValue type"},
      {R"({"a": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "3"}, {"S": "dog"}]}})",
       "AttributeValues inside AttributeValueList must be of same type"},
      {R"({"a": null})",
       "ExpectedAttributeValue must not be null for Attribute: a"},
      {R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "4"}, {"N": "3"}]}})",
       "The BETWEEN condition was provided a range where the lower bound is "
       "greater than the upper bound",
       false},
      {R"({"a": {"Value": {"NULL": false}}})",
       "One or more parameter values were invalid: Null attribute value types "
       "must have the value of true",
       false},
      {R"({"a": {"ComparisonOperator": "NONE"}})",
       "1 validation error detected: Value 'NONE' at "
       "'expected.a.member.comparisonOperator' failed to satisfy constraint: "
       "Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, "
       "NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]",
       false},
  };
  for (const ErrorCase& c : cases) {
    const std::string want = c.invalid ? Invalid(c.message) : c.message;
    EXPECT_TRUE(IsValidation(ConvertExpected(J(c.input), nullptr), want))
        << c.input;
  }
  std::string big =
      R"({"a": {"Value": {"S": ")" + std::string(409600, 'x') + R"("}}})";
  EXPECT_TRUE(IsValidation(ConvertExpected(J(big), nullptr),
                           "Item size has exceeded the maximum allowed size"));
}

// ---------------------------------------------------------------------------
// KeyConditions.

KeySchemaInfo HashRange() {
  KeySchemaInfo s;
  s.hash_name = "pk";
  s.hash_type = Type::kS;
  s.range_name = "sk";
  s.range_type = Type::kN;
  return s;
}

KeySchemaInfo HashOnly() {
  KeySchemaInfo s;
  s.hash_name = "pk";
  s.hash_type = Type::kS;
  return s;
}

TEST(LegacyKeyConditionsTest, Converts) {
  auto hash_only = ConvertKeyConditions(
      J(R"({"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "p"}]}})"),
      HashRange());
  ASSERT_TRUE(hash_only.ok()) << ToString(hash_only.error());
  EXPECT_EQ(hash_only->hash_value, value::AttributeValue::S("p"));
  EXPECT_FALSE(hash_only->range.has_value());

  struct Case {
    const char* range;
    RangeOp op;
    const char* a;
    const char* b;
  };
  const Case cases[] = {
      {R"("EQ", "AttributeValueList": [{"N": "1"}])", RangeOp::kEq, "1",
       nullptr},
      {R"("LT", "AttributeValueList": [{"N": "1"}])", RangeOp::kLt, "1",
       nullptr},
      {R"("LE", "AttributeValueList": [{"N": "1"}])", RangeOp::kLe, "1",
       nullptr},
      {R"("GT", "AttributeValueList": [{"N": "1"}])", RangeOp::kGt, "1",
       nullptr},
      {R"("GE", "AttributeValueList": [{"N": "1"}])", RangeOp::kGe, "1",
       nullptr},
      {R"("BETWEEN", "AttributeValueList": [{"N": "1"}, {"N": "3"}])",
       RangeOp::kBetween, "1", "3"},
  };
  for (const Case& c : cases) {
    const std::string kc =
        std::string(
            R"({"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "p"}]},)"
            R"( "sk": {"ComparisonOperator": )") +
        c.range + "}}";
    auto r = ConvertKeyConditions(J(kc), HashRange());
    ASSERT_TRUE(r.ok()) << kc << ToString(r.error());
    ASSERT_TRUE(r->range.has_value()) << kc;
    EXPECT_EQ(r->range->op, c.op) << kc;
    EXPECT_EQ(r->range->a, testing::N(c.a)) << kc;
    if (c.b != nullptr) {
      EXPECT_EQ(r->range->b, testing::N(c.b)) << kc;
    }
    // Sort keys 1 and 2 against "<op> 1" (BETWEEN 1 AND 3).
    const bool strict = c.op == RangeOp::kLt || c.op == RangeOp::kGt;
    const bool above = c.op == RangeOp::kGt || c.op == RangeOp::kGe ||
                       c.op == RangeOp::kBetween;
    EXPECT_EQ(RangeMatches(*r->range, testing::N("1")), !strict) << kc;
    EXPECT_EQ(RangeMatches(*r->range, testing::N("2")), above) << kc;
  }
  KeySchemaInfo string_range = HashRange();
  string_range.range_type = Type::kS;
  auto prefix = ConvertKeyConditions(
      J(R"({"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "p"}]},
           "sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "ab"}]}})"),
      string_range);
  ASSERT_TRUE(prefix.ok()) << ToString(prefix.error());
  EXPECT_EQ(prefix->range->op, RangeOp::kBeginsWith);
  EXPECT_TRUE(RangeMatches(*prefix->range, value::AttributeValue::S("abc")));
  EXPECT_FALSE(RangeMatches(*prefix->range, value::AttributeValue::S("b")));
}

TEST(LegacyKeyConditionsTest, Errors) {
  constexpr char kPk[] =
      R"("pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "p"}]})";
  struct Case {
    std::string key_conditions;
    bool hash_only;
    std::string message;
  };
  const std::string not_indexable =
      "Attempted conditional constraint is not an indexable operation";
  const std::string mismatch =
      Invalid("Condition parameter type does not match schema type");
  const Case cases[] = {
      {"{}", false, "Conditions can be of length 1 or 2 only"},
      {std::string("{") + kPk +
           R"(, "a": {"ComparisonOperator": "NULL"}, "b": {"ComparisonOperator": "NULL"}})",
       false, "Conditions can be of length 1 or 2 only"},
      {R"({"x": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "p"}]}})",
       false, "Query condition missed key schema element: pk"},
      {R"({"sk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}})",
       false, "Query condition missed key schema element: pk"},
      {std::string("{") + kPk +
           R"(, "x": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}})",
       false, "Query condition missed key schema element: sk"},
      {std::string("{") + kPk +
           R"(, "x": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}})",
       true, "Query key condition not supported"},
      {R"({"pk": {"ComparisonOperator": "GT", "AttributeValueList": [{"S": "p"}]}})",
       false, "Query key condition not supported"},
      {R"({"pk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "p"}]}})",
       true, "Query key condition not supported"},
      {R"({"pk": {"ComparisonOperator": "NULL"}})", true, not_indexable},
      {R"({"pk": {"ComparisonOperator": "NOT_NULL"}})", true, not_indexable},
      {R"({"pk": {"ComparisonOperator": "NE", "AttributeValueList": [{"S": "p"}]}})",
       true, not_indexable},
      {R"({"pk": {"ComparisonOperator": "IN", "AttributeValueList": [{"S": "p"}]}})",
       true, not_indexable},
      {std::string("{") + kPk +
           R"(, "sk": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"N": "1"}]}})",
       false, not_indexable},
      {std::string("{") + kPk +
           R"(, "sk": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"N": "1"}]}})",
       false, not_indexable},
      {R"({"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}})",
       true, mismatch},
      {std::string("{") + kPk +
           R"(, "sk": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "a"}, {"S": "b"}]}})",
       false, mismatch},
      {std::string("{") + kPk +
           R"(, "sk": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "2"}, {"N": "1"}]}})",
       false,
       "The BETWEEN condition was provided a range where the lower bound is "
       "greater than the upper bound"},
      {std::string("{") + kPk +
           R"(, "sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"N": "1"}]}})",
       false,
       Invalid("ComparisonOperator BEGINS_WITH is not valid for N "
               "AttributeValue type")},
      {R"({"pk": {"ComparisonOperator": "EQ"}})", true,
       Invalid("Invalid number of argument(s) for the EQ ComparisonOperator")},
      {R"({"pk": {"AttributeValueList": [{"S": "p"}]}})", true,
       "1 validation error detected: Value null at "
       "'keyConditions.pk.member.comparisonOperator' failed to satisfy "
       "constraint: Member must not be null"},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(IsValidation(
        ConvertKeyConditions(J(c.key_conditions),
                             c.hash_only ? HashOnly() : HashRange()),
        c.message))
        << c.key_conditions;
  }
}

}  // namespace
}  // namespace ddblab::expr
