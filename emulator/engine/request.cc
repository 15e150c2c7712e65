#include "emulator/engine/request.h"

#include <cmath>
#include <limits>
#include <utility>

#include "emulator/engine/table_arn.h"

namespace ddblab::engine {
namespace {

constexpr std::string_view kCoralPrefix = "com.amazonaws.dynamodb.v20120810.";
constexpr size_t kMaxListedErrors = 10;

// Number of Unicode code points (length as Coral counts it, near enough:
// Java counts UTF-16 units; they differ only outside the BMP).
int64_t CodePoints(const std::string& s) {
  int64_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

std::string NumberText(const Json& value) {
  if (value.is_number_integer()) return value.dump();
  double d = value.get<double>();
  Json j = d;
  return j.dump();
}

}  // namespace

RequestParser::RequestParser(const Json& request) {
  if (request.is_null() || request.is_object()) return;
  if (request.is_array()) {
    serialization_error_ = "Start of list found where not expected";
  } else {
    serialization_error_ = "Unexpected value type in payload";
  }
}

const Json* RequestParser::Member(const Json& obj,
                                  std::string_view member) const {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(member);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

void RequestParser::SerializationError(std::string message) {
  if (!serialization_error_) serialization_error_ = std::move(message);
}

std::optional<std::string> RequestParser::StringValue(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return std::nullopt;
  if (v.is_boolean()) {
    SerializationError(v.get<bool>()
                           ? "TRUE_VALUE cannot be converted to String"
                           : "FALSE_VALUE cannot be converted to String");
  } else if (v.is_number_integer()) {
    SerializationError("NUMBER_VALUE cannot be converted to String");
  } else if (v.is_number()) {
    SerializationError("DECIMAL_VALUE cannot be converted to String");
  } else if (v.is_array()) {
    SerializationError("Unrecognized collection type class java.lang.String");
  } else {
    SerializationError("Start of structure or map found where not expected");
  }
  return std::nullopt;
}

std::optional<std::string> RequestParser::String(const Json& obj,
                                                 std::string_view member) {
  const Json* v = Member(obj, member);
  if (v == nullptr) return std::nullopt;
  return StringValue(*v);
}

std::optional<bool> RequestParser::Bool(const Json& obj,
                                        std::string_view member) {
  const Json* v = Member(obj, member);
  if (v == nullptr) return std::nullopt;
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_string()) {
    // Coral's parser accepts the literal words; anything else is a token
    // error.
    const std::string& s = v->get_ref<const std::string&>();
    if (s == "true") return true;
    if (s == "false") return false;
    SerializationError("Unexpected token received from parser");
  } else if (v->is_number_integer()) {
    SerializationError("NUMBER_VALUE cannot be converted to Boolean");
  } else if (v->is_number()) {
    SerializationError("DECIMAL_VALUE cannot be converted to Boolean");
  } else if (v->is_array()) {
    SerializationError("Unrecognized collection type class java.lang.Boolean");
  } else {
    SerializationError("Start of structure or map found where not expected");
  }
  return std::nullopt;
}

std::optional<int64_t> RequestParser::Number(const Json& obj,
                                             std::string_view member,
                                             std::string_view type_name) {
  const Json* v = Member(obj, member);
  if (v == nullptr) return std::nullopt;
  if (v->is_number_integer()) {
    if (v->is_number_unsigned()) {
      uint64_t u = v->get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return std::numeric_limits<int64_t>::max();
      }
      return static_cast<int64_t>(u);
    }
    return v->get<int64_t>();
  }
  if (v->is_number_float()) {
    double d = v->get<double>();
    if (!std::isfinite(d)) return std::nullopt;
    if (d >= 9.2e18) return std::numeric_limits<int64_t>::max();
    if (d <= -9.2e18) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);  // Coral truncates decimals
  }
  std::string type(type_name);
  if (v->is_string()) {
    SerializationError("STRING_VALUE cannot be converted to " + type);
  } else if (v->is_boolean()) {
    SerializationError(
        std::string(v->get<bool>() ? "TRUE_VALUE" : "FALSE_VALUE") +
        " cannot be converted to " + type);
  } else if (v->is_array()) {
    SerializationError("Unrecognized collection type class java.lang." + type);
  } else {
    SerializationError("Start of structure or map found where not expected");
  }
  return std::nullopt;
}

