// emulator/expr/key_paths.h: checks of expression paths against key
// attributes, with DynamoDB's texts (DynamoDB's expression rules,
// DynamoDB's data model). The engine calls these with the table's and indexes'
// key attribute names; the expression layer knows nothing of schemas otherwise.
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emulator/api/error.h"
#include "emulator/expr/ast.h"

namespace ddblab::expr {

// A nested path (`pk.x`, `pk[0]`) whose top-level attribute is a key:
// "Key attributes must be scalars; list random access '[]' and map lookup
// '.' are not allowed: Key: <attr>" for table keys (checked first), and
// "... IndexKey: <attr>" for index keys. Paths are checked in order.
std::optional<Error> CheckNestedKeyPaths(
    const std::vector<const DocumentPath*>& paths,
    const std::vector<std::string>& table_keys,
    const std::vector<std::string>& index_keys);

// An update action targeting a table key attribute: "One or more parameter
// values were invalid: Cannot update attribute <k>. This attribute is part
// of the key".
std::optional<Error> CheckUpdateKeyTargets(
    const UpdateExpression& u, const std::vector<std::string>& table_keys);

}  // namespace ddblab::expr
