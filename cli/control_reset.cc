// POST /_ddblab/reset on `ddblab serve` (see control_reset.h).
#include "cli/control_reset.h"

#include <chrono>
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

constexpr int kMaxStreamShards = 1024;  // as --stream-shards
// The latest time the clock may show, as POST /_ddblab/clock.
constexpr int64_t kMaxEpochSeconds = 9'000'000'000;

server::WireResponse BadRequest(const std::string& message) {
  return ControlJson(400, Json{{"message", message}});
}

// "invalid value 0 for "stream_shards": expected ..." (the serve flag's
// wording with the field for the flag).
Error Invalid(const Json& value, std::string_view field,
              std::string_view expected) {
  return Error::Validation("invalid value " + value.dump() + " for \"" +
                           std::string(field) + "\": expected " +
                           std::string(expected));
}

// "off", or the duration's shortest exact text ("4h", "90m", "1d").
std::string RolloverText(Duration d) {
  return d <= Duration::zero() ? "off" : DurationText(d);
}

// The body as ResetOptions; an Error whose message is the 400's.
Result<ResetOptions> ParseReset(const Json& body, bool manual) {
  ResetOptions out;
  for (const auto& [key, value] : body.items()) {
    if (key == "clock") {
      if (!manual) {
        return Error::Validation(
            "the clock is the system clock; start ddblab serve with --clock "
            "manual to control it");
      }
      if (value.is_number_integer()) {
        const int64_t s = value.get<int64_t>();
        if (s < 0 || s > kMaxEpochSeconds) {
          return Invalid(value, key, "epoch seconds from 0 to 9000000000");
        }
        out.clock = FromEpochSeconds(s);
      } else if (value.is_number_float()) {
        const double s = value.get<double>();
        if (!std::isfinite(s) || s < 0 ||
            s > static_cast<double>(kMaxEpochSeconds)) {
          return Invalid(value, key, "epoch seconds from 0 to 9000000000");
        }
        out.clock = TimePoint(Duration(std::llround(s * 1e9)));
      } else {
        return Invalid(value, key, "epoch seconds from 0 to 9000000000");
      }
    } else if (key == "seed") {
      if (!value.is_number_unsigned()) {
        return Invalid(value, key, "an unsigned integer");
      }
      out.seed = value.get<uint64_t>();
    } else if (key == "ttl_delay") {
      if (!value.is_string() || value.get<std::string>().empty()) {
        return Invalid(value, key, "0, a duration, a range or aws");
      }
      const std::string spec = value.get<std::string>();
      if (Result<engine::TtlDelay> d = engine::TtlDelay::Parse(spec); !d.ok()) {
        return Error::Validation("\"ttl_delay\": " + d.error().message);
      }
      out.ttl_delay = spec;
    } else if (key == "stream_shards") {
      const std::string expected =
          "a number of shards from 1 to " + std::to_string(kMaxStreamShards);
      if (!value.is_number_integer()) return Invalid(value, key, expected);
      const int64_t n = value.get<int64_t>();
      if (n < 1 || n > kMaxStreamShards) return Invalid(value, key, expected);
      out.stream_shards = static_cast<int>(n);
    } else if (key == "shard_rollover") {
      if (!(value.is_string() || value.is_number()) || value == "") {
        return Invalid(value, key, "a duration (4h, 90m) or off");
      }
      if (value == "off") {
        out.shard_rollover = Duration::zero();
      } else {
        Result<Duration> d = DurationFromJson(value);
        if (!d.ok()) {
          return Error::Validation("\"shard_rollover\": " + d.error().message);
        }
        out.shard_rollover = *d;
      }
    } else {
      return Error::Validation("unknown field \"" + key +
                               "\": expected \"clock\", \"seed\", "
                               "\"ttl_delay\", \"stream_shards\" or "
                               "\"shard_rollover\"");
    }
  }
  return out;
}

server::WireResponse PostReset(Emulator& emulator,
                               const server::ControlExtensions& extensions,
                               const server::WireRequest& request) {
  Json body = request.body.empty() ? Json::object()
                                   : Json::parse(request.body, nullptr,
                                                 /*allow_exceptions=*/false);
  if (body.is_discarded()) return BadRequest("the body is not valid JSON");
  if (!body.is_object()) return BadRequest("the body must be a JSON object");
  const bool manual = dynamic_cast<ManualClock*>(&emulator.clock()) != nullptr;
  Result<ResetOptions> reset = ParseReset(body, manual);
  if (!reset.ok()) return BadRequest(reset.error().message);
  // Mappings go first: none of them reads the emptied engine.
  extensions.Reset(reset->seed.value_or(emulator.options().seed));
  if (Status done = emulator.Reset(*reset); !done.ok()) {
    const int status = done.error().type == ErrorType::kValidation ? 400 : 500;
    return ControlJson(status, Json{{"message", done.error().message}});
  }
  const Options options = emulator.options();
  return ControlJson(
      200, Json{{"now", EpochJson(emulator.clock().Now())},
                {"mode", manual ? "manual" : "system"},
                {"seed", options.seed},
                {"ttl_delay", options.ttl_delay},
                {"stream_shards", options.stream_shards},
                {"shard_rollover", RolloverText(options.shard_rollover)}});
}

}  // namespace

Status AddResetRoutes(Emulator& emulator, server::Protocol& protocol) {
  server::ControlExtensions& extensions = protocol.extensions();
  return protocol.AddRoute(
      "POST", "/_ddblab/reset",
      [&emulator, &extensions](const server::WireRequest& r) {
        return PostReset(emulator, extensions, r);
      });
}

Status AddResetControl(const ServeConfig&, server::ServeHooks& hooks) {
  AddEngineRoutes(hooks, "the reset control route", &AddResetRoutes);
  return OkStatus();
}

}  // namespace ddblab::cli