std::optional<int64_t> RequestParser::Long(const Json& obj,
                                           std::string_view member) {
  return Number(obj, member, "Long");
}

std::optional<int64_t> RequestParser::Integer(const Json& obj,
                                              std::string_view member) {
  std::optional<int64_t> v = Number(obj, member, "Integer");
  if (v && (*v > std::numeric_limits<int32_t>::max() ||
            *v < std::numeric_limits<int32_t>::min())) {
    // Coral's Integer cannot hold it: it is rejected like a bad token.
    SerializationError("NUMBER_VALUE cannot be converted to Integer");
    return std::nullopt;
  }
  return v;
}

const Json* RequestParser::List(const Json& obj, std::string_view member) {
  const Json* v = Member(obj, member);
  if (v == nullptr) return nullptr;
  if (v->is_array()) return v;
  if (v->is_object()) {
    SerializationError("Start of structure or map found where not expected");
  } else {
    SerializationError("Unexpected field type");
  }
  return nullptr;
}

const Json* RequestParser::StructValue(const Json& v, std::string_view shape,
                                       bool value_struct) {
  if (v.is_object()) return &v;
  if (v.is_null()) return nullptr;
  if (v.is_array()) {
    SerializationError("Unrecognized collection type class " +
                       std::string(kCoralPrefix) + std::string(shape));
  } else {
    SerializationError(value_struct ? "Unexpected value type in payload"
                                    : "Unexpected field type");
  }
  return nullptr;
}

const Json* RequestParser::Struct(const Json& obj, std::string_view member,
                                  std::string_view shape, bool value_struct) {
  const Json* v = Member(obj, member);
  if (v == nullptr) return nullptr;
  return StructValue(*v, shape, value_struct);
}

