// harness/scenario/fields.cc: typed reads with path-naming errors.
#include "harness/scenario/fields.h"

#include <limits>
#include <utility>

namespace ddblab::harness::scenario {
namespace {

const json& Null() {
  static const json null;
  return null;
}

}  // namespace

Error At(std::string_view path, std::string_view what) {
  return Error::Validation(std::string(path) + ": " + std::string(what));
}

std::string Shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string Member(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return std::string(parent) + "." + std::string(key);
}

std::string Index(std::string_view parent, size_t i) {
  return std::string(parent) + "[" + std::to_string(i) + "]";
}

Result<Duration> DurationValue(const json& value, std::string_view path) {
  Result<Duration> d = DurationFromJson(value);
  if (!d.ok()) return At(path, d.error().message);
  return d;
}

Result<int64_t> IntValue(const json& value, std::string_view path, int64_t min,
                         int64_t max) {
  if (value.is_number_integer()) {
    const bool too_big =
        value.is_number_unsigned() &&
        value.get<uint64_t>() >
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    const int64_t n =
        too_big ? std::numeric_limits<int64_t>::max() : value.get<int64_t>();
    if (!too_big && n >= min && n <= max) return n;
    return At(path, "expected an integer from " + std::to_string(min) + " to " +
                        std::to_string(max) + ", got " + Shown(value));
  }
  return At(path, "expected an integer, got " + Shown(value));
}

Result<std::string> StringValue(const json& value, std::string_view path) {
  if (value.is_string()) return value.get<std::string>();
  return At(path, "expected a string, got " + Shown(value));
}

Result<Fields> Fields::Of(const json& object, std::string path) {
  if (!object.is_object()) {
    return At(path.empty() ? "(top)" : path,
              "expected an object, got " + Shown(object));
  }
  return Fields(object, std::move(path));
}

bool Fields::Has(std::string_view key) const { return object_->contains(key); }

const json& Fields::Raw(std::string_view key) {
  read_.insert(std::string(key));
  auto it = object_->find(key);
  return it == object_->end() ? Null() : *it;
}

Result<const json*> Fields::Required(std::string_view key) {
  read_.insert(std::string(key));
  auto it = object_->find(key);
  if (it == object_->end()) return At(PathOf(key), "required");
  return &*it;
}

Result<std::string> Fields::String(std::string_view key) {
  DDBLAB_ASSIGN_OR_RETURN(const json* value, Required(key));
  return StringValue(*value, PathOf(key));
}

Result<std::string> Fields::StringOr(std::string_view key,
                                     std::string fallback) {
  if (!Has(key)) {
    read_.insert(std::string(key));
    return fallback;
  }
  return String(key);
}

Result<int64_t> Fields::Int(std::string_view key, int64_t min, int64_t max) {
  DDBLAB_ASSIGN_OR_RETURN(const json* value, Required(key));
  return IntValue(*value, PathOf(key), min, max);
}

Result<int64_t> Fields::IntOr(std::string_view key, int64_t fallback,
                              int64_t min, int64_t max) {
  if (!Has(key)) {
    read_.insert(std::string(key));
    return fallback;
  }
  return Int(key, min, max);
}

Result<bool> Fields::BoolOr(std::string_view key, bool fallback) {
  const json& value = Raw(key);
  if (value.is_null() && !Has(key)) return fallback;
  if (value.is_boolean()) return value.get<bool>();
  return At(PathOf(key), "expected true or false, got " + Shown(value));
}

Result<Duration> Fields::DurationOf(std::string_view key) {
  DDBLAB_ASSIGN_OR_RETURN(const json* value, Required(key));
  return DurationValue(*value, PathOf(key));
}

Result<Duration> Fields::DurationOr(std::string_view key, Duration fallback) {
  if (!Has(key)) {
    read_.insert(std::string(key));
    return fallback;
  }
  return DurationOf(key);
}

Result<Fields> Fields::Object(std::string_view key) {
  DDBLAB_ASSIGN_OR_RETURN(const json* value, Required(key));
  return Of(*value, PathOf(key));
}

Status Fields::NoOthers() const {
  for (const auto& [key, value] : object_->items()) {
    if (read_.count(key) == 0) {
      std::string known;
      for (const std::string& k : read_) {
        known += (known.empty() ? "" : ", ") + k;
      }
      return At(PathOf(key), "unknown field (expected " + known + ")");
    }
  }
  return OkStatus();
}

}  // namespace ddblab::harness::scenario
