// emulator/expr/lexer.h: the tokenizer shared by every expression kind.
//
// Tokens are views into the expression text, which must outlive the Lexer.
// Lexical rules (DynamoDB's expression rules):
//   name         [A-Za-z][A-Za-z0-9_]*      (keywords are names too; the
//                                             parser compares them
//                                             case-insensitively)
//   #placeholder #[A-Za-z0-9_]+
//   :placeholder :[A-Za-z0-9_]+
//   integer      [0-9]+                     (only meaningful inside [n])
//   punctuation  ( ) [ ] , . = <> < <= > >= + -
// Whitespace (space, tab, CR, LF) separates tokens. Anything else (a bare
// '#' or ':', '_', '$', '!', a non-ASCII character as one whole UTF-8
// sequence, ...) is a one-character kUnknown token, which no grammar rule
// accepts, so it surfaces as a syntax error naming that token.
//
// Thread-safety: a Lexer is a cursor; use one per thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ddblab::expr {

enum class TokenKind {
  kEof,
  kName,
  kNamePlaceholder,
  kValuePlaceholder,
  kInteger,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kComma,
  kDot,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kPlus,
  kMinus,
  kUnknown,
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  std::string_view text;  // empty for kEof
  size_t begin = 0;       // byte offsets into the expression
  size_t end = 0;

  // Case-insensitive keyword test for kName tokens ("and", "SET", ...).
  // `upper` must be upper case.
  bool IsKeyword(std::string_view upper) const;
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // The next token; kEof (repeatedly) at the end.
  Token Next();

  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// "Syntax error; token: \"<tok>\", near: \"<context>\"" where <tok> is the
// offending token ("<EOF>" at the end) and <context> is the source text from
// the start of the token before it (if any) to the end of the token after it
// (if any), as DynamoDB prints it: `SET _123` -> token "_", near "SET _123".
std::string SyntaxErrorMessage(std::string_view text, const Token* previous,
                               const Token& current, const Token* next);

}  // namespace ddblab::expr
