// ConditionExpression / FilterExpression parsing: syntax, limits and every
// semantic error text of DynamoDB's expression rules, with the
// reporting order.
#include <gtest/gtest.h>

#include <initializer_list>

#include "emulator/expr/eval_condition.h"
#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsValidation;

constexpr char kValues[] = R"({
  ":s": {"S": "x"}, ":a": {"S": "a"}, ":one": {"S": "1"}, ":t": {"S": "SS"},
  ":n": {"N": "1"}, ":n2": {"N": "2"}, ":b": {"B": "YQ=="},
  ":bool": {"BOOL": true}, ":null": {"NULL": true}, ":l": {"L": []},
  ":m": {"M": {}}, ":ss": {"SS": ["1"]}, ":ns": {"NS": ["1"]},
  ":bs": {"BS": ["YQ=="]}})";

Result<ConditionExpression> Filter(std::string_view text,
                                   std::string_view names = "",
                                   std::string_view values = kValues) {
  Placeholders ph = testing::Ph(names, values);
  return ParseCondition(text, ExpressionKind::kFilter, ph);
}

Result<ConditionExpression> Cond(std::string_view text,
                                 std::string_view names = "",
                                 std::string_view values = kValues) {
  Placeholders ph = testing::Ph(names, values);
  return ParseCondition(text, ExpressionKind::kCondition, ph);
}

std::string Syntax(std::string_view param, std::string_view token,
                   std::string_view near) {
  return "Invalid " + std::string(param) + ": Syntax error; token: \"" +
         std::string(token) + "\", near: \"" + std::string(near) + "\"";
}

TEST(ParseConditionTest, EmptyExpression) {
  EXPECT_TRUE(IsValidation(
      Cond(""),
      "Invalid ConditionExpression: The expression can not be empty;"));
  EXPECT_TRUE(IsValidation(
      Filter(""),
      "Invalid FilterExpression: The expression can not be empty;"));
  Placeholders ph;
  EXPECT_TRUE(IsValidation(
      ParseCondition("", ExpressionKind::kKeyCondition, ph),
      "Invalid KeyConditionExpression: The expression can not be empty;"));
}

TEST(ParseConditionTest, SyntaxErrorsNameTheTokenAndItsNeighbours) {
  EXPECT_TRUE(
      IsValidation(Cond("foo"), Syntax("ConditionExpression", "<EOF>", "foo")));
  EXPECT_TRUE(IsValidation(Cond("attribute_not_exists("),
                           Syntax("ConditionExpression", "<EOF>", "(")));
  EXPECT_TRUE(IsValidation(Filter("contains (themes, :theme"),
                           Syntax("FilterExpression", "<EOF>", ":theme")));
  EXPECT_TRUE(
      IsValidation(Cond("a-b"), Syntax("ConditionExpression", "-", "a-b")));
  EXPECT_TRUE(IsValidation(
      Filter("tenantAgent:abc123-"),
      Syntax("FilterExpression", ":abc123", "tenantAgent:abc123-")));
  EXPECT_TRUE(IsValidation(Filter("a = :s AND ()"),
                           Syntax("FilterExpression", ")", "()")));
  EXPECT_TRUE(
      IsValidation(Filter("a > 4"), Syntax("FilterExpression", "4", "> 4")));
  EXPECT_TRUE(IsValidation(Filter("hits : incr"),
                           Syntax("FilterExpression", ":", "hits : incr")));
  EXPECT_TRUE(
      IsValidation(Filter("\xC3\xBC > a"),
                   Syntax("FilterExpression", "\xC3\xBC", "\xC3\xBC >")));
  EXPECT_TRUE(
      IsValidation(Filter("   "), Syntax("FilterExpression", "<EOF>", "")));
}

