// emulator/expr/projection.h: applying a ProjectionExpression to an item.
//
// Each selected path that exists is copied into the result inside its parent
// structure, holding only the selected parts: `a.b` gives {a: {b: ...}};
// selected list elements come back as a compacted list in index order
// (`a[1], a[3]` gives {a: [x1, x3]}). Missing paths (or paths through a value
// of the wrong type) are simply absent; no empty parents are created. Key
// attributes are not added (DynamoDB's expression rules).
//
// Thread-safety: stateless function over immutable inputs.
#pragma once

#include "emulator/expr/ast.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::expr {

value::Item Project(const ProjectionExpression& p, const value::Item& item);

}  // namespace ddblab::expr
