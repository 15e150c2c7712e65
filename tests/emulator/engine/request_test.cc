#include "emulator/engine/request.h"

#include <gtest/gtest.h>

namespace ddblab::engine {
namespace {

std::string Text(const Status& s) {
  return s.ok() ? "ok" : ToString(s.error());
}

TEST(RequestParserTest, StringTypeErrorsAreCoralTexts) {
  struct Case {
    Json value;
    std::string message;
  } cases[] = {
      {true, "TRUE_VALUE cannot be converted to String"},
      {false, "FALSE_VALUE cannot be converted to String"},
      {23, "NUMBER_VALUE cannot be converted to String"},
      {34.56, "DECIMAL_VALUE cannot be converted to String"},
      {Json::array(), "Unrecognized collection type class java.lang.String"},
      {Json::object(), "Start of structure or map found where not expected"},
  };
  for (const Case& c : cases) {
    Json req{{"TableName", c.value}};
    RequestParser p(req);
    EXPECT_FALSE(p.String(req, "TableName").has_value());
    EXPECT_EQ(Text(p.Finish()), "SerializationException: " + c.message)
        << c.value.dump();
  }
}

TEST(RequestParserTest, OtherTypeErrors) {
  Json req{{"B", 23},
           {"B2", "23"},
           {"L", "x"},
           {"L2", Json::object()},
           {"N", "7"},
           {"I", false},
           {"M", Json::array()},
           {"S", 5},
           {"V", Json::array()}};
  auto first = [&](auto&& read) {
    RequestParser p(req);
    read(p);
    return Text(p.Finish());
  };
  EXPECT_EQ(
      first([&](RequestParser& p) { p.Bool(req, "B"); }),
      "SerializationException: NUMBER_VALUE cannot be converted to Boolean");
  EXPECT_EQ(first([&](RequestParser& p) { p.Bool(req, "B2"); }),
            "SerializationException: Unexpected token received from parser");
  EXPECT_EQ(first([&](RequestParser& p) { p.List(req, "L"); }),
            "SerializationException: Unexpected field type");
  EXPECT_EQ(first([&](RequestParser& p) { p.List(req, "L2"); }),
            "SerializationException: Start of structure or map found where not "
            "expected");
  EXPECT_EQ(first([&](RequestParser& p) { p.Long(req, "N"); }),
            "SerializationException: STRING_VALUE cannot be converted to Long");
  EXPECT_EQ(
      first([&](RequestParser& p) { p.Integer(req, "I"); }),
      "SerializationException: FALSE_VALUE cannot be converted to Integer");
  EXPECT_EQ(first([&](RequestParser& p) { p.Map(req, "M", "AttributeValue"); }),
            "SerializationException: Unrecognized collection type "
            "java.util.Map<java.lang.String, "
            "com.amazonaws.dynamodb.v20120810.AttributeValue>");
  EXPECT_EQ(first([&](RequestParser& p) { p.Struct(req, "S", "Projection"); }),
            "SerializationException: Unexpected field type");
  EXPECT_EQ(first([&](RequestParser& p) {
              p.Struct(req, "V", "StreamSpecification", true);
            }),
            "SerializationException: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.StreamSpecification");
  EXPECT_EQ(first([&](RequestParser& p) {
              p.Struct(req, "S", "StreamSpecification", true);
            }),
            "SerializationException: Unexpected value type in payload");
}

TEST(RequestParserTest, StringBooleansAndDecimalsAreCoerced) {
  Json req{{"B", "true"}, {"N", 3.9}};
  RequestParser p(req);
  EXPECT_EQ(p.Bool(req, "B"), true);
  EXPECT_EQ(p.Long(req, "N"), 3);
  EXPECT_TRUE(p.Finish().ok());
}

TEST(RequestParserTest, SerializationErrorWinsOverConstraints) {
  Json req{{"TableName", "a"}, {"Limit", "x"}};
  RequestParser p(req);
  p.CheckTableNameOrArn(p.String(req, "TableName"), "tableName");
  p.Integer(req, "Limit");
  EXPECT_EQ(
      Text(p.Finish()),
      "SerializationException: STRING_VALUE cannot be converted to Integer");
}

TEST(RequestParserTest, ConstraintErrorsAreCollectedAndCapped) {
  Json req = Json::object();
  RequestParser p(req);
  p.NotNull(false, "keySchema");
  p.CheckNewTableName(std::string("a;"), "tableName");
  EXPECT_EQ(Text(p.Finish()),
            "ValidationException: 3 validation errors detected: Value null at "
            "'keySchema' failed to satisfy constraint: Member must not be "
            "null; Value 'a;' at 'tableName' failed to satisfy constraint: "
            "Member must satisfy regular expression pattern: "
            "[a-zA-Z0-9_.-]+; Value 'a;' at 'tableName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 3");
  RequestParser many(req);
  for (int i = 0; i < 12; ++i) many.NotNull(false, "m" + std::to_string(i));
  std::string text = Text(many.Finish());
  EXPECT_EQ(
      text.rfind("ValidationException: 10 validation errors detected: ", 0),
      0u);
  EXPECT_NE(text.find("'m9'"), std::string::npos);
  EXPECT_EQ(text.find("'m10'"), std::string::npos);
}

TEST(RequestParserTest, SingleErrorUsesSingular) {
  Json req{{"Limit", 101}};
  RequestParser p(req);
  p.Range(*p.Integer(req, "Limit"), "limit", 1, 100);
  EXPECT_EQ(Text(p.Finish()),
            "ValidationException: 1 validation error detected: Value '101' at "
            "'limit' failed to satisfy constraint: Member must have value less "
            "than or equal to 100");
}

TEST(RequestParserTest, MissingOrEmptyTableNameIsAConstraintError) {
  Json req{{"Limit", 0}};
  RequestParser p(req);
  p.CheckTableNameOrArn(p.String(req, "TableName"), "tableName");
  p.Range(*p.Integer(req, "Limit"), "limit", 1, 100);
  EXPECT_EQ(Text(p.Finish()),
            "ValidationException: 2 validation errors detected: Value null at "
            "'tableName' failed to satisfy constraint: Member must not be "
            "null; Value '0' at 'limit' failed to satisfy constraint: Member "
            "must have value greater than or equal to 1");
  Json empty{{"TableName", ""}};
  RequestParser q(empty);
  q.CheckTableNameOrArn(q.String(empty, "TableName"), "tableName");
  EXPECT_EQ(Text(q.Finish()),
            "ValidationException: 1 validation error detected: Value '' at "
            "'tableName' failed to satisfy constraint: Member must have length "
            "greater than or equal to 1");
}

TEST(RequestParserTest, TableNameOrArn) {
  Json req = Json::object();
  RequestParser p(req);
  p.CheckTableNameOrArn(std::string("arn:aws:dynamodb:us-east-1:1:table/xyz"),
                        "tableName");
  p.CheckTableNameOrArn(std::string("good_name-1.0"), "tableName");
  EXPECT_TRUE(p.Finish().ok());
  RequestParser bad(req);
  bad.CheckTableNameOrArn(std::string(256, 'a'), "tableName");
  EXPECT_EQ(Text(bad.Finish()),
            "ValidationException: 1 validation error detected: Value '" +
                std::string(256, 'a') +
                "' at 'tableName' failed to satisfy constraint: Member must "
                "have length less than or equal to 255");
}

TEST(RequestParserTest, EnumListsAllowedValues) {
  Json req = Json::object();
  RequestParser p(req);
  p.Enum("SS", "attributeDefinitions.1.member.attributeType", {"B", "N", "S"});
  EXPECT_EQ(Text(p.Finish()),
            "ValidationException: 1 validation error detected: Value 'SS' at "
            "'attributeDefinitions.1.member.attributeType' failed to satisfy "
            "constraint: Member must satisfy enum value set: [B, N, S]");
}

TEST(RequestParserTest, NonObjectBodies) {
  EXPECT_EQ(Text(RequestParser(Json::array()).Finish()),
            "SerializationException: Start of list found where not expected");
  EXPECT_EQ(Text(RequestParser(Json("x")).Finish()),
            "SerializationException: Unexpected value type in payload");
  EXPECT_TRUE(RequestParser(Json()).Finish().ok());
}

TEST(RequestParserTest, PathsAndValueFormatting) {
  EXPECT_EQ(ElementPath("keySchema", 0), "keySchema.1.member");
  EXPECT_EQ(MemberPath(ElementPath("keySchema", 2), "keyType"),
            "keySchema.3.member.keyType");
  EXPECT_EQ(FormatConstraintValue(Json::array()), "[]");
  EXPECT_EQ(FormatConstraintValue(Json::array({"a", "b"})), "[a, b]");
  EXPECT_EQ(FormatConstraintValue(Json{{"A", "x"}, {"B", 1}}), "{A=x, B=1}");
}

}  // namespace
}  // namespace ddblab::engine