TEST(ParseConditionTest, OtherSyntaxErrors) {
  for (const char* text : {
           "things are not gonna be ok",
           "attribute_exists(Pictures-RearView)",
           "attribute_exists(\"Pictures.RearView\")",
           "attribute_exists(Pictures..RearView)",
           "attribute_exists(Pi#ctures.RearView)",
           "attribute_exists(asdf[a])",
           "a in b, c",
           "a > between",
           "a in b",
           "a in (b,c,)",
           "a in ()",
           "(a)between(b.(c.d))and(c)",
           "(a)between(b.c.d)and((c)",
           "#$.b > a",
           "a > :things.stuff",
           "b[:a] > a",
           "b[#_] > a",
           "(a)between(b.c[4.5].#d)and(:a)",
           "size(a).b > a",
           "(size(a)).b > a",
           "size(a)[0] > a",
           "(size(a))[0] > a",
           "a[-1] = :s",
           "a = :s AND",
           "a = :s OR OR b = :s",
           "NOT",
           "(a = :s",
           "a = :s)",
           "a BETWEEN :n",
           "a BETWEEN :n OR :n2",
           "_a = :s",
           "a = :s :s",
           "#n.and = :s",
           "(a)",
           "NOT (a)",
       }) {
    auto r = Filter(text, R"({"#n": "n", "#d": "d", "#_": "u"})");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().type, ErrorType::kValidation);
    EXPECT_EQ(
        r.error().message.rfind("Invalid FilterExpression: Syntax error; ", 0),
        0u)
        << text << " -> " << r.error().message;
  }
  // A list index beyond a 32-bit signed integer is its own error.
  auto big = Filter("a[99999999999] = :s", R"({"#n": "n"})");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().message,
            "Invalid FilterExpression: List index is not within the allowable "
            "range; index: [99999999999]");
}

// Every form of the grammar parses, and parses into the expression DynamoDB
// means: each is evaluated on one item (a = "mm", b = "n", c = "x", d = "q",
// e = "x"), so a wrong precedence or a dropped operand changes an answer.
TEST(ParseConditionTest, AcceptsTheGrammar) {
  const value::Item item = testing::ItemOf(
      R"({"a": {"S": "mm"}, "b": {"S": "n"}, "c": {"S": "x"},
          "d": {"S": "q"}, "e": {"S": "x"}})");
  struct Case {
    const char* text;
    bool holds;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"a = :s", false},
           {"a <> :s", true},
           {"c = :s", true},
           {"a < :n", false},  // a string never compares with a number
           {"a <= :n", false},
           {"a > :n", false},
           {"a >= :n", false},
           {":n = a", false},
           {"a < b", true},
           {"c >= e", true},
           {"a BETWEEN :n AND :n2", false},
           {"b BETWEEN a AND c", true},
           {"a IN (:s)", false},
           {"c IN (:s)", true},
           {"a IN (:s, :a, b)", false},
           {"b IN (:s, :a, b)", true},
           {"attribute_exists(a)", true},
           {"attribute_not_exists(a.b[2].c)", true},
           {"attribute_type(a, :t)", false},
           {"begins_with(a, :s)", false},
           {"begins_with(c, :s)", true},
           {"contains(a, :s)", false},
           {"contains(c, :s)", true},
           {"size(a) > :n", true},
           {":n < size(a)", true},
           {"size(:s) = :n", true},
           {"NOT a = :s", true},
           {"NOT NOT NOT NOT a < b", true},
           {"NOT NOT NOT a < b", false},
           // AND binds tighter than OR: (F AND F) OR T.
           {"a = :s AND b = :s OR c = :s", true},
           {"c = :s OR b = :s AND a = :s", true},
           // NOT binds tighter than AND: (NOT F) AND T.
           {"NOT a = :s AND c = :s", true},
           {"(a = :s OR c = :s) AND (c = :s AND (d = :s OR e = :s))", true},
           {"(a = :s OR b = :s) AND (c = :s AND (d = :s OR e = :s))", false},
           {"((a<b) and c<d)", false},
           {"((a<b) and d<c)", true},
           {"(a) = :s", false},
           {"(c) = :s", true},
           {"c = (:s)", true},
           {"(a).b = :s", false},
           {"(size(a)) > :n", true},
           {"(attribute_exists(a))", true},
           {"a = :s aNd b = :s oR NOT c = :s", false},
           {"a = :s aNd b = :s oR NOT a = :s", true},
           {"attribute_exists (b.x)", false},
           {"a.b[0][1].#n = :s", false},
           // BETWEEN's AND is its own: (b BETWEEN a AND c) AND (a < b).
           {"b BETWEEN a AND c AND a < b", true},
           {"b BETWEEN a AND c AND b < a", false},
           {"contains(a, size(b))", false},
           {"begins_with(:s, a)", false},
           {"begins_with(:s, c)", true},
           {"a IN (:s) AND b IN (:n)", false},
       }) {
    auto r = Filter(c.text, R"({"#n": "n"})");
    ASSERT_TRUE(r.ok()) << c.text << " -> "
                        << (r.ok() ? "" : ToString(r.error()));
    EXPECT_EQ(EvaluateCondition(*r, item), c.holds) << c.text;
  }
}

