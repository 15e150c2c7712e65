#include "cli/emulator_handler.h"

#include <utility>

namespace ddblab::cli {

Result<std::unique_ptr<server::RequestHandler>> EmulatorHandler::Open(
    const Options& options) {
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<Emulator> emulator,
                          Emulator::Open(options));
  return std::unique_ptr<server::RequestHandler>(
      std::make_unique<EmulatorHandler>(std::move(emulator)));
}

void AdjustOptions(server::ServeHooks& hooks,
                   std::function<void(Options&)> adjust) {
  hooks.open = [open = std::move(hooks.open),
                adjust = std::move(adjust)](const Options& base)
      -> Result<std::unique_ptr<server::RequestHandler>> {
    Options options = base;
    adjust(options);
    return open(options);
  };
}

void AddEngineRoutes(server::ServeHooks& hooks, std::string what,
                     std::function<Status(Emulator&, server::Protocol&)> add) {
  hooks.add_routes = [before = std::move(hooks.add_routes),
                      what = std::move(what), add = std::move(add)](
                         server::RequestHandler& handler,
                         server::Protocol& protocol) -> Status {
    if (before) DDBLAB_RETURN_IF_ERROR(before(handler, protocol));
    auto* engine = dynamic_cast<EmulatorHandler*>(&handler);
    if (engine == nullptr) {
      return Error::Internal(what + " need the engine");
    }
    return add(engine->emulator(), protocol);
  };
}

}  // namespace ddblab::cli
