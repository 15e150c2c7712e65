#include "emulator/server/emulator_handler.h"

#include <utility>

namespace ddblab::server {

Result<std::unique_ptr<RequestHandler>> EmulatorHandler::Open(
    const Options& options) {
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<Emulator> emulator,
                          Emulator::Open(options));
  return std::unique_ptr<RequestHandler>(
      std::make_unique<EmulatorHandler>(std::move(emulator)));
}

}  // namespace ddblab::server
