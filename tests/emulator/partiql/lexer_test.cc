#include "emulator/partiql/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ddblab::partiql {
namespace {

constexpr char kNotWellFormed[] =
    "Statement wasn't well formed, can't be processed: ";

std::string Kinds(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) {
    switch (t.kind) {
      case TokenKind::kIdentifier:
        out += "id(" + t.text + ")";
        break;
      case TokenKind::kKeyword:
        out += "kw(" + t.text + ")";
        break;
      case TokenKind::kQuotedIdentifier:
        out += "qid(" + t.text + ")";
        break;
      case TokenKind::kString:
        out += "str(" + t.text + ")";
        break;
      case TokenKind::kNumber:
        out += "num(" + t.text + ")";
        break;
      case TokenKind::kEnd:
        out += "end";
        break;
      default:
        out += "op(" + t.text + ")";
    }
    out += " ";
  }
  return out;
}

std::string LexKinds(std::string_view text) {
  Result<std::vector<Token>> tokens = Lex(text);
  if (!tokens.ok()) return "error: " + tokens.error().message;
  return Kinds(*tokens);
}

TEST(LexerTest, KeywordsAreCaseInsensitiveAndUpperCased) {
  EXPECT_EQ(LexKinds("select * From Tbl"),
            "kw(SELECT) op(*) kw(FROM) id(Tbl) end ");
}

TEST(LexerTest, QuotedNamesAndStringsUnescapeDoubledQuotes) {
  EXPECT_EQ(LexKinds(R"("a""b" 'it''s')"), R"(qid(a"b) str(it's) end )");
}

TEST(LexerTest, OperatorsIncludingBagsAndNotEqual) {
  EXPECT_EQ(LexKinds("<< >> <> != <= >= < > = || ?"),
            "op(<<) op(>>) op(<>) op(!=) op(<=) op(>=) op(<) op(>) op(=) "
            "op(||) op(?) end ");
}

TEST(LexerTest, NumbersInEveryAcceptedForm) {
  EXPECT_EQ(LexKinds("1 1.5 .73e1 7.31E+6 73100000e-1"),
            "num(1) num(1.5) num(.73e1) num(7.31E+6) num(73100000e-1) end ");
}

TEST(LexerTest, NumberSplitFromExponentIsTwoTokens) {
  EXPECT_EQ(LexKinds("1 e5"), "num(1) id(e5) end ");
}

TEST(LexerTest, CommentsAreWhitespace) {
  EXPECT_EQ(LexKinds("-- note\nSELECT /* x */ a -- tail"),
            "kw(SELECT) id(a) end ");
}

TEST(LexerTest, RefusalsHaveNothingAfterTheColon) {
  // Pinned on AWS: paritysuite/dynamodb-conformance partiqlGrammar.test.ts.
  for (const char* text :
       {"a # note", "a /* note", "1e2147483648", "1e99999999999",
        "1.5e-2147483647", "'open", "\"open", "a @ b", "1e", "a | b"}) {
    Result<std::vector<Token>> tokens = Lex(text);
    ASSERT_FALSE(tokens.ok()) << text;
    EXPECT_EQ(tokens.error().type, ErrorType::kValidation);
    EXPECT_EQ(tokens.error().message, kNotWellFormed) << text;
  }
}

TEST(LexerTest, ExponentAtTheInt32LimitIsAccepted) {
  EXPECT_EQ(LexKinds("1e2147483647"), "num(1e2147483647) end ");
}

TEST(LexerTest, PositionsCountCharactersFromOne) {
  Result<std::vector<Token>> tokens = Lex("SELECT\n  \"é\" , EXISTS(");
  ASSERT_TRUE(tokens.ok());
  ASSERT_EQ(tokens->size(), 6u);
  EXPECT_EQ((*tokens)[0].pos, (Position{1, 1, 6}));
  EXPECT_EQ((*tokens)[1].pos, (Position{2, 3, 3}));
  EXPECT_EQ((*tokens)[2].pos, (Position{2, 7, 1}));
  EXPECT_EQ((*tokens)[3].pos, (Position{2, 9, 6}));
  EXPECT_EQ((*tokens)[3].pos.ToString(), "2:9:6");
}

}  // namespace
}  // namespace ddblab::partiql
