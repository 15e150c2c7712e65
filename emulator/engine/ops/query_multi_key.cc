// emulator/engine/ops/query_multi_key.cc: Query on multi-attribute GSI keys.
//
// A condition that breaks the multi-attribute rules gets DynamoDB's texts, in
// DynamoDB's order: HASH attributes without an equality ("HASH key attributes
// a, b must have equality conditions specified in the query"), then RANGE
// attributes without an equality before the last RANGE attribute that has a
// condition ("RANGE key attributes ... because a condition is present on key
// attribute <last>"), then a condition on any other attribute ("Query
// condition missed key schema element", no name).
#include "emulator/engine/ops/query_multi_key.h"

#include "emulator/engine/multi_key.h"
#include "emulator/engine/ops/read_common.h"
#include "emulator/engine/request.h"
#include "emulator/value/key_codec.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
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
  // Every HASH attribute needs an equality; DynamoDB names all that lack one.
  std::vector<std::string> unequal;
  for (const KeyElement* k : key.HashElements()) {
    DDBLAB_RETURN_IF_ERROR(CheckStartElement(esk, *k, true));
    const KeyTerm* t = FindKeyTerm(terms, k->name);
    if (t != nullptr && !t->op) return CheckKeyTerm(*t, k->type).error();
    if (t == nullptr || *t->op != expr::RangeOp::kEq) {
      unequal.push_back(k->name);
    }
  }
  if (!unequal.empty()) {
    return Error::Validation("HASH key attributes " + JoinNames(unequal) +
                             " must have equality conditions specified in "
                             "the query");
  }
  // RANGE attributes before the last one with a condition need equalities.
  std::vector<const KeyElement*> ranges = key.RangeElements();
  for (const KeyElement* k : ranges) {
    DDBLAB_RETURN_IF_ERROR(CheckStartElement(esk, *k, false));
  }
  size_t named = 0;  // RANGE attributes up to the last one with a condition
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (FindKeyTerm(terms, ranges[i]->name) != nullptr) named = i + 1;
  }
  for (size_t i = 0; i + 1 < named; ++i) {
    const KeyTerm* t = FindKeyTerm(terms, ranges[i]->name);
    if (t != nullptr && !t->op)
      return CheckKeyTerm(*t, ranges[i]->type).error();
    if (t == nullptr || *t->op != expr::RangeOp::kEq) {
      unequal.push_back(ranges[i]->name);
    }
  }
  if (!unequal.empty()) {
    return Error::Validation(
        "RANGE key attributes " + JoinNames(unequal) +
        " must have equality conditions specified in the query because a "
        "condition is present on key attribute " +
        ranges[named - 1]->name);
  }
  // A condition on anything else.
  if (key.HashElements().size() + named != terms.size()) {
    return Error::Validation("Query condition missed key schema element");
  }
  for (const KeyElement* k : key.HashElements()) {
    const KeyTerm* t = FindKeyTerm(terms, k->name);
    DDBLAB_RETURN_IF_ERROR(CheckKeyTerm(*t, k->type));
    if (key.MultiHash()) {
      AppendKeyComponent(value::EncodeKey(t->values[0]), &out.partition);
    } else {
      out.partition = value::EncodeKey(t->values[0]);
    }
  }
  std::string prefix;
  std::optional<expr::RangeCondition> last;
  for (size_t i = 0; i < named; ++i) {
    const KeyTerm* t = FindKeyTerm(terms, ranges[i]->name);
    DDBLAB_RETURN_IF_ERROR(CheckKeyTerm(*t, ranges[i]->type));
    if (*t->op == expr::RangeOp::kEq && i + 1 < ranges.size() &&
        key.MultiRange()) {
      // An equality that may be followed by more: part of the prefix,
      // unless it turns out to be the last condition (SetBounds).
      prefix += Component(true, t->values[0]);
      continue;
    }
    expr::RangeCondition rc;
    rc.op = *t->op;
    rc.a = t->values[0];
    if (t->values.size() > 1) rc.b = t->values[1];
    last = std::move(rc);
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
