// emulator/engine/request.h: typed reading of a request body, with
// DynamoDB's two kinds of input errors.
//
// DynamoDB checks a request in this order (DynamoDB's wire protocol "Processing
// / error precedence"): JSON types first (SerializationException, the first one
// found, with Coral's texts such as "NUMBER_VALUE cannot be converted to
// String"); then shape constraints, all collected into one
// ValidationException:
//   "2 validation errors detected: Value 'a;' at 'tableName' failed to
//    satisfy constraint: Member must satisfy regular expression pattern:
//    [a-zA-Z0-9_.-]+; Value null at 'keySchema' failed to satisfy
//    constraint: Member must not be null"
// (at most 10 listed, joined by "; "; the count is of those listed); then
// operation-specific checks (plain ValidationException), then existence.
//
// RequestParser supports the first two. Handlers read every member they
// need with the typed getters (which record a type error and return
// nothing), add constraint checks, then call Finish(), which returns the
// SerializationException if any type was wrong, else the collected
// constraint errors, else ok:
//
//   RequestParser p(request);
//   auto name = p.String(request, "TableName");
//   p.CheckTableName(name, "tableName");          // name or ARN
//   auto limit = p.Integer(request, "Limit");
//   if (limit) p.Range(*limit, "limit", 1, 100);
//   DDBLAB_RETURN_IF_ERROR(p.Finish());
//
// Member paths in messages are lowerCamelCase; list elements are
// "<list>.<1-based index>.member" (e.g. "keySchema.1.member.keyType"), map
// values "<map>.<key>.member" — see Path helpers below.
//
// Thread-safety: a RequestParser is used by one call on one thread.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::engine {

using Json = nlohmann::json;

class RequestParser {
 public:
  // The request body; a JSON null counts as {} (in-process callers of
  // parameterless operations), anything else that is not an object is a
  // SerializationException at Finish().
  explicit RequestParser(const Json& request);

  // ---- JSON types. `obj` must be an object (the request or a struct
  // member already returned by Struct()). Absent or JSON-null members give
  // nullopt / nullptr without an error.
  std::optional<std::string> String(const Json& obj, std::string_view member);
  std::optional<bool> Bool(const Json& obj, std::string_view member);
  // Long / Integer members (only the Coral type name in messages differs).
  std::optional<int64_t> Long(const Json& obj, std::string_view member);
  std::optional<int64_t> Integer(const Json& obj, std::string_view member);
  // A JSON array; nullptr if absent or of the wrong type.
  const Json* List(const Json& obj, std::string_view member);
  // A JSON object standing for a structure. `shape` is the model shape name
  // (e.g. "ProvisionedThroughput"). Coral reports scalars differently for
  // "value" structures (list elements, AttributeValue) and "field" ones.
  const Json* Struct(const Json& obj, std::string_view member,
                     std::string_view shape, bool value_struct = false);
  // A JSON object standing for a map of `value_shape`
  // ("AttributeValue", "String", ...).
  const Json* Map(const Json& obj, std::string_view member,
                  std::string_view value_shape);

  // The same checks for a list element or map value (no member name).
  std::optional<std::string> StringValue(const Json& value);
  const Json* StructValue(const Json& value, std::string_view shape,
                          bool value_struct = true);

  // ---- Shape constraints (collected).
  // "Value null at '<path>' ... Member must not be null" unless present.
  void NotNull(bool present, std::string_view path);
  // Length of a string in characters (code points).
  void Length(const std::string& value, std::string_view path, int64_t min,
              int64_t max);
  void ListLength(const Json& list, std::string_view path, int64_t min,
                  int64_t max);
  void Range(int64_t value, std::string_view path, std::optional<int64_t> min,
             std::optional<int64_t> max);
  // "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+".
  void NamePattern(const std::string& value, std::string_view path);
  void Enum(const std::string& value, std::string_view path,
            std::initializer_list<std::string_view> allowed);
  // TableName of CreateTable: 3..255 chars, [a-zA-Z0-9_.-]+ (pattern first).
  // Missing -> Required("TableName").
  void CheckNewTableName(const std::optional<std::string>& name,
                         std::string_view path);
  // TableName of every other operation: a name (as above) or a table ARN
  // (1..1024 chars). Missing -> NotNull(path); "" -> only the length-1
  // constraint.
  void CheckTableNameOrArn(const std::optional<std::string>& name,
                           std::string_view path);
  // The prologue of every operation on an existing table: `obj`'s TableName
  // member, read as a string and checked with CheckTableNameOrArn (path
  // "tableName"). Missing or of the wrong type -> nullopt (the error is
  // recorded).
  std::optional<std::string> TableNameOrArn(const Json& obj);
  // Index names: 3..255 chars, [a-zA-Z0-9_.-]+.
  void CheckIndexName(const std::optional<std::string>& name,
                      std::string_view path);
  // A fully formatted "Value ... at ... failed to satisfy constraint: ..."
  void AddConstraintError(std::string text);
  // "Value '<value>' at '<path>' failed to satisfy constraint: <constraint>"
  void AddConstraint(const std::string& value, std::string_view path,
                     std::string_view constraint);

  // A required member that is absent: "The parameter '<member>' is required
  // but was not present in the request" — reported after type errors and
  // before constraint errors (DynamoDB does this for TableName).
  void Required(bool present, std::string_view member);

  // Records a SerializationException (the first one wins).
  void SerializationError(std::string message);

  bool has_errors() const {
    return serialization_error_.has_value() || required_error_.has_value() ||
           !constraint_errors_.empty();
  }
  // See the header comment.
  Status Finish() const;

 private:
  const Json* Member(const Json& obj, std::string_view member) const;
  std::optional<int64_t> Number(const Json& obj, std::string_view member,
                                std::string_view type_name);

  std::optional<std::string> serialization_error_;
  std::optional<std::string> required_error_;
  std::vector<std::string> constraint_errors_;
};

// Member paths: Path("keySchema", 0, "keyType") ==
// "keySchema.1.member.keyType"; MemberPath("a", "b") == "a.b".
std::string ElementPath(std::string_view list, size_t index0);
std::string MemberPath(std::string_view parent, std::string_view member);

// How Coral prints a value in a constraint message: strings as is, numbers
// in decimal, lists as "[a, b]", structures as "{K=v, ...}" except a key
// schema element (AttributeName and/or KeyType strings, nothing else), which
// DynamoDB prints as "KeySchemaElement(attributeName=a, keyType=HASH)" (a
// missing member as null: unverified).
std::string FormatConstraintValue(const Json& value);

// "One or more parameter values were invalid: " — the prefix of most
// ValidationException texts.
inline constexpr std::string_view kInvalidParams =
    "One or more parameter values were invalid: ";

}  // namespace ddblab::engine