TEST(ParseConditionTest, AstShape) {
  auto r = Filter("a < :n OR b = :s AND NOT attribute_exists(#n.c[1])",
                  R"({"#n": "x.y"})");
  ASSERT_TRUE(r.ok());
  const Condition& root = r->root;
  ASSERT_EQ(root.kind, Condition::Kind::kOr);
  ASSERT_EQ(root.children.size(), 2u);
  EXPECT_EQ(root.children[0].kind, Condition::Kind::kCompare);
  EXPECT_EQ(root.children[0].op, CompareOp::kLt);
  const Condition& conj = root.children[1];
  ASSERT_EQ(conj.kind, Condition::Kind::kAnd);
  ASSERT_EQ(conj.children[1].kind, Condition::Kind::kNot);
  const Condition& exists = conj.children[1].children[0];
  ASSERT_EQ(exists.kind, Condition::Kind::kAttributeExists);
  EXPECT_EQ(RenderPath(exists.operands[0].path), "[x.y, c, [1]]");

  auto t = Filter("attribute_type(a, :t) AND size(:s) = :n");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->root.children[0].attribute_type,
            value::AttributeValue::Type::kSS);
  ASSERT_EQ(t->root.children[0].operands.size(), 1u);
  EXPECT_EQ(t->root.children[1].operands[0].kind, Operand::Kind::kSize);
  EXPECT_TRUE(t->root.children[1].operands[0].path.empty());
}

TEST(ParseConditionTest, RedundantParentheses) {
  for (const char* text : {
           "((a < :n))",
           "a=a and a > ((views))",
           "(a)between(((b.c)).d)and(c)",
           "a > whatever((:things), ((a)))",
           "a=a AND ((a=a AND a=a)) AND a=a",
           "a=a OR ((a=a OR a=a)) OR a=a",
           "a=a AND ((a=a AND (a=a AND a=a)))",
           "a=a OR ((a=a OR (a=a OR a=a)))",
           "((attribute_exists(a)))",
           "NOT ((a = :s))",
       }) {
    EXPECT_TRUE(IsValidation(Filter(text),
                             "Invalid FilterExpression: The expression has "
                             "redundant parentheses;"))
        << text;
  }
  EXPECT_TRUE(IsValidation(Cond("((a < :n))"),
                           "Invalid ConditionExpression: The expression has "
                           "redundant parentheses;"));
}

TEST(ParseConditionTest, InvalidFunctionName) {
  EXPECT_TRUE(IsValidation(Filter("a=a and whatever((:things)) > a"),
                           "Invalid FilterExpression: Invalid function name; "
                           "function: whatever"));
  EXPECT_TRUE(IsValidation(Filter("attRIbute_exIsts((views), #a)"),
                           "Invalid FilterExpression: Invalid function name; "
                           "function: attRIbute_exIsts"));
  EXPECT_TRUE(IsValidation(Cond("dog(a)=:n"),
                           "Invalid ConditionExpression: Invalid function "
                           "name; function: dog"));
}

