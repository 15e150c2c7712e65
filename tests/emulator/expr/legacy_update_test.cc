// tests/emulator/expr/legacy_update_test.cc: legacy AttributeUpdates and
// AttributesToGet converted to update / projection ASTs and applied.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emulator/expr/legacy.h"
#include "tests/emulator/expr/expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsError;
using testing::IsValidation;
using testing::ItemOf;
using testing::Json;

nlohmann::json J(std::string_view text) { return nlohmann::json::parse(text); }

std::string Invalid(std::string_view rest) {
  return "One or more parameter values were invalid: " + std::string(rest);
}

struct ErrorCase {
  const char* input;
  const char* message;
};
// ---------------------------------------------------------------------------
// AttributeUpdates.

struct UpdateCase {
  const char* before;   // stored item ("{}" = no item)
  const char* updates;  // AttributeUpdates
  const char* after;    // expected item, or an error message
};

TEST(LegacyUpdateTest, ActionsApplyLikeDynamoDb) {
  const UpdateCase cases[] = {
      {"{}", R"({"a": {"Value": {"S": "x"}}})", R"({"a":{"S":"x"}})"},
      {R"({"a": {"N": "1"}})",
       R"({"a": {"Action": "PUT", "Value": {"S": "x"}}})",
       R"({"a":{"S":"x"}})"},
      {R"({"a": {"N": "1"}})",
       R"({"a": {"Action": "ADD", "Value": {"N": "2.5"}}})",
       R"({"a":{"N":"3.5"}})"},
      {"{}", R"({"a": {"Action": "ADD", "Value": {"N": "-2"}}})",
       R"({"a":{"N":"-2"}})"},
      {R"({"a": {"SS": ["x"]}})",
       R"({"a": {"Action": "ADD", "Value": {"SS": ["y", "x"]}}})",
       R"({"a":{"SS":["x","y"]}})"},
      {"{}", R"({"a": {"Action": "ADD", "Value": {"NS": ["1"]}}})",
       R"({"a":{"NS":["1"]}})"},
      {R"({"a": {"L": [{"N": "1"}]}})",
       R"({"a": {"Action": "ADD", "Value": {"L": [{"S": "z"}]}}})",
       R"({"a":{"L":[{"N":"1"},{"S":"z"}]}})"},
      {"{}", R"({"a": {"Action": "ADD", "Value": {"L": [{"S": "z"}]}}})",
       R"({"a":{"L":[{"S":"z"}]}})"},
      {R"({"a": {"N": "1"}, "b": {"N": "2"}})",
       R"({"a": {"Action": "DELETE"}})", R"({"b":{"N":"2"}})"},
      {R"({"b": {"N": "2"}})", R"({"a": {"Action": "DELETE"}})",
       R"({"b":{"N":"2"}})"},
      {"{}", R"({"a": {"Action": "DELETE"}})", "{}"},
      {R"({"a": {"SS": ["x", "y", "z"]}})",
       R"({"a": {"Action": "DELETE", "Value": {"SS": ["x", "z", "w"]}}})",
       R"({"a":{"SS":["y"]}})"},
      {R"({"a": {"NS": ["1", "2"]}, "b": {"N": "0"}})",
       R"({"a": {"Action": "DELETE", "Value": {"NS": ["2", "1"]}}})",
       R"({"b":{"N":"0"}})"},
      {"{}", R"({"a": {"Action": "DELETE", "Value": {"BS": ["AQ=="]}}})", "{}"},
      {R"({"a": {"N": "1"}})",
       R"({"a": {"Action": "DELETE"}, "b": {"Value": {"BOOL": true}},
           "c": {"Action": "ADD", "Value": {"N": "1"}}})",
       R"({"b":{"BOOL":true},"c":{"N":"1"}})"},
      // Type clashes with the stored value use the legacy text.
      {R"({"a": {"SS": ["1"]}})",
       R"({"a": {"Action": "DELETE", "Value": {"NS": ["1"]}}})",
       "Type mismatch for attribute to update"},
      {R"({"a": {"N": "1"}})",
       R"({"a": {"Action": "DELETE", "Value": {"NS": ["1"]}}})",
       "Type mismatch for attribute to update"},
      {R"({"a": {"SS": ["1"]}})",
       R"({"a": {"Action": "ADD", "Value": {"NS": ["1"]}}})",
       "Type mismatch for attribute to update"},
      {R"({"a": {"S": "1"}})",
       R"({"a": {"Action": "ADD", "Value": {"N": "1"}}})",
       "Type mismatch for attribute to update"},
      {R"({"a": {"N": "9E+125"}})",
       R"({"a": {"Action": "ADD", "Value": {"N": "9E+125"}}})",
       "Number overflow. Attempting to store a number with magnitude larger "
       "than supported range"},
  };
  for (const UpdateCase& c : cases) {
    auto u = ConvertAttributeUpdates(J(c.updates));
    ASSERT_TRUE(u.ok()) << c.updates << ToString(u.error());
    auto r = ApplyAttributeUpdates(*u, ItemOf(c.before));
    if (c.after[0] == '{') {
      ASSERT_TRUE(r.ok()) << c.updates << ToString(r.error());
      EXPECT_EQ(Json(*r), Json(ItemOf(c.after))) << c.updates;
    } else {
      EXPECT_TRUE(IsValidation(r, c.after)) << c.updates;
    }
  }
  auto empty = ConvertAttributeUpdates(J("{}"));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->actions.empty());
}

