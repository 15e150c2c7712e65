#include "emulator/partiql/lexer.h"

#include <cctype>
#include <cstdint>
#include <utility>

#include "emulator/partiql/keywords.h"

namespace ddblab::partiql {
namespace {

constexpr int64_t kInt32Max = 2147483647;
constexpr int64_t kInt32Min = -2147483648LL;

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool IsIdentChar(char c) {
  return IsIdentStart(c) || std::isdigit(static_cast<unsigned char>(c));
}
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    while (true) {
      DDBLAB_RETURN_IF_ERROR(SkipSpaceAndComments());
      if (at_ >= text_.size()) break;
      DDBLAB_ASSIGN_OR_RETURN(Token token, Next());
      tokens.push_back(std::move(token));
    }
    Token end;
    end.kind = TokenKind::kEnd;
    end.pos = Position{line_, column_, 0};
    tokens.push_back(std::move(end));
    return tokens;
  }

 private:
  // A lexer failure: DynamoDB reports nothing after the colon.
  static Error Fail() { return NotWellFormed(""); }

  char Peek(size_t ahead = 0) const {
    return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0';
  }

  // Advances one byte, keeping line and column (in characters) current.
  void Advance() {
    char c = text_[at_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      // A character counts once, at its first byte (not at UTF-8
      // continuation bytes).
      ++column_;
    }
  }

  Status SkipSpaceAndComments() {
    while (at_ < text_.size()) {
      char c = Peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
          c == '\v') {
        Advance();
      } else if (c == '-' && Peek(1) == '-') {
        while (at_ < text_.size() && Peek() != '\n') Advance();
      } else if (c == '/' && Peek(1) == '*') {
        Advance();
        Advance();
        while (true) {
          if (at_ >= text_.size()) return Fail();
          if (Peek() == '*' && Peek(1) == '/') {
            Advance();
            Advance();
            break;
          }
          Advance();
        }
      } else {
        break;
      }
    }
    return OkStatus();
  }

  Token Make(TokenKind kind, std::string text, int line, int column) const {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.pos = Position{line, column, column_ - column};
    if (line_ != line) t.pos.length = 0;
    return t;
  }

  Result<Token> Quoted(char quote, TokenKind kind) {
    int line = line_;
    int column = column_;
    Advance();  // opening quote
    std::string value;
    while (true) {
      if (at_ >= text_.size()) return Fail();
      char c = Peek();
      if (c == quote) {
        if (Peek(1) == quote) {
          value.push_back(quote);
          Advance();
          Advance();
          continue;
        }
        Advance();
        break;
      }
      value.push_back(c);
      Advance();
    }
    return Make(kind, std::move(value), line, column);
  }

  // digits [. digits] [e [+-] digits], or . digits [...]. The exponent and
  // the scale (fraction digits less the exponent) must fit a 32-bit integer
  // as in Java's BigDecimal, which DynamoDB's parser uses.
  Result<Token> Number() {
    int line = line_;
    int column = column_;
    size_t start = at_;
    int64_t fraction_digits = 0;
    while (IsDigit(Peek())) Advance();
    if (Peek() == '.') {
      Advance();
      while (IsDigit(Peek())) {
        Advance();
        ++fraction_digits;
      }
    }
    if (Peek() == 'e' || Peek() == 'E') {
      Advance();
      bool negative = false;
      if (Peek() == '+' || Peek() == '-') {
        negative = Peek() == '-';
        Advance();
      }
      if (!IsDigit(Peek())) return Fail();
      int64_t exponent = 0;
      bool too_big = false;
      while (IsDigit(Peek())) {
        if (!too_big) {
          exponent = exponent * 10 + (Peek() - '0');
          if (exponent > kInt32Max + 1) too_big = true;
        }
        Advance();
      }
      if (negative) exponent = -exponent;
      if (too_big || exponent > kInt32Max || exponent < kInt32Min) {
        return Fail();
      }
      int64_t scale = fraction_digits - exponent;
      if (scale > kInt32Max || scale < kInt32Min) return Fail();
    }
    return Make(TokenKind::kNumber,
                std::string(text_.substr(start, at_ - start)), line, column);
  }

  Result<Token> Next() {
    int line = line_;
    int column = column_;
    char c = Peek();
    if (c == '\'') return Quoted('\'', TokenKind::kString);
    if (c == '"') return Quoted('"', TokenKind::kQuotedIdentifier);
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) return Number();
    if (IsIdentStart(c)) {
      size_t start = at_;
      while (IsIdentChar(Peek())) Advance();
      std::string word(text_.substr(start, at_ - start));
      std::string upper = word;
      for (char& ch : upper) {
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      }
      if (IsKeyword(upper)) {
        return Make(TokenKind::kKeyword, std::move(upper), line, column);
      }
      return Make(TokenKind::kIdentifier, std::move(word), line, column);
    }
    auto one = [&](TokenKind kind) {
      Advance();
      return Make(kind, std::string(1, c), line, column);
    };
    auto two = [&](TokenKind kind) {
      std::string text(text_.substr(at_, 2));
      Advance();
      Advance();
      return Make(kind, std::move(text), line, column);
    };
    switch (c) {
      case '?':
        return one(TokenKind::kParameter);
      case '(':
        return one(TokenKind::kLeftParen);
      case ')':
        return one(TokenKind::kRightParen);
      case '[':
        return one(TokenKind::kLeftBracket);
      case ']':
        return one(TokenKind::kRightBracket);
      case '{':
        return one(TokenKind::kLeftBrace);
      case '}':
        return one(TokenKind::kRightBrace);
      case ',':
        return one(TokenKind::kComma);
      case '.':
        return one(TokenKind::kDot);
      case ':':
        return one(TokenKind::kColon);
      case ';':
        return one(TokenKind::kSemicolon);
      case '*':
        return one(TokenKind::kStar);
      case '+':
        return one(TokenKind::kPlus);
      case '-':
        return one(TokenKind::kMinus);
      case '/':
        return one(TokenKind::kSlash);
      case '%':
        return one(TokenKind::kPercent);
      case '=':
        return one(TokenKind::kEq);
      case '|':
        if (Peek(1) == '|') return two(TokenKind::kConcat);
        return Fail();
      case '!':
        if (Peek(1) == '=') return two(TokenKind::kNe);
        return Fail();
      case '<':
        if (Peek(1) == '<') return two(TokenKind::kLeftBag);
        if (Peek(1) == '=') return two(TokenKind::kLe);
        if (Peek(1) == '>') return two(TokenKind::kNe);
        return one(TokenKind::kLt);
      case '>':
        if (Peek(1) == '>') return two(TokenKind::kRightBag);
        if (Peek(1) == '=') return two(TokenKind::kGe);
        return one(TokenKind::kGt);
      default:
        return Fail();
    }
  }

  std::string_view text_;
  size_t at_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace

std::string Position::ToString() const {
  return std::to_string(line) + ":" + std::to_string(column) + ":" +
         std::to_string(length);
}

Error NotWellFormed(std::string_view detail) {
  // Source: paritysuite/dynamodb-conformance
  // tests/tier3/error-messages/partiqlGrammar.test.ts (pinned on AWS).
  return Error::Validation(
      std::string("Statement wasn't well formed, can't be processed: ") +
      std::string(detail));
}

Result<std::vector<Token>> Lex(std::string_view statement) {
  return Lexer(statement).Run();
}

}  // namespace ddblab::partiql
