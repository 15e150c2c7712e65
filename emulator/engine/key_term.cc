// Key condition terms against a key schema (key_term.h).
#include "emulator/engine/key_term.h"

#include "emulator/engine/ops/read_common.h"
#include "emulator/engine/request.h"

namespace ddblab::engine {

const KeyTerm* FindKeyTerm(const std::vector<KeyTerm>& terms,
                           const std::string& attr) {
  for (const KeyTerm& t : terms) {
    if (t.attr == attr) return &t;
  }
  return nullptr;
}

Status CheckKeyTerm(const KeyTerm& t, AttrType type) {
  if (!t.op) {
    return Error::Validation(
        "Attempted conditional constraint is not an indexable operation");
  }
  bool type_ok = !t.values.empty();
  for (const value::AttributeValue& v : t.values) {
    if (v.type() != type) type_ok = false;
  }
  if (!type_ok) {
    return Error::Validation(
        std::string(kInvalidParams) +
        "Condition parameter type does not match schema type");
  }
  return OkStatus();
}

Status CheckStartElement(const value::Item* esk, const KeyElement& k,
                         bool hash) {
  if (esk == nullptr) return OkStatus();
  if (esk->find(k.name) == esk->end()) {
    return Error::Validation("The provided starting key is invalid");
  }
  return CheckStartKeyPiece(*esk, k, hash);
}

}  // namespace ddblab::engine
