// Fault-plan flag and control endpoints of `ddblab serve` (control_faults.h).
#include "emulator/server/control_faults.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "emulator/fault/plan.h"
#include "emulator/server/control_capacity.h"
#include "emulator/server/emulator_handler.h"

namespace ddblab::server {
namespace {

using Json = nlohmann::json;

WireResponse JsonResponse(int status, const Json& body) {
  WireResponse response;
  response.status = status;
  response.content_type = "application/json";
  response.body = body.dump();
  return response;
}

WireResponse ErrorResponse(const Error& error) {
  return JsonResponse(400, Json{{"type", std::string(error.Name())},
                                {"message", error.message}});
}

WireResponse Replace(Emulator& emulator, const WireRequest& request) {
  Json plan = Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (plan.is_discarded()) {
    return ErrorResponse(Error::Validation("the plan is not valid JSON"));
  }
  if (Status status = emulator.SetFaultPlan(plan); !status.ok()) {
    return ErrorResponse(status.error());
  }
  return JsonResponse(200, emulator.FaultStatus());
}

WireResponse Clear(Emulator& emulator) {
  if (Status status = emulator.SetFaultPlan(nullptr); !status.ok()) {
    return ErrorResponse(status.error());
  }
  return JsonResponse(200, emulator.FaultStatus());
}

WireResponse Log(Emulator& emulator) {
  Json faults = Json::array();
  for (const FaultLogEntry& e : emulator.FaultLog()) {
    faults.push_back({{"seq", e.seq},
                      {"time", ToEpochSecondsDouble(e.time)},
                      {"operation", e.operation},
                      {"table", e.table},
                      {"keys", e.keys},
                      {"rule", e.rule_id},
                      {"effect", e.effect}});
  }
  return JsonResponse(200, Json{{"faults", std::move(faults)}});
}

}  // namespace

Status AddFaultRoutes(Emulator& emulator, Protocol& protocol) {
  Emulator* e = &emulator;
  DDBLAB_RETURN_IF_ERROR(
      protocol.AddRoute("POST", "/_ddblab/faults",
                        [e](const WireRequest& r) { return Replace(*e, r); }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "GET", "/_ddblab/faults",
      [e](const WireRequest&) { return JsonResponse(200, e->FaultStatus()); }));
  DDBLAB_RETURN_IF_ERROR(
      protocol.AddRoute("DELETE", "/_ddblab/faults",
                        [e](const WireRequest&) { return Clear(*e); }));
  return protocol.AddRoute("GET", "/_ddblab/faults/log",
                           [e](const WireRequest&) { return Log(*e); });
}

Status AddFaultControl(const ServeConfig& config, ServeHooks& hooks) {
  if (!config.faults_file.empty()) {
    std::ifstream in(config.faults_file, std::ios::binary);
    if (!in) {
      return Error::Validation("--faults: cannot read " + config.faults_file);
    }
    std::ostringstream text;
    text << in.rdbuf();
    Json plan = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (plan.is_discarded()) {
      return Error::Validation("--faults " + config.faults_file +
                               ": the plan is not valid JSON");
    }
    // Checked here so that a bad file stops the server before it binds.
    if (Result<fault::Plan> parsed = fault::ParsePlan(plan); !parsed.ok()) {
      return Error::Validation("--faults " + config.faults_file + ": " +
                               parsed.error().message);
    }
    AdjustOptions(hooks, [plan = std::move(plan)](Options& options) {
      options.fault_plan = plan;
    });
  }
  AddEngineRoutes(hooks, "the fault control routes", &AddFaultRoutes);
  AddEngineRoutes(hooks, "the capacity route", &AddCapacityRoutes);
  return OkStatus();
}

}  // namespace ddblab::server
