// UpdateExpression parsing: syntax and every parse-time error text of
// DynamoDB's expression rules, with the reporting order.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "emulator/expr/eval_update.h"
#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsValidation;

constexpr char kValues[] = R"({
  ":v": {"S": "x"}, ":val": {"N": "1"}, ":s": {"S": "x"}, ":n": {"N": "1"}, ":b": {"B": "YQ=="},
  ":bool": {"BOOL": true}, ":null": {"NULL": true}, ":l": {"L": []},
  ":m": {"M": {}}, ":ss": {"SS": ["1"]}, ":ns": {"NS": ["1"]},
  ":bs": {"BS": ["YQ=="]}})";

Result<UpdateExpression> Update(std::string_view text,
                                std::string_view names = "",
                                std::string_view values = kValues) {
  Placeholders ph = testing::Ph(names, values);
  return ParseUpdate(text, ph);
}

std::string Syntax(std::string_view token, std::string_view near) {
  return "Invalid UpdateExpression: Syntax error; token: \"" +
         std::string(token) + "\", near: \"" + std::string(near) + "\"";
}

TEST(ParseUpdateTest, Empty) {
  EXPECT_TRUE(IsValidation(
      Update(""),
      "Invalid UpdateExpression: The expression can not be empty;"));
}

TEST(ParseUpdateTest, SyntaxErrors) {
  EXPECT_TRUE(IsValidation(Update("SET _123 = :v"), Syntax("_", "SET _123")));
  EXPECT_TRUE(IsValidation(Update("INVALID SYNTAX HERE"),
                           Syntax("INVALID", "INVALID SYNTAX")));
  EXPECT_TRUE(IsValidation(Update("SET"), Syntax("<EOF>", "SET")));
  EXPECT_TRUE(IsValidation(Update("SET a = :v,"), Syntax("<EOF>", ",")));
  EXPECT_TRUE(
      IsValidation(Update("SET a = :n + :n + :n"), Syntax("+", ":n + :n")));
  EXPECT_TRUE(IsValidation(Update("SET hits = hits : incr"),
                           Syntax(":", "hits : incr")));
  EXPECT_TRUE(IsValidation(Update("a-b"), Syntax("a", "a-")));
  for (const char* text : {
           "SET _abc = :v",
           "SET 123a = :v",
           "SET 123 = :v",
           "SET hi-there = :v",
           "SET hi$there = :v",
           "SET \"hithere\" = :v",
           "SET !hithere = :v",
           "SET #hi-there = :v",
           "SET #!hi = :v",
           "SET # = :v",
           "SET a = :hi!there",
           "SET a = :",
           "SET :a = :v",
           "SET c = if_not_exists(c, :n+:n)",
           "SET a = _f(b,c,d)",
           "HELLO b = :v",
           "SET a[:xyz] = :v",
           "SET a[#xyz] = :v",
           "SET add = :v",
           "REMOVE",
           "REMOVE a,",
           "ADD a",
           "ADD a b",
           "DELETE a :ss,",
           "SET a = :v REMOVE",
           "SET a = (:v",
           "SET a = ((:v)))",
           "SET a = (((:v)))",
           "SET a :v",
           "SET a = :v b = :v",
           "   ",
           "SET a = (:n + :n) + :n",
           "SET a = f()",
           "SET a.b[-1] = :v",
       }) {
    auto r = Update(text, R"({"#hi": "x", "#a": "z"})");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(
        r.error().message.rfind("Invalid UpdateExpression: Syntax error; ", 0),
        0u)
        << text << " -> " << r.error().message;
  }
}

