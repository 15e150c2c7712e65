// emulator/server/main.cc: the `ddblab` executable (see cli.h for usage).
#include <iostream>
#include <string>
#include <vector>

#include "emulator/server/cli.h"
#include "emulator/server/control_faults.h"
#include "emulator/server/control_streams.h"
#include "emulator/server/control_ttl.h"
#include "emulator/server/emulator_handler.h"
#include "emulator/server/serve.h"

int main(int argc, char** argv) {
  using namespace ddblab::server;
  std::vector<std::string> args(argv + 1, argv + argc);
  auto command = ParseCommandLine(args);
  if (!command.ok()) {
    std::cerr << "ddblab: " << command.error().message << "\n";
    return 2;
  }
  switch (command->kind) {
    case CommandKind::kHelp:
      std::cout << HelpText();
      return 0;
    case CommandKind::kVersion:
      std::cout << VersionText() << "\n";
      return 0;
    case CommandKind::kServe:
      break;
  }
  ServeHooks hooks;
  hooks.open = &EmulatorHandler::Open;
  if (auto ttl = AddTtlControl(command->serve, hooks); !ttl.ok()) {
    std::cerr << "ddblab: " << ttl.error().message << "\n";
    return 2;
  }
  if (auto streams = AddStreamsControl(command->serve, hooks); !streams.ok()) {
    std::cerr << "ddblab: " << streams.error().message << "\n";
    return 2;
  }
  if (auto faults = AddFaultControl(command->serve, hooks); !faults.ok()) {
    std::cerr << "ddblab: " << faults.error().message << "\n";
    return 2;
  }
  return RunServe(command->serve, hooks, std::cout, std::cerr);
}
