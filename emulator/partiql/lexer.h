// emulator/partiql/lexer.h: splits a PartiQL statement into tokens.
//
// Tokens carry their position (line, column and length, counted in
// characters from 1) because some DynamoDB messages point at a token:
// "Unrecognized function: exists at 1:48:6".
//
// What the lexer refuses (a '#' comment, an unterminated string, quoted name
// or block comment, a character PartiQL has no use for, a number whose
// exponent or scale does not fit a 32-bit integer) DynamoDB reports as
// "Statement wasn't well formed, can't be processed: " with nothing after
// the colon (paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlGrammar.test.ts, pinned on AWS).
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::partiql {

struct Position {
  int line = 1;
  int column = 1;
  int length = 0;

  // "1:48:6", as DynamoDB writes it after "at ".
  std::string ToString() const;
  friend bool operator==(const Position&, const Position&) = default;
};

enum class TokenKind {
  kIdentifier,        // bare name, as written
  kKeyword,           // reserved word; text is upper case
  kQuotedIdentifier,  // "name", quotes removed, "" unescaped
  kString,            // 'text', quotes removed, '' unescaped
  kNumber,            // digits as written: 12, 1.5, .5e3
  kParameter,         // ?
  kLeftParen,
  kRightParen,
  kLeftBracket,
  kRightBracket,
  kLeftBrace,
  kRightBrace,
  kLeftBag,   // <<
  kRightBag,  // >>
  kComma,
  kDot,
  kColon,
  kSemicolon,
  kStar,
  kPlus,
  kMinus,
  kSlash,
  kPercent,
  kConcat,  // ||
  kEq,
  kNe,  // <> or !=
  kLt,
  kLe,
  kGt,
  kGe,
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  Position pos;
};

// The tokens of `statement`, ending with one kEnd token.
Result<std::vector<Token>> Lex(std::string_view statement);

// "Statement wasn't well formed, can't be processed: <detail>".
Error NotWellFormed(std::string_view detail);

}  // namespace ddblab::partiql
