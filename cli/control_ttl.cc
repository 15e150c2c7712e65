#include "cli/control_ttl.h"

#include <charconv>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "cli/control_response.h"
#include "cli/emulator_handler.h"
#include "emulator/api/duration.h"
#include "emulator/engine/ttl/ttl_delay.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;

// The latest time the clock may show (year 2255), far from the overflow of
// a nanosecond TimePoint.
constexpr int64_t kMaxEpochSeconds = 9'000'000'000;

server::WireResponse BadRequest(const std::string& message) {
  return ControlJson(400, Json{{"message", message}});
}

// Whole seconds as an integer, otherwise a fraction.

std::string EpochText(TimePoint t) { return EpochJson(t).dump(); }

// Epoch seconds (an integer or a fraction) as a TimePoint.
std::optional<TimePoint> TimeFromJson(const Json& v) {
  if (v.is_number_integer()) {
    int64_t s = v.get<int64_t>();
    if (s < -kMaxEpochSeconds || s > kMaxEpochSeconds) return std::nullopt;
    return FromEpochSeconds(s);
  }
  if (v.is_number_float()) {
    double s = v.get<double>();
    if (!std::isfinite(s) ||
        std::fabs(s) > static_cast<double>(kMaxEpochSeconds)) {
      return std::nullopt;
    }
    return TimePoint(Duration(std::llround(s * 1e9)));
  }
  return std::nullopt;
}

Result<Json> ParseBody(const server::WireRequest& request) {
  Json body = Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    return Error::Validation("the body is not valid JSON");
  }
  if (!body.is_object())
    return Error::Validation("the body must be a JSON object");
  return body;
}

// The delay an "advance" value asks for (emulator/api/duration.h).
Result<Duration> AdvanceAmount(const Json& v) {
  if (v.is_number() && v.get<double>() < 0) {
    return Error::Validation(
        "cannot move the clock backwards (\"advance\" is negative)");
  }
  if (!v.is_string() && !v.is_number()) {
    return Error::Validation(
        "\"advance\" must be a duration string like \"90s\", \"15m\", "
        "\"2h\", \"1d\" or a number of seconds");
  }
  Result<Duration> d = DurationFromJson(v);
  if (!d.ok()) return Error::Validation("\"advance\": " + d.error().message);
  return d;
}

}  // namespace

std::optional<server::WireResponse> MoveManualClock(
    Clock& clock, const server::WireRequest& request) {
  auto* manual = dynamic_cast<ManualClock*>(&clock);
  Result<Json> body = ParseBody(request);
  if (!body.ok()) return BadRequest(body.error().message);
  if (manual == nullptr) {
    return BadRequest(
        "the clock is the system clock; start ddblab serve with --clock "
        "manual to control it");
  }
  for (const auto& [key, value] : body->items()) {
    if (key != "advance" && key != "set") {
      return BadRequest("unknown field \"" + key +
                        "\": expected \"advance\" or \"set\"");
    }
  }
  const bool has_advance = body->contains("advance");
  const bool has_set = body->contains("set");
  if (has_advance == has_set) {
    return BadRequest(
        "give exactly one of \"advance\" (e.g. \"90s\") or \"set\" (epoch "
        "seconds)");
  }
  if (has_advance) {
    Result<Duration> amount = AdvanceAmount((*body)["advance"]);
    if (!amount.ok()) return BadRequest(amount.error().message);
    if (manual->Now() + *amount > FromEpochSeconds(kMaxEpochSeconds)) {
      return BadRequest("cannot move the clock past epoch second " +
                        std::to_string(kMaxEpochSeconds));
    }
    manual->Advance(*amount);
  } else {
    std::optional<TimePoint> target = TimeFromJson((*body)["set"]);
    if (!target) {
      return BadRequest("\"set\" must be a number of epoch seconds");
    }
    if (!manual->Set(*target)) {
      return BadRequest("cannot move the clock backwards: now is " +
                        EpochText(manual->Now()) + ", asked for " +
                        EpochText(*target));
    }
  }
  return std::nullopt;
}

server::WireResponse ClockStatus(Clock& clock) {
  return ControlJson(
      200,
      Json{{"now", EpochJson(clock.Now())},
           {"mode", dynamic_cast<ManualClock*>(&clock) ? "manual" : "system"}});
}

namespace {

class TtlRoutes {
 public:
  TtlRoutes(Emulator& emulator, server::ControlExtensions& extensions)
      : emulator_(emulator), extensions_(extensions) {}

  server::WireResponse GetClock() const {
    return ClockStatus(emulator_.clock());
  }

