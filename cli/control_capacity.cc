// The capacity flag and report endpoint of `ddblab serve`
// (control_capacity.h).
#include "cli/control_capacity.h"

#include "cli/control_response.h"
#include "cli/emulator_handler.h"

namespace ddblab::cli {

Status AddCapacityRoutes(Emulator& emulator, server::Protocol& protocol) {
  Emulator* e = &emulator;
  return protocol.AddRoute("GET", "/_ddblab/capacity",
                           [e](const server::WireRequest&) {
                             return ControlJson(200, e->CapacityReport());
                           });
}

Status AddCapacityControl(const ServeConfig& config,
                          server::ServeHooks& hooks) {
  AdjustOptions(hooks, [capacity = config.capacity](Options& options) {
    options.capacity = capacity;
  });
  AddEngineRoutes(hooks, "the capacity route", &AddCapacityRoutes);
  return OkStatus();
}

}  // namespace ddblab::cli
