// harness/scenario/fields.h: reading typed values out of a scenario file
// with errors that name the path in the file.
//
//   Fields f(doc["actors"][2]["params"], "actors[2].params");
//   DDBLAB_ASSIGN_OR_RETURN(Duration window, f.DurationOr("window", 5min));
//   // bad: `actors[2].params.window: invalid duration '5 min': unknown unit
//   //       ' min' (expected a number with an optional unit us, ms, ...)`
//   DDBLAB_RETURN_IF_ERROR(f.NoOthers());  // unknown keys are errors
//
// Every error is a ValidationException whose message is "<path>: <what>".
// Durations follow emulator/api/duration.h ("250ms", "1.5s", "5m", or a
// number of seconds); DurationText writes them back.
//
// Thread-safety: plain values; a Fields is used by one thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/duration.h"
#include "emulator/api/result.h"

namespace ddblab::harness::scenario {

using json = nlohmann::json;

// A ValidationException "<path>: <what>".
Error At(std::string_view path, std::string_view what);

// How a value is shown in a message: its JSON text, cut at 60 characters.
std::string Shown(const json& value);

// "<parent>.<key>" (or "<key>" at the top) and "<parent>[<i>]".
std::string Member(std::string_view parent, std::string_view key);
std::string Index(std::string_view parent, size_t i);

// Reads the members of one JSON object; remembers which keys were read so
// NoOthers() can refuse the rest.
class Fields {
 public:
  // Fails unless `object` is an object.
  static Result<Fields> Of(const json& object, std::string path);

  const std::string& path() const { return path_; }
  bool Has(std::string_view key) const;
  // The raw member (marked as read); null when absent.
  const json& Raw(std::string_view key);
  std::string PathOf(std::string_view key) const { return Member(path_, key); }

  Result<std::string> String(std::string_view key);  // required
  Result<std::string> StringOr(std::string_view key, std::string fallback);
  Result<int64_t> IntOr(std::string_view key, int64_t fallback, int64_t min,
                        int64_t max);
  Result<int64_t> Int(std::string_view key, int64_t min, int64_t max);
  Result<bool> BoolOr(std::string_view key, bool fallback);
  Result<Duration> DurationOr(std::string_view key, Duration fallback);
  Result<Duration> DurationOf(std::string_view key);  // required
  // An object member (required); its Fields.
  Result<Fields> Object(std::string_view key);

  // An error naming the first member that was never read.
  Status NoOthers() const;

 private:
  Fields(const json& object, std::string path)
      : object_(&object), path_(std::move(path)) {}
  Result<const json*> Required(std::string_view key);

  const json* object_;
  std::string path_;
  std::set<std::string, std::less<>> read_;
};

// Checks a value found at `path` (for values not read through Fields).
Result<Duration> DurationValue(const json& value, std::string_view path);
Result<int64_t> IntValue(const json& value, std::string_view path, int64_t min,
                         int64_t max);
Result<std::string> StringValue(const json& value, std::string_view path);

}  // namespace ddblab::harness::scenario
