// emulator/value/codec.cc: DynamoDB JSON <-> AttributeValue, with DynamoDB's
// validation order: JSON shape errors (SerializationException) anywhere in
// the value win over validation errors (ValidationException), which are
// reported first-found.
#include "emulator/value/codec.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "emulator/value/attribute_name.h"

namespace ddblab::value {

namespace {

using Json = nlohmann::json;
using Type = AttributeValue::Type;

constexpr char kEmptyValue[] =
    "Supplied AttributeValue is empty, must contain exactly one of the "
    "supported datatypes";
constexpr char kMoreThanOne[] =
    "Supplied AttributeValue has more than one datatypes set, must contain "
    "exactly one of the supported datatypes";
constexpr char kNullFalse[] =
    "One or more parameter values were invalid: Null attribute value types "
    "must have the value of true";
constexpr char kEmptySS[] =
    "One or more parameter values were invalid: An string set  may not be "
    "empty";
constexpr char kEmptyNS[] =
    "One or more parameter values were invalid: An number set  may not be "
    "empty";
constexpr char kEmptyBS[] =
    "One or more parameter values were invalid: Binary sets should not be "
    "empty";
constexpr char kNsDuplicates[] = "Input collection contains duplicates";
// DynamoDB's text (eu-west-2, 2026).
constexpr char kNesting[] =
    "Nesting Levels have exceeded supported limits: Attributes in the item "
    "have nested levels beyond supported limit";
constexpr const char* kNameTooLarge = kAttributeNameTooLargeText;
constexpr const char* kEmptyName = kEmptyAttributeNameText;

// SerializationException texts (DynamoDB's wire protocol,
// "SerializationException messages").
constexpr char kStartOfMap[] =
    "Start of structure or map found where not expected";
constexpr char kStartOfList[] = "Start of list found where not expected";
constexpr char kUnexpectedValue[] = "Unexpected value type in payload";
constexpr char kUnexpectedField[] = "Unexpected field type";
constexpr char kNotBase64[] =
    "only base-64-encoded strings are convertible to bytes";
constexpr char kBadBase64Padding[] =
    "Invalid last non-pad Base64 character dectected";

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// 0..63 for alphabet characters, -1 otherwise.
constexpr std::array<int8_t, 256> MakeBase64Table() {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) {
    t[static_cast<unsigned char>(kBase64Alphabet[i])] = static_cast<int8_t>(i);
  }
  return t;
}
constexpr std::array<int8_t, 256> kBase64Table = MakeBase64Table();

// Strict RFC 4648 decoding. Returns the SerializationException text on
// failure, nullopt on success.
std::optional<std::string> DecodeBase64(std::string_view text,
                                        std::string* bytes) {
  size_t pad = 0;
  const size_t n = text.size();
  while (pad < 2 && pad < n && text[n - 1 - pad] == '=') ++pad;
  for (size_t i = 0; i + pad < n; ++i) {
    if (kBase64Table[static_cast<unsigned char>(text[i])] < 0) {
      return std::string(kNotBase64);
    }
  }
  if (n % 4 != 0) {
    return "Base64 encoded length is expected a multiple of 4 bytes but "
           "found: " +
           std::to_string(n);
  }
  bytes->clear();
  bytes->reserve(n / 4 * 3);
  for (size_t i = 0; i < n; i += 4) {
    uint32_t v = 0;
    const size_t chars = i + 4 == n ? 4 - pad : 4;
    for (size_t k = 0; k < 4; ++k) {
      const uint32_t d =
          k < chars ? static_cast<uint32_t>(
                          kBase64Table[static_cast<unsigned char>(text[i + k])])
                    : 0;
      v = (v << 6) | d;
    }
    bytes->push_back(static_cast<char>(v >> 16));
    if (chars >= 3) bytes->push_back(static_cast<char>((v >> 8) & 0xff));
    if (chars == 4) bytes->push_back(static_cast<char>(v & 0xff));
    // Bits below the last decoded byte must be zero (canonical form).
    if (chars == 3 && (v & 0xff) != 0) return std::string(kBadBase64Padding);
    if (chars == 2 && (v & 0xffff) != 0) return std::string(kBadBase64Padding);
  }
  return std::nullopt;
}

// The SerializationException text for a JSON value where a string belongs.
std::string NotAString(const Json& j) {
  switch (j.type()) {
    case Json::value_t::boolean:
      return j.get<bool>() ? "TRUE_VALUE cannot be converted to String"
                           : "FALSE_VALUE cannot be converted to String";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "NUMBER_VALUE cannot be converted to String";
    case Json::value_t::number_float:
      return "DECIMAL_VALUE cannot be converted to String";
    case Json::value_t::object:
      return kStartOfMap;
    case Json::value_t::array:
      return "Unrecognized collection type class java.lang.String";
    default:
      return kUnexpectedValue;
  }
}

// The SerializationException text for a JSON value where a boolean belongs.
std::string NotABoolean(const Json& j) {
  switch (j.type()) {
    case Json::value_t::string:
      return "STRING_VALUE cannot be converted to Boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "NUMBER_VALUE cannot be converted to Boolean";
    case Json::value_t::number_float:
      return "DECIMAL_VALUE cannot be converted to Boolean";
    case Json::value_t::object:
      return kStartOfMap;
    case Json::value_t::array:
      return "Unrecognized collection type class java.lang.Boolean";
    default:
      return kUnexpectedValue;
  }
}

// "[a, b, c]", as DynamoDB prints a collection in its duplicate messages.
std::string CollectionText(const Json& array) {
  std::string out = "[";
  bool first = true;
  for (const Json& e : array) {
    if (!first) out += ", ";
    first = false;
    out += e.get_ref<const std::string&>();
  }
  out += "]";
  return out;
}

bool HasDuplicateStrings(const std::vector<std::string>& v) {
  if (v.size() < 2) return false;
  std::vector<std::string_view> sorted(v.begin(), v.end());
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
}

class Decoder {
 public:
  // Decodes an AttributeValue whose M/L would sit at nesting level `depth`
  // (the item itself is level 1). Returns false on a SerializationException;
  // validation errors are recorded and decoding goes on.
  bool Value(const Json& j, int depth, AttributeValue* out);
  // Decodes a JSON object of name -> AttributeValue.
  bool Map(const Json& j, int depth, AttributeMap* out);