// Every form of the grammar parses, and parses into the update DynamoDB
// means: each is applied to an item shaped for it and the item after it
// (or the exact error) is compared.
TEST(ParseUpdateTest, AcceptsTheGrammar) {
  // Flat: a number, a string, a string set.
  constexpr char kFlat[] =
      R"({"a": {"N": "5"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})";
  // Nested: a.c is a list whose second element is a map.
  constexpr char kNested[] = R"({"a": {"M": {"x": {"S": "ax"}, "c": {"L": [
      {"S": "zero"}, {"M": {"q": {"S": "q"}, "x": {"M": {"y": {"L": [
      {"N": "0"}, {"N": "1"}]}}}}}]}}}, "b": {"M": {"y": {"S": "by"}}}})";
  constexpr char kMaps[] =
      R"({"a": {"M": {"x": {"S": "ax"}, "c": {"M": {}}}},
          "b": {"M": {"y": {"S": "by"}}}})";
  constexpr char kList[] = R"({"a": {"L": [{"N": "0"}, {"N": "1"}]}})";
  const std::string bad_type =
      "ValidationException: An operand in the update expression has an "
      "incorrect data type";
  struct Case {
    const char* text;
    const char* item;
    std::string after;  // the item as JSON, or the error
  };
  const std::string flat_b_x =
      R"({"a": {"N": "5"}, "b": {"S": "x"}, "d": {"SS": ["1", "2"]}})";
  for (
      const Case& c : std::initializer_list<Case>{
          {"SET b = :v", kFlat, flat_b_x},
          {"set b = :v", kFlat, flat_b_x},
          {"sEt b = :v", kFlat, flat_b_x},
          {"  set   b=:v  ", kFlat, flat_b_x},
          {"SET x = :v, y = :v", kFlat,
           R"({"a": {"N": "5"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]},
                "x": {"S": "x"}, "y": {"S": "x"}})"},
          {"REMOVE a SET b = :v", kFlat,
           R"({"b": {"S": "x"}, "d": {"SS": ["1", "2"]}})"},
          {"SET c = :v REMOVE b", kFlat,
           R"({"a": {"N": "5"}, "c": {"S": "x"}, "d": {"SS": ["1", "2"]}})"},
          {"SET a = :n + :n", kFlat,
           R"({"a": {"N": "2"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"SET a = :n - a", kFlat,
           R"({"a": {"N": "-4"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"SET a = (:n + :n)", kFlat,
           R"({"a": {"N": "2"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"SET a = (:n) + (a)", kFlat,
           R"({"a": {"N": "6"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"SET a = ((:n))", kFlat,
           R"({"a": {"N": "1"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"SET a = list_append(a, :l)", kFlat, bad_type},
          {"SET a = list_append(a, :l)", kList, kList},
          {"SET a = list_append(if_not_exists(a, :l), :l)", kFlat, bad_type},
          {"SET z = list_append(if_not_exists(z, :l), :l)", kList,
           R"({"a": {"L": [{"N": "0"}, {"N": "1"}]}, "z": {"L": []}})"},
          {"SET a = if_not_exists(b, if_not_exists(c, :v))", kFlat,
           R"({"a": {"S": "old"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"SET a = if_not_exists(c, if_not_exists(e, :v))", kFlat,
           R"({"a": {"S": "x"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"SET b = if_not_exists(b, :n)+:n", kFlat, bad_type},
          {"SET z = if_not_exists(z, :n)+:n", kList,
           R"({"a": {"L": [{"N": "0"}, {"N": "1"}]}, "z": {"N": "2"}})"},
          {"ADD a :n, b :ss", kFlat, bad_type},
          {"ADD a :n, d :ss", kFlat,
           R"({"a": {"N": "6"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"ADD a :ns", kFlat, bad_type},
          {"DELETE a :ss, b :ns, c :bs", kFlat, bad_type},
          {"DELETE d :ss", kFlat,
           R"({"a": {"N": "5"}, "b": {"S": "old"}, "d": {"SS": ["2"]}})"},
          {"REMOVE a.c[1].x.y[1], a.c[1].q", kNested,
           R"({"a": {"M": {"x": {"S": "ax"}, "c": {"L": [{"S": "zero"},
                {"M": {"x": {"M": {"y": {"L": [{"N": "0"}]}}}}}]}}},
                "b": {"M": {"y": {"S": "by"}}}})"},
          {"SET a.c[1].#name.y[1] = :v", kNested,
           R"({"a": {"M": {"x": {"S": "ax"}, "c": {"L": [{"S": "zero"},
                {"M": {"q": {"S": "q"}, "x": {"M": {"y": {"L": [{"N": "0"},
                {"S": "x"}]}}}}}]}}}, "b": {"M": {"y": {"S": "by"}}}})"},
          {"SET #a = #b", kFlat,
           R"({"a": {"S": "old"}, "b": {"S": "old"}, "d": {"SS": ["1", "2"]}})"},
          {"SET a.b = :v, a.c.d = :v, b.x = :v REMOVE a.x, b.y", kMaps,
           R"({"a": {"M": {"b": {"S": "x"}, "c": {"M": {"d": {"S": "x"}}}}},
                "b": {"M": {"x": {"S": "x"}}}})"},
          {"SET a[1] = :v, a[2] = :v", kList,
           R"({"a": {"L": [{"N": "0"}, {"S": "x"}, {"S": "x"}]}})"},
          {"SET a.b = :v, a.c[2] = :v", kNested,
           R"({"a": {"M": {"b": {"S": "x"}, "x": {"S": "ax"}, "c": {"L": [
                {"S": "zero"}, {"M": {"q": {"S": "q"}, "x": {"M": {"y": {"L": [
                {"N": "0"}, {"N": "1"}]}}}}}, {"S": "x"}]}}},
                "b": {"M": {"y": {"S": "by"}}}})"},
          {"SET a = :v REMOVE b ADD c :n DELETE d :ss", kFlat,
           R"({"a": {"S": "x"}, "c": {"N": "1"}, "d": {"SS": ["2"]}})"},
      }) {
    auto r = Update(c.text, R"({"#name": "x", "#a": "a", "#b": "b"})");
    ASSERT_TRUE(r.ok()) << c.text << " -> "
                        << (r.ok() ? "" : ToString(r.error()));
    auto after = ApplyUpdate(*r, testing::ItemOf(c.item));
    const std::string expected = c.after.front() == '{'
                                     ? testing::Json(testing::ItemOf(c.after))
                                     : c.after;
    EXPECT_EQ(after.ok() ? testing::Json(*after) : ToString(after.error()),
              expected)
        << c.text << " on " << c.item;
  }
}

