// The scheduling gate's control endpoints and --schedule flag
// (control_schedule.h).
#include "cli/control_schedule.h"

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/control_response.h"
#include "emulator/api/duration.h"
#include "harness/scenario/strategy.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;
namespace scenario = harness::scenario;

constexpr int kDefaultPctSteps = 100;
constexpr int kMaxPctSteps = 1'000'000;

Result<Duration> DurationField(const Json& body, const char* name,
                               Duration fallback) {
  auto it = body.find(name);
  if (it == body.end()) return fallback;
  if (!it->is_string() && !it->is_number()) {
    return Error::Validation(std::string(name) +
                             ": expected a duration like \"1s\" or a number "
                             "of seconds");
  }
  Result<Duration> d = DurationFromJson(*it);
  if (!d.ok()) {
    return Error::Validation(std::string(name) + ": " + d.error().message);
  }
  return d;
}

server::WireResponse Refused(const Error& error) {
  if (error.type == ErrorType::kResourceInUse) {
    return ControlJson(409, Json{{"type", std::string(error.Name())},
                                 {"message", error.message}});
  }
  return ControlError(error);
}

server::WireResponse Start(server::ScheduleGate& gate,
                           const server::WireRequest& request) {
  Json body = Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    return ControlError(Error::Validation("the schedule is not valid JSON"));
  }
  // The gate itself refuses a tick on a system clock.
  Result<server::ScheduleConfig> config =
      ScheduleFromJson(body, /*manual_clock=*/true);
  if (!config.ok()) return ControlError(config.error());
  if (Status started = gate.Start(std::move(config).value()); !started.ok()) {
    return Refused(started.error());
  }
  return ControlJson(200, gate.State());
}

// "%41" -> "A"; nullopt for a bad escape.
std::optional<std::string> PercentDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    int value = 0;
    for (size_t j = i + 1; j <= i + 2; ++j) {
      char c = text[j];
      int digit = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
      if (digit < 0) return std::nullopt;
      value = value * 16 + digit;
    }
    out += static_cast<char>(value);
    i += 2;
  }
  return out;
}

// POST /_ddblab/schedule/actors/{name}/done.
server::WireResponse ActorRoute(server::ScheduleGate& gate,
                                const server::WireRequest& request) {
  std::string_view rest = request.path;
  rest.remove_prefix(kScheduleActorsPrefix.size());
  constexpr std::string_view kDone = "/done";
  if (!rest.starts_with("/") || !rest.ends_with(kDone) ||
      rest.size() <= 1 + kDone.size()) {
    return ControlJson(
        404, Json{{"type", "ResourceNotFoundException"},
                  {"message", "no such control endpoint: " + request.path +
                                  " (expected /_ddblab/"
                                  "schedule/actors/NAME/done)"}});
  }
  std::string_view encoded = rest.substr(1, rest.size() - 1 - kDone.size());
  std::optional<std::string> name = PercentDecode(encoded);
  if (encoded.find('/') != std::string_view::npos || !name) {
    return ControlError(Error::Validation("bad actor name in the path: " +
                                          std::string(encoded)));
  }
  if (request.method != "POST") {
    return ControlJson(
        405,
        Json{{"type", "ValidationException"},
             {"message", request.path + " takes POST, not " + request.method}});
  }
  if (Status done = gate.Done(*name); !done.ok()) {
    return ControlError(done.error());
  }
  return ControlJson(200, gate.State());
}

}  // namespace

