// cli/serve_hooks.cc: every control layer, in the order they wrap the
// hooks. The namespace layer comes after every per-engine control (it
// forwards them to each namespace's engine) and before the global ones
// (console, schedule).
#include "cli/serve_hooks.h"

#include "cli/control_capacity.h"
#include "cli/control_consistency.h"
#include "cli/control_esm.h"
#include "cli/control_faults.h"
#include "cli/control_namespaces.h"
#include "cli/control_reset.h"
#include "cli/control_schedule.h"
#include "cli/control_streams.h"
#include "cli/control_ttl.h"
#include "cli/control_ui.h"
#include "cli/emulator_handler.h"

namespace ddblab::cli {

Result<server::ServeHooks> ServeHooksFor(const ServeConfig& config) {
  server::ServeHooks hooks;
  hooks.open = &EmulatorHandler::Open;
  for (auto add : {&AddTtlControl, &AddStreamsControl, &AddFaultControl,
                   &AddCapacityControl, &AddConsistencyControl, &AddEsmControl,
                   &AddResetControl, &AddNamespaceControl, &AddUiControl,
                   &AddScheduleControl}) {
    DDBLAB_RETURN_IF_ERROR(add(config, hooks));
  }
  return hooks;
}

}  // namespace ddblab::cli
