// harness/scenario/run_main.cc: `ddblab-run`, scenario files from the
// command line (the same as `ddblab run`). Everything is in
// RunScenarioCommand (run_command.h).
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "harness/scenario/run_command.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return ddblab::harness::scenario::RunScenarioCommand(
      args, std::cout, std::cerr, isatty(STDERR_FILENO) != 0);
}
