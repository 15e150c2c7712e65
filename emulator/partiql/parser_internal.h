// emulator/partiql/parser_internal.h: the recursive-descent parser shared by
// parser.cc (statements) and parser_expr.cc (expressions). Internal to
// emulator/partiql.
//
// Thread-safety: one Parser per parse, not shared.
#pragma once

#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/partiql/ast.h"
#include "emulator/partiql/lexer.h"

namespace ddblab::partiql::internal {

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<Statement> ParseStatement();

  // Expressions (parser_expr.cc).
  Result<ExprPtr> ParseExpr();
  Result<ExprPtr> ParsePathAfterRoot(ExprPtr root);

 private:
  const Token& Peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& Take() {
    const Token& t = Peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool AtEnd() const { return Peek().kind == TokenKind::kEnd; }
  bool IsKeyword(std::string_view word, size_t ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kKeyword && Peek(ahead).text == word;
  }
  bool TakeKeyword(std::string_view word) {
    if (!IsKeyword(word)) return false;
    Take();
    return true;
  }
  bool TakeKind(TokenKind kind) {
    if (Peek().kind != kind) return false;
    Take();
    return true;
  }

  // Statements (parser.cc).
  Result<SelectStmt> ParseSelect();
  Status ParseSource(SelectStmt* select);
  Result<std::string> ParseDmlTarget();
  Status RejectAlias();
  Status ParseWhere(ExprPtr* where);
  Status ParseUpdateActions(std::vector<UpdateAction>* actions);
  Result<Returning> ParseReturning();
  Result<Statement> ParseInsert();
  Result<Statement> ParseUpdate();
  Result<Statement> ParseDelete();
  Result<Statement> ParseFromFirstUpdate();
  Result<Statement> ParseExistsStatement();

  // Expressions (parser_expr.cc).
  Result<ExprPtr> ParseOr();
  Result<ExprPtr> ParseAnd();
  Result<ExprPtr> ParseNot();
  Result<ExprPtr> ParsePredicate();
  Result<ExprPtr> ParseAdditive();
  Result<ExprPtr> ParseMultiplicative();
  Result<ExprPtr> ParseUnary();
  Result<ExprPtr> ParsePrimary();
  Result<ExprPtr> ParseCall(const Token& name);
  Result<ExprPtr> ParseSequence(ExprKind kind, TokenKind close);
  Result<ExprPtr> ParseTuple();
  Result<ExprPtr> ParseIs(ExprPtr value, const Token& is_token);
  Result<ExprPtr> ParseInRight(ExprPtr value, bool negated, const Token& op);
  // The error for a term that cannot start at the current token.
  Error UnexpectedHere() const;
  // After an infix operator: the right-hand side must exist.
  Status NeedRightHandSide() const;
  // Nesting guard of the recursive rules (sub-expressions, NOT and sign
  // chains): input nested deeper than kMaxDepth is refused with an Error
  // instead of overflowing the stack. Every successful Enter() is paired
  // with a Leave().
  static constexpr int kMaxDepth = 100;
  Status Enter();
  void Leave() { --depth_; }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int parameters_ = 0;
  int depth_ = 0;
};

}  // namespace ddblab::partiql::internal