TEST(ParseConditionTest, MisusedFunctions) {
  const std::string prefix =
      "Invalid FilterExpression: The function is not allowed to be used this "
      "way in an expression; function: ";
  for (auto [text, fn] : std::vector<std::pair<const char*, const char*>>{
           {"a=a and attribute_exists((views), (#a)) > b", "attribute_exists"},
           {"attribute_not_exists(things) > b", "attribute_not_exists"},
           {"attribute_type(things, :a) > b", "attribute_type"},
           {"begins_with(things, a) > b", "begins_with"},
           {"contains(:things, c) > b", "contains"},
           {"size(contains(a, b)) > a", "contains"},
           {"size(things)", "size"},
           {"a between b and attribute_exists(things)", "attribute_exists"},
           {"a in (b, attribute_exists(things))", "attribute_exists"},
           {"attribute_exists(a) < :n", "attribute_exists"},
           {"a = :s AND size(b)", "size"},
           {"NOT size(b)", "size"},
           {"if_not_exists(a, a)=:n", "if_not_exists"},
           {"list_append(a, a)=:n", "list_append"},
       }) {
    EXPECT_TRUE(IsValidation(Filter(text), prefix + fn)) << text;
  }
}

TEST(ParseConditionTest, ReservedKeywords) {
  EXPECT_TRUE(IsValidation(Filter("attribute_exists(views, #a)"),
                           "Invalid FilterExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: views"));
  EXPECT_TRUE(IsValidation(Filter(":undefined < abOrT"),
                           "Invalid FilterExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: abOrT"));
  EXPECT_TRUE(IsValidation(Cond("a.Status = :s"),
                           "Invalid ConditionExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: Status"));
  // Through a #name any attribute name is fine.
  EXPECT_TRUE(Cond("#s = :s", R"({"#s": "status"})").ok());
}

TEST(ParseConditionTest, UndefinedNamesAndValues) {
  const std::string names =
      "Invalid FilterExpression: An expression attribute name used in the "
      "document path is not defined; attribute name: ";
  for (auto [text, key] : std::vector<std::pair<const char*, const char*>>{
           {"attribute_exists(#Pictures.RearView, :a) and a=a", "#Pictures"},
           {"begins_with(Pictures.#RearView)", "#RearView"},
           {"(#P between :lo and :hi) and (#PC in (:cat1, :cat2))", "#P"},
           {"#4g > a", "#4g"},
           {"#_ > a", "#_"},
           {"(a)between(b.c[45].#d)and(:a)", "#d"},
       }) {
    EXPECT_TRUE(IsValidation(Filter(text), names + key)) << text;
  }
  const std::string values =
      "Invalid FilterExpression: An expression attribute value used in "
      "expression is not defined; attribute value: ";
  for (auto [text, key] : std::vector<std::pair<const char*, const char*>>{
           {"begins_with(:hello, #a, #b)", ":hello"},
           {":x < :y", ":x"},
           {":_ > a", ":_"},
       }) {
    EXPECT_TRUE(IsValidation(Filter(text), values + key)) << text;
  }
}

TEST(ParseConditionTest, IncorrectNumberOfOperands) {
  const std::string prefix =
      "Invalid FilterExpression: Incorrect number of operands for operator or "
      "function; operator or function: ";
  for (auto [text, want] : std::vector<std::pair<const char*, const char*>>{
           {"attribute_exists(things, a) and a=a",
            "attribute_exists, number of operands: 2"},
           {"attribute_not_exists(things, b)",
            "attribute_not_exists, number of operands: 2"},
           {"attribute_type(things)", "attribute_type, number of operands: 1"},
           {"begins_with(things)", "begins_with, number of operands: 1"},
           {"begins_with(things, size(a), b)",
            "begins_with, number of operands: 3"},
           {"contains(things)", "contains, number of operands: 1"},
           {"size(things, a) > b", "size, number of operands: 2"},
       }) {
    EXPECT_TRUE(IsValidation(Filter(text), prefix + want)) << text;
  }
}

TEST(ParseConditionTest, IncorrectOperandTypes) {
  const std::string prefix =
      "Invalid FilterExpression: Incorrect operand type for operator or "
      "function; operator or function: ";
  EXPECT_TRUE(
      IsValidation(Filter("attribute_type(a, size(a)) and a=a and a=:n"),
                   prefix + "attribute_type, operand type: N"));
  EXPECT_TRUE(IsValidation(Filter("begins_with(a, size(a)) and a=:n"),
                           prefix + "begins_with, operand type: N"));
  EXPECT_TRUE(IsValidation(Filter("size(size(a)) > :n"),
                           prefix + "size, operand type: N"));
  EXPECT_TRUE(IsValidation(Filter("attribute_not_exists(size(:n))"),
                           prefix + "size, operand type: N"));
  EXPECT_TRUE(IsValidation(Filter("size(:bool) > a"),
                           prefix + "size, operand type: BOOL"));
  EXPECT_TRUE(IsValidation(Filter("size(:null) > a"),
                           prefix + "size, operand type: NULL"));
  EXPECT_TRUE(IsValidation(Filter("attribute_type(ab.bc[1].a, SS)"),
                           prefix + "attribute_type, operand type: "
                                    "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"));
  for (auto [ph, type] :
       std::vector<std::pair<const char*, const char*>>{{":n", "N"},
                                                        {":b", "B"},
                                                        {":bool", "BOOL"},
                                                        {":null", "NULL"},
                                                        {":l", "L"},
                                                        {":m", "M"},
                                                        {":ss", "SS"},
                                                        {":ns", "NS"},
                                                        {":bs", "BS"}}) {
    EXPECT_TRUE(
        IsValidation(Filter("attribute_type(a, " + std::string(ph) + ")"),
                     prefix + "attribute_type, operand type: " + type));
  }
  for (auto [ph, type] :
       std::vector<std::pair<const char*, const char*>>{{":n", "N"},
                                                        {":bool", "BOOL"},
                                                        {":null", "NULL"},
                                                        {":l", "L"},
                                                        {":m", "M"},
                                                        {":ss", "SS"},
                                                        {":ns", "NS"},
                                                        {":bs", "BS"}}) {
    EXPECT_TRUE(IsValidation(Filter("begins_with(a, " + std::string(ph) + ")"),
                             prefix + "begins_with, operand type: " + type));
    EXPECT_TRUE(IsValidation(Filter("begins_with(" + std::string(ph) + ", a)"),
                             prefix + "begins_with, operand type: " + type));
  }
  EXPECT_TRUE(IsValidation(
      Cond("size(:n) = :n"),
      "Invalid ConditionExpression: Incorrect operand type for operator or "
      "function; operator or function: size, operand type: N"));
  // Ordering comparisons with a non-scalar constant are errors too.
  EXPECT_TRUE(IsValidation(Filter("a < :l"), prefix + "<, operand type: L"));
  EXPECT_TRUE(IsValidation(Filter(":m >= a"), prefix + ">=, operand type: M"));
  EXPECT_TRUE(IsValidation(Filter("a BETWEEN :bool AND :bool"),
                           prefix + "BETWEEN, operand type: BOOL"));
  EXPECT_TRUE(Filter("a = :l AND a <> :m").ok());
}

TEST(ParseConditionTest, AttributeTypeNames) {
  EXPECT_TRUE(IsValidation(
      Filter("attribute_type(a, :one)"),
      "Invalid FilterExpression: Invalid attribute type name found; type: 1, "
      "valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"));
  for (const char* t :
       {"S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"}) {
    std::string values = std::string(R"({":t": {"S": ")") + t + "\"}}";
    EXPECT_TRUE(Filter("attribute_type(a, :t)", "", values).ok()) << t;
  }
}

TEST(ParseConditionTest, RequiresADocumentPath) {
  const std::string prefix =
      "Invalid FilterExpression: Operator or function requires a document "
      "path; operator or function: ";
  EXPECT_TRUE(IsValidation(Filter("attribute_exists(:s) and a=a"),
                           prefix + "attribute_exists"));
  EXPECT_TRUE(IsValidation(Filter("attribute_not_exists(size(:s))"),
                           prefix + "attribute_not_exists"));
}

TEST(ParseConditionTest, DistinctOperands) {
  const std::string prefix =
      "Invalid FilterExpression: The first operand must be distinct from the "
      "remaining operands for this operator or function; operator: ";
  const char* names = R"({"#a": "a"})";
  for (auto [text, want] : std::vector<std::pair<const char*, const char*>>{
           {"a = a AND #a = b AND :views > a", "=, first operand: [a]"},
           {"#a <> a", "<>, first operand: [a]"},
           {"a > #a", ">, first operand: [a]"},
           {"((a=a) OR (a=a))", "=, first operand: [a]"},
           {"((a=a) AND (a=a))", "=, first operand: [a]"},
           {"contains(ab.bc[1].a, ab.bc[1].#a)",
            "contains, first operand: [ab, bc, [1], a]"},
           {"attribute_type(ab.bc[1].#a, ab.bc[1].a)",
            "attribute_type, first operand: [ab, bc, [1], a]"},
           {"begins_with(ab.bc[1].a, ab.bc[1].#a)",
            "begins_with, first operand: [ab, bc, [1], a]"},
       }) {
    EXPECT_TRUE(IsValidation(Filter(text, names), prefix + want)) << text;
  }
  EXPECT_TRUE(Filter(":s > :s").ok());
  EXPECT_TRUE(IsValidation(
      Cond("contains(a, a)"),
      "Invalid ConditionExpression: The first operand must be distinct from "
      "the remaining operands for this operator or function; operator: "
      "contains, first operand: [a]"));
}

TEST(ParseConditionTest, BetweenBounds) {
  EXPECT_TRUE(IsValidation(
      Cond("a BETWEEN :n AND :a"),
      "Invalid ConditionExpression: The BETWEEN operator requires same data "
      "type for lower and upper bounds; lower bound operand: AttributeValue: "
      "{N:1}, upper bound operand: AttributeValue: {S:a}"));
  EXPECT_TRUE(IsValidation(
      Cond("a BETWEEN :n2 AND :n"),
      "Invalid ConditionExpression: The BETWEEN operator requires upper bound "
      "to be greater than or equal to lower bound; lower bound operand: "
      "AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}"));
  EXPECT_TRUE(Cond("a BETWEEN :n AND :n").ok());
  EXPECT_TRUE(Cond("a BETWEEN :n AND b").ok());
}

TEST(ParseConditionTest, SizeLimit) {
  std::string ok = "a" + std::string(4085, ' ') + "= :s";  // 4090 bytes
  EXPECT_TRUE(Cond(ok).ok());
  std::string at_limit = "a" + std::string(4091, ' ') + "= :s";
  ASSERT_EQ(at_limit.size(), 4096u);
  EXPECT_TRUE(Cond(at_limit).ok());
  std::string over = "a " + std::string(4091, ' ') + "= :s";
  EXPECT_TRUE(IsValidation(
      Cond(over),
      "Invalid ConditionExpression: Expression size has exceeded the maximum "
      "allowed size; expression size: 4097"));
  // Checked before syntax.
  EXPECT_TRUE(IsValidation(
      Cond(std::string(15000, '(')),
      "Invalid ConditionExpression: Expression size has exceeded the maximum "
      "allowed size; expression size: 15000"));
}

TEST(ParseConditionTest, OperatorLimit) {
  // a<b or (a<b or (...)): 149 levels = 299 operators is fine.
  std::string ok = "a<b ";
  for (int i = 0; i < 149; ++i) ok += "or (a<b ";
  ok += std::string(149, ')');
  EXPECT_TRUE(Cond(ok).ok());
  std::string over = "a<b ";
  for (int i = 0; i < 454; ++i) over += "or (a<b ";
  over += std::string(454, ')');
  ASSERT_LT(over.size(), 4096u);
  EXPECT_TRUE(IsValidation(Cond(over),
                           "Invalid ConditionExpression: The expression "
                           "contains too many operators; operator count: 301"));
  std::string nots;
  for (int i = 0; i < 1000; ++i) nots += "not ";
  EXPECT_TRUE(IsValidation(Cond(nots + "a<b"),
                           "Invalid ConditionExpression: The expression "
                           "contains too many operators; operator count: 301"));
  std::string nots299;
  for (int i = 0; i < 299; ++i) nots299 += "NOT ";
  EXPECT_TRUE(Cond(nots299 + "a<b").ok());
}

TEST(ParseConditionTest, InOperandLimit) {
  std::string list = ":s";
  for (int i = 1; i < 100; ++i) list += ", :s";
  EXPECT_TRUE(Cond("a IN (" + list + ")").ok());
  EXPECT_TRUE(IsValidation(
      Cond("a IN (" + list + ", :s)"),
      "Invalid ConditionExpression: The IN operator is provided with too many "
      "operands; number of operands: 101"));
}

TEST(ParseConditionTest, PathDepthLimit) {
  std::string ok = "a";
  for (int i = 0; i < 31; ++i) ok += ".b";
  EXPECT_TRUE(Cond("attribute_exists(" + ok + ")").ok());
  EXPECT_TRUE(IsValidation(
      Cond("attribute_exists(" + ok + ".b)"),
      "Invalid ConditionExpression: The document path has too many nesting "
      "levels; nesting levels: 33"));
}

TEST(ParseConditionTest, DeepNestingIsAnErrorNotACrash) {
  for (int depth : {300, 2046}) {
    std::string text =
        std::string(depth, '(') + "a<b" + std::string(depth, ')');
    auto r = Cond(text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().type, ErrorType::kValidation);
  }
  std::string calls = "a < ";
  for (int i = 0; i < 1355; ++i) calls += "f(";
  calls += "b" + std::string(1355, ')');
  EXPECT_FALSE(Cond(calls).ok());
  auto open = Cond(std::string(4096, '('));
  ASSERT_FALSE(open.ok());
  EXPECT_EQ(open.error().message.rfind(
                "Invalid ConditionExpression: Syntax error; token: ", 0),
            0u);
  // Within the nesting limit DynamoDB's own answers.
  std::string shallow_calls = "a < ";
  for (int i = 0; i < 100; ++i) shallow_calls += "f(";
  shallow_calls += "b" + std::string(100, ')');
  EXPECT_TRUE(IsValidation(Cond(shallow_calls),
                           "Invalid ConditionExpression: Invalid function "
                           "name; function: f"));
  std::string parens = std::string(100, '(') + "a<b" + std::string(100, ')');
  EXPECT_TRUE(IsValidation(Cond(parens),
                           "Invalid ConditionExpression: The expression has "
                           "redundant parentheses;"));
}

TEST(ParseConditionTest, ErrorOrder) {
  // Syntax beats everything.
  EXPECT_TRUE(IsValidation(Filter("((views)) = whatever(a) AND"),
                           Syntax("FilterExpression", "<EOF>", "AND")));
  // Parentheses, then unknown function, misused function, reserved word.
  EXPECT_TRUE(IsValidation(Filter("((views = :s)) AND whatever(a) = :s"),
                           "Invalid FilterExpression: The expression has "
                           "redundant parentheses;"));
  EXPECT_TRUE(IsValidation(
      Filter("views = :x AND size(a) AND whatever(a) = :s"),
      "Invalid FilterExpression: Invalid function name; function: whatever"));
  EXPECT_TRUE(IsValidation(
      Filter("views = :x AND size(a)"),
      "Invalid FilterExpression: The function is not allowed to be used this "
      "way in an expression; function: size"));
  EXPECT_TRUE(IsValidation(Filter("a = :x AND views = :s"),
                           "Invalid FilterExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: views"));
  // Then, per condition (first condition with any): undefined name/value,
  // operand count, distinctness, operand types.
  EXPECT_TRUE(IsValidation(
      Filter("contains(a, a, :x) AND :y = #z"),
      "Invalid FilterExpression: An expression attribute value used in "
      "expression is not defined; attribute value: :x"));
  EXPECT_TRUE(IsValidation(
      Filter("begins_with(a, a, :n) AND b = b"),
      "Invalid FilterExpression: Incorrect number of operands for operator or "
      "function; operator or function: begins_with, number of operands: 3"));
  EXPECT_TRUE(IsValidation(
      Filter("begins_with(a, a) AND b = :x"),
      "Invalid FilterExpression: The first operand must be distinct from the "
      "remaining operands for this operator or function; operator: "
      "begins_with, first operand: [a]"));
  EXPECT_TRUE(IsValidation(
      Filter("b = b AND begins_with(a, :n)"),
      "Invalid FilterExpression: The first operand must be distinct from the "
      "remaining operands for this operator or function; operator: =, first "
      "operand: [b]"));
}

}  // namespace
}  // namespace ddblab::expr
