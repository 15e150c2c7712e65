// KeyConditionExpression analysis and the key-path checks
// (DynamoDB's expression rules).
#include "emulator/expr/key_condition.h"

#include <gtest/gtest.h>

#include "emulator/expr/key_paths.h"
#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsValidation;
using testing::N;
using testing::S;
using testing::V;
using Type = value::AttributeValue::Type;

constexpr char kValues[] = R"({":pk": {"S": "p"}, ":s": {"S": "ab"},
  ":n": {"N": "1"}, ":n2": {"N": "2"}, ":b": {"B": "YQ=="}, ":t": {"S": "S"}})";

KeySchemaInfo HashRange() {
  KeySchemaInfo k;
  k.hash_name = "pk";
  k.hash_type = Type::kS;
  k.range_name = "sk";
  k.range_type = Type::kN;
  return k;
}

KeySchemaInfo HashOnly() {
  KeySchemaInfo k;
  k.hash_name = "pk";
  k.hash_type = Type::kS;
  return k;
}

Result<KeyCondition> Key(std::string_view text,
                         const KeySchemaInfo& schema = HashRange(),
                         std::string_view names = "") {
  Placeholders ph = testing::Ph(names, kValues);
  return ParseKeyCondition(text, ph, schema);
}

TEST(KeyConditionTest, HashOnly) {
  auto r = Key("pk = :pk");
  ASSERT_TRUE(r.ok()) << ToString(r.error());
  EXPECT_EQ(r->hash_value, S("p"));
  EXPECT_FALSE(r->range.has_value());
  auto h = Key("#k = :pk", HashOnly(), R"({"#k": "pk"})");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->hash_value, S("p"));
}

TEST(KeyConditionTest, RangeForms) {
  struct Case {
    const char* text;
    RangeOp op;
  };
  for (const Case& c : std::vector<Case>{
           {"pk = :pk AND sk = :n", RangeOp::kEq},
           {"pk = :pk AND sk < :n", RangeOp::kLt},
           {"pk = :pk AND sk <= :n", RangeOp::kLe},
           {"pk = :pk AND sk > :n", RangeOp::kGt},
           {"sk >= :n AND pk = :pk", RangeOp::kGe},
           {":pk = pk AND :n < sk", RangeOp::kGt},
           {":pk = pk AND :n >= sk", RangeOp::kLe},
           {"(pk = :pk) AND (:n = sk)", RangeOp::kEq},
           {"pk = :pk AND sk BETWEEN :n AND :n2", RangeOp::kBetween},
       }) {
    auto r = Key(c.text);
    ASSERT_TRUE(r.ok()) << c.text << " " << ToString(r.error());
    ASSERT_TRUE(r->range.has_value()) << c.text;
    EXPECT_EQ(r->range->op, c.op) << c.text;
    EXPECT_EQ(r->range->a, N("1")) << c.text;
  }
  auto between = Key("pk = :pk AND sk BETWEEN :n AND :n2");
  ASSERT_TRUE(between.ok());
  EXPECT_EQ(between->range->b, N("2"));
  KeySchemaInfo string_range = HashRange();
  string_range.range_type = Type::kS;
  auto prefix = Key("pk = :pk AND begins_with(sk, :s)", string_range);
  ASSERT_TRUE(prefix.ok());
  EXPECT_EQ(prefix->range->op, RangeOp::kBeginsWith);
  EXPECT_EQ(prefix->range->a, S("ab"));
}

TEST(KeyConditionTest, InvalidOperators) {
  const std::string prefix =
      "Invalid operator used in KeyConditionExpression: ";
  for (auto [text, op] : std::vector<std::pair<const char*, const char*>>{
           {"pk = :pk OR sk = :n", "OR"},
           {"NOT pk = :pk", "NOT"},
           {"pk = :pk AND NOT sk = :n", "NOT"},
           {"pk IN (:pk)", "IN"},
           {"pk <> :pk", "<>"},
           {"attribute_exists(pk)", "attribute_exists"},
           {"attribute_not_exists(pk)", "attribute_not_exists"},
           {"attribute_type(pk, :t)", "attribute_type"},
           {"pk = :pk AND contains(sk, :n)", "contains"},
       }) {
    EXPECT_TRUE(IsValidation(Key(text), prefix + op)) << text;
  }
}

TEST(KeyConditionTest, InvalidConditions) {
  EXPECT_TRUE(
      IsValidation(Key("pk = :pk AND size(sk) = :n"),
                   "KeyConditionExpressions cannot contain nested operations"));
  EXPECT_TRUE(IsValidation(
      Key("pk = :pk AND :n BETWEEN sk AND :n2"),
      "Invalid condition in KeyConditionExpression: BETWEEN operator must "
      "have the key attribute as its first operand"));
  EXPECT_TRUE(IsValidation(
      Key("pk = :pk AND begins_with(:s, sk)"),
      "Invalid condition in KeyConditionExpression: begins_with operator must "
      "have the key attribute as its first operand"));
  EXPECT_TRUE(IsValidation(Key("pk = sk"),
                           "Invalid condition in KeyConditionExpression: "
                           "Multiple attribute names used in one condition"));
  EXPECT_TRUE(IsValidation(
      Key("pk.x = :pk"),
      "KeyConditionExpressions cannot have conditions on nested attributes"));
  EXPECT_TRUE(IsValidation(Key(":pk = :s"),
                           "Invalid condition in KeyConditionExpression: No "
                           "key attribute specified"));
  EXPECT_TRUE(IsValidation(
      Key("sk > :n AND sk < :n2"),
      "KeyConditionExpressions must only contain one condition per key"));
  EXPECT_TRUE(IsValidation(Key("pk = :pk AND sk > :n AND x = :n"),
                           "Conditions can be of length 1 or 2 only"));
}

TEST(KeyConditionTest, SchemaChecks) {
  EXPECT_TRUE(IsValidation(Key("sk = :n"),
                           "Query condition missed key schema element: pk"));
  EXPECT_TRUE(IsValidation(Key("x = :n AND sk = :n"),
                           "Query condition missed key schema element: pk"));
  EXPECT_TRUE(IsValidation(Key("pk = :pk AND x = :n"),
                           "Query condition missed key schema element: sk"));
  EXPECT_TRUE(
      IsValidation(Key("pk > :pk"), "Query key condition not supported"));
  EXPECT_TRUE(IsValidation(Key("begins_with(pk, :pk)"),
                           "Query key condition not supported"));
  EXPECT_TRUE(IsValidation(Key("pk BETWEEN :s AND :pk"),
                           "Query key condition not supported"));
  EXPECT_TRUE(IsValidation(Key("pk > :pk AND sk < :n"),
                           "Query key condition not supported"));
  EXPECT_TRUE(IsValidation(Key("pk = :pk AND x = :n", HashOnly()),
                           "Query key condition not supported"));
  const char* mismatch =
      "One or more parameter values were invalid: Condition parameter type "
      "does not match schema type";
  EXPECT_TRUE(IsValidation(Key("pk = :n"), mismatch));
  EXPECT_TRUE(IsValidation(Key("pk = :pk AND sk = :s"), mismatch));
  EXPECT_TRUE(IsValidation(Key("pk = :pk AND begins_with(sk, :s)"), mismatch));
}

TEST(KeyConditionTest, ParseErrorsComeFirstWithTheirPrefix) {
  EXPECT_TRUE(IsValidation(Key("pk = :nope OR x = :n"),
                           "Invalid KeyConditionExpression: An expression "
                           "attribute value used in expression is not "
                           "defined; attribute value: :nope"));
  EXPECT_TRUE(IsValidation(Key("pk = :pk AND ((sk = :n))"),
                           "Invalid KeyConditionExpression: The expression "
                           "has redundant parentheses;"));
  EXPECT_TRUE(IsValidation(Key("pk = :pk AND"),
                           "Invalid KeyConditionExpression: Syntax error; "
                           "token: \"<EOF>\", near: \"AND\""));
}

TEST(KeyConditionTest, RangeMatches) {
  RangeCondition rc;
  rc.op = RangeOp::kBetween;
  rc.a = N("1");
  rc.b = N("10");
  EXPECT_TRUE(RangeMatches(rc, N("1")));
  EXPECT_TRUE(RangeMatches(rc, N("9.5")));
  EXPECT_TRUE(RangeMatches(rc, N("10")));
  EXPECT_FALSE(RangeMatches(rc, N("10.01")));
  EXPECT_FALSE(RangeMatches(rc, S("5")));
  rc.op = RangeOp::kLt;
  EXPECT_TRUE(RangeMatches(rc, N("-3")));
  EXPECT_FALSE(RangeMatches(rc, N("1")));
  rc.op = RangeOp::kLe;
  EXPECT_TRUE(RangeMatches(rc, N("1")));
  rc.op = RangeOp::kGt;
  EXPECT_TRUE(RangeMatches(rc, N("1e1")));
  rc.op = RangeOp::kGe;
  EXPECT_FALSE(RangeMatches(rc, N("0.99")));
  rc.op = RangeOp::kEq;
  EXPECT_TRUE(RangeMatches(rc, N("1.0")));
  rc.op = RangeOp::kBeginsWith;
  rc.a = S("ab");
  EXPECT_TRUE(RangeMatches(rc, S("abc")));
  EXPECT_FALSE(RangeMatches(rc, S("a")));
  rc.a = V(R"({"B": "AAE="})");
  EXPECT_TRUE(RangeMatches(rc, V(R"({"B": "AAEC"})")));
  // S compares by UTF-8 bytes: "a" (0x61) > "A" (0x41), "¿" > "z".
  rc.op = RangeOp::kGt;
  rc.a = S("z");
  EXPECT_TRUE(RangeMatches(rc, S("\xC2\xBF")));
  rc.a = S("A");
  EXPECT_TRUE(RangeMatches(rc, S("a")));
}

TEST(KeyPathsTest, NestedKeyPaths) {
  DocumentPath top("pk");
  DocumentPath nested =
      DocumentPath::Of({PathElement::Name("pk"), PathElement::Name("x")});
  DocumentPath gsi =
      DocumentPath::Of({PathElement::Name("g"), PathElement::Index(0)});
  EXPECT_FALSE(CheckNestedKeyPaths({&top}, {"pk"}, {"g"}).has_value());
  auto e = CheckNestedKeyPaths({&gsi, &nested}, {"pk"}, {"g"});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->type, ErrorType::kValidation);
  EXPECT_EQ(e->message,
            "Key attributes must be scalars; list random access '[]' and map "
            "lookup '.' are not allowed: Key: pk");
  e = CheckNestedKeyPaths({&gsi}, {"pk"}, {"g"});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message,
            "Key attributes must be scalars; list random access '[]' and map "
            "lookup '.' are not allowed: IndexKey: g");
}

TEST(KeyPathsTest, UpdateOfKeyAttribute) {
  Placeholders ph = testing::Ph("", R"({":v": {"N": "4"}})");
  auto u = ParseUpdate("SET a = :v REMOVE c", ph);
  ASSERT_TRUE(u.ok());
  EXPECT_FALSE(CheckUpdateKeyTargets(*u, {"p"}).has_value());
  auto e = CheckUpdateKeyTargets(*u, {"p", "c"});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->type, ErrorType::kValidation);
  EXPECT_EQ(e->message,
            "One or more parameter values were invalid: Cannot update "
            "attribute c. This attribute is part of the key");
}

}  // namespace
}  // namespace ddblab::expr
