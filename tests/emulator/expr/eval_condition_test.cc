// Condition evaluation semantics (DynamoDB's expression rules,
// DynamoDB's data model).
#include "emulator/expr/eval_condition.h"

#include <gtest/gtest.h>

#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::ItemOf;
using testing::N;
using testing::S;
using testing::V;

constexpr char kValues[] = R"({
  ":s": {"S": "cat"}, ":dog": {"S": "dog"}, ":ca": {"S": "ca"},
  ":n1": {"N": "1"}, ":n1b": {"N": "1.0"}, ":n2": {"N": "2"}, ":n3": {"N": "3"},
  ":n10": {"N": "10"}, ":b": {"B": "Y2F0"}, ":bc": {"B": "Yw=="},
  ":ssA": {"SS": ["b", "a"]}, ":l": {"L": [{"N": "1"}, {"S": "x"}]},
  ":m": {"M": {"y": {"N": "2"}, "x": {"N": "1"}}}, ":true": {"BOOL": true},
  ":null": {"NULL": true}, ":tS": {"S": "S"}, ":tN": {"S": "N"},
  ":tSS": {"S": "SS"}, ":tL": {"S": "L"}, ":tM": {"S": "M"},
  ":tNULL": {"S": "NULL"}, ":tBOOL": {"S": "BOOL"}, ":tB": {"S": "B"},
  ":tNS": {"S": "NS"}, ":tBS": {"S": "BS"}, ":x": {"S": "x"},
  ":sub": {"L": [{"S": "p"}]}})";

constexpr char kItem[] = R"({
  "pk": {"S": "p1"}, "s": {"S": "cat"}, "n": {"N": "1"}, "big": {"N": "10"},
  "b": {"B": "Y2F0"}, "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]},
  "bs": {"BS": ["Yw==", "YQ=="]}, "l": {"L": [{"N": "1"}, {"S": "x"}, {"L": [{"S": "p"}]}]},
  "m": {"M": {"x": {"N": "1"}, "y": {"N": "2"}, "deep": {"M": {"z": {"S": "cat"}}}}},
  "mm": {"M": {"x": {"N": "1"}, "y": {"N": "2"}}}, "t": {"BOOL": true}, "nul": {"NULL": true}, "blank": {"S": ""},
  "utf": {"S": "\u00e9t\u00e9"}})";

