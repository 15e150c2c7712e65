// emulator/expr/placeholders.cc
#include "emulator/expr/placeholders.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>

#include "emulator/value/codec.h"

namespace ddblab::expr {
namespace {

// How DynamoDB opens a request-constraint error (an attribute name that is
// empty or too long, inside a value too): not wrapped like a bad value.
constexpr std::string_view kConstraintPrefix = "1 validation error detected: ";

bool IsPlaceholderKey(std::string_view key, char sigil) {
  if (key.size() < 2 || key[0] != sigil) return false;
  for (size_t i = 1; i < key.size(); ++i) {
    char c = key[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

// SerializationException texts for a map member that should be a string
// (DynamoDB's wire protocol "SerializationException messages").
Error NotAStringError(const nlohmann::json& j) {
  if (j.is_boolean()) {
    return Error::Serialization(
        j.get<bool>() ? "TRUE_VALUE cannot be converted to String"
                      : "FALSE_VALUE cannot be converted to String");
  }
  if (j.is_number_integer()) {
    return Error::Serialization("NUMBER_VALUE cannot be converted to String");
  }
  if (j.is_number()) {
    return Error::Serialization("DECIMAL_VALUE cannot be converted to String");
  }
  if (j.is_object()) {
    return Error::Serialization(
        "Start of structure or map found where not expected");
  }
  return Error::Serialization(
      "Unrecognized collection type class java.lang.String");
}

Error NotAMapError(const nlohmann::json& j) {
  if (j.is_array()) {
    return Error::Serialization("Start of list found where not expected");
  }
  return Error::Serialization("Unexpected field type");
}

template <class Entries>
auto FindEntry(Entries& entries, std::string_view key) {
  auto it = std::lower_bound(
      entries.begin(), entries.end(), key,
      [](const auto& e, std::string_view k) { return e.key < k; });
  if (it != entries.end() && it->key == key) return &*it;
  return static_cast<decltype(&*it)>(nullptr);
}

template <class Entries>
std::string UnusedKeys(const Entries& entries) {
  std::string keys;
  for (const auto& e : entries) {
    if (e.used) continue;
    if (!keys.empty()) keys += ", ";
    keys += e.key;
  }
  return keys;
}

Status CheckNameEntry(const std::string& key, const std::string& name) {
  if (!IsPlaceholderKey(key, '#')) {
    return Error::Validation(
        "ExpressionAttributeNames contains invalid key: Syntax error; "
        "key: \"" +
        key + "\"");
  }
  // Both texts as DynamoDB writes them (the second with no mention of the
  // placeholder).
  if (name.empty()) {
    return Error::Validation(
        "ExpressionAttributeNames contains invalid value: Empty attribute "
        "name for key " +
        key);
  }
  if (name.size() > value::kMaxAttributeNameBytes) {
    return Error::Validation(
        "1 validation error detected: Attribute name is too large, must "
        "be less than 65536 bytes");
  }
  return OkStatus();
}

Status CheckValueKey(const std::string& key) {
  if (IsPlaceholderKey(key, ':')) return OkStatus();
  return Error::Validation(
      "ExpressionAttributeValues contains invalid key: Syntax error; "
      "key: \"" +
      key + "\"");
}

}  // namespace

Result<Placeholders> Placeholders::Create(const nlohmann::json* names,
                                          const nlohmann::json* values) {
  Placeholders ph;
  if (names != nullptr && names->is_null()) names = nullptr;
  if (values != nullptr && values->is_null()) values = nullptr;
  // JSON shape first (DynamoDB's deserializer runs before any validation):
  // names must map to strings, values must decode; keep the first
  // validation error of a value for its turn below.
  if (names != nullptr) {
    if (!names->is_object()) return NotAMapError(*names);
    for (const auto& [key, name] : names->items()) {
      if (!name.is_string()) return NotAStringError(name);
      ph.names_.push_back({key, name.get<std::string>(), false});
    }
  }
  std::optional<Error> value_error;
  if (values != nullptr) {
    if (!values->is_object()) return NotAMapError(*values);
    for (const auto& [key, v] : values->items()) {
      Result<value::AttributeValue> decoded = value::DecodeAttributeValue(v);
      if (!decoded.ok()) {
        Error e = std::move(decoded).error();
        if (e.type != ErrorType::kValidation) return e;
        // A bad attribute name inside a value is reported as it is.
        if (!value_error && e.message.starts_with(kConstraintPrefix)) {
          value_error = std::move(e);
        } else if (!value_error) {
          e.message =
              "ExpressionAttributeValues contains invalid value: " + e.message +
              " for key " + key;
          value_error = std::move(e);
        }
        continue;
      }
      ph.values_.push_back({key, std::move(decoded).value(), false});
    }
  }
  if (names != nullptr) {
    if (names->empty()) {
      return Error::Validation("ExpressionAttributeNames must not be empty");
    }
    for (const auto& [key, name] : names->items()) {
      DDBLAB_RETURN_IF_ERROR(
          CheckNameEntry(key, name.get_ref<const std::string&>()));
    }
  }
  if (values != nullptr) {
    if (values->empty()) {
      return Error::Validation("ExpressionAttributeValues must not be empty");
    }
    for (const auto& [key, v] : values->items()) {
      DDBLAB_RETURN_IF_ERROR(CheckValueKey(key));
    }
    if (value_error) return *std::move(value_error);
  }
  // nlohmann::json objects iterate in key order already; sort anyway so the
  // invariant does not depend on the JSON library's map type.
  std::sort(ph.names_.begin(), ph.names_.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  std::sort(ph.values_.begin(), ph.values_.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  return ph;
}

Result<Placeholders> Placeholders::FromDecoded(
    std::vector<std::pair<std::string, std::string>> names,
    std::vector<std::pair<std::string, value::AttributeValue>> values) {
  Placeholders ph = FromMaps(std::move(names), std::move(values));
  // Create's order: the names (sorted by key), then the values' keys.
  for (const NameEntry& e : ph.names_) {
    DDBLAB_RETURN_IF_ERROR(CheckNameEntry(e.key, e.name));
  }
  for (const ValueEntry& e : ph.values_) {
    DDBLAB_RETURN_IF_ERROR(CheckValueKey(e.key));
  }
  return ph;
}

Placeholders Placeholders::FromMaps(
    std::vector<std::pair<std::string, std::string>> names,
    std::vector<std::pair<std::string, value::AttributeValue>> values) {
  Placeholders ph;
  for (auto& [k, n] : names) ph.names_.push_back({std::move(k), std::move(n)});
  for (auto& [k, v] : values) {
    ph.values_.push_back({std::move(k), std::move(v)});
  }
  std::sort(ph.names_.begin(), ph.names_.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  std::sort(ph.values_.begin(), ph.values_.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  return ph;
}

const std::string* Placeholders::FindName(std::string_view key) {
  NameEntry* e = FindEntry(names_, key);
  if (e == nullptr) return nullptr;
  e->used = true;
  return &e->name;
}

const value::AttributeValue* Placeholders::FindValue(std::string_view key) {
  ValueEntry* e = FindEntry(values_, key);
  if (e == nullptr) return nullptr;
  e->used = true;
  return &e->value;
}

namespace {

// Writes a 4-byte length, then the bytes.
char* WriteLength(char* out, size_t n) {
  const uint32_t v = static_cast<uint32_t>(n);
  std::memcpy(out, &v, sizeof v);
  return out + sizeof v;
}

char* WriteString(char* out, std::string_view s) {
  out = WriteLength(out, s.size());
  if (!s.empty()) std::memcpy(out, s.data(), s.size());
  return out + s.size();
}

template <class Entries>
int IndexOf(const Entries& entries, std::string_view key) {
  auto it = std::lower_bound(
      entries.begin(), entries.end(), key,
      [](const auto& e, std::string_view k) { return e.key < k; });
  if (it == entries.end() || it->key != key) return -1;
  return static_cast<int>(it - entries.begin());
}

}  // namespace

void Placeholders::AppendShape(std::string* out) const {
  // One resize and plain copies: this is on every cached parse's path.
  size_t size = 2 * sizeof(uint32_t);
  for (const NameEntry& e : names_) {
    size += 2 * sizeof(uint32_t) + e.key.size() + e.name.size();
  }
  for (const ValueEntry& e : values_) {
    size += sizeof(uint32_t) + e.key.size() + 1;
  }
  const size_t start = out->size();
  out->resize(start + size);
  char* p = out->data() + start;
  p = WriteLength(p, names_.size());
  for (const NameEntry& e : names_) {
    p = WriteString(p, e.key);
    p = WriteString(p, e.name);
  }
  p = WriteLength(p, values_.size());
  for (const ValueEntry& e : values_) {
    p = WriteString(p, e.key);
    *p++ = static_cast<char>(e.value.type());
  }
}

int Placeholders::NameIndex(std::string_view key) const {
  return IndexOf(names_, key);
}

int Placeholders::ValueIndex(std::string_view key) const {
  return IndexOf(values_, key);
}

Status Placeholders::CheckAllUsed() const {
  std::string keys = UnusedKeys(names_);
  if (!keys.empty()) {
    return Error::Validation(
        "Value provided in ExpressionAttributeNames unused in expressions: "
        "keys: {" +
        keys + "}");
  }
  keys = UnusedKeys(values_);
  if (!keys.empty()) {
    return Error::Validation(
        "Value provided in ExpressionAttributeValues unused in expressions: "
        "keys: {" +
        keys + "}");
  }
  return OkStatus();
}

}  // namespace ddblab::expr
