// emulator/expr/parser.h: parsing of the five expression kinds.
//
// Each parser is a hand-written recursive-descent parser over lexer.h tokens
// that produces the resolved AST of ast.h (placeholders substituted through
// the request's Placeholders, which records what was used). Errors are
// ValidationExceptions with DynamoDB's exact texts, prefixed
// "Invalid <Param>: " (DynamoDB's expression rules). Checks run in
// DynamoDB's order: empty text, size (4096 bytes), then syntax (with the
// operator limit of 300, the IN limit of 100 operands and the path depth
// limit of 32, which abort parsing where they are hit), then the semantic
// errors by category, first occurrence first:
//   condition: redundant parentheses, unknown function, misused function,
//              reserved word, then per condition: undefined name/value,
//              operand count, distinct operands, operand types;
//   update:    reserved word, unknown function, misused function, repeated
//              section, undefined name, undefined value, overlapping paths,
//              conflicting paths, ADD/DELETE operand type, function errors;
//   projection: reserved word, undefined name, overlapping, conflicting.
// Nesting of parentheses and function calls is bounded (kMaxNesting): deeper
// input is a syntax error at the token where the limit is reached, never a
// stack overflow.
//
// Thread-safety: stateless functions; `ph` is mutated (used marks).
#pragma once

#include <cstddef>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/expr/ast.h"
#include "emulator/expr/placeholders.h"

namespace ddblab::expr {

inline constexpr size_t kMaxExpressionSize = 4096;  // bytes
inline constexpr int kMaxOperators = 300;
inline constexpr int kMaxInOperands = 100;
inline constexpr int kMaxNesting = 256;  // parentheses + function calls

// kind is kCondition, kFilter, kKeyCondition or kSearchCondition (the latter
// two only select the message prefix; see key_condition.h for the key
// analysis, engine/vector/search_condition.h for SearchVectors' rules).
Result<ConditionExpression> ParseCondition(std::string_view text,
                                           ExpressionKind kind,
                                           Placeholders& ph);

Result<UpdateExpression> ParseUpdate(std::string_view text, Placeholders& ph);

Result<ProjectionExpression> ParseProjection(std::string_view text,
                                             Placeholders& ph);

}  // namespace ddblab::expr
