// emulator/expr/placeholders.h: one request's ExpressionAttributeNames and
// ExpressionAttributeValues.
//
// Create() validates both maps the way DynamoDB does, in its order
// (DynamoDB's expression rules): JSON shape first (a name that is not a
// string, a value that does not decode: SerializationException), then names
// map emptiness and key syntax, values map emptiness and key syntax, and each
// value's contents. Parsing an
// expression looks placeholders up here, which marks them used;
// CheckAllUsed() then reports any name or value no expression of the request
// referenced. Entries are kept sorted by key in flat vectors: lookups are a
// short binary search and no hashing or node allocation happens per parse.
//
// Thread-safety: not thread-safe (lookups mark entries used). One per request.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::expr {

class Placeholders {
 public:
  // Either pointer may be null (the parameter is absent). Errors:
  //   "ExpressionAttributeNames must not be empty"
  //   "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\""
  //   (the same two for ExpressionAttributeValues), and
  //   "ExpressionAttributeValues contains invalid value: <inner> for key <:k>"
  //   for a ValidationException from value::DecodeAttributeValue. A
  //   SerializationException from decoding (wrong JSON shape) is returned
  //   unchanged and first, as DynamoDB's deserializer reports it before any
  //   validation.
  static Result<Placeholders> Create(const nlohmann::json* names,
                                     const nlohmann::json* values);

  // The maps of a request built in process from typed values (PartiQL
  // plans): a key or name is checked as Create checks it, with its texts,
  // in key order; the values are already AttributeValues. Empty vectors
  // stand for absent maps.
  static Result<Placeholders> FromDecoded(
      std::vector<std::pair<std::string, std::string>> names,
      std::vector<std::pair<std::string, value::AttributeValue>> values);

  // Builds directly from already-decoded maps (tests, legacy conversions).
  // Keys are not validated.
  static Placeholders FromMaps(
      std::vector<std::pair<std::string, std::string>> names,
      std::vector<std::pair<std::string, value::AttributeValue>> values);

  Placeholders() = default;

  // The attribute name for "#key" / the value for ":key", marking it used;
  // nullptr if undefined.
  const std::string* FindName(std::string_view key);
  const value::AttributeValue* FindValue(std::string_view key);

  // "Value provided in ExpressionAttributeNames unused in expressions: keys:
  // {#a, #b}" (names first, then values; keys sorted).
  Status CheckAllUsed() const;

  bool has_names() const { return !names_.empty(); }
  bool has_values() const { return !values_.empty(); }

  // ---- For the expression cache (engine/expression_cache.h).
  // Appends to *out what decides how an expression parses against these
  // maps: every name key with its name, every value key with its value's
  // type (not the value). Lengths are written before strings, so different
  // maps never append the same bytes.
  void AppendShape(std::string* out) const;
  // The position of `key` among the names / values (in key order), or -1
  // if it is undefined. Marks nothing.
  int NameIndex(std::string_view key) const;
  int ValueIndex(std::string_view key) const;
  // The value at a position from ValueIndex, unmarked / marked used; marks
  // the name at a position from NameIndex used.
  const value::AttributeValue& ValueAt(size_t index) const {
    return values_[index].value;
  }
  const value::AttributeValue& UseValueAt(size_t index) {
    values_[index].used = true;
    return values_[index].value;
  }
  void UseNameAt(size_t index) { names_[index].used = true; }

 private:
  struct NameEntry {
    std::string key;
    std::string name;
    bool used = false;
  };
  struct ValueEntry {
    std::string key;
    value::AttributeValue value;
    bool used = false;
  };
  std::vector<NameEntry> names_;    // sorted by key
  std::vector<ValueEntry> values_;  // sorted by key
};

}  // namespace ddblab::expr
