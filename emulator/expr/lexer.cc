// emulator/expr/lexer.cc
#include "emulator/expr/lexer.h"

namespace ddblab::expr {
namespace {

bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentPart(char c) { return IsAlpha(c) || IsDigit(c) || c == '_'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Length of the UTF-8 sequence starting with lead byte `c` (1 for ASCII and
// for stray continuation or invalid bytes).
size_t Utf8SequenceLength(unsigned char c) {
  if (c >= 0xF0 && c <= 0xF4) return 4;
  if (c >= 0xE0) return c <= 0xEF ? 3 : 1;
  if (c >= 0xC2) return 2;
  return 1;
}

}  // namespace

bool Token::IsKeyword(std::string_view upper) const {
  if (kind != TokenKind::kName || text.size() != upper.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != upper[i]) return false;
  }
  return true;
}

Token Lexer::Next() {
  const size_t n = text_.size();
  while (pos_ < n && IsSpace(text_[pos_])) ++pos_;
  Token t;
  t.begin = pos_;
  if (pos_ >= n) {
    t.kind = TokenKind::kEof;
    t.end = pos_;
    return t;
  }
  const char c = text_[pos_];
  size_t len = 1;
  auto ident_run = [&](size_t from) {
    size_t e = from;
    while (e < n && IsIdentPart(text_[e])) ++e;
    return e;
  };
  if (IsAlpha(c)) {
    t.kind = TokenKind::kName;
    len = ident_run(pos_ + 1) - pos_;
  } else if (IsDigit(c)) {
    t.kind = TokenKind::kInteger;
    size_t e = pos_ + 1;
    while (e < n && IsDigit(text_[e])) ++e;
    len = e - pos_;
  } else if (c == '#' || c == ':') {
    size_t e = ident_run(pos_ + 1);
    if (e > pos_ + 1) {
      t.kind =
          c == '#' ? TokenKind::kNamePlaceholder : TokenKind::kValuePlaceholder;
      len = e - pos_;
    } else {
      t.kind = TokenKind::kUnknown;
    }
  } else {
    const char next = pos_ + 1 < n ? text_[pos_ + 1] : '\0';
    switch (c) {
      case '(':
        t.kind = TokenKind::kLParen;
        break;
      case ')':
        t.kind = TokenKind::kRParen;
        break;
      case '[':
        t.kind = TokenKind::kLBracket;
        break;
      case ']':
        t.kind = TokenKind::kRBracket;
        break;
      case ',':
        t.kind = TokenKind::kComma;
        break;
      case '.':
        t.kind = TokenKind::kDot;
        break;
      case '=':
        t.kind = TokenKind::kEq;
        break;
      case '+':
        t.kind = TokenKind::kPlus;
        break;
      case '-':
        t.kind = TokenKind::kMinus;
        break;
      case '<':
        if (next == '>') {
          t.kind = TokenKind::kNe;
          len = 2;
        } else if (next == '=') {
          t.kind = TokenKind::kLe;
          len = 2;
        } else {
          t.kind = TokenKind::kLt;
        }
        break;
      case '>':
        if (next == '=') {
          t.kind = TokenKind::kGe;
          len = 2;
        } else {
          t.kind = TokenKind::kGt;
        }
        break;
      default:
        t.kind = TokenKind::kUnknown;
        len = Utf8SequenceLength(static_cast<unsigned char>(c));
        if (pos_ + len > n) len = n - pos_;
        break;
    }
  }
  t.text = text_.substr(pos_, len);
  pos_ += len;
  t.end = pos_;
  return t;
}

std::string SyntaxErrorMessage(std::string_view text, const Token* previous,
                               const Token& current, const Token* next) {
  const bool at_eof = current.kind == TokenKind::kEof;
  size_t from = current.begin;
  size_t to = current.end;
  if (previous != nullptr) from = previous->begin;
  if (at_eof) {
    to = previous != nullptr ? previous->end : current.begin;
  } else if (next != nullptr && next->kind != TokenKind::kEof) {
    to = next->end;
  }
  if (from > to) from = to;
  std::string msg = "Syntax error; token: \"";
  if (at_eof) {
    msg += "<EOF>";
  } else {
    msg += current.text;
  }
  msg += "\", near: \"";
  msg += text.substr(from, to - from);
  msg += "\"";
  return msg;
}

}  // namespace ddblab::expr
