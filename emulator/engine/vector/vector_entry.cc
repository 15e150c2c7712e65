#include "emulator/engine/vector/vector_entry.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <utility>

#include "emulator/engine/keys.h"
#include "emulator/engine/request.h"
#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"
#include "emulator/value/key_codec.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;

// "One or more parameter values were invalid." (a full stop, not the
// usual colon: DynamoDB's vector texts).
constexpr std::string_view kVectorInvalid =
    "One or more parameter values were invalid. ";

Error VectorError(std::string text) {
  return Error::Validation(std::string(kVectorInvalid) + text);
}

std::string TypeText(AttrType t) {
  return std::string(AttributeValue::TypeName(t));
}

// The vector checks of one index on a present value.
Status CheckVector(const VectorIndexDef& index, const AttributeValue& v) {
  const std::string& a = index.attribute;
  if (v.type() != AttrType::kL) {
    return VectorError("Invalid type for parameter " + a +
                       ", Expected: 32-bit floating point number list "
                       "IndexName: " +
                       index.name);
  }
  const value::AttributeList& list = v.l();
  for (size_t i = 0; i < list.size(); ++i) {
    const AttributeValue& e = list[i];
    const std::string at = a + "[" + std::to_string(i) + "]";
    if (e.type() != AttrType::kN) {
      return VectorError("Invalid type for parameter " + at +
                         ", Expected: 32-bit floating point number, Actual: " +
                         TypeText(e.type()) + ". IndexName: " + index.name);
    }
    if (!ToFloat32(e.n())) {
      return VectorError("Invalid value for parameter " + at +
                         ", Value: " + e.n().ToString() +
                         " is outside valid range [-3.4028235E38, "
                         "3.4028235E38]. IndexName: " +
                         index.name);
    }
  }
  if (static_cast<int64_t>(list.size()) != index.dimensions) {
    return VectorError("Invalid size for parameter " + a +
                       ", Expected: " + std::to_string(index.dimensions) +
                       ", Actual: " + std::to_string(list.size()) +
                       " IndexName: " + index.name);
  }
  return OkStatus();
}

bool IsEmptyKey(const AttributeValue& v) {
  return (v.type() == AttrType::kS && v.s().empty()) ||
         (v.type() == AttrType::kB && v.b().empty());
}

Status CheckSchemaValue(const VectorIndexDef& index,
                        const SearchSchemaElement& e, const AttributeValue& v,
                        VectorWriteForm form) {
  if (v.type() != e.type) {
    return VectorError("Attribute '" + e.name + "' type mismatch. Expected: " +
                       TypeText(e.type) + ", Actual: " + TypeText(v.type()) +
                       ". IndexName: " + index.name);
  }
  if (!e.hash || !IsEmptyKey(v)) return OkStatus();
  const std::string kind = v.type() == AttrType::kB ? "binary" : "string";
  if (form == VectorWriteForm::kUpdate) {
    return Error::Validation(
        "One or more parameter values are not valid. The update expression "
        "attempted to update a secondary index key to a value that is not "
        "supported. The AttributeValue for a key attribute cannot contain an "
        "empty " +
        kind + " value.");
  }
  return Error::Validation(
      "One or more parameter values are not valid. A value specified for a "
      "secondary index key is not supported. The AttributeValue for a key "
      "attribute cannot contain an empty " +
      kind + " value. IndexName: " + index.name + ", IndexKey: " + e.name);
}

// The float32 copies of a valid vector of `dims` numbers; nullopt otherwise.
std::optional<std::vector<float>> VectorValues(const AttributeValue& v,
                                               int64_t dims) {
  if (v.type() != AttrType::kL) return std::nullopt;
  const value::AttributeList& list = v.l();
  if (static_cast<int64_t>(list.size()) != dims) return std::nullopt;
  std::vector<float> out;
  out.reserve(list.size());
  for (const AttributeValue& e : list) {
    if (e.type() != AttrType::kN) return std::nullopt;
    std::optional<float> f = ToFloat32(e.n());
    if (!f) return std::nullopt;
    out.push_back(*f);
  }
  return out;
}

// Decimal digits of a 128-bit coefficient, appended to `out`.
void AppendDigits(value::Uint128 c, std::string* out) {
  if (c <= UINT64_MAX) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof(buf), static_cast<uint64_t>(c));
    out->append(buf, r.ptr);
    return;
  }
  char buf[40];
  char* p = buf + sizeof(buf);
  while (c > 0) {
    *--p = static_cast<char>('0' + static_cast<int>(c % 10));
    c /= 10;
  }
  out->append(p, buf + sizeof(buf));
}

uint64_t HashBytes(std::string_view bytes) {
  return std::hash<std::string_view>{}(bytes);
}

uint64_t MixHash(uint64_t a, uint64_t b) {
  return a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
}

}  // namespace

std::optional<float> ToFloat32(const value::Number& n) {
  if (n.is_zero()) return 0.0f;
  const value::Uint128 c = n.coefficient();
  const int e = n.exponent();
  // Fast path (most embeddings): c and 10^|e| are exact doubles, so c x 10^e
  // is the correctly rounded double of the value; rounding that to float is
  // the correctly rounded float unless the double fell exactly on a midpoint
  // between two floats (or outside the normal float range).
  static constexpr double kPow10[] = {
      1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (c < (value::Uint128{1} << 53) && e >= -22 && e <= 22) {
    const double m = static_cast<double>(static_cast<uint64_t>(c));
    const double d = e >= 0 ? m * kPow10[e] : m / kPow10[-e];
    uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof(bits));
    if (d >= FLT_MIN && d <= FLT_MAX && (bits & 0x1FFFFFFF) != 0x10000000) {
      const float f = static_cast<float>(d);
      return n.is_negative() ? -f : f;
    }
  }
  std::string digits;
  AppendDigits(c, &digits);
  std::string text = n.is_negative() ? "-" : "";
  text += digits;
  text.push_back('e');
  text += std::to_string(n.exponent());
  float f = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), f);
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow, or a magnitude below the smallest float32 (which rounds to
    // zero): tell them apart by the leading digit's exponent.
    if (static_cast<int>(digits.size()) - 1 + n.exponent() >= 0) {
      return std::nullopt;
    }
    return n.is_negative() ? -0.0f : 0.0f;
  }
  if (r.ec != std::errc() || !std::isfinite(f)) return std::nullopt;
  return f;
}

