#include "emulator/expr/placeholders.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsError;
using testing::IsValidation;
using testing::N;

Result<Placeholders> Create(std::string_view names, std::string_view values) {
  nlohmann::json n, v;
  if (!names.empty()) n = nlohmann::json::parse(names);
  if (!values.empty()) v = nlohmann::json::parse(values);
  return Placeholders::Create(names.empty() ? nullptr : &n,
                              values.empty() ? nullptr : &v);
}

TEST(PlaceholdersTest, AbsentMapsAreFine) {
  auto r = Create("", "");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->CheckAllUsed().ok());
  EXPECT_FALSE(r->has_names());
  EXPECT_FALSE(r->has_values());
}

TEST(PlaceholdersTest, EmptyMapsAreRejected) {
  EXPECT_TRUE(IsValidation(Create("{}", R"({":v": {"N": "1"}})"),
                           "ExpressionAttributeNames must not be empty"));
  EXPECT_TRUE(IsValidation(Create("", "{}"),
                           "ExpressionAttributeValues must not be empty"));
}

TEST(PlaceholdersTest, KeySyntax) {
  EXPECT_TRUE(IsValidation(Create(R"({"a": "a"})", ""),
                           "ExpressionAttributeNames contains invalid key: "
                           "Syntax error; key: \"a\""));
  EXPECT_TRUE(IsValidation(Create(R"({"#": "a"})", ""),
                           "ExpressionAttributeNames contains invalid key: "
                           "Syntax error; key: \"#\""));
  EXPECT_TRUE(IsValidation(Create(R"({"#a-b": "a"})", ""),
                           "ExpressionAttributeNames contains invalid key: "
                           "Syntax error; key: \"#a-b\""));
  EXPECT_TRUE(IsValidation(Create("", R"({"a": {"S": "b"}})"),
                           "ExpressionAttributeValues contains invalid key: "
                           "Syntax error; key: \"a\""));
  EXPECT_TRUE(IsValidation(Create("", R"({":": {"S": "b"}})"),
                           "ExpressionAttributeValues contains invalid key: "
                           "Syntax error; key: \":\""));
  // Any of [A-Za-z0-9_] after the sigil, digits and '_' first included.
  EXPECT_TRUE(Create(R"({"#_": "a", "#1": "b"})",
                     R"({":_": {"S": "x"}, ":9": {"S": "y"}})")
                  .ok());
}

TEST(PlaceholdersTest, AttributeNameLimits) {
  constexpr char kTooLarge[] =
      "1 validation error detected: Attribute name is too large, must be less "
      "than 65536 bytes";
  EXPECT_TRUE(IsValidation(Create(R"({"#a": "x", "#e": ""})", ""),
                           "ExpressionAttributeNames contains invalid value: "
                           "Empty attribute name for key #e"));
  nlohmann::json names = {{"#n", std::string(65536, 'n')}};
  EXPECT_TRUE(IsValidation(Placeholders::Create(&names, nullptr), kTooLarge));
  names["#n"] = std::string(65535, 'n');
  EXPECT_TRUE(Placeholders::Create(&names, nullptr).ok());
  // A too-long map key inside a value is not wrapped as an invalid value.
  nlohmann::json values = {
      {":v", {{"M", {{std::string(65536, 'k'), {{"S", "x"}}}}}}}};
  EXPECT_TRUE(IsValidation(Placeholders::Create(nullptr, &values), kTooLarge));
}

TEST(PlaceholdersTest, NamesAreCheckedBeforeValues) {
  EXPECT_TRUE(IsValidation(Create(R"({"bad": "a"})", R"({"bad": {"S": "b"}})"),
                           "ExpressionAttributeNames contains invalid key: "
                           "Syntax error; key: \"bad\""));
  EXPECT_TRUE(IsValidation(Create("{}", "{}"),
                           "ExpressionAttributeNames must not be empty"));
}

TEST(PlaceholdersTest, InvalidValuesAreWrapped) {
  EXPECT_TRUE(IsValidation(
      Create("", R"({":v": {"NULL": false}})"),
      "ExpressionAttributeValues contains invalid value: One or more parameter "
      "values were invalid: Null attribute value types must have the value of "
      "true for key :v"));
  EXPECT_TRUE(IsValidation(
      Create("", R"({":v": {}})"),
      "ExpressionAttributeValues contains invalid value: Supplied "
      "AttributeValue is empty, must contain exactly one of the supported "
      "datatypes for key :v"));
  EXPECT_TRUE(IsValidation(
      Create("", R"({":ok": {"S": "a"}, ":v": {"SS": []}})"),
      "ExpressionAttributeValues contains invalid value: One or more "
      "parameter values were invalid: An string set  may not be empty for "
      "key :v"));
  // Key syntax is checked before value contents.
  EXPECT_TRUE(IsValidation(Create("", R"({":v": {}, "x": {"S": "a"}})"),
                           "ExpressionAttributeValues contains invalid key: "
                           "Syntax error; key: \"x\""));
}

// Typed maps (PartiQL plans) get Create's checks and texts, in key order.
TEST(PlaceholdersTest, FromDecodedChecksAsCreate) {
  using Names = std::vector<std::pair<std::string, std::string>>;
  using Values = std::vector<std::pair<std::string, value::AttributeValue>>;
  EXPECT_TRUE(IsValidation(
      Placeholders::FromDecoded(Names{{"#n1", ""}, {"#n0", ""}}, Values{}),
      "ExpressionAttributeNames contains invalid value: Empty attribute name "
      "for key #n0"));
  EXPECT_TRUE(IsValidation(
      Placeholders::FromDecoded(Names{{"#n0", std::string(65536, 'n')}},
                                Values{}),
      "1 validation error detected: Attribute name is too large, must be "
      "less than 65536 bytes"));
  EXPECT_TRUE(IsValidation(
      Placeholders::FromDecoded(Names{{"n0", "a"}}, Values{{"v0", N("1")}}),
      "ExpressionAttributeNames contains invalid key: Syntax error; key: "
      "\"n0\""));
  EXPECT_TRUE(IsValidation(
      Placeholders::FromDecoded(Names{}, Values{{"v0", N("1")}}),
      "ExpressionAttributeValues contains invalid key: Syntax error; key: "
      "\"v0\""));
  // Empty maps are absent ones.
  Result<Placeholders> none = Placeholders::FromDecoded(Names{}, Values{});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_names());
  EXPECT_FALSE(none->has_values());
  Result<Placeholders> r = Placeholders::FromDecoded(
      Names{{"#n1", "b"}, {"#n0", "a"}}, Values{{":v0", N("1")}});
  ASSERT_TRUE(r.ok());
  ASSERT_NE(r->FindName("#n0"), nullptr);
  EXPECT_EQ(*r->FindName("#n0"), "a");
  ASSERT_NE(r->FindValue(":v0"), nullptr);
  EXPECT_EQ(*r->FindValue(":v0"), N("1"));
  EXPECT_TRUE(IsValidation(
      r->CheckAllUsed(),
      "Value provided in ExpressionAttributeNames unused in expressions: "
      "keys: {#n1}"));
}

TEST(PlaceholdersTest, SerializationErrorsKeepTheirType) {
  auto r = Create("", R"({":v": {"N": 5}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().type, ErrorType::kSerialization);
  EXPECT_TRUE(IsError(Create(R"({"#a": 5})", ""), ErrorType::kSerialization,
                      "NUMBER_VALUE cannot be converted to String"));
  EXPECT_TRUE(IsError(Create(R"({"#a": true})", ""), ErrorType::kSerialization,
                      "TRUE_VALUE cannot be converted to String"));
  EXPECT_TRUE(IsError(Create(R"({"#a": {}})", ""), ErrorType::kSerialization,
                      "Start of structure or map found where not expected"));
}

TEST(PlaceholdersTest, LookupsMarkUsedAndUnusedAreReportedSorted) {
  auto r = Create(R"({"#b": "bee", "#a": "ay", "#c": "see"})",
                  R"({":y": {"N": "1"}, ":x": {"S": "s"}})");
  ASSERT_TRUE(r.ok());
  Placeholders ph = std::move(r).value();
  EXPECT_TRUE(IsValidation(
      ph.CheckAllUsed(),
      "Value provided in ExpressionAttributeNames unused in expressions: "
      "keys: {#a, #b, #c}"));
  ASSERT_NE(ph.FindName("#a"), nullptr);
  EXPECT_EQ(*ph.FindName("#a"), "ay");
  EXPECT_EQ(ph.FindName("#zz"), nullptr);
  EXPECT_EQ(ph.FindName("#A"), nullptr);  // keys are case-sensitive
  ASSERT_NE(ph.FindName("#c"), nullptr);
  Status s = ph.CheckAllUsed();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "Value provided in ExpressionAttributeNames unused in expressions: "
            "keys: {#b}");
  ph.FindName("#b");
  s = ph.CheckAllUsed();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(
      s.error().message,
      "Value provided in ExpressionAttributeValues unused in expressions: "
      "keys: {:x, :y}");
  ASSERT_NE(ph.FindValue(":y"), nullptr);
  EXPECT_EQ(*ph.FindValue(":y"), N("1"));
  s = ph.CheckAllUsed();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().type, ErrorType::kValidation);
  EXPECT_EQ(
      s.error().message,
      "Value provided in ExpressionAttributeValues unused in expressions: "
      "keys: {:x}");
  ph.FindValue(":x");
  EXPECT_TRUE(ph.CheckAllUsed().ok());
}

TEST(PlaceholdersTest, UseAcrossSeveralExpressionsCounts) {
  Placeholders ph =
      testing::Ph(R"({"#k": "pk", "#p": "a"})", R"({":v": {"S": "x"}})");
  ASSERT_TRUE(
      ParseCondition("#k = :v", ExpressionKind::kKeyCondition, ph).ok());
  EXPECT_FALSE(ph.CheckAllUsed().ok());
  ASSERT_TRUE(ParseProjection("#p", ph).ok());
  EXPECT_TRUE(ph.CheckAllUsed().ok());
}

// The expression cache's key part: names with their names, values by type.
TEST(PlaceholdersTest, ShapeHasNamesAndValueTypesButNotValues) {
  auto shape = [](std::string_view names, std::string_view values) {
    std::string out;
    testing::Ph(names, values).AppendShape(&out);
    return out;
  };
  const std::string base = shape(R"({"#a": "x"})", R"({":v": {"N": "1"}})");
  EXPECT_EQ(shape(R"({"#a": "x"})", R"({":v": {"N": "2"}})"), base);
  EXPECT_NE(shape(R"({"#a": "y"})", R"({":v": {"N": "1"}})"), base);
  EXPECT_NE(shape(R"({"#b": "x"})", R"({":v": {"N": "1"}})"), base);
  EXPECT_NE(shape(R"({"#a": "x"})", R"({":v": {"S": "1"}})"), base);
  EXPECT_NE(shape(R"({"#a": "x"})", R"({":w": {"N": "1"}})"), base);
  EXPECT_NE(shape(R"({"#a": "x"})", ""), base);
  // Lengths keep the parts apart: "#a"->"b#c" is not "#ab"->"#c".
  EXPECT_NE(shape(R"({"#a": "b#c"})", ""), shape(R"({"#ab": "#c"})", ""));
}

TEST(PlaceholdersTest, IndexesFindWithoutMarking) {
  Placeholders ph = testing::Ph(R"({"#b": "y", "#a": "x"})",
                                R"({":v": {"N": "1"}, ":u": {"S": "s"}})");
  EXPECT_EQ(ph.NameIndex("#a"), 0);
  EXPECT_EQ(ph.NameIndex("#b"), 1);
  EXPECT_EQ(ph.NameIndex("#c"), -1);
  EXPECT_EQ(ph.ValueIndex(":u"), 0);
  EXPECT_EQ(ph.ValueIndex(":v"), 1);
  EXPECT_EQ(ph.ValueIndex(":w"), -1);
  EXPECT_EQ(ph.ValueAt(1), N("1"));
  EXPECT_EQ(ToString(ph.CheckAllUsed().error()),
            "ValidationException: Value provided in ExpressionAttributeNames "
            "unused in expressions: keys: {#a, #b}");
  ph.UseNameAt(0);
  ph.UseNameAt(1);
  EXPECT_EQ(ph.UseValueAt(0), testing::S("s"));
  EXPECT_EQ(ToString(ph.CheckAllUsed().error()),
            "ValidationException: Value provided in ExpressionAttributeValues "
            "unused in expressions: keys: {:v}");
}

}  // namespace
}  // namespace ddblab::expr
