// harness/scenario/run_command.h: `ddblab run`, as a library function.
//
//   ddblab run FILE... [--backend emulator|http://HOST:PORT|aws[:REGION]]
//              [--seed N] [--explore N] [--seeds A-B] [--shard I/N]
//              [--strategy S] [--max-preemptions K] [--budget N]
//              [--no-reduction] [--json OUT] [--replay TRACE]
//              [--shrink] [--shrink-out PATH] [--trace OUT.jsonl]
//              [--report OUT.html]
//   ddblab run --merge RESULT.json...   (explore_results.h)
//
// Exit codes: 0 every expectation met (invariants held where the file
// expects `holds`, broke where it expects `violated`); 1 an expectation
// failed (or a replay differed, or a run could not complete); 2 bad input
// (arguments, a scenario file, a trace); 3 the backend lacks a capability
// the scenario needs. With several files the largest code wins.
//
// The executable `ddblab-run` (run_main.cc) calls it; the `ddblab`
// executable's `run` subcommand should call it with the arguments after
// "run".
//
// Thread-safety: reentrant; writes only to the given streams and to the
// files named by --trace / --shrink-out / --json.
#pragma once

#include <ostream>
#include <span>
#include <string>

#include "harness/scenario/runner.h"

namespace ddblab::harness::scenario {

// `args` excludes the program and subcommand names. `terminal`: draw a
// progress bar on `err` during --explore and exhaustive exploration.
// `start_server` starts the server of a run with command actors
// (command_run.h; the `ddblab` executable gives cli/run_server.h's); null:
// such files are refused (exit 2). Their programs' output is kept in
// OUT.logs/ next to --trace OUT. --replay, --shrink, --strategy exhaustive
// and --backend are refused for them (exit 2).
int RunScenarioCommand(std::span<const std::string> args, std::ostream& out,
                       std::ostream& err, bool terminal = false,
                       const StartRunServer* start_server = nullptr);

}  // namespace ddblab::harness::scenario
