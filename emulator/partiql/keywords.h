// emulator/partiql/keywords.h: the reserved words of DynamoDB's PartiQL.
//
// DynamoDB parses statements with the PartiQL reference parser, whose lexer
// treats every SQL-92 reserved word plus PartiQL's own keywords as a keyword:
// such a word cannot be a bare attribute name (`WHERE pad = 'x'` is a syntax
// error, `WHERE "pad" = 'x'` is fine) and cannot follow a dot in a path
// (`m.inner` -> "Invalid path dot component"). Both facts were recorded
// against DynamoDB (paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlFunctions.test.ts; a DynamoDB Local
// recording quoted in a Go driver's notes: "WHERE pad = 'none' fails").
//
// Thread-safety: stateless functions over constant tables.
#pragma once

#include <string_view>

namespace ddblab::partiql {

// True if `upper` (an identifier already converted to upper case) is a
// keyword.
bool IsKeyword(std::string_view upper);

}  // namespace ddblab::partiql
