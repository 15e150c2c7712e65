// Fault-plan flag and control endpoints of `ddblab serve` (control_faults.h).
#include "cli/control_faults.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/control_response.h"
#include "cli/emulator_handler.h"
#include "emulator/fault/plan.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;

server::WireResponse Replace(Emulator& emulator,
                             const server::WireRequest& request) {
  Json plan = Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (plan.is_discarded()) {
    return ControlError(Error::Validation("the plan is not valid JSON"));
  }
  if (Status status = emulator.SetFaultPlan(plan); !status.ok()) {
    return ControlError(status.error());
  }
  return ControlJson(200, emulator.FaultStatus());
}

server::WireResponse Clear(Emulator& emulator) {
  if (Status status = emulator.SetFaultPlan(nullptr); !status.ok()) {
    return ControlError(status.error());
  }
  return ControlJson(200, emulator.FaultStatus());
}

server::WireResponse Log(Emulator& emulator) {
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
  return ControlJson(200, Json{{"faults", std::move(faults)}});
}

}  // namespace

Status AddFaultRoutes(Emulator& emulator, server::Protocol& protocol) {
  Emulator* e = &emulator;
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "POST", "/_ddblab/faults",
      [e](const server::WireRequest& r) { return Replace(*e, r); }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "GET", "/_ddblab/faults", [e](const server::WireRequest&) {
        return ControlJson(200, e->FaultStatus());
      }));
  DDBLAB_RETURN_IF_ERROR(
      protocol.AddRoute("DELETE", "/_ddblab/faults",
                        [e](const server::WireRequest&) { return Clear(*e); }));
  return protocol.AddRoute("GET", "/_ddblab/faults/log",
                           [e](const server::WireRequest&) { return Log(*e); });
}

Status AddFaultControl(const ServeConfig& config, server::ServeHooks& hooks) {
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
  return OkStatus();
}

}  // namespace ddblab::cli
