// cli/main.cc: the `ddblab` executable (usage: cli/command_line.h).
//
// Dispatch: `ddblab <subcommand> args...` runs the entry of kSubcommands
// named by the first argument, with every argument (the name included);
// anything else (--help, --version, a mistake) goes to ParseCommandLine.
// To add a subcommand: write `int NameMain(const std::vector<std::string>&)`
// and add one row to kSubcommands (and its line to HelpText in
// cli/command_line.cc).
#include <unistd.h>

#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_line.h"
#include "cli/run_server.h"
#include "cli/serve_hooks.h"
#include "cli/token_command.h"
#include "emulator/server/serve.h"
#include "harness/bench/bench_command.h"
#include "harness/scenario/run_command.h"

namespace ddblab::cli {
namespace {

using Args = std::vector<std::string>;

// Prints a parse result that is not kServe; returns its exit status.
int HelpOrVersion(const Result<Command>& command) {
  if (!command.ok()) {
    std::cerr << "ddblab: " << command.error().message << "\n";
    return 2;
  }
  if (command->kind == CommandKind::kVersion) {
    std::cout << VersionText() << "\n";
  } else {
    std::cout << HelpText();
  }
  return 0;
}

// `ddblab serve ...`: the engine behind the HTTP server, with its control
// endpoints and hosted event source mappings. AddNamespaceControl comes
// after the controls of one engine (they then go to each namespace) and
// before the global ones (the console).
int ServeMain(const Args& args) {
  auto command = ParseCommandLine(args);
  if (!command.ok() || command->kind != CommandKind::kServe) {
    return HelpOrVersion(command);
  }
  Result<server::ServeHooks> hooks = ServeHooksFor(command->serve);
  if (!hooks.ok()) {
    std::cerr << "ddblab: " << hooks.error().message << "\n";
    return 2;
  }
  return server::RunServe(command->serve, *hooks, std::cout, std::cerr);
}

// `ddblab run FILE... [flags]`: scenario files (harness/scenario); command
// actors run against a server started here (cli/run_server.h).
int RunMain(const Args& args) {
  const harness::scenario::StartRunServer start = RunServerStarter();
  return harness::scenario::RunScenarioCommand(
      std::span<const std::string>(args).subspan(1), std::cout, std::cerr,
      isatty(STDERR_FILENO) != 0, &start);
}

// `ddblab bench sweeper|aggregator [flags]`: the pattern benchmarks
// (harness/bench).
int BenchMain(const Args& args) {
  return harness::bench::RunBenchCommand(
      std::span<const std::string>(args).subspan(1), std::cout, std::cerr,
      isatty(STDERR_FILENO) != 0);
}

// `ddblab token [ENDPOINT]`: a local server's control token (cli/).
int TokenMain(const Args& args) {
  return RunTokenCommand(std::span<const std::string>(args).subspan(1),
                         std::cout, std::cerr);
}

struct Subcommand {
  std::string_view name;
  int (*run)(const Args& args);
};

constexpr Subcommand kSubcommands[] = {
    {"serve", &ServeMain},
    {"run", &RunMain},
    {"bench", &BenchMain},
    {"token", &TokenMain},
};

// The exit status of `ddblab args...`.
int Main(const Args& args) {
  if (!args.empty()) {
    for (const Subcommand& sub : kSubcommands) {
      if (args[0] == sub.name) return sub.run(args);
    }
  }
  return HelpOrVersion(ParseCommandLine(args));
}

}  // namespace
}  // namespace ddblab::cli

int main(int argc, char** argv) {
  return ddblab::cli::Main(std::vector<std::string>(argv + 1, argv + argc));
}
