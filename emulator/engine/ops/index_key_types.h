// emulator/engine/ops/index_key_types.h: the check, before the item is read, of
// an update that gives a secondary index key attribute a value of another
// type than the index declares.
//
// DynamoDB refuses such an update in two ways. When the type of the new value
// is known from the request alone (a constant, an arithmetic result, an ADD
// operand, a legacy AttributeUpdates value) it answers, before reading the
// item, "One or more parameter values were invalid: Type mismatch for Index
// Key <attr> Expected: <T> Actual: <T2> IndexName: <index>". When the value
// is copied from the item (SET k = other, if_not_exists), the type is known
// only once the item is read, and the answer is "The update expression
// attempted to update the secondary index key to unsupported type"
// (item_mutation.cc). Both texts and the split are those of DynamoDB as
// recorded by other emulators' tests written against it.
//
// Thread-safety: stateless function.
#pragma once

#include "emulator/api/result.h"
#include "emulator/engine/table.h"
#include "emulator/expr/ast.h"

namespace ddblab::engine {

Status CheckIndexKeyUpdateTypes(const expr::UpdateExpression& update,
                                const Table& table);

}  // namespace ddblab::engine
