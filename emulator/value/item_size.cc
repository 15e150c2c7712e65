// emulator/value/item_size.cc: DynamoDB's item size model
// (DynamoDB's data model).
#include "emulator/value/item_size.h"

namespace ddblab::value {

namespace {

int64_t FloorDiv2(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

}  // namespace

// 1 byte of exponent + one byte per base-100 digit group (groups aligned on
// the decimal point) + 1 if negative; zero is 1 byte.
size_t NumberSize(const Number& n) {
  if (n.is_zero()) return 1;
  const int64_t lowest = n.exponent();
  const int64_t leading = lowest + n.significant_digits() - 1;
  const int64_t groups = FloorDiv2(leading) - FloorDiv2(lowest) + 1;
  return static_cast<size_t>(1 + groups + (n.is_negative() ? 1 : 0));
}

size_t AttributeValueSize(const AttributeValue& value) {
  using Type = AttributeValue::Type;
  switch (value.type()) {
    case Type::kS:
      return value.s().size();
    case Type::kB:
      return value.b().size();
    case Type::kN:
      return NumberSize(value.n());
    case Type::kBool:
    case Type::kNull:
      return 1;
    case Type::kSS: {
      size_t total = 0;
      for (const std::string& s : value.ss()) total += s.size();
      return total;
    }
    case Type::kBS: {
      size_t total = 0;
      for (const std::string& b : value.bs()) total += b.size();
      return total;
    }
    case Type::kNS: {
      size_t total = 0;
      for (const Number& n : value.ns()) total += NumberSize(n);
      return total;
    }
    case Type::kL: {
      size_t total = 3;
      for (const AttributeValue& e : value.l()) {
        total += 1 + AttributeValueSize(e);
      }
      return total;
    }
    case Type::kM: {
      size_t total = 3;
      for (const auto& [name, e] : value.m()) {
        total += 1 + name.size() + AttributeValueSize(e);
      }
      return total;
    }
  }
  return 0;
}

size_t AttributeSize(std::string_view name, const AttributeValue& value) {
  return name.size() + AttributeValueSize(value);
}

size_t ItemSize(const Item& item) {
  size_t total = 0;
  for (const auto& [name, value] : item) total += AttributeSize(name, value);
  return total;
}

}  // namespace ddblab::value
