// emulator/partiql/parser.h: PartiQL statement text -> Statement (ast.h).
//
// Recursive descent over the tokens of lexer.h, for the subset DynamoDB
// runs: SELECT, INSERT, UPDATE (and its FROM-first form), DELETE, and
// EXISTS(SELECT ...) for transactions. Syntax errors carry DynamoDB's texts,
// "Statement wasn't well formed, can't be processed: <detail>", with these
// details pinned against AWS (paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlGrammar.test.ts and grammar.test.ts):
//   "Unexpected token after expression"  a token left after a statement
//   "Unexpected term"                    nothing where a term must start
//   "Unexpected keyword"                 a keyword where a term must start
//   "Unexpected operator"                an operator where a term must start
//   "Missing right-hand side expression of infix operator"
//   "Expected type name"                 IS followed by a non-type
//   "Expected identifier for simple path"  DELETE FROM / INSERT INTO / UPDATE
//                                          without a table name
//   "Invalid path dot component"         a keyword after '.' (m.inner)
// and, without the envelope, "Aliasing is not supported" (same source).
//
// Thread-safety: stateless functions.
#pragma once

#include <string_view>

#include "emulator/api/result.h"
#include "emulator/partiql/ast.h"

namespace ddblab::partiql {

Result<Statement> Parse(std::string_view text);

}  // namespace ddblab::partiql