TEST(ParseUpdateTest, AstShape) {
  auto r = Update(
      "REMOVE r SET #a = if_not_exists(#a, :n) + :n, l = list_append(l, :l) "
      "ADD s :ss DELETE d :ns",
      R"({"#a": "count"})");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->actions.size(), 5u);
  EXPECT_EQ(r->actions[0].kind, UpdateAction::Kind::kRemove);
  EXPECT_EQ(r->actions[0].path.top(), "r");
  const UpdateAction& set = r->actions[1];
  EXPECT_EQ(set.kind, UpdateAction::Kind::kSet);
  EXPECT_EQ(set.path.top(), "count");
  ASSERT_EQ(set.value.kind, UpdateValue::Kind::kPlus);
  ASSERT_EQ(set.value.args.size(), 2u);
  EXPECT_EQ(set.value.args[0].kind, UpdateValue::Kind::kIfNotExists);
  EXPECT_EQ(set.value.args[0].path.top(), "count");
  EXPECT_EQ(set.value.args[1].kind, UpdateValue::Kind::kValue);
  EXPECT_EQ(r->actions[2].value.kind, UpdateValue::Kind::kListAppend);
  EXPECT_EQ(r->actions[3].kind, UpdateAction::Kind::kAdd);
  EXPECT_EQ(r->actions[4].kind, UpdateAction::Kind::kDelete);
  std::vector<DocumentPath> targets = UpdateTargets(*r);
  ASSERT_EQ(targets.size(), 5u);
  EXPECT_EQ(targets[1].top(), "count");
  EXPECT_FALSE(targets[1].nested());
}

TEST(ParseUpdateTest, SectionsOnlyOnce) {
  EXPECT_TRUE(IsValidation(Update("SET a = :v SET b = :v"),
                           "Invalid UpdateExpression: The \"SET\" section can "
                           "only be used once in an update expression;"));
  EXPECT_TRUE(IsValidation(Update("SET a=:v REMOVE a SET b=:v"),
                           "Invalid UpdateExpression: The \"SET\" section can "
                           "only be used once in an update expression;"));
  EXPECT_TRUE(IsValidation(Update("remove a Remove b"),
                           "Invalid UpdateExpression: The \"REMOVE\" section "
                           "can only be used once in an update expression;"));
  EXPECT_TRUE(IsValidation(Update("ADD a :n ADD b :n"),
                           "Invalid UpdateExpression: The \"ADD\" section can "
                           "only be used once in an update expression;"));
  EXPECT_TRUE(IsValidation(Update("DELETE a :ss DELETE b :ss"),
                           "Invalid UpdateExpression: The \"DELETE\" section "
                           "can only be used once in an update expression;"));
}

TEST(ParseUpdateTest, Functions) {
  EXPECT_TRUE(IsValidation(Update("SET a = f(b,c,d)"),
                           "Invalid UpdateExpression: Invalid function name; "
                           "function: f"));
  EXPECT_TRUE(IsValidation(Update("SET a = f123_hi(b,c,d)"),
                           "Invalid UpdateExpression: Invalid function name; "
                           "function: f123_hi"));
  EXPECT_TRUE(IsValidation(Update("SET a = LIST_APPEND(:l, :l)"),
                           "Invalid UpdateExpression: Invalid function name; "
                           "function: LIST_APPEND"));
  EXPECT_TRUE(IsValidation(Update("SET a = size(b)"),
                           "Invalid UpdateExpression: Invalid function name; "
                           "function: size"));
  EXPECT_TRUE(IsValidation(
      Update("SET a = list_append(:l)"),
      "Invalid UpdateExpression: Incorrect number of operands for operator or "
      "function; operator or function: list_append, number of operands: 1"));
  EXPECT_TRUE(IsValidation(
      Update("SET a = list_append(:l, :l, :l)"),
      "Invalid UpdateExpression: Incorrect number of operands for operator or "
      "function; operator or function: list_append, number of operands: 3"));
  EXPECT_TRUE(IsValidation(
      Update("SET a = if_not_exists(a)"),
      "Invalid UpdateExpression: Incorrect number of operands for operator or "
      "function; operator or function: if_not_exists, number of operands: 1"));
  EXPECT_TRUE(IsValidation(
      Update("SET a = list_append(:l, :s)"),
      "Invalid UpdateExpression: Incorrect operand type for operator or "
      "function; operator or function: list_append, operand type: S"));
  EXPECT_TRUE(IsValidation(
      Update("SET b = :s + :n"),
      "Invalid UpdateExpression: Incorrect operand type for operator or "
      "function; operator or function: +, operand type: S"));
  EXPECT_TRUE(IsValidation(
      Update("SET b = :n - :l"),
      "Invalid UpdateExpression: Incorrect operand type for operator or "
      "function; operator or function: -, operand type: L"));
  const std::string path_required =
      "Invalid UpdateExpression: Operator or function requires a document "
      "path; operator or function: if_not_exists";
  EXPECT_TRUE(
      IsValidation(Update("SET b = if_not_exists(:n, :n)"), path_required));
  EXPECT_TRUE(
      IsValidation(Update("SET b = if_not_exists(if_not_exists(a, :n), :n)"),
                   path_required));
  // An undefined value is reported before the path requirement.
  EXPECT_TRUE(IsValidation(Update("SET b = if_not_exists(:nope, :n)"),
                           "Invalid UpdateExpression: An expression attribute "
                           "value used in expression is not defined; "
                           "attribute value: :nope"));
  EXPECT_TRUE(IsValidation(
      Update("SET a = list_append(list_append(:l, :l), :l)"),
      "Invalid UpdateExpression: The function is not allowed to be used this "
      "way in an expression; function: list_append"));
}

TEST(ParseUpdateTest, AddAndDeleteOperandTypes) {
  const std::string prefix =
      "Invalid UpdateExpression: Incorrect operand type for operator or "
      "function; operator: ";
  for (auto [ph, type] :
       std::vector<std::pair<const char*, const char*>>{{":s", "STRING"},
                                                        {":b", "BINARY"},
                                                        {":bool", "BOOLEAN"},
                                                        {":null", "NULL"},
                                                        {":l", "LIST"},
                                                        {":m", "MAP"}}) {
    EXPECT_TRUE(IsValidation(Update("ADD a " + std::string(ph)),
                             prefix + "ADD, operand type: " + type));
    EXPECT_TRUE(IsValidation(Update("DELETE a " + std::string(ph)),
                             prefix + "DELETE, operand type: " + type));
  }
  EXPECT_TRUE(IsValidation(Update("DELETE a :n"),
                           prefix + "DELETE, operand type: NUMBER"));
  EXPECT_TRUE(Update("ADD a :n").ok());
  EXPECT_TRUE(Update("ADD a :ss, b :ns, c :bs").ok());
}

TEST(ParseUpdateTest, OverlappingAndConflictingPaths) {
  const std::string overlap =
      "Invalid UpdateExpression: Two document paths overlap with each other; "
      "must remove or rewrite one of these paths; ";
  for (auto [text, paths] : std::vector<std::pair<const char*, const char*>>{
           {"SET a = :v, a.b = :v", "path one: [a], path two: [a, b]"},
           {"SET a.b = :v, a = :v", "path one: [a, b], path two: [a]"},
           {"SET a = :v REMOVE a", "path one: [a], path two: [a]"},
           {"REMOVE a SET a = :v", "path one: [a], path two: [a]"},
           {"SET a = :v, a = :v", "path one: [a], path two: [a]"},
           {"SET a.b = :v, a.b.c.d.e = :v",
            "path one: [a, b], path two: [a, b, c, d, e]"},
           {"SET a[1] = :v, a[1][1] = :v",
            "path one: [a, [1]], path two: [a, [1], [1]]"},
           {"SET a[1][1][1][1] = :v, a[1][1] = :v",
            "path one: [a, [1], [1], [1], [1]], path two: [a, [1], [1]]"},
           {"SET a = :v ADD a :n", "path one: [a], path two: [a]"},
           {"ADD a.b :n DELETE a :ss", "path one: [a, b], path two: [a]"},
           {"SET #a1 = :v, #a2 = :v", "path one: [a], path two: [a]"},
       }) {
    EXPECT_TRUE(IsValidation(Update(text, R"({"#a1": "a", "#a2": "a"})"),
                             overlap + paths))
        << text;
  }
  const std::string conflict =
      "Invalid UpdateExpression: Two document paths conflict with each other; "
      "must remove or rewrite one of these paths; ";
  EXPECT_TRUE(IsValidation(Update("SET a.b = :v, a[1] = :v"),
                           conflict + "path one: [a, b], path two: [a, [1]]"));
  EXPECT_TRUE(
      IsValidation(Update("SET a.b.c = :v, a.b[2] = :v"),
                   conflict + "path one: [a, b, c], path two: [a, b, [2]]"));
  // Reads don't count; '.' inside a substituted name is part of the name.
  EXPECT_TRUE(Update("SET a = a, b = a").ok());
  EXPECT_TRUE(Update("SET #ab = :v, a.b = :v", R"({"#ab": "a.b"})").ok());
}

TEST(ParseUpdateTest, ReservedAndUndefined) {
  EXPECT_TRUE(IsValidation(Update("SET name = :v"),
                           "Invalid UpdateExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: name"));
  EXPECT_TRUE(IsValidation(Update("SET a = b.Data"),
                           "Invalid UpdateExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: Data"));
  EXPECT_TRUE(IsValidation(Update("SET #name = :v", R"({"#wrongname": "x"})"),
                           "Invalid UpdateExpression: An expression attribute "
                           "name used in the document path is not defined; "
                           "attribute name: #name"));
  EXPECT_TRUE(
      IsValidation(Update("SET b = :val1", "", R"({":val2": {"N": "4"}})"),
                   "Invalid UpdateExpression: An expression attribute "
                   "value used in expression is not defined; "
                   "attribute value: :val1"));
}

TEST(ParseUpdateTest, ErrorOrder) {
  EXPECT_TRUE(IsValidation(Update("SET a = f(a) SET name = :v"),
                           "Invalid UpdateExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: name"));
  EXPECT_TRUE(IsValidation(
      Update(
          "SET a = list_append(list_append(:l, :l), :l), b = f(x) SET c = :v"),
      "Invalid UpdateExpression: Invalid function name; function: f"));
  EXPECT_TRUE(IsValidation(
      Update("SET a = list_append(list_append(:l, :l), :l) SET c = :v"),
      "Invalid UpdateExpression: The function is not allowed to be used this "
      "way in an expression; function: list_append"));
  EXPECT_TRUE(IsValidation(Update("SET a = :nope SET a = #nope"),
                           "Invalid UpdateExpression: The \"SET\" section can "
                           "only be used once in an update expression;"));
  // Undefined names are reported before undefined values, whatever the
  // order in the text.
  EXPECT_TRUE(IsValidation(Update("SET a = :nope, b = #nope"),
                           "Invalid UpdateExpression: An expression attribute "
                           "name used in the document path is not defined; "
                           "attribute name: #nope"));
  EXPECT_TRUE(IsValidation(Update("SET a = :nope, a = :n"),
                           "Invalid UpdateExpression: An expression attribute "
                           "value used in expression is not defined; "
                           "attribute value: :nope"));
  EXPECT_TRUE(IsValidation(
      Update("SET a.b = :n, a[1] = :n, a.b = :n"),
      "Invalid UpdateExpression: Two document paths overlap with each other; "
      "must remove or rewrite one of these paths; path one: [a, b], path two: "
      "[a, b]"));
  EXPECT_TRUE(IsValidation(
      Update("SET a.b = :n, a[1] = :n ADD c :s"),
      "Invalid UpdateExpression: Two document paths conflict with each other; "
      "must remove or rewrite one of these paths; path one: [a, b], path two: "
      "[a, [1]]"));
  EXPECT_TRUE(IsValidation(
      Update("SET a = :s + :n ADD c :s"),
      "Invalid UpdateExpression: Incorrect operand type for operator or "
      "function; operator: ADD, operand type: STRING"));
}

TEST(ParseUpdateTest, Limits) {
  std::string spaces(4085, ' ');
  EXPECT_TRUE(Update("SET" + spaces + "a = :val").ok());
  EXPECT_TRUE(IsValidation(
      Update("SET " + spaces + "a = :val"),
      "Invalid UpdateExpression: Expression size has exceeded the maximum "
      "allowed size; expression size: 4097"));
  std::string many = "SET ";
  for (int i = 0; i < 301; ++i) {
    if (i > 0) many += ",";
    many += "a" + std::to_string(i) + "=:n+:n";
  }
  ASSERT_LT(many.size(), 4096u);
  EXPECT_TRUE(IsValidation(Update(many),
                           "Invalid UpdateExpression: The expression contains "
                           "too many operators; operator count: 301"));
  std::string deep = "SET a";
  for (int i = 0; i < 32; ++i) deep += ".b";
  EXPECT_TRUE(IsValidation(Update(deep + " = :v"),
                           "Invalid UpdateExpression: The document path has "
                           "too many nesting levels; nesting levels: 33"));
  std::string nested = "SET a = ";
  for (int i = 0; i < 300; ++i) nested += "f(";
  nested += ":v" + std::string(300, ')');
  auto r = Update(nested);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().type, ErrorType::kValidation);
}

}  // namespace
}  // namespace ddblab::expr
