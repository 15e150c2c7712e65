// emulator/engine/query_multi_key.cc: Query on multi-attribute GSI keys.
//
// DynamoDB's texts for a condition that breaks the multi-attribute rules are
// not published; we reuse its single-key texts (our choice, see the spec
// notes): a HASH attribute without a condition, or a RANGE attribute skipped
// before one that has a condition, is "Query condition missed key schema
// element: <attr>"; a non-equality on a HASH attribute, or on a RANGE
// attribute followed by another RANGE condition, or a condition on an
// attribute outside the key, is "Query key condition not supported".
#include "emulator/engine/query_multi_key.h"

#include "emulator/engine/multi_key.h"
#include "emulator/engine/read_common.h"
#include "emulator/engine/request.h"
#include "emulator/value/key_codec.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;

constexpr char kNotSupported[] = "Query key condition not supported";
constexpr char kMissed[] = "Query condition missed key schema element: ";

const KeyTerm* FindTerm(const std::vector<KeyTerm>& terms,
                        const std::string& attr) {
  for (const KeyTerm& t : terms) {
    if (t.attr == attr) return &t;
  }
  return nullptr;
}

Status CheckTerm(const KeyTerm& t, AttrType type) {
  if (!t.op) {
    return Error::Validation(
        "Attempted conditional constraint is not an indexable operation");
  }
  if (t.values.empty()) {
    return Error::Validation(
        std::string(kInvalidParams) +
        "Condition parameter type does not match schema type");
  }
  for (const AttributeValue& v : t.values) {
    if (v.type() != type) {
      return Error::Validation(
          std::string(kInvalidParams) +
          "Condition parameter type does not match schema type");
    }
  }
  return OkStatus();
}

Status CheckStartElement(const Item* esk, const KeyElement& k, bool hash) {
  if (esk == nullptr) return OkStatus();
  if (esk->find(k.name) == esk->end()) {
    return Error::Validation("The provided starting key is invalid");
  }
  return CheckStartKeyPiece(*esk, k, hash);
}

// The stored bytes a part starts with when its first values are `values`.
std::string Component(bool composite, const AttributeValue& v) {
  std::string out;
  if (!composite) return value::EncodeKey(v);
  AppendKeyComponent(value::EncodeKey(v), &out);
  return out;
}

void SetUpperToPrefixEnd(const std::string& prefix, MultiKeyCondition* kc) {
  if (prefix.empty()) return;
  if (std::optional<std::string> end = storage::PrefixUpperBound(prefix)) {
    kc->upper = storage::SortBound{*end, false};
  }
}

// Bounds of a RANGE part: equality on the values of `prefix` (already
// encoded as a composite, or a single plain value) and `last` on the next
// attribute. `composite` is whether the part is a composite.
void SetBounds(bool composite, const std::string& prefix,
               const std::optional<expr::RangeCondition>& last,
               MultiKeyCondition* kc) {
  if (!last) {
    if (!prefix.empty()) kc->lower = storage::SortBound{prefix, true};
    SetUpperToPrefixEnd(prefix, kc);
    return;
  }
  const std::string a = prefix + Component(composite, last->a);
  switch (last->op) {
    case expr::RangeOp::kEq:
      kc->lower = storage::SortBound{a, true};
      if (composite) {
        SetUpperToPrefixEnd(a, kc);
      } else {
        kc->upper = storage::SortBound{a, true};
      }
      break;
    case expr::RangeOp::kLt:
      if (!prefix.empty()) kc->lower = storage::SortBound{prefix, true};
      kc->upper = storage::SortBound{a, false};
      break;
    case expr::RangeOp::kLe:
      if (!prefix.empty()) kc->lower = storage::SortBound{prefix, true};
      if (composite) {
        SetUpperToPrefixEnd(a, kc);
      } else {
        kc->upper = storage::SortBound{a, true};
      }
      break;
    case expr::RangeOp::kGt:
      if (composite) {
        std::optional<std::string> end = storage::PrefixUpperBound(a);
        if (!end) {
          kc->lower = storage::SortBound{a, false};  // nothing is above
        } else {
          kc->lower = storage::SortBound{*end, true};
        }
        SetUpperToPrefixEnd(prefix, kc);
      } else {
        kc->lower = storage::SortBound{a, false};
      }
      break;
    case expr::RangeOp::kGe:
      kc->lower = storage::SortBound{a, true};
      SetUpperToPrefixEnd(prefix, kc);
      break;
    case expr::RangeOp::kBetween: {
      kc->lower = storage::SortBound{a, true};
      const std::string b = prefix + Component(composite, last->b);
      if (composite) {
        SetUpperToPrefixEnd(b, kc);
      } else {
        kc->upper = storage::SortBound{b, true};
      }
      break;
    }
    case expr::RangeOp::kBeginsWith: {
      const std::string start =
          prefix + (composite ? EscapeKeyComponent(value::EncodeKey(last->a))
                              : value::EncodeKey(last->a));
      kc->lower = storage::SortBound{start, true};
      kc->upper.reset();
      SetUpperToPrefixEnd(start, kc);
      break;
    }
  }
}

}  // namespace

