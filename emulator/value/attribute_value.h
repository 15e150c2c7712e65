// emulator/value/attribute_value.h: a DynamoDB attribute value of any of the
// ten types, and Item (a top-level attribute map).
//
// Immutable and cheap to copy: the representation is shared. Sets keep the
// order they were built with (DynamoDB returns sets in any order) and must
// already be non-empty and free of duplicates — the wire codec checks that.
// Equality is DynamoDB's: same type and same value; numbers by value; sets
// regardless of order; maps regardless of member order; lists in order.
//
// Thread-safety: immutable, safe to share across threads.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/value/number.h"

namespace ddblab::value {

class AttributeValue;

// Attribute name -> value. Ordered so that iteration is deterministic.
using AttributeMap = std::map<std::string, AttributeValue, std::less<>>;
using AttributeList = std::vector<AttributeValue>;
// A whole item: its top-level attributes.
using Item = AttributeMap;

class AttributeValue {
 public:
  enum class Type { kS, kN, kB, kBool, kNull, kM, kL, kSS, kNS, kBS };

  // A NULL value.
  AttributeValue();

  static AttributeValue S(std::string s);
  static AttributeValue N(Number n);
  static AttributeValue B(std::string bytes);  // raw bytes, not base64
  static AttributeValue Bool(bool b);
  static AttributeValue Null();
  static AttributeValue M(AttributeMap m);
  static AttributeValue L(AttributeList l);
  static AttributeValue SS(std::vector<std::string> ss);
  static AttributeValue NS(std::vector<Number> ns);
  static AttributeValue BS(std::vector<std::string> bs);  // raw bytes

  Type type() const;
  bool is_set() const;     // SS, NS or BS
  bool is_scalar() const;  // S, N or B (the types a key may have)

  // Accessors; calling the wrong one for type() is a programming error
  // (asserts in debug builds).
  const std::string& s() const;  // S
  const Number& n() const;       // N
  const std::string& b() const;  // B (raw bytes)
  bool boolean() const;          // BOOL
  const AttributeMap& m() const;
  const AttributeList& l() const;
  const std::vector<std::string>& ss() const;
  const std::vector<Number>& ns() const;
  const std::vector<std::string>& bs() const;

  friend bool operator==(const AttributeValue& a, const AttributeValue& b);

  // "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS".
  static std::string_view TypeName(Type type);
  // Inverse of TypeName; false if the name is not one of the ten.
  static bool TypeFromName(std::string_view name, Type* type);

 private:
  struct Rep;
  explicit AttributeValue(std::shared_ptr<const Rep> rep);
  std::shared_ptr<const Rep> rep_;
};

}  // namespace ddblab::value
