// emulator/expr/parser_base.cc
#include <cstdint>
#include <string>

#include "emulator/expr/parser.h"
#include "emulator/expr/parser_internal.h"
#include "emulator/expr/reserved_words.h"

namespace ddblab::expr::internal {

Error InvalidExpression(ExpressionKind kind, std::string_view msg) {
  std::string text = "Invalid ";
  text += ParamName(kind);
  text += ": ";
  text += msg;
  return Error::Validation(std::move(text));
}

std::optional<Error> CheckExpressionText(std::string_view text,
                                         ExpressionKind kind) {
  if (text.empty()) {
    return InvalidExpression(kind, "The expression can not be empty;");
  }
  if (text.size() > kMaxExpressionSize) {
    return InvalidExpression(
        kind,
        "Expression size has exceeded the maximum allowed size; expression "
        "size: " +
            std::to_string(text.size()));
  }
  return std::nullopt;
}

ParserBase::ParserBase(std::string_view text, ExpressionKind kind,
                       Placeholders& ph)
    : text_(text), kind_(kind), ph_(ph), lexer_(text) {
  cur_ = lexer_.Next();
}

void ParserBase::Advance() {
  prev_ = cur_;
  has_prev_ = true;
  if (has_next_) {
    cur_ = next_;
    has_next_ = false;
  } else {
    cur_ = lexer_.Next();
  }
}

const Token& ParserBase::Peek() {
  if (!has_next_) {
    next_ = lexer_.Next();
    has_next_ = true;
  }
  return next_;
}

bool ParserBase::Fail(Error e) {
  if (!fatal_) fatal_ = std::move(e);
  return false;
}

bool ParserBase::SyntaxError() {
  const Token* next = nullptr;
  if (cur_.kind != TokenKind::kEof) next = &Peek();
  return Fail(InvalidExpression(
      kind_,
      SyntaxErrorMessage(text_, has_prev_ ? &prev_ : nullptr, cur_, next)));
}

bool ParserBase::Expect(TokenKind kind) {
  if (cur_.kind != kind) return SyntaxError();
  Advance();
  return true;
}

bool ParserBase::CountOperator() {
  if (++ops_ > kMaxOperators) {
    return Fail(InvalidExpression(
        kind_, "The expression contains too many operators; operator count: " +
                   std::to_string(ops_)));
  }
  return true;
}

bool ParserBase::EnterNesting() {
  if (depth_ >= kMaxNesting) return SyntaxError();
  ++depth_;
  return true;
}

bool ParserBase::PathName(DocumentPath* out, bool* resolved) {
  if (cur_.kind == TokenKind::kName && !IsGrammarKeyword(cur_)) {
    if (IsReservedWord(cur_.text)) {
      Note(reserved_,
           "Attribute name is a reserved keyword; reserved keyword: " +
               std::string(cur_.text));
    }
    out->elements.push_back(PathElement::Name(std::string(cur_.text)));
  } else if (cur_.kind == TokenKind::kNamePlaceholder) {
    const std::string* name = ph_.FindName(cur_.text);
    if (name == nullptr) {
      std::string msg =
          "An expression attribute name used in the document path is not "
          "defined; attribute name: " +
          std::string(cur_.text);
      Note(undefined_any_, msg);
      Note(undefined_name_, std::move(msg));
      *resolved = false;
      out->elements.push_back(PathElement::Name(std::string()));
    } else {
      out->elements.push_back(PathElement::Name(*name));
    }
  } else {
    return SyntaxError();
  }
  Advance();
  return true;
}

bool ParserBase::ParsePath(DocumentPath* out, bool* resolved) {
  out->elements.clear();
  if (!PathName(out, resolved)) return false;
  return ParsePathTail(out, resolved);
}

bool ParserBase::ParsePathTail(DocumentPath* out, bool* resolved) {
  while (true) {
    if (cur_.kind == TokenKind::kDot) {
      Advance();
      if (!PathName(out, resolved)) return false;
    } else if (cur_.kind == TokenKind::kLBracket) {
      Advance();
      if (cur_.kind != TokenKind::kInteger) return SyntaxError();
      // DynamoDB reads the index as a 32-bit signed integer; a larger one is
      // refused naming the digits as written. (The text is DynamoDB's; the
      // exact bound, INT32_MAX, is inferred from it and unverified.)
      uint64_t index = 0;
      for (char c : cur_.text) {
        index = index * 10 + static_cast<uint64_t>(c - '0');
        if (index > INT32_MAX) {
          return Fail(InvalidExpression(
              kind_, "List index is not within the allowable range; index: [" +
                         std::string(cur_.text) + "]"));
        }
      }
      Advance();
      if (!Expect(TokenKind::kRBracket)) return false;
      out->elements.push_back(PathElement::Index(static_cast<uint32_t>(index)));
    } else {
      break;
    }
  }
  return CheckPathDepth(*out);
}

bool ParserBase::CheckPathDepth(const DocumentPath& path) {
  if (path.size() > kMaxPathDepth) {
    return Fail(InvalidExpression(
        kind_,
        "The document path has too many nesting levels; nesting levels: " +
            std::to_string(path.size())));
  }
  return true;
}

const value::AttributeValue* ParserBase::ResolveValue(const Token& t) {
  const value::AttributeValue* v = ph_.FindValue(t.text);
  if (v == nullptr) {
    std::string msg =
        "An expression attribute value used in expression is not defined; "
        "attribute value: " +
        std::string(t.text);
    Note(undefined_any_, msg);
    Note(undefined_value_, std::move(msg));
  }
  return v;
}

}  // namespace ddblab::expr::internal