bool MultiKeyCountDeferred(const Error& e, size_t conditions) {
  return e.message == kConditionCount && conditions >= 3 && conditions <= 8;
}

Result<MultiKeyCondition> AnalyzeMultiKeyTerms(
    const KeySchema& key, const std::vector<KeyTerm>& terms, const Item* esk) {
  MultiKeyCondition out;
  size_t used = 0;
  for (const KeyElement* k : key.HashElements()) {
    DDBLAB_RETURN_IF_ERROR(CheckStartElement(esk, *k, true));
    const KeyTerm* t = FindTerm(terms, k->name);
    if (t == nullptr) return Error::Validation(kMissed + k->name);
    DDBLAB_RETURN_IF_ERROR(CheckTerm(*t, k->type));
    if (*t->op != expr::RangeOp::kEq) return Error::Validation(kNotSupported);
    if (key.MultiHash()) {
      AppendKeyComponent(value::EncodeKey(t->values[0]), &out.partition);
    } else {
      out.partition = value::EncodeKey(t->values[0]);
    }
    ++used;
  }
  std::vector<const KeyElement*> ranges = key.RangeElements();
  for (const KeyElement* k : ranges) {
    DDBLAB_RETURN_IF_ERROR(CheckStartElement(esk, *k, false));
  }
  std::string prefix;
  std::optional<expr::RangeCondition> last;
  const KeyElement* first_missing = nullptr;
  for (const KeyElement* k : ranges) {
    const KeyTerm* t = FindTerm(terms, k->name);
    if (t == nullptr) {
      if (first_missing == nullptr) first_missing = k;
      continue;
    }
    if (first_missing != nullptr) {
      return Error::Validation(kMissed + first_missing->name);
    }
    DDBLAB_RETURN_IF_ERROR(CheckTerm(*t, k->type));
    if (last) return Error::Validation(kNotSupported);  // after a range op
    ++used;
    if (*t->op == expr::RangeOp::kEq && k != ranges.back() &&
        key.MultiRange()) {
      // An equality that may be followed by more: part of the prefix,
      // unless it turns out to be the last condition (handled below).
      prefix += Component(true, t->values[0]);
      continue;
    }
    expr::RangeCondition rc;
    rc.op = *t->op;
    rc.a = t->values[0];
    if (t->values.size() > 1) rc.b = t->values[1];
    last = std::move(rc);
  }
  if (used != terms.size()) {
    if (first_missing != nullptr) {
      return Error::Validation(kMissed + first_missing->name);
    }
    return Error::Validation(kNotSupported);
  }
  SetBounds(key.MultiRange(), prefix, last, &out);
  return out;
}

Status CheckMultiKeyStart(const KeySchema& key, const MultiKeyCondition& kc,
                          const Item& esk) {
  std::optional<std::string> ipk = EncodeHashPart(key, esk);
  if (!ipk || *ipk != kc.partition) {
    return Error::Validation(
        "The provided starting key is outside query boundaries based on "
        "provided conditions");
  }
  if (!key.range) return OkStatus();
  const std::string isk = EncodeRangePart(key, esk).value_or(std::string());
  const bool above_lower =
      !kc.lower ||
      (kc.lower->inclusive ? isk >= kc.lower->bytes : isk > kc.lower->bytes);
  const bool below_upper =
      !kc.upper ||
      (kc.upper->inclusive ? isk <= kc.upper->bytes : isk < kc.upper->bytes);
  if (!above_lower || !below_upper) {
    return Error::Validation(
        "The provided starting key does not match the range key predicate");
  }
  return OkStatus();
}

}  // namespace ddblab::engine