  Error TakeError() && {
    if (serialization_) return std::move(*serialization_);
    if (constraint_) return std::move(*constraint_);
    return std::move(*validation_);
  }
  bool failed() const { return serialization_ || constraint_ || validation_; }

 private:
  bool Malformed(std::string message) {
    serialization_ = Error::Serialization(std::move(message));
    return false;
  }
  void Invalid(std::string message) {
    if (!validation_) validation_ = Error::Validation(std::move(message));
  }
  // A bad attribute name breaks a request constraint, which DynamoDB checks
  // before the values' own rules.
  void BadName(const char* message) {
    if (!constraint_) constraint_ = Error::Validation(message);
  }
  bool String(const Json& j, std::string* out);
  bool Binary(const Json& j, std::string* out);
  bool TypedValue(Type type, const Json& j, int depth, AttributeValue* out);

  std::optional<Error> serialization_;
  std::optional<Error> constraint_;
  std::optional<Error> validation_;
};

bool Decoder::String(const Json& j, std::string* out) {
  if (!j.is_string()) return Malformed(NotAString(j));
  *out = j.get_ref<const std::string&>();
  return true;
}

bool Decoder::Binary(const Json& j, std::string* out) {
  if (!j.is_string()) return Malformed(NotAString(j));
  std::optional<std::string> err =
      DecodeBase64(j.get_ref<const std::string&>(), out);
  if (err) return Malformed(std::move(*err));
  return true;
}

bool Decoder::Value(const Json& j, int depth, AttributeValue* out) {
  if (j.is_null()) {
    Invalid(kEmptyValue);
    return true;
  }
  if (!j.is_object()) {
    return Malformed(j.is_array() ? kStartOfList : kUnexpectedValue);
  }
  int types = 0;
  for (auto it = j.begin(); it != j.end(); ++it) {
    Type type;
    // Unknown members are ignored, as the SDK models do; JSON null means
    // absent.
    if (!AttributeValue::TypeFromName(it.key(), &type)) continue;
    if (it.value().is_null()) continue;
    ++types;
    AttributeValue value;
    if (!TypedValue(type, it.value(), depth, &value)) return false;
    if (types == 1) *out = std::move(value);
  }
  if (types == 0) Invalid(kEmptyValue);
  if (types > 1) Invalid(kMoreThanOne);
  return true;
}

bool Decoder::TypedValue(Type type, const Json& j, int depth,
                         AttributeValue* out) {
  switch (type) {
    case Type::kS: {
      std::string s;
      if (!String(j, &s)) return false;
      *out = AttributeValue::S(std::move(s));
      return true;
    }
    case Type::kN: {
      if (!j.is_string()) return Malformed(NotAString(j));
      Result<Number> n = Number::Parse(j.get_ref<const std::string&>());
      if (!n.ok()) {
        Invalid(n.error().message);
        return true;
      }
      *out = AttributeValue::N(*n);
      return true;
    }
    case Type::kB: {
      std::string b;
      if (!Binary(j, &b)) return false;
      *out = AttributeValue::B(std::move(b));
      return true;
    }
    case Type::kBool:
      if (!j.is_boolean()) return Malformed(NotABoolean(j));
      *out = AttributeValue::Bool(j.get<bool>());
      return true;
    case Type::kNull:
      if (!j.is_boolean()) return Malformed(NotABoolean(j));
      if (!j.get<bool>()) Invalid(kNullFalse);
      *out = AttributeValue::Null();
      return true;
    case Type::kSS:
    case Type::kBS: {
      if (!j.is_array()) return Malformed(kUnexpectedField);
      std::vector<std::string> elements(j.size());
      for (size_t i = 0; i < j.size(); ++i) {
        if (j[i].is_null()) return Malformed(kUnexpectedValue);
        if (!(type == Type::kSS ? String(j[i], &elements[i])
                                : Binary(j[i], &elements[i]))) {
          return false;
        }
      }
      if (elements.empty()) {
        Invalid(type == Type::kSS ? kEmptySS : kEmptyBS);
      } else if (HasDuplicateStrings(elements)) {
        Invalid("One or more parameter values were invalid: Input collection " +
                CollectionText(j) +
                (type == Type::kSS ? " contains duplicates."
                                   : "of type BS contains duplicates."));
      }
      *out = type == Type::kSS ? AttributeValue::SS(std::move(elements))
                               : AttributeValue::BS(std::move(elements));
      return true;
    }
    case Type::kNS: {
      if (!j.is_array()) return Malformed(kUnexpectedField);
      for (const Json& e : j) {
        if (e.is_null()) return Malformed(kUnexpectedValue);
        if (!e.is_string()) return Malformed(NotAString(e));
      }
      if (j.empty()) {
        Invalid(kEmptyNS);
        return true;
      }
      std::vector<Number> numbers;
      numbers.reserve(j.size());
      for (const Json& e : j) {
        Result<Number> n = Number::Parse(e.get_ref<const std::string&>());
        if (!n.ok()) {
          Invalid(n.error().message);
          return true;
        }
        numbers.push_back(*n);
      }
      std::vector<Number> sorted = numbers;
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        Invalid(kNsDuplicates);
      }
      *out = AttributeValue::NS(std::move(numbers));
      return true;
    }
    case Type::kM: {
      if (!j.is_object()) {
        return Malformed(j.is_array() ? kStartOfList : kUnexpectedValue);
      }
      if (depth > kMaxNestingDepth) {
        Invalid(kNesting);
        return true;
      }
      AttributeMap m;
      if (!Map(j, depth + 1, &m)) return false;
      *out = AttributeValue::M(std::move(m));
      return true;
    }
    case Type::kL: {
      if (!j.is_array()) return Malformed(kUnexpectedField);
      if (depth > kMaxNestingDepth) {
        Invalid(kNesting);
        return true;
      }
      AttributeList l(j.size());
      for (size_t i = 0; i < j.size(); ++i) {
        if (!Value(j[i], depth + 1, &l[i])) return false;
      }
      *out = AttributeValue::L(std::move(l));
      return true;
    }
  }
  return Malformed(kUnexpectedValue);
}

