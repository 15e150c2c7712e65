// The consistency-model flags and control endpoints of `ddblab serve`
// (control_consistency.h).
#include "cli/control_consistency.h"

#include <nlohmann/json.hpp>

#include "cli/control_response.h"
#include "cli/emulator_handler.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;

server::WireResponse Set(Emulator& emulator,
                         const server::WireRequest& request) {
  Json settings =
      Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (settings.is_discarded()) {
    return ControlError(
        Error::Validation("the consistency settings are not valid JSON"));
  }
  if (Status status = emulator.SetConsistency(settings); !status.ok()) {
    return ControlError(status.error());
  }
  return ControlJson(200, emulator.ConsistencyStatus());
}

}  // namespace

Status AddConsistencyRoutes(Emulator& emulator, server::Protocol& protocol) {
  Emulator* e = &emulator;
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "GET", "/_ddblab/consistency", [e](const server::WireRequest&) {
        return ControlJson(200, e->ConsistencyStatus());
      }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "POST", "/_ddblab/consistency",
      [e](const server::WireRequest& r) { return Set(*e, r); }));
  return protocol.AddRoute(
      "POST", "/_ddblab/consistency/settle", [e](const server::WireRequest&) {
        return ControlJson(200, Json{{"settled", e->SettleConsistency()}});
      });
}

Status AddConsistencyControl(const ServeConfig& config,
                             server::ServeHooks& hooks) {
  AdjustOptions(hooks, [lags = config.consistency](Options& options) {
    options.consistency = lags;
  });
  AddEngineRoutes(hooks, "the consistency control routes",
                  &AddConsistencyRoutes);
  return OkStatus();
}

}  // namespace ddblab::cli