Status CheckVectorAttributes(const Table& table, const Item& item,
                             const Item* before, VectorWriteForm form) {
  auto changed = [&](const std::string& name, const AttributeValue& v) {
    if (before == nullptr) return true;
    auto it = before->find(name);
    return it == before->end() || !(it->second == v);
  };
  for (const VectorIndexDef& index : table.vector_indexes) {
    if (!index.Live()) continue;
    if (auto it = item.find(index.attribute);
        it != item.end() && changed(it->first, it->second)) {
      DDBLAB_RETURN_IF_ERROR(CheckVector(index, it->second));
    }
    for (const SearchSchemaElement& e : index.search_schema) {
      if (table.key.Contains(e.name)) continue;  // checked as a table key
      auto it = item.find(e.name);
      if (it == item.end() || !changed(it->first, it->second)) continue;
      DDBLAB_RETURN_IF_ERROR(CheckSchemaValue(index, e, it->second, form));
    }
  }
  return OkStatus();
}

Item VectorView(const Table& table, const VectorIndexDef& index,
                const Item& item) {
  Item out;
  if (index.projection == ProjectionType::kAll) {
    out = item;
  } else {
    out = TableKeyOf(table, item);
    auto copy = [&](const std::string& name) {
      if (auto it = item.find(name); it != item.end()) {
        out.emplace(it->first, it->second);
      }
    };
    for (const SearchSchemaElement& e : index.search_schema) copy(e.name);
    for (const std::string& name : index.non_key_attributes) copy(name);
  }
  out.erase(index.attribute);
  return out;
}

std::optional<VectorEntry> ComputeVectorEntry(const Table& table,
                                              const VectorIndexDef& index,
                                              const Item& item,
                                              std::string_view item_bytes,
                                              int64_t item_size) {
  auto vector = item.find(index.attribute);
  if (vector == item.end()) return std::nullopt;
  std::optional<std::vector<float>> values =
      VectorValues(vector->second, index.dimensions);
  if (!values) return std::nullopt;
  VectorEntry entry;
  entry.values = std::move(*values);
  entry.schema_keys.reserve(index.search_schema.size());
  for (const SearchSchemaElement& e : index.search_schema) {
    auto it = item.find(e.name);
    if (it == item.end()) {
      if (e.hash) return std::nullopt;  // sparse: no HASH value
      entry.schema_keys.emplace_back();
      continue;
    }
    const AttributeValue& v = it->second;
    if (v.type() != e.type || (e.hash && IsEmptyKey(v))) return std::nullopt;
    entry.schema_keys.emplace_back(value::EncodeKey(v));
  }
  const int64_t vector_part =
      4 * index.dimensions + static_cast<int64_t>(index.attribute.size());
  const uint64_t values_hash = HashBytes(
      std::string_view(reinterpret_cast<const char*>(entry.values.data()),
                       entry.values.size() * sizeof(float)));
  if (index.projection == ProjectionType::kAll) {
    const int64_t rest = item_size - static_cast<int64_t>(value::AttributeSize(
                                         vector->first, vector->second));
    entry.size = vector_part + rest;
    entry.view_hash = MixHash(HashBytes(item_bytes), values_hash);
  } else {
    Item view = VectorView(table, index, item);
    entry.size = vector_part + static_cast<int64_t>(value::ItemSize(view));
    entry.view_hash =
        MixHash(HashBytes(value::SerializeItem(view)), values_hash);
  }
  return entry;
}

double VectorWriteBytes(int64_t entry_size) {
  return static_cast<double>(std::max<int64_t>(1024, entry_size));
}

std::string Float32Text(float f) {
  char buf[64];
  const float a = std::fabs(f);
  if (a != 0 && (a < 1e-4f || a >= 1e16f)) {
    auto r =
        std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::scientific);
    std::string_view s(buf, static_cast<size_t>(r.ptr - buf));
    const size_t e = s.find('e');
    std::string out(s.substr(0, e));
    std::string_view exp = s.substr(e + 1);
    bool negative = false;
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) {
      negative = exp[0] == '-';
      exp.remove_prefix(1);
    }
    while (exp.size() > 1 && exp[0] == '0') exp.remove_prefix(1);
    out += negative ? "e-" : "e";
    out += exp;
    return out;
  }
  auto r = std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::fixed);
  std::string out(buf, r.ptr);
  if (out.find('.') == std::string::npos) out += ".0";
  return out;
}

value::AttributeValue Float32List(std::span<const float> values) {
  value::AttributeList list;
  list.reserve(values.size());
  for (float f : values) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof(buf), f);
    Result<value::Number> n =
        value::Number::Parse(std::string_view(buf, r.ptr - buf));
    list.push_back(value::AttributeValue::N(n.ok() ? *n : value::Number()));
  }
  return value::AttributeValue::L(std::move(list));
}

}  // namespace ddblab::engine