bool Decoder::Map(const Json& j, int depth, AttributeMap* out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key().empty()) BadName(kEmptyName);
    if (it.key().size() > kMaxAttributeNameBytes) BadName(kNameTooLarge);
    AttributeValue value;
    if (!Value(it.value(), depth, &value)) return false;
    // JSON objects iterate in name order, so this appends.
    out->emplace_hint(out->end(), it.key(), std::move(value));
  }
  return true;
}

}  // namespace

Result<AttributeValue> DecodeAttributeValue(const nlohmann::json& json) {
  Decoder decoder;
  AttributeValue value;
  // A value stands where an item's attribute would: its M/L is level 2.
  decoder.Value(json, 2, &value);
  if (decoder.failed()) return std::move(decoder).TakeError();
  return value;
}

Result<Item> DecodeItem(const nlohmann::json& json) {
  if (!json.is_object()) {
    return Error::Serialization(json.is_array() ? kStartOfList
                                                : kUnexpectedValue);
  }
  Decoder decoder;
  Item item;
  decoder.Map(json, 2, &item);
  if (decoder.failed()) return std::move(decoder).TakeError();
  return item;
}

nlohmann::json EncodeAttributeValue(const AttributeValue& value) {
  Json out(Json::value_t::object);
  switch (value.type()) {
    case Type::kS:
      out["S"] = value.s();
      break;
    case Type::kN:
      out["N"] = value.n().ToString();
      break;
    case Type::kB:
      out["B"] = Base64Encode(value.b());
      break;
    case Type::kBool:
      out["BOOL"] = value.boolean();
      break;
    case Type::kNull:
      out["NULL"] = true;
      break;
    case Type::kM:
      out["M"] = EncodeItem(value.m());
      break;
    case Type::kL: {
      Json list(Json::value_t::array);
      list.get_ref<Json::array_t&>().reserve(value.l().size());
      for (const AttributeValue& e : value.l()) {
        list.push_back(EncodeAttributeValue(e));
      }
      out["L"] = std::move(list);
      break;
    }
    case Type::kSS:
      out["SS"] = value.ss();
      break;
    case Type::kNS: {
      Json list(Json::value_t::array);
      for (const Number& n : value.ns()) list.push_back(n.ToString());
      out["NS"] = std::move(list);
      break;
    }
    case Type::kBS: {
      Json list(Json::value_t::array);
      for (const std::string& b : value.bs()) list.push_back(Base64Encode(b));
      out["BS"] = std::move(list);
      break;
    }
  }
  return out;
}

nlohmann::json EncodeItem(const Item& item) {
  Json out(Json::value_t::object);
  auto& obj = out.get_ref<Json::object_t&>();
  for (const auto& [name, value] : item) {
    obj.emplace_hint(obj.end(), name, EncodeAttributeValue(value));
  }
  return out;
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v =
        static_cast<uint32_t>((static_cast<unsigned char>(bytes[i]) << 16) |
                              (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                              static_cast<unsigned char>(bytes[i + 2]));
    out.push_back(kBase64Alphabet[(v >> 18) & 63]);
    out.push_back(kBase64Alphabet[(v >> 12) & 63]);
    out.push_back(kBase64Alphabet[(v >> 6) & 63]);
    out.push_back(kBase64Alphabet[v & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v =
        static_cast<uint32_t>(static_cast<unsigned char>(bytes[i]) << 16);
    if (rest == 2) {
      v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1]) << 8);
    }
    out.push_back(kBase64Alphabet[(v >> 18) & 63]);
    out.push_back(kBase64Alphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kBase64Alphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

bool Base64Decode(std::string_view text, std::string* bytes) {
  return !DecodeBase64(text, bytes).has_value();
}

}  // namespace ddblab::value
