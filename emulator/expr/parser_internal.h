// emulator/expr/parser_internal.h: machinery shared by the condition, update
// and projection parsers (token cursor, syntax errors, limits, document
// paths, placeholder resolution, first-occurrence error slots). Internal to
// emulator/expr.
//
// Thread-safety: a parser object is used by one thread for one parse.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/error.h"
#include "emulator/expr/ast.h"
#include "emulator/expr/lexer.h"
#include "emulator/expr/placeholders.h"

namespace ddblab::expr::internal {

// The first error of one category; later ones are ignored.
using Slot = std::optional<std::string>;
inline void Note(Slot& slot, std::string msg) {
  if (!slot) slot = std::move(msg);
}

// "Invalid <Param>: <msg>" as a ValidationException.
Error InvalidExpression(ExpressionKind kind, std::string_view msg);

// Empty text and size checks, done before parsing. Returns an error or
// nothing.
std::optional<Error> CheckExpressionText(std::string_view text,
                                         ExpressionKind kind);

class ParserBase {
 protected:
  ParserBase(std::string_view text, ExpressionKind kind, Placeholders& ph);
  ~ParserBase() = default;

  // Grammar keywords that cannot be bare attribute names in this grammar.
  virtual bool IsGrammarKeyword(const Token& t) const = 0;

  const Token& cur() const { return cur_; }
  void Advance();
  const Token& Peek();

  // Each returns false after recording the fatal error in fatal_.
  bool Fail(Error e);
  bool SyntaxError();  // at cur()
  bool Expect(TokenKind kind);
  bool CountOperator();  // the 301st operator is fatal
  bool EnterNesting();   // beyond kMaxNesting: syntax error at cur()
  void LeaveNesting() { --depth_; }

  // A document path starting at cur() (a name or #placeholder). Bare names
  // are checked against the reserved words; #names are resolved (an
  // undefined one leaves an empty element and clears *resolved).
  bool ParsePath(DocumentPath* out, bool* resolved);
  // Continues a path with `.name`, `.#name` and `[n]` steps.
  bool ParsePathTail(DocumentPath* out, bool* resolved);
  bool CheckPathDepth(const DocumentPath& path);

  // The value for the :placeholder token t, or nullptr (recorded as
  // undefined).
  const value::AttributeValue* ResolveValue(const Token& t);

  std::string_view text_;
  ExpressionKind kind_;
  Placeholders& ph_;
  std::optional<Error> fatal_;

  // First-occurrence semantic errors shared by the grammars.
  Slot reserved_;
  Slot undefined_name_;
  Slot undefined_value_;
  Slot undefined_any_;  // the first of the two above, in text order

 private:
  bool PathName(DocumentPath* out, bool* resolved);

  Lexer lexer_;
  Token prev_;
  Token cur_;
  Token next_;
  bool has_prev_ = false;
  bool has_next_ = false;
  int ops_ = 0;
  int depth_ = 0;
};

}  // namespace ddblab::expr::internal