class EvalConditionTest : public ::testing::Test {
 protected:
  bool Eval(std::string_view text, const value::Item& item) {
    Placeholders ph = testing::Ph(R"({"#a": "a.b", "#s": "status"})", kValues);
    auto c = ParseCondition(text, ExpressionKind::kCondition, ph);
    EXPECT_TRUE(c.ok()) << text << " " << (c.ok() ? "" : ToString(c.error()));
    if (!c.ok()) return false;
    return EvaluateCondition(*c, item);
  }
  bool Eval(std::string_view text) { return Eval(text, item_); }

  value::Item item_ = ItemOf(kItem);
};

TEST_F(EvalConditionTest, Equality) {
  EXPECT_TRUE(Eval("s = :s"));
  EXPECT_FALSE(Eval("s = :dog"));
  EXPECT_TRUE(Eval("n = :n1b"));  // numbers by value
  EXPECT_FALSE(Eval("n = :s"));   // different types never equal
  EXPECT_TRUE(Eval("n <> :s"));
  EXPECT_TRUE(Eval("ss = :ssA"));  // sets regardless of order
  EXPECT_TRUE(Eval("mm = :m"));    // maps regardless of member order
  EXPECT_FALSE(Eval("m = :m"));
  EXPECT_FALSE(Eval("l = :l"));  // lists element-wise
  EXPECT_TRUE(Eval("b = :b"));
  EXPECT_TRUE(Eval("t = :true"));
  EXPECT_TRUE(Eval("nul = :null"));
  EXPECT_TRUE(Eval("s = m.deep.z"));
  EXPECT_TRUE(Eval("n = l[0]"));
}

TEST_F(EvalConditionTest, AbsentOperands) {
  EXPECT_FALSE(Eval("absent = :s"));
  EXPECT_TRUE(Eval("absent <> :s"));
  EXPECT_TRUE(Eval("q <> z"));  // two absent attributes are unequal too
  for (const char* op : {"<", "<=", ">", ">="}) {
    EXPECT_FALSE(Eval(std::string("q ") + op + " z")) << op;
    EXPECT_FALSE(Eval(std::string("absent ") + op + " :n1")) << op;
    EXPECT_FALSE(Eval(std::string(":n1 ") + op + " absent")) << op;
  }
  EXPECT_FALSE(Eval("q BETWEEN z AND x"));
  EXPECT_FALSE(Eval("absent IN (:s, :n1)"));
  EXPECT_FALSE(Eval("l[7] = :n1"));
  EXPECT_FALSE(Eval("s.x = :n1"));
}

TEST_F(EvalConditionTest, Ordering) {
  EXPECT_TRUE(Eval("n < :n2"));
  EXPECT_TRUE(Eval("n <= :n1"));
  EXPECT_FALSE(Eval("n < :n1"));
  EXPECT_TRUE(Eval("big > :n2"));  // numeric, not lexicographic
  EXPECT_TRUE(Eval("big >= :n10"));
  EXPECT_TRUE(Eval("s < :dog"));
  EXPECT_FALSE(Eval("s < :ca"));
  EXPECT_TRUE(Eval("b > :bc"));
  EXPECT_FALSE(Eval("n < :s"));   // mismatched types: false, no error
  EXPECT_FALSE(Eval("l < :n1"));  // non-scalar item value: false
  EXPECT_FALSE(Eval(":n1 < l"));
  EXPECT_TRUE(Eval("n BETWEEN :n1 AND :n2"));
  EXPECT_TRUE(Eval("big BETWEEN :n2 AND :n10"));
  EXPECT_FALSE(Eval("big BETWEEN :n1 AND :n3"));
  EXPECT_FALSE(Eval("s BETWEEN :n1 AND :n2"));
  EXPECT_TRUE(Eval("s BETWEEN :ca AND :dog"));
}

TEST_F(EvalConditionTest, In) {
  EXPECT_TRUE(Eval("s IN (:dog, :s)"));
  EXPECT_FALSE(Eval("s IN (:dog, :n1)"));
  EXPECT_TRUE(Eval("n IN (:n1b)"));
  EXPECT_TRUE(Eval("n IN (:s, l[0])"));
}

TEST_F(EvalConditionTest, Functions) {
  EXPECT_TRUE(Eval("attribute_exists(s)"));
  EXPECT_TRUE(Eval("attribute_exists(m.deep.z)"));
  EXPECT_FALSE(Eval("attribute_exists(m.deep.q)"));
  EXPECT_TRUE(Eval("attribute_not_exists(nope)"));
  EXPECT_FALSE(Eval("attribute_not_exists(l[2])"));
  EXPECT_TRUE(Eval("attribute_not_exists(#a)"));  // "a.b" is one name
  EXPECT_TRUE(Eval("attribute_not_exists(#s)"));
  EXPECT_TRUE(Eval("attribute_exists(blank)"));
  for (auto [attr, type] :
       std::vector<std::pair<const char*, const char*>>{{"s", ":tS"},
                                                        {"n", ":tN"},
                                                        {"ss", ":tSS"},
                                                        {"l", ":tL"},
                                                        {"m", ":tM"},
                                                        {"nul", ":tNULL"},
                                                        {"t", ":tBOOL"},
                                                        {"b", ":tB"},
                                                        {"ns", ":tNS"},
                                                        {"bs", ":tBS"}}) {
    EXPECT_TRUE(Eval("attribute_type(" + std::string(attr) + ", " + type + ")"))
        << attr;
    EXPECT_FALSE(Eval("attribute_type(" + std::string(attr) + ", " +
                      (std::string(type) == ":tS" ? ":tN" : ":tS") + ")"))
        << attr;
  }
  EXPECT_FALSE(Eval("attribute_type(nope, :tS)"));
  EXPECT_TRUE(Eval("begins_with(s, :ca)"));
  EXPECT_FALSE(Eval("begins_with(s, :dog)"));
  EXPECT_TRUE(Eval("begins_with(b, :bc)"));
  EXPECT_FALSE(Eval("begins_with(n, :ca)"));
  EXPECT_FALSE(Eval("begins_with(s, :bc)"));
  EXPECT_TRUE(Eval("contains(s, :ca)"));
  EXPECT_FALSE(Eval("contains(s, :dog)"));
  EXPECT_TRUE(Eval("contains(ss, :x) OR contains(ss, :ca) OR contains(l, :x)"));
  EXPECT_FALSE(Eval("contains(ss, :x)"));
  EXPECT_TRUE(Eval("contains(ns, :n1)"));
  EXPECT_FALSE(Eval("contains(ns, :s)"));
  EXPECT_TRUE(Eval("contains(bs, :bc)"));
  EXPECT_TRUE(Eval("contains(b, :bc)"));
  EXPECT_TRUE(Eval("contains(l, :x)"));
  EXPECT_TRUE(Eval("contains(l, :sub)"));  // lists compared by value
  EXPECT_FALSE(Eval("contains(m, :x)"));
  EXPECT_FALSE(Eval("contains(n, :n1)"));
}

TEST_F(EvalConditionTest, Size) {
  EXPECT_TRUE(Eval("size(s) = :n3"));
  EXPECT_TRUE(Eval("size(b) = :n3"));
  EXPECT_TRUE(Eval("size(ss) = :n2"));
  EXPECT_TRUE(Eval("size(l) = :n3"));
  EXPECT_TRUE(Eval("size(m) = :n3"));
  EXPECT_TRUE(Eval("size(l[2]) = :n1"));
  EXPECT_TRUE(Eval("size(blank) < :n1"));
  EXPECT_TRUE(Eval("size(:s) = :n3"));
  EXPECT_TRUE(Eval("size(utf) = size(utf)"));
  // UTF-8 bytes: "été" is 5 bytes.
  Placeholders ph = testing::Ph("", R"({":five": {"N": "5"}})");
  auto c = ParseCondition("size(utf) = :five", ExpressionKind::kCondition, ph);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(EvaluateCondition(*c, item_));
  // No size for N, BOOL, NULL item values, nor for absent ones: false.
  EXPECT_FALSE(Eval("size(n) = :n1"));
  EXPECT_FALSE(Eval("size(t) >= :n1"));
  EXPECT_FALSE(Eval("size(nul) >= :n1"));
  EXPECT_FALSE(Eval("size(nope) >= :n1"));
}

TEST_F(EvalConditionTest, LogicAndPrecedence) {
  EXPECT_TRUE(Eval("n = :n1 AND s = :s"));
  EXPECT_FALSE(Eval("n = :n1 AND s = :dog"));
  EXPECT_TRUE(Eval("n = :n2 OR s = :s"));
  EXPECT_FALSE(Eval("n = :n2 OR s = :dog"));
  EXPECT_TRUE(Eval("NOT n = :n2"));
  EXPECT_TRUE(Eval("NOT NOT NOT NOT n = :n1"));
  // a OR b AND c == a OR (b AND c)
  EXPECT_TRUE(Eval("n = :n1 OR n = :n2 AND n = :n3"));
  EXPECT_FALSE(Eval("(n = :n1 OR n = :n2) AND n = :n3"));
  // NOT binds tighter than AND.
  EXPECT_FALSE(Eval("NOT n = :n1 AND s = :dog"));
  EXPECT_TRUE(Eval("NOT (n = :n2 AND s = :dog)"));
  // BETWEEN's AND is not the logical AND.
  EXPECT_TRUE(Eval("n BETWEEN :n1 AND :n2 AND s = :s"));
}

TEST_F(EvalConditionTest, MissingItem) {
  value::Item none;
  EXPECT_TRUE(Eval("attribute_not_exists(pk)", none));
  EXPECT_FALSE(Eval("attribute_exists(pk)", none));
  EXPECT_FALSE(Eval("s = :s", none));
  EXPECT_TRUE(Eval("s <> :s", none));
  EXPECT_FALSE(Eval("size(s) > :n1", none));
}

TEST_F(EvalConditionTest, ReferencedPaths) {
  Placeholders ph = testing::Ph("", kValues);
  auto c = ParseCondition("a.b = :s AND (size(c) > :n1 OR NOT contains(d, e))",
                          ExpressionKind::kFilter, ph);
  ASSERT_TRUE(c.ok());
  std::vector<const DocumentPath*> paths = ReferencedPaths(c->root);
  ASSERT_EQ(paths.size(), 4u);
  EXPECT_EQ(RenderPath(*paths[0]), "[a, b]");
  EXPECT_EQ(paths[1]->top(), "c");
  EXPECT_EQ(paths[2]->top(), "d");
  EXPECT_EQ(paths[3]->top(), "e");
}

TEST(EvalHelpersTest, BuiltAstsEvaluateToo) {
  // Legacy conversions build ASTs directly.
  Condition c = Condition::Logical(
      Condition::Kind::kAnd,
      {Condition::Compare(CompareOp::kGe, Operand::Path(DocumentPath("n")),
                          Operand::Value(N("1"))),
       Condition::Not(
           Condition::Function(Condition::Kind::kAttributeExists,
                               {Operand::Path(DocumentPath("gone"))}))});
  EXPECT_TRUE(EvaluateCondition(c, ItemOf(R"({"n": {"N": "3"}})")));
  EXPECT_FALSE(EvaluateCondition(c, ItemOf(R"({"n": {"N": "0"}})")));
  EXPECT_EQ(CompareScalars(S("a"), S("b")), -1);
  EXPECT_EQ(CompareScalars(N("2"), N("10")), -1);
  EXPECT_FALSE(CompareScalars(N("2"), S("2")).has_value());
  EXPECT_FALSE(SizeOf(N("2")).has_value());
  EXPECT_EQ(SizeOf(V(R"({"L": []})")), 0);
}

}  // namespace
}  // namespace ddblab::expr