  server::WireResponse PostClock(const server::WireRequest& request) {
    if (std::optional<server::WireResponse> refused =
            MoveManualClock(emulator_.clock(), request)) {
      return std::move(*refused);
    }
    Result<int64_t> deleted = emulator_.SweepTtl();
    if (!deleted.ok()) {
      return ControlJson(500, Json{{"message", deleted.error().message}});
    }
    // Extensions (hosted event source mappings) catch up with the new time
    // before the caller hears of it.
    extensions_.AfterClockMove();
    return ControlJson(200, Json{{"now", EpochJson(emulator_.clock().Now())},
                                 {"deleted", *deleted}});
  }

  server::WireResponse Sweep() {
    Result<int64_t> deleted = emulator_.SweepTtl();
    if (!deleted.ok()) {
      return ControlJson(500, Json{{"message", deleted.error().message}});
    }
    return ControlJson(200, Json{{"deleted", *deleted}});
  }

  server::WireResponse Status() {
    Result<std::vector<TtlTableStatus>> status = emulator_.TtlStatus();
    if (!status.ok()) {
      return ControlJson(500, Json{{"message", status.error().message}});
    }
    Json tables = Json::object();
    for (const TtlTableStatus& s : *status) {
      tables[s.table_name] =
          Json{{"waiting", s.waiting},
               {"next_due", s.next_due ? Json(*s.next_due) : Json(nullptr)}};
    }
    return ControlJson(200, Json{{"now", EpochJson(emulator_.clock().Now())},
                                 {"delay", emulator_.options().ttl_delay},
                                 {"tables", std::move(tables)}});
  }

 private:
  Emulator& emulator_;
  server::ControlExtensions& extensions_;
};

Result<std::optional<TimePoint>> ParseClockFlag(const std::string& value) {
  auto bad = [&] {
    return Error::Validation("invalid value '" + value +
                             "' for --clock: expected system, manual or "
                             "manual=EPOCH_SECONDS");
  };
  if (value == "system") return std::optional<TimePoint>();
  if (value == "manual") {
    // The real time at start, in whole seconds.
    return std::optional<TimePoint>(
        FromEpochSeconds(ToEpochSeconds(SystemClock().Now())));
  }
  constexpr std::string_view kPrefix = "manual=";
  if (!value.starts_with(kPrefix)) return bad();
  std::string_view digits = std::string_view(value).substr(kPrefix.size());
  int64_t seconds = 0;
  auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), seconds);
  if (digits.empty() || ec != std::errc() ||
      end != digits.data() + digits.size() || seconds < 0 ||
      seconds > kMaxEpochSeconds) {
    return bad();
  }
  return std::optional<TimePoint>(FromEpochSeconds(seconds));
}

}  // namespace

Status AddTtlRoutes(Emulator& emulator, server::Protocol& protocol) {
  auto routes = std::make_shared<TtlRoutes>(emulator, protocol.extensions());
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "GET", "/_ddblab/clock",
      [routes](const server::WireRequest&) { return routes->GetClock(); }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "POST", "/_ddblab/clock",
      [routes](const server::WireRequest& r) { return routes->PostClock(r); }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "POST", "/_ddblab/ttl/sweep",
      [routes](const server::WireRequest&) { return routes->Sweep(); }));
  return protocol.AddRoute(
      "GET", "/_ddblab/ttl",
      [routes](const server::WireRequest&) { return routes->Status(); });
}

Status AddTtlControl(const ServeConfig& config, server::ServeHooks& hooks) {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<TimePoint> manual_start,
                          ParseClockFlag(config.clock));
  if (Result<engine::TtlDelay> delay =
          engine::TtlDelay::Parse(config.ttl_delay);
      !delay.ok()) {
    return Error::Validation("--ttl-delay: " + delay.error().message);
  }
  Result<Duration> interval = ParseDuration(config.ttl_sweep_interval);
  if (!interval.ok()) {
    return Error::Validation("--ttl-sweep-interval: " +
                             interval.error().message);
  }
  if (*interval <= Duration::zero()) {
    return Error::Validation("--ttl-sweep-interval: must be more than 0");
  }
  Duration cooldown = std::chrono::hours(1);
  if (config.ttl_change_cooldown != "aws") {
    Result<Duration> parsed = ParseDuration(config.ttl_change_cooldown);
    if (!parsed.ok()) {
      return Error::Validation("--ttl-change-cooldown: " +
                               parsed.error().message);
    }
    cooldown = *parsed;
  }
  // The server's one clock (serve.h): the engine's, and the one SigV4's
  // date window and the Date header read.
  std::shared_ptr<Clock> clock;
  if (manual_start) clock = std::make_shared<ManualClock>(*manual_start);
  hooks.clock = clock;
  AdjustOptions(hooks, [clock, delay = config.ttl_delay, interval = *interval,
                        cooldown](Options& options) {
    if (clock) options.clock = clock;
    options.ttl_delay = delay;
    options.ttl_sweep_interval = interval;
    options.ttl_update_cooldown = cooldown;
  });
  AddEngineRoutes(hooks, "the TTL control routes", &AddTtlRoutes);
  return OkStatus();
}

}  // namespace ddblab::cli
