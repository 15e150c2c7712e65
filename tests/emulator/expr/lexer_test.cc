#include "emulator/expr/lexer.h"

#include <gtest/gtest.h>

#include <vector>

#include "emulator/expr/reserved_words.h"

namespace ddblab::expr {
namespace {

std::vector<Token> All(std::string_view text) {
  Lexer lexer(text);
  std::vector<Token> out;
  while (true) {
    Token t = lexer.Next();
    out.push_back(t);
    if (t.kind == TokenKind::kEof) break;
  }
  return out;
}

TEST(LexerTest, NamesPlaceholdersAndIntegers) {
  auto t = All("Alpha_Numeric_123 #_ #123a :_ :v1 [17]");
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[0].kind, TokenKind::kName);
  EXPECT_EQ(t[0].text, "Alpha_Numeric_123");
  EXPECT_EQ(t[1].kind, TokenKind::kNamePlaceholder);
  EXPECT_EQ(t[1].text, "#_");
  EXPECT_EQ(t[2].kind, TokenKind::kNamePlaceholder);
  EXPECT_EQ(t[2].text, "#123a");
  EXPECT_EQ(t[3].kind, TokenKind::kValuePlaceholder);
  EXPECT_EQ(t[4].text, ":v1");
  EXPECT_EQ(t[5].kind, TokenKind::kLBracket);
  EXPECT_EQ(t[6].kind, TokenKind::kInteger);
  EXPECT_EQ(t[6].text, "17");
  EXPECT_EQ(t[7].kind, TokenKind::kRBracket);
  EXPECT_EQ(t[8].kind, TokenKind::kEof);
}

TEST(LexerTest, Punctuation) {
  auto t = All("()[],.=<><<=>>=+-");
  std::vector<TokenKind> want = {
      TokenKind::kLParen,   TokenKind::kRParen, TokenKind::kLBracket,
      TokenKind::kRBracket, TokenKind::kComma,  TokenKind::kDot,
      TokenKind::kEq,       TokenKind::kNe,     TokenKind::kLt,
      TokenKind::kLe,       TokenKind::kGt,     TokenKind::kGe,
      TokenKind::kPlus,     TokenKind::kMinus,  TokenKind::kEof};
  ASSERT_EQ(t.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(t[i].kind, want[i]) << i;
}

TEST(LexerTest, NamesCannotStartWithUnderscoreOrDigit) {
  auto t = All("_123 9a");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].kind, TokenKind::kUnknown);
  EXPECT_EQ(t[0].text, "_");
  EXPECT_EQ(t[1].kind, TokenKind::kInteger);
  EXPECT_EQ(t[1].text, "123");
  EXPECT_EQ(t[2].kind, TokenKind::kInteger);
  EXPECT_EQ(t[3].kind, TokenKind::kName);
  EXPECT_EQ(t[3].text, "a");
}

TEST(LexerTest, BareSigilsAndOddCharactersAreUnknownTokens) {
  auto t = All("# : $ ! \"x\" \xC3\xBC");
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[0].text, "#");
  EXPECT_EQ(t[0].kind, TokenKind::kUnknown);
  EXPECT_EQ(t[1].text, ":");
  EXPECT_EQ(t[1].kind, TokenKind::kUnknown);
  EXPECT_EQ(t[2].text, "$");
  EXPECT_EQ(t[3].text, "!");
  EXPECT_EQ(t[4].text, "\"");
  EXPECT_EQ(t[5].kind, TokenKind::kName);
  EXPECT_EQ(t[7].text, "\xC3\xBC");  // one token for the whole code point
  EXPECT_EQ(t[7].kind, TokenKind::kUnknown);
}

TEST(LexerTest, TruncatedUtf8DoesNotReadPastTheEnd) {
  auto t = All("a\xE2\x82");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[1].text, "\xE2\x82");
}

TEST(LexerTest, KeywordsAreCaseInsensitive) {
  auto t = All("sEt AND and Andy");
  EXPECT_TRUE(t[0].IsKeyword("SET"));
  EXPECT_TRUE(t[1].IsKeyword("AND"));
  EXPECT_TRUE(t[2].IsKeyword("AND"));
  EXPECT_FALSE(t[3].IsKeyword("AND"));
}

TEST(LexerTest, SyntaxErrorNearShowsNeighbourTokens) {
  std::string_view text = "SET _123 = :v";
  auto t = All(text);
  EXPECT_EQ(SyntaxErrorMessage(text, &t[0], t[1], &t[2]),
            "Syntax error; token: \"_\", near: \"SET _123\"");
  // First token: no previous one.
  std::string_view text2 = "INVALID SYNTAX HERE";
  auto t2 = All(text2);
  EXPECT_EQ(SyntaxErrorMessage(text2, nullptr, t2[0], &t2[1]),
            "Syntax error; token: \"INVALID\", near: \"INVALID SYNTAX\"");
  // At the end: <EOF>, near the last token.
  std::string_view text3 = "foo";
  auto t3 = All(text3);
  EXPECT_EQ(SyntaxErrorMessage(text3, &t3[0], t3[1], nullptr),
            "Syntax error; token: \"<EOF>\", near: \"foo\"");
}

TEST(ReservedWordsTest, TableHasAll573WordsCaseInsensitively) {
  EXPECT_EQ(ReservedWordCount(), 573u);
  for (const char* w :
       {"NAME", "status", "Data", "date", "KEY", "value", "ttl", "TIMESTAMP",
        "user", "count", "size", "year", "comment", "ABORT", "ZONE", "abOrT"}) {
    EXPECT_TRUE(IsReservedWord(w)) << w;
  }
  for (const char* w :
       {"", "a", "nam", "statuses", "pk", "ZONES", "averyveryverylongname"}) {
    EXPECT_FALSE(IsReservedWord(w)) << w;
  }
}

}  // namespace
}  // namespace ddblab::expr