Result<server::ScheduleConfig> ScheduleFromJson(const Json& body,
                                                bool manual_clock) {
  if (!body.is_object()) {
    return Error::Validation("the schedule must be a JSON object");
  }
  for (const auto& [key, value] : body.items()) {
    if (key != "actors" && key != "seed" && key != "tick" && key != "idle" &&
        key != "strategy" && key != "steps" && key != "replay") {
      return Error::Validation("unknown field \"" + key +
                               "\": expected actors, seed, tick, idle, "
                               "strategy, steps or replay");
    }
  }
  if (body.contains("replay") &&
      (body.contains("strategy") || body.contains("steps"))) {
    return Error::Validation(
        "replay: a replay follows the recorded actors; give no strategy or "
        "steps with it");
  }
  server::ScheduleConfig config;
  auto actors = body.find("actors");
  if (actors == body.end()) {
    return Error::Validation(
        "actors: missing (a list of the access keys the actors sign with)");
  }
  if (!actors->is_array()) {
    return Error::Validation("actors: expected a list of names");
  }
  for (size_t i = 0; i < actors->size(); ++i) {
    const Json& name = (*actors)[i];
    if (!name.is_string()) {
      return Error::Validation("actors[" + std::to_string(i) +
                               "]: expected a string (an access key)");
    }
    config.actors.push_back(name.get<std::string>());
  }
  if (auto seed = body.find("seed"); seed != body.end()) {
    if (!seed->is_number_integer() ||
        (seed->is_number_integer() && !seed->is_number_unsigned() &&
         seed->get<int64_t>() < 0)) {
      return Error::Validation("seed: expected an integer from 0");
    }
    config.seed = seed->is_number_unsigned()
                      ? seed->get<uint64_t>()
                      : static_cast<uint64_t>(seed->get<int64_t>());
  }
  DDBLAB_ASSIGN_OR_RETURN(config.tick,
                          DurationField(body, "tick", Duration::zero()));
  DDBLAB_ASSIGN_OR_RETURN(
      config.idle, DurationField(body, "idle", std::chrono::seconds(10)));
  scenario::StrategySpec spec;
  if (auto strategy = body.find("strategy"); strategy != body.end()) {
    if (!strategy->is_string()) {
      return Error::Validation("strategy: expected \"random\" or \"pct:D\"");
    }
    Result<scenario::StrategySpec> parsed =
        scenario::ParseStrategy(strategy->get<std::string>());
    if (!parsed.ok()) {
      return Error::Validation("strategy: " + parsed.error().message);
    }
    spec = *parsed;
  }
  if (spec.kind == scenario::StrategySpec::Kind::kExhaustive) {
    return Error::Validation("strategy exhaustive needs ddblab run");
  }
  int steps = kDefaultPctSteps;
  if (auto it = body.find("steps"); it != body.end()) {
    if (!it->is_number_integer() || it->get<int64_t>() < 1 ||
        it->get<int64_t>() > kMaxPctSteps) {
      return Error::Validation("steps: expected an integer from 1 to " +
                               std::to_string(kMaxPctSteps));
    }
    steps = it->get<int>();
  }
  if (auto replay = body.find("replay"); replay != body.end()) {
    if (!replay->is_array()) {
      return Error::Validation(
          "replay: expected a list of actor names (the actor of each step)");
    }
    std::vector<std::string> names;
    for (size_t i = 0; i < replay->size(); ++i) {
      const Json& name = (*replay)[i];
      if (!name.is_string()) {
        return Error::Validation("replay[" + std::to_string(i) +
                                 "]: expected a string (an actor's name)");
      }
      names.push_back(name.get<std::string>());
    }
    config.replay = std::move(names);
    DDBLAB_RETURN_IF_ERROR(server::CheckScheduleConfig(config, manual_clock));
    return config;
  }
  config.strategy = spec.Text();
  std::shared_ptr<scenario::Scheduler> scheduler = scenario::MakeScheduler(
      spec, config.seed, std::max<size_t>(config.actors.size(), 1), steps);
  config.choose = [scheduler](const std::vector<size_t>& ready, int step) {
    return scheduler->Pick(ready, step);
  };
  DDBLAB_RETURN_IF_ERROR(server::CheckScheduleConfig(config, manual_clock));
  return config;
}

Status AddScheduleRoutes(server::ScheduleGate& gate,
                         server::Protocol& protocol) {
  server::ScheduleGate* g = &gate;
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "POST", "/_ddblab/schedule",
      [g](const server::WireRequest& r) { return Start(*g, r); }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "GET", "/_ddblab/schedule", [g](const server::WireRequest&) {
        return ControlJson(200, g->State());
      }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "DELETE", "/_ddblab/schedule", [g](const server::WireRequest&) {
        g->Stop();
        return ControlJson(200, g->State());
      }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "GET", "/_ddblab/schedule/trace", [g](const server::WireRequest&) {
        server::WireResponse response;
        response.content_type = "application/x-ndjson";
        response.body = g->Trace();
        return response;
      }));
  return protocol.extensions().AddPrefixRoute(
      std::string(kScheduleActorsPrefix),
      [g](const server::WireRequest& r) { return ActorRoute(*g, r); });
}

Status AddScheduleControl(const ServeConfig& config,
                          server::ServeHooks& hooks) {
  std::optional<server::ScheduleConfig> at_start;
  if (!config.schedule_file.empty()) {
    const std::string& path = config.schedule_file;
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error::Validation("--schedule: cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    Json body = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (body.is_discarded()) {
      return Error::Validation("--schedule " + path +
                               ": the schedule is not valid JSON");
    }
    const bool manual = config.clock.starts_with("manual");
    Result<server::ScheduleConfig> parsed = ScheduleFromJson(body, manual);
    if (!parsed.ok()) {
      return Error::Validation("--schedule " + path + ": " +
                               parsed.error().message);
    }
    at_start = std::move(parsed).value();
  }
  hooks.schedule =
      [at_start = std::move(at_start), path = config.schedule_file](
          server::ScheduleGate& gate, server::Protocol& protocol) -> Status {
    DDBLAB_RETURN_IF_ERROR(AddScheduleRoutes(gate, protocol));
    if (!at_start) return OkStatus();
    if (Status started = gate.Start(*at_start); !started.ok()) {
      return Error::Validation("--schedule " + path + ": " +
                               started.error().message);
    }
    return OkStatus();
  };
  return OkStatus();
}

}  // namespace ddblab::cli
