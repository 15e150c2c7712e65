// harness/bench/bench_command.h: `ddblab bench`, as a library function.
//
//   ddblab bench sweeper|aggregator [--backend emulator|http://HOST:PORT|aws]
//                [--clock virtual|real] [--ttl-delay SPEC] [--json OUT]
//                [--plot OUT.png] [benchmark flags]
//
// Opens the backend (emulator with --clock virtual is
// "emulator?clock=manual"; an http endpoint is "ddblab" when it answers as
// ddblab serve, "dynamodb" otherwise), runs the benchmark named by the
// first argument (a row of kBenches in bench_command.cc), writes the report
// envelope (schema "ddblab-pattern-bench/1", bench/pattern_report.schema.json)
// to --json, draws it with bench/plot_patterns.py for --plot, shows a
// progress bar on `err` when `tty`, and prints a summary table on `out`.
//
// --clock defaults to virtual where the benchmark can move the clock (the
// in-process emulator, ddblab serve --clock manual) and real elsewhere;
// virtual on a backend without clock control is refused. --ttl-delay (the
// emulator's TTL delay model, default "aws") applies to --backend emulator.
//
// Exit codes: 0 every check ok; 1 a check failed (or the run could not
// complete: a backend error, a plot that failed); 2 bad input (arguments, a
// benchmark flag, a clock the backend cannot give, and any
// ValidationException a benchmark returns).
//
// Thread-safety: reentrant; writes only to the given streams and the files
// named by --json / --plot.
#pragma once

#include <ostream>
#include <span>
#include <string>

namespace ddblab::harness::bench {

// `args` excludes the program and subcommand names.
int RunBenchCommand(std::span<const std::string> args, std::ostream& out,
                    std::ostream& err, bool tty);

}  // namespace ddblab::harness::bench