const Json* RequestParser::Map(const Json& obj, std::string_view member,
                               std::string_view value_shape) {
  const Json* v = Member(obj, member);
  if (v == nullptr) return nullptr;
  if (v->is_object()) return v;
  if (v->is_array()) {
    std::string shape(value_shape);
    if (shape.find('.') == std::string::npos) {
      shape =
          std::string(shape == "String" ? "java.lang." : kCoralPrefix) + shape;
    }
    SerializationError(
        "Unrecognized collection type java.util.Map<java.lang.String, " +
        shape + ">");
  } else {
    SerializationError("Unexpected field type");
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Constraints

void RequestParser::AddConstraintError(std::string text) {
  constraint_errors_.push_back(std::move(text));
}

void RequestParser::AddConstraint(const std::string& value,
                                  std::string_view path,
                                  std::string_view constraint) {
  std::string text = "Value '";
  text += value;
  text += "' at '";
  text += path;
  text += "' failed to satisfy constraint: ";
  text += constraint;
  AddConstraintError(std::move(text));
}

void RequestParser::NotNull(bool present, std::string_view path) {
  if (present) return;
  AddConstraintError("Value null at '" + std::string(path) +
                     "' failed to satisfy constraint: Member must not be null");
}

void RequestParser::Length(const std::string& value, std::string_view path,
                           int64_t min, int64_t max) {
  int64_t n = CodePoints(value);
  if (n < min) {
    AddConstraint(value, path,
                  "Member must have length greater than or equal to " +
                      std::to_string(min));
  } else if (n > max) {
    AddConstraint(
        value, path,
        "Member must have length less than or equal to " + std::to_string(max));
  }
}

void RequestParser::ListLength(const Json& list, std::string_view path,
                               int64_t min, int64_t max) {
  int64_t n = static_cast<int64_t>(list.size());
  if (n < min) {
    AddConstraint(FormatConstraintValue(list), path,
                  "Member must have length greater than or equal to " +
                      std::to_string(min));
  } else if (n > max) {
    AddConstraint(
        FormatConstraintValue(list), path,
        "Member must have length less than or equal to " + std::to_string(max));
  }
}

void RequestParser::Range(int64_t value, std::string_view path,
                          std::optional<int64_t> min,
                          std::optional<int64_t> max) {
  if (min && value < *min) {
    AddConstraint(std::to_string(value), path,
                  "Member must have value greater than or equal to " +
                      std::to_string(*min));
  } else if (max && value > *max) {
    AddConstraint(
        std::to_string(value), path,
        "Member must have value less than or equal to " + std::to_string(*max));
  }
}

void RequestParser::NamePattern(const std::string& value,
                                std::string_view path) {
  bool ok = !value.empty();
  for (char c : value) ok = ok && IsNameChar(c);
  if (!ok) {
    AddConstraint(value, path,
                  "Member must satisfy regular expression pattern: "
                  "[a-zA-Z0-9_.-]+");
  }
}

void RequestParser::Enum(const std::string& value, std::string_view path,
                         std::initializer_list<std::string_view> allowed) {
  for (std::string_view a : allowed) {
    if (value == a) return;
  }
  std::string set = "Member must satisfy enum value set: [";
  bool first = true;
  for (std::string_view a : allowed) {
    if (!first) set += ", ";
    set += a;
    first = false;
  }
  set += "]";
  AddConstraint(value, path, set);
}

void RequestParser::CheckNewTableName(const std::optional<std::string>& name,
                                      std::string_view path) {
  Required(name.has_value(), "TableName");
  if (!name) return;
  NamePattern(*name, path);
  Length(*name, path, 3, 255);
}

void RequestParser::CheckTableNameOrArn(const std::optional<std::string>& name,
                                        std::string_view path) {
  // DynamoDB: a missing name is "Value null at 'tableName' ... must not be
  // null", an empty one only "... must have length greater than or equal to
  // 1" (neither the pattern nor the 3-character minimum).
  NotNull(name.has_value(), path);
  if (!name) return;
  if (name->empty()) {
    Length(*name, path, 1, 1024);
    return;
  }
  if (LooksLikeArn(*name)) {
    Length(*name, path, 1, 1024);
    if (name->size() <= 1024) {
      if (std::optional<std::string> bad = TableArnShapeError(*name)) {
        AddConstraint(*name, path, *bad);
      }
    }
    return;
  }
  NamePattern(*name, path);
  Length(*name, path, 3, 255);
}

std::optional<std::string> RequestParser::TableNameOrArn(const Json& obj) {
  std::optional<std::string> name = String(obj, "TableName");
  CheckTableNameOrArn(name, "tableName");
  return name;
}

void RequestParser::CheckIndexName(const std::optional<std::string>& name,
                                   std::string_view path) {
  NotNull(name.has_value(), path);
  if (!name) return;
  NamePattern(*name, path);
  Length(*name, path, 3, 255);
}

void RequestParser::Required(bool present, std::string_view member) {
  if (present || required_error_) return;
  required_error_ = "The parameter '" + std::string(member) +
                    "' is required but was not present in the request";
}

Status RequestParser::Finish() const {
  if (serialization_error_) return Error::Serialization(*serialization_error_);
  if (required_error_) return Error::Validation(*required_error_);
  if (constraint_errors_.empty()) return OkStatus();
  size_t n = std::min(constraint_errors_.size(), kMaxListedErrors);
  std::string msg = std::to_string(n) + " validation error" +
                    (n == 1 ? "" : "s") + " detected: ";
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) msg += "; ";
    msg += constraint_errors_[i];
  }
  return Error::Validation(std::move(msg));
}

// ---------------------------------------------------------------------------

std::string ElementPath(std::string_view list, size_t index0) {
  return std::string(list) + "." + std::to_string(index0 + 1) + ".member";
}

std::string MemberPath(std::string_view parent, std::string_view member) {
  return std::string(parent) + "." + std::string(member);
}

namespace {

// {AttributeName, KeyType}, either of them missing, both strings.
bool IsKeySchemaElement(const Json& value) {
  if (!value.is_object() || value.empty()) return false;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (it.key() != "AttributeName" && it.key() != "KeyType") return false;
    if (!it.value().is_string()) return false;
  }
  return true;
}

}  // namespace

std::string FormatConstraintValue(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "null";
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) return NumberText(value);
  std::string out;
  if (value.is_array()) {
    out = "[";
    bool first = true;
    for (const Json& e : value) {
      if (!first) out += ", ";
      out += FormatConstraintValue(e);
      first = false;
    }
    return out + "]";
  }
  if (IsKeySchemaElement(value)) {
    auto member = [&](const char* name) -> std::string {
      auto it = value.find(name);
      return it == value.end() ? "null" : it->get<std::string>();
    };
    return "KeySchemaElement(attributeName=" + member("AttributeName") +
           ", keyType=" + member("KeyType") + ")";
  }
  out = "{";
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (!first) out += ", ";
    out += it.key() + "=" + FormatConstraintValue(it.value());
    first = false;
  }
  return out + "}";
}

}  // namespace ddblab::engine
