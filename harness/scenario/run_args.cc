// harness/scenario/run_args.cc: the command line of `ddblab run`.
#include "harness/scenario/run_args.h"

#include <charconv>
#include <optional>
#include <string>

#include "harness/scenario/exhaustive.h"

namespace ddblab::harness::scenario {

const char* const kRunUsage =
    "usage: ddblab run FILE... [--backend emulator|http://HOST:PORT|aws] "
    "[--seed N] [--explore N] [--seeds A-B] [--shard I/N] [--strategy S] "
    "[--max-preemptions K] [--max-faults F] [--budget N] [--no-reduction] "
    "[--jobs J] "
    "[--json OUT] "
    "[--replay TRACE] [--shrink] [--shrink-out PATH] [--trace OUT.jsonl] "
    "[--report OUT.html]\n"
    "       ddblab run --merge RESULT.json...\n";

const char* const kRunHelp =
    "\n"
    "Runs each scenario FILE on a seeded scheduler and checks its "
    "invariants.\n"
    "\n"
    "  --backend B       where the calls go: emulator (in process, the "
    "default),\n"
    "                    http://HOST:PORT (ddblab serve) or aws[:REGION]\n"
    "  --seed N          the seed of the run (default: the file's "
    "backend.seed, or 1);\n"
    "                    with --explore or --shrink, the first seed (default "
    "1)\n"
    "  --explore N       run N seeds (1 to 1000000) and count those that "
    "break an\n"
    "                    invariant; prints the distinct schedules seen, the "
    "runs\n"
    "                    until the first failure and the seeds per second\n"
    "  --seeds A-B       run the seeds A to B (at most 1000000), as --seed A "
    "--explore\n"
    "                    B-A+1\n"
    "  --shard I/N       run only shard I of N (1 <= I <= N <= 1000) of the "
    "seeds:\n"
    "                    the seeds A+I-1, A+I-1+N, A+I-1+2N, ... (one "
    "machine's share)\n"
    "  --jobs J          --explore / --seeds: run J seeds at once (1 to "
    "64, default\n"
    "                    1), each on its own emulator (command actors: "
    "its own\n"
    "                    server and programs); the output is the same as "
    "with 1\n"
    "  --json OUT        --explore, --seeds or exhaustive: write the result of "
    "each\n"
    "                    file as a JSON document "
    "(docs/run-results.schema.json)\n"
    "  --merge           the FILEs are --json results: print their combined "
    "summary\n"
    "                    per file and the first failing seed of all\n"
    "  --strategy S      how each step's actor is picked: random (the "
    "default),\n"
    "                    pct[:D] (priorities with D-1 change points, D 1 to "
    "10,\n"
    "                    default 3) or exhaustive (every distinct schedule "
    "of the\n"
    "                    seed within the preemption bound, depth-first; "
    "stops at\n"
    "                    the first that breaks an invariant; not with "
    "--explore)\n"
    "  --max-preemptions K  exhaustive: schedules with at most K "
    "preemptions (0 to\n"
    "                    10, default 2)\n"
    "  --max-faults F    exhaustive: schedules whose fault draws (rules with "
    "a\n"
    "                    probability) go against the seed's at most F times "
    "(0 to\n"
    "                    1000; default: no bound)\n"
    "  --budget N        exhaustive: make at most N runs (1 to 1000000, "
    "default\n"
    "                    10000)\n"
    "  --no-reduction    exhaustive: run both orders of independent steps "
    "too\n"
    "  --replay TRACE    run the seed and schedule of a recorded trace again "
    "and\n"
    "                    report the first step whose response differs\n"
    "  --shrink          cut the first failing run (of --seed, or of "
    "--explore N,\n"
    "                    default 200) down to a minimal scenario file\n"
    "  --shrink-out PATH where --shrink writes the file (default "
    "FILE.shrunk.json)\n"
    "  --trace OUT.jsonl write the run's trace (with --explore: the first "
    "failing\n"
    "                    seed's, else the first seed's; with exhaustive: the "
    "failing\n"
    "                    schedule's, else the first's; with --shrink: the "
    "shrunk run's)\n"
    "  --report OUT.html write the same run as an HTML page\n"
    "  --help, -h        print this help\n"
    "\n"
    "Exit codes: 0 every expectation met, 1 an expectation failed or a run "
    "could\n"
    "not complete, 2 bad input (a file, a flag, a malformed call), 3 the "
    "backend\n"
    "lacks a capability the scenario needs.\n";

RunOptions BaseOptions(const RunArgs& args) {
  RunOptions options;
  options.backend = args.backend;
  options.strategy = args.strategy;
  options.start_server = args.start_server;
  return options;
}

std::string LogsDirOf(const RunArgs& args) {
  return args.trace.empty() ? std::string() : args.trace + ".logs";
}

std::string CommandModeProblem(const RunArgs& args) {
  if (args.strategy.kind == StrategySpec::Kind::kExhaustive) {
    return "--strategy exhaustive";
  }
  if (args.backend != "emulator") return "--backend";
  return "";
}

namespace {

std::optional<uint64_t> Number(const std::string& text) {
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return n;
}

}  // namespace

std::string ParseRunArgs(std::span<const std::string> args, RunArgs* out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!arg.starts_with("--")) {
      out->files.push_back(arg);
      continue;
    }
    if (arg == "--shrink") {
      out->shrink = true;
      continue;
    }
    if (arg == "--no-reduction") {
      out->no_reduction = true;
      continue;
    }
    if (arg == "--merge") {
      out->merge = true;
      continue;
    }
    const bool takes_value =
        arg == "--backend" || arg == "--seed" || arg == "--explore" ||
        arg == "--replay" || arg == "--trace" || arg == "--shrink-out" ||
        arg == "--report" || arg == "--strategy" ||
        arg == "--max-preemptions" || arg == "--max-faults" ||
        arg == "--budget" || arg == "--seeds" || arg == "--shard" ||
        arg == "--json" || arg == "--jobs";
    if (!takes_value) return "unknown option " + arg;
    if (i + 1 >= args.size()) return arg + " needs a value";
    const std::string& value = args[++i];
    if (arg == "--backend") {
      if (value.starts_with("emulator") && value != "emulator") {
        return "--backend emulator takes no options (the scenario's backend "
               "member sets the clock, TTL delay and stream shards), got " +
               value;
      }
      out->backend = value;
    } else if (arg == "--seed") {
      auto n = Number(value);
      if (!n) return "--seed expects a non-negative integer, got " + value;
      out->seed = *n;
    } else if (arg == "--explore") {
      auto n = Number(value);
      if (!n || *n < 1 || *n > 1000000) {
        return "--explore expects a number of seeds from 1 to 1000000, got " +
               value;
      }
      out->explore = static_cast<int64_t>(*n);
    } else if (arg == "--seeds") {
      const size_t dash = value.find('-');
      auto a = Number(value.substr(0, dash));
      auto b = dash == std::string::npos ? std::nullopt
                                         : Number(value.substr(dash + 1));
      if (!a || !b || *a > *b || *b - *a >= 1000000) {
        return "--seeds expects a range A-B of seeds (A <= B, at most "
               "1000000 seeds), got " +
               value;
      }
      out->seeds = std::make_pair(*a, *b);
    } else if (arg == "--shard") {
      const size_t slash = value.find('/');
      auto index = Number(value.substr(0, slash));
      auto n = slash == std::string::npos ? std::nullopt
                                          : Number(value.substr(slash + 1));
      if (!index || !n || *index < 1 || *index > *n || *n > 1000) {
        return "--shard expects I/N with 1 <= I <= N <= 1000, got " + value;
      }
      out->shard = std::make_pair(*index, *n);
    } else if (arg == "--json") {
      out->json_out = value;
    } else if (arg == "--jobs") {
      auto n = Number(value);
      if (!n || *n < 1 || *n > 64) {
        return "--jobs expects a number of seeds to run at once from 1 to "
               "64, got " +
               value;
      }
      out->jobs = static_cast<int>(*n);
    } else if (arg == "--max-preemptions") {
      auto n = Number(value);
      if (!n || *n > static_cast<uint64_t>(kMaxPreemptions)) {
        return "--max-preemptions expects a number from 0 to " +
               std::to_string(kMaxPreemptions) + ", got " + value;
      }
      out->max_preemptions = static_cast<int>(*n);
    } else if (arg == "--max-faults") {
      auto n = Number(value);
      if (!n || *n > static_cast<uint64_t>(kMaxFaultFlips)) {
        return "--max-faults expects a number from 0 to " +
               std::to_string(kMaxFaultFlips) + ", got " + value;
      }
      out->max_faults = static_cast<int>(*n);
    } else if (arg == "--budget") {
      auto n = Number(value);
      if (!n || *n < 1 || *n > static_cast<uint64_t>(kMaxBudget)) {
        return "--budget expects a number of schedules from 1 to " +
               std::to_string(kMaxBudget) + ", got " + value;
      }
      out->budget = static_cast<int64_t>(*n);
    } else if (arg == "--strategy") {
      Result<StrategySpec> strategy = ParseStrategy(value);
      if (!strategy.ok()) return "--strategy " + strategy.error().message;
      out->strategy = *strategy;
    } else if (arg == "--replay") {
      out->replay = value;
    } else if (arg == "--trace") {
      out->trace = value;
    } else if (arg == "--report") {
      out->report = value;
    } else {
      out->shrink_out = value;
    }
  }
  if (out->files.empty()) {
    return out->merge ? "--merge needs at least one result file"
                      : "no scenario file given";
  }
  if (out->merge) {
    if (out->seed || out->explore || out->seeds || out->shard ||
        !out->json_out.empty() || out->shrink || !out->replay.empty() ||
        !out->trace.empty() || !out->report.empty() || out->budget ||
        out->max_preemptions || out->max_faults || out->no_reduction ||
        out->jobs != 1 || out->backend != "emulator" ||
        out->strategy.kind != StrategySpec::Kind::kRandom ||
        !out->shrink_out.empty()) {
      return "--merge takes result files only, no other option";
    }
    return "";
  }
  if (out->seeds && (out->seed || out->explore)) {
    return "--seeds A-B cannot be combined with --seed or --explore";
  }
  if (out->seeds) {
    out->seed = out->seeds->first;
    out->explore =
        static_cast<int64_t>(out->seeds->second - out->seeds->first + 1);
  }
  const bool single = !out->trace.empty() || !out->report.empty() ||
                      !out->replay.empty() || out->shrink;
  if (single && out->files.size() > 1) {
    return "--trace, --report, --replay and --shrink take one scenario file, "
           "got " +
           std::to_string(out->files.size());
  }
  if (!out->replay.empty() && (out->explore || out->shrink)) {
    return "--replay cannot be combined with --explore or --shrink";
  }
  const bool exhaustive = out->strategy.kind == StrategySpec::Kind::kExhaustive;
  if (!exhaustive && (out->max_preemptions || out->max_faults || out->budget ||
                      out->no_reduction)) {
    return "--max-preemptions, --max-faults, --budget and --no-reduction "
           "apply to "
           "--strategy exhaustive only";
  }
  if (exhaustive && out->explore) {
    return "--strategy exhaustive runs every schedule of one seed: give "
           "--budget N (schedules) and --seed N, not --explore" +
           std::string(out->seeds ? " or --seeds" : "");
  }
  if (out->shard && !out->explore) {
    return "--shard I/N needs the seeds to split: --seeds A-B or --explore N";
  }
  if (out->shard && out->shrink) {
    return "--shard cannot be combined with --shrink";
  }
  if (out->jobs != 1 && (!out->explore || out->shrink)) {
    return "--jobs applies to --explore and --seeds";
  }
  if (out->jobs != 1 && out->backend != "emulator") {
    return "--jobs needs --backend emulator: seeds run at once against one "
           "server or account would share its tables";
  }
  if (!out->json_out.empty() &&
      (!(out->explore || exhaustive) || out->shrink)) {
    return "--json applies to --explore, --seeds and --strategy exhaustive";
  }
  return "";
}

}  // namespace ddblab::harness::scenario
