// emulator/expr/parser_condition_internal.h: the condition parser's class,
// shared by its grammar (parser_condition.cc) and its semantic checks
// (parser_condition_checks.cc). Internal to emulator/expr.
//
// Thread-safety: one parser object per parse, used by one thread.
#pragma once

#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/expr/ast.h"
#include "emulator/expr/parser_internal.h"

namespace ddblab::expr::internal {

using Type = value::AttributeValue::Type;

// An operand while parsing: may still be any function call, which the
// semantic checks then accept (size) or reject.
struct POperand {
  enum class Kind { kPath, kValue, kFunction };
  Kind kind = Kind::kValue;
  DocumentPath path;
  value::AttributeValue value;
  std::string_view name;  // kFunction
  std::vector<POperand> args;
  int parens = 0;
  bool resolved = true;   // all placeholders defined
  bool has_type = false;  // statically known type (constants, size(), ...)
  Type type = Type::kNull;
};

// A parsed primary: a condition, or (only inside parentheses) an operand
// still waiting for its comparator.
struct PNode {
  bool is_operand = false;
  POperand operand;
  Condition cond;
  int parens = 0;
};

class ConditionParser final : public ParserBase {
 public:
  ConditionParser(std::string_view text, ExpressionKind kind, Placeholders& ph)
      : ParserBase(text, kind, ph) {}

  Result<ConditionExpression> Run();

 private:
  bool IsGrammarKeyword(const Token& t) const override;
  // At a comparator, BETWEEN or IN.
  bool AtConditionTail() const;

  bool ParseOr(PNode* out, bool allow_operand);
  bool ParseAnd(PNode* out, bool allow_operand);
  bool ParseNot(PNode* out, bool allow_operand);
  bool ParsePrimary(PNode* out, bool allow_operand);
  bool ParseConditionTail(POperand left, PNode* out);
  bool ParseOperand(POperand* out);

  // Semantic checks (recorded in slots, never fatal).
  void CheckFunctionCall(POperand* call);
  void CheckMisused(const POperand& arg);
  void CheckDistinct(std::string_view op, const POperand& a, const POperand& b);
  void CheckOrderable(std::string_view op, const POperand& x);
  void CheckBetweenBounds(const POperand& lo, const POperand& hi);
  void ConditionComplete();
  Condition FunctionCondition(POperand call);

  // Converts a checked operand; false if it cannot appear in the AST (only
  // possible when an error has been recorded).
  bool ToOperand(POperand p, Operand* out);
  bool ToOperandImpl(POperand p, Operand* out);

  Slot parens_;
  Slot unknown_function_;
  Slot misused_function_;
  Slot operand_count_;
  Slot distinct_;
  Slot function_;
  Slot condition_;  // the first condition that had any of the four above
  bool incomplete_ = false;
};

}  // namespace ddblab::expr::internal
