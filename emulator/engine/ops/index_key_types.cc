// emulator/engine/ops/index_key_types.cc: see the header.
#include "emulator/engine/ops/index_key_types.h"

#include <optional>
#include <string>

#include "emulator/engine/request.h"

namespace ddblab::engine {
namespace {

using Kind = expr::UpdateValue::Kind;

// The type of a SET right-hand side when the request alone decides it.
std::optional<AttrType> StaticType(const expr::UpdateValue& v) {
  switch (v.kind) {
    case Kind::kValue:
      return v.value.type();
    case Kind::kPlus:
    case Kind::kMinus:
      return AttrType::kN;
    case Kind::kListAppend:
      return AttrType::kL;
    case Kind::kPath:
    case Kind::kIfNotExists:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

Status CheckIndexKeyUpdateTypes(const expr::UpdateExpression& update,
                                const Table& table) {
  for (const expr::UpdateAction& a : update.actions) {
    if (a.path.nested()) continue;
    std::optional<AttrType> actual;
    if (a.kind == expr::UpdateAction::Kind::kSet) {
      actual = StaticType(a.value);
    } else if (a.kind == expr::UpdateAction::Kind::kAdd) {
      actual = a.operand.type();
    }
    if (!actual) continue;
    const std::string& attr = a.path.top();
    if (table.key.Contains(attr)) continue;
    for (const IndexDef& index : table.indexes) {
      if (index.status == TableStatus::kDeleting) continue;
      std::vector<const KeyElement*> keys = index.key.HashElements();
      for (const KeyElement* k : index.key.RangeElements()) keys.push_back(k);
      for (const KeyElement* k : keys) {
        if (k->name != attr || k->type == *actual) continue;
        return Error::Validation(
            std::string(kInvalidParams) + "Type mismatch for Index Key " +
            attr + " Expected: " +
            std::string(value::AttributeValue::TypeName(k->type)) +
            " Actual: " +
            std::string(value::AttributeValue::TypeName(*actual)) +
            " IndexName: " + index.name);
      }
    }
  }
  return OkStatus();
}

}  // namespace ddblab::engine
