#include "cli/control_streams.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli/control_response.h"
#include "cli/emulator_handler.h"
#include "emulator/api/duration.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;

server::WireResponse Split(Emulator& emulator,
                           const server::WireRequest& request) {
  Json body = Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) {
    return ControlError(Error::Validation("the body must be a JSON object"));
  }
  for (const auto& [key, value] : body.items()) {
    if (key != "TableName" && key != "ShardId") {
      return ControlError(Error::Validation("unknown field \"" + key +
                                            "\": expected \"TableName\" and "
                                            "optionally \"ShardId\""));
    }
  }
  auto table = body.find("TableName");
  if (table == body.end() || !table->is_string()) {
    return ControlError(
        Error::Validation("\"TableName\" (a string) is required"));
  }
  std::optional<std::string> shard;
  if (auto it = body.find("ShardId"); it != body.end()) {
    if (!it->is_string()) {
      return ControlError(Error::Validation("\"ShardId\" must be a string"));
    }
    shard = it->get<std::string>();
  }
  Result<StreamShardSplit> split =
      emulator.SplitStreamShards(table->get<std::string>(), shard);
  if (!split.ok()) return ControlError(split.error());
  return ControlJson(
      200, Json{{"closed", split->closed}, {"created", split->created}});
}

}  // namespace

Status AddStreamsRoutes(Emulator& emulator, server::Protocol& protocol) {
  return protocol.AddRoute(
      "POST", "/_ddblab/streams/split",
      [&emulator](const server::WireRequest& r) { return Split(emulator, r); });
}

Status AddStreamsControl(const ServeConfig& config, server::ServeHooks& hooks) {
  Duration rollover = Duration::zero();
  if (config.shard_rollover != "off") {
    Result<Duration> parsed = ParseDuration(config.shard_rollover);
    if (!parsed.ok()) {
      return Error::Validation("--shard-rollover: " + parsed.error().message);
    }
    rollover = *parsed;
  }
  AdjustOptions(hooks,
                [shards = config.stream_shards, rollover](Options& options) {
                  options.stream_shards = shards;
                  options.shard_rollover = rollover;
                });
  AddEngineRoutes(hooks, "the streams control routes", &AddStreamsRoutes);
  return OkStatus();
}

}  // namespace ddblab::cli
