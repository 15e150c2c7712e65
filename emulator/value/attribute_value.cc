// emulator/value/attribute_value.cc: the shared representation of an
// AttributeValue and DynamoDB's equality.
#include "emulator/value/attribute_value.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>
#include <variant>

namespace ddblab::value {

// NULL is represented by a null rep_ (no allocation); BOOL values share two
// static reps.
struct AttributeValue::Rep {
  using Payload =
      std::variant<bool, std::string, Number, AttributeMap, AttributeList,
                   std::vector<std::string>, std::vector<Number>>;
  template <class T>
  Rep(Type t, T&& value) : type(t), payload(std::forward<T>(value)) {}

  Type type;
  Payload payload;
};

namespace {

constexpr std::array<std::string_view, 10> kTypeNames = {
    "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"};

// Order-free equality of two duplicate-free sets.
template <class T>
bool SameSet(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  if (a == b) return true;  // common case: same order
  if (a.size() <= 8) {
    for (const T& x : a) {
      if (std::find(b.begin(), b.end(), x) == b.end()) return false;
    }
    return true;
  }
  std::vector<const T*> pa;
  std::vector<const T*> pb;
  pa.reserve(a.size());
  pb.reserve(b.size());
  for (const T& x : a) pa.push_back(&x);
  for (const T& x : b) pb.push_back(&x);
  auto less = [](const T* x, const T* y) { return *x < *y; };
  std::sort(pa.begin(), pa.end(), less);
  std::sort(pb.begin(), pb.end(), less);
  for (size_t i = 0; i < pa.size(); ++i) {
    if (!(*pa[i] == *pb[i])) return false;
  }
  return true;
}

}  // namespace

AttributeValue::AttributeValue() = default;

AttributeValue::AttributeValue(std::shared_ptr<const Rep> rep)
    : rep_(std::move(rep)) {}

AttributeValue AttributeValue::S(std::string s) {
  return AttributeValue(std::make_shared<const Rep>(Type::kS, std::move(s)));
}
AttributeValue AttributeValue::N(Number n) {
  return AttributeValue(std::make_shared<const Rep>(Type::kN, n));
}
AttributeValue AttributeValue::B(std::string bytes) {
  return AttributeValue(
      std::make_shared<const Rep>(Type::kB, std::move(bytes)));
}
AttributeValue AttributeValue::Bool(bool b) {
  static const std::shared_ptr<const Rep> kTrue =
      std::make_shared<const Rep>(Type::kBool, true);
  static const std::shared_ptr<const Rep> kFalse =
      std::make_shared<const Rep>(Type::kBool, false);
  return AttributeValue(b ? kTrue : kFalse);
}
AttributeValue AttributeValue::Null() { return AttributeValue(); }
AttributeValue AttributeValue::M(AttributeMap m) {
  return AttributeValue(std::make_shared<const Rep>(Type::kM, std::move(m)));
}
AttributeValue AttributeValue::L(AttributeList l) {
  return AttributeValue(std::make_shared<const Rep>(Type::kL, std::move(l)));
}
AttributeValue AttributeValue::SS(std::vector<std::string> ss) {
  return AttributeValue(std::make_shared<const Rep>(Type::kSS, std::move(ss)));
}
AttributeValue AttributeValue::NS(std::vector<Number> ns) {
  return AttributeValue(std::make_shared<const Rep>(Type::kNS, std::move(ns)));
}
AttributeValue AttributeValue::BS(std::vector<std::string> bs) {
  return AttributeValue(std::make_shared<const Rep>(Type::kBS, std::move(bs)));
}

AttributeValue::Type AttributeValue::type() const {
  return rep_ ? rep_->type : Type::kNull;
}

bool AttributeValue::is_set() const {
  const Type t = type();
  return t == Type::kSS || t == Type::kNS || t == Type::kBS;
}

bool AttributeValue::is_scalar() const {
  const Type t = type();
  return t == Type::kS || t == Type::kN || t == Type::kB;
}

const std::string& AttributeValue::s() const {
  assert(type() == Type::kS);
  return std::get<std::string>(rep_->payload);
}
const Number& AttributeValue::n() const {
  assert(type() == Type::kN);
  return std::get<Number>(rep_->payload);
}
const std::string& AttributeValue::b() const {
  assert(type() == Type::kB);
  return std::get<std::string>(rep_->payload);
}
bool AttributeValue::boolean() const {
  assert(type() == Type::kBool);
  return std::get<bool>(rep_->payload);
}
const AttributeMap& AttributeValue::m() const {
  assert(type() == Type::kM);
  return std::get<AttributeMap>(rep_->payload);
}
const AttributeList& AttributeValue::l() const {
  assert(type() == Type::kL);
  return std::get<AttributeList>(rep_->payload);
}
const std::vector<std::string>& AttributeValue::ss() const {
  assert(type() == Type::kSS);
  return std::get<std::vector<std::string>>(rep_->payload);
}
const std::vector<Number>& AttributeValue::ns() const {
  assert(type() == Type::kNS);
  return std::get<std::vector<Number>>(rep_->payload);
}
const std::vector<std::string>& AttributeValue::bs() const {
  assert(type() == Type::kBS);
  return std::get<std::vector<std::string>>(rep_->payload);
}

bool operator==(const AttributeValue& a, const AttributeValue& b) {
  if (a.rep_ == b.rep_) return true;
  const AttributeValue::Type t = a.type();
  if (t != b.type()) return false;
  using Type = AttributeValue::Type;
  switch (t) {
    case Type::kNull:
      return true;
    case Type::kS:
    case Type::kB:
    case Type::kBool:
    case Type::kN:
    case Type::kM:
    case Type::kL:
      // Maps are ordered by name, so this compares them by content; lists
      // compare in order; numbers are normalised.
      return a.rep_->payload == b.rep_->payload;
    case Type::kSS:
      return SameSet(a.ss(), b.ss());
    case Type::kBS:
      return SameSet(a.bs(), b.bs());
    case Type::kNS:
      return SameSet(a.ns(), b.ns());
  }
  return false;
}

std::string_view AttributeValue::TypeName(Type type) {
  return kTypeNames[static_cast<size_t>(type)];
}

bool AttributeValue::TypeFromName(std::string_view name, Type* type) {
  for (size_t i = 0; i < kTypeNames.size(); ++i) {
    if (kTypeNames[i] == name) {
      *type = static_cast<Type>(i);
      return true;
    }
  }
  return false;
}

}  // namespace ddblab::value
