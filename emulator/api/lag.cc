// emulator/api/lag.cc: lag ranges (lag.h).
#include "emulator/api/lag.h"

#include "emulator/api/duration.h"
#include "emulator/api/error.h"

namespace ddblab {

namespace {

Result<Duration> End(std::string_view text, std::string_view whole) {
  Result<Duration> d = ParseDuration(text);
  if (!d.ok()) {
    return Error::Validation("invalid lag '" + std::string(whole) +
                             "': " + d.error().message);
  }
  return d;
}

}  // namespace

Result<LagRange> ParseLagRange(std::string_view text) {
  LagRange lag;
  size_t dots = text.find("..");
  if (dots == std::string_view::npos) {
    DDBLAB_ASSIGN_OR_RETURN(lag.max, End(text, text));
    lag.min = lag.max;
    return lag;
  }
  DDBLAB_ASSIGN_OR_RETURN(lag.min, End(text.substr(0, dots), text));
  DDBLAB_ASSIGN_OR_RETURN(lag.max, End(text.substr(dots + 2), text));
  if (lag.min > lag.max) {
    return Error::Validation("invalid lag '" + std::string(text) +
                             "': the lower end is above the upper end");
  }
  return lag;
}

Result<LagRange> LagRangeFromJson(const nlohmann::json& value) {
  if (value.is_string()) return ParseLagRange(value.get<std::string>());
  DDBLAB_ASSIGN_OR_RETURN(Duration d, DurationFromJson(value));
  return LagRange{d, d};
}

std::string LagRangeText(const LagRange& lag) {
  if (lag.min == lag.max) return DurationText(lag.max);
  return DurationText(lag.min) + ".." + DurationText(lag.max);
}

}  // namespace ddblab