TEST(LegacyUpdateTest, Errors) {
  const ErrorCase cases[] = {
      {R"({"a": {"Action": "PUT"}})",
       "Only DELETE action is allowed when no attribute value is specified"},
      {R"({"a": {"x": "whatever"}})",
       "Only DELETE action is allowed when no attribute value is specified"},
      {R"({"a": {"Action": "ADD"}})",
       "Only DELETE action is allowed when no attribute value is specified"},
      {R"({"a": {"Action": "ADD", "Value": {"S": "1"}}})",
       "ADD action is not supported for the type S"},
      {R"({"a": {"Action": "ADD", "Value": {"M": {}}}})",
       "ADD action is not supported for the type M"},
      {R"({"a": {"Action": "ADD", "Value": {"BOOL": true}}})",
       "ADD action is not supported for the type BOOL"},
      {R"({"a": {"Action": "ADD", "Value": {"NULL": true}}})",
       "ADD action is not supported for the type NULL"},
      {R"({"a": {"Action": "ADD", "Value": {"B": "Yg=="}}})",
       "ADD action is not supported for the type B"},
  };
  for (const ErrorCase& c : cases) {
    EXPECT_TRUE(
        IsValidation(ConvertAttributeUpdates(J(c.input)), Invalid(c.message)))
        << c.input;
  }
  for (const char* v : {R"({"S": "1"})", R"({"N": "1"})", R"({"B": "Yg=="})",
                        R"({"NULL": true})", R"({"BOOL": true})",
                        R"({"M": {}})", R"({"L": []})"}) {
    const std::string updates =
        std::string(R"({"a": {"Action": "DELETE", "Value": )") + v + "}}";
    const std::string type = J(v).begin().key();
    EXPECT_TRUE(IsValidation(
        ConvertAttributeUpdates(J(updates)),
        Invalid("DELETE action with value is not supported for the type " +
                type)))
        << updates;
  }
  EXPECT_TRUE(IsValidation(
      ConvertAttributeUpdates(
          J(R"({"a": {"Action": "SET", "Value": {"N": "1"}}})")),
      "1 validation error detected: Value 'SET' at "
      "'attributeUpdates.a.member.action' failed to satisfy constraint: "
      "Member must satisfy enum value set: [ADD, PUT, DELETE]"));
  EXPECT_TRUE(IsValidation(
      ConvertAttributeUpdates(J(R"({"a": {"Value": {}}})")),
      "Supplied AttributeValue is empty, must contain exactly one of the "
      "supported datatypes"));
  // DELETE values do not count toward the update size; others do.
  const std::string half = std::string(250000, 'x');
  const std::string two_puts = R"({"a": {"Value": {"S": ")" + half +
                               R"("}}, "b": {"Value": {"S": ")" + half +
                               R"("}}})";
  EXPECT_TRUE(IsValidation(
      ConvertAttributeUpdates(J(two_puts)),
      "Item size to update has exceeded the maximum allowed size"));
  const std::string put_and_delete =
      R"({"a": {"Value": {"S": ")" + half +
      R"("}}, "b": {"Action": "DELETE", "Value": {"SS": [")" + half +
      R"("]}}})";
  EXPECT_TRUE(ConvertAttributeUpdates(J(put_and_delete)).ok());
}

TEST(LegacyUpdateTest, TargetsAreTopLevelNames) {
  auto u = ConvertAttributeUpdates(J(R"({"a.b": {"Value": {"N": "1"}}})"));
  ASSERT_TRUE(u.ok());
  std::vector<DocumentPath> targets = UpdateTargets(*u);
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0].top(), "a.b");
  EXPECT_FALSE(targets[0].nested());
}

// ---------------------------------------------------------------------------
// AttributesToGet.

TEST(LegacyProjectionTest, AttributesToGet) {
  auto p = ConvertAttributesToGet(J(R"(["a", "m.k", "missing", "l"])"));
  ASSERT_TRUE(p.ok());
  const value::Item item = ItemOf(
      R"({"a": {"N": "1"}, "b": {"N": "2"}, "m.k": {"S": "dotted"},
          "m": {"M": {"k": {"S": "nested"}}}, "l": {"L": [{"N": "1"}]}})");
  EXPECT_EQ(Json(Project(*p, item)),
            Json(ItemOf(R"({"a": {"N": "1"}, "m.k": {"S": "dotted"},
                            "l": {"L": [{"N": "1"}]}})")));
  EXPECT_TRUE(IsValidation(ConvertAttributesToGet(J(R"(["a", "b", "a"])")),
                           Invalid("Duplicate value in attribute name: a")));
  EXPECT_TRUE(IsValidation(
      ConvertAttributesToGet(J("[]")),
      "1 validation error detected: Value '[]' at 'attributesToGet' failed "
      "to satisfy constraint: Member must have length greater than or equal "
      "to 1"));
  EXPECT_TRUE(IsError(ConvertAttributesToGet(J(R"({"a": 1})")),
                      ErrorType::kSerialization,
                      "Start of structure or map found where not expected"));
}

}  // namespace
}  // namespace ddblab::expr
