// harness/scenario/run_command.cc: argument handling and the modes of
// `ddblab run` (one run, --explore/--seeds, --strategy exhaustive, --replay,
// --shrink, --merge).
#include "harness/scenario/run_command.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <sstream>
#include <unordered_set>
#include <vector>

#include "harness/scenario/command_actors.h"
#include "harness/scenario/command_shrink.h"
#include "harness/scenario/exhaustive.h"
#include "harness/scenario/explore_results.h"
#include "harness/scenario/report.h"
#include "harness/scenario/run_args.h"
#include "harness/scenario/runner.h"
#include "harness/scenario/scenario.h"
#include "harness/scenario/shrink.h"
#include "harness/scenario/strategy.h"

namespace ddblab::harness::scenario {
namespace {

bool WriteLines(const std::string& path, const std::vector<std::string>& lines,
                std::ostream& err) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  for (const std::string& line : lines) file << line << '\n';
  file.close();
  if (!file) {
    err << "ddblab run: cannot write " << path << "\n";
    return false;
  }
  return true;
}

// "1 step", "3 steps".
std::string Count(size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// Writes --trace and --report (either may be absent) for `run` of `s`.
bool WriteOutputs(const RunArgs& args, const Scenario& s, const RunResult& run,
                  std::ostream& err) {
  if (!args.trace.empty() && !WriteLines(args.trace, run.trace, err)) {
    return false;
  }
  if (args.report.empty()) return true;
  std::vector<std::string> lanes;
  for (const ActorSpec& actor : s.actors) lanes.push_back(actor.name);
  return WriteLines(args.report, {RenderReport(s.name, lanes, run.trace)}, err);
}

std::string Broken(const Violation& v) {
  return v.id + " (" + v.check + ")" +
         (v.step > 0 ? " after step " + std::to_string(v.step) : "") + ": " +
         (v.problems.empty() ? std::string("broken") : v.problems.front());
}

// One line per fault rule that matched no call ("<file>: fault rule ...").
void PrintUnmatched(const Scenario& s, const std::vector<std::string>& lines,
                    std::ostream& out) {
  for (const std::string& line : lines) out << s.file << ": " << line << "\n";
}

// The expectation line and its code.
int Expectation(const Scenario& s, bool violated, std::ostream& out) {
  const bool met = violated == s.expect_violated;
  out << s.file << ": expect " << (s.expect_violated ? "violated" : "holds")
      << ": " << (met ? "met" : "FAILED") << "\n";
  return met ? 0 : 1;
}

int OneRun(const Scenario& s, const RunArgs& args, std::ostream& out,
           std::ostream& err) {
  RunOptions options = BaseOptions(args);
  options.seed = args.seed.value_or(s.seed);
  options.logs_dir = LogsDirOf(args);
  RunResult run = RunOnce(s, options);
  if (run.code != 0) {
    err << run.failure << "\n";
    return run.code;
  }
  if (!WriteOutputs(args, s, run, err)) return 2;
  out << s.file << ": seed " << options.seed << ", " << run.steps.size()
      << " steps: ";
  if (run.violation) {
    out << Broken(*run.violation) << "\n";
    for (size_t i = 1; i < run.violation->problems.size() && i < 5; ++i) {
      out << "  also: " << run.violation->problems[i] << "\n";
    }
  } else {
    out << "every invariant held\n";
  }
  PrintUnmatched(s, run.unmatched_rules, out);
  return Expectation(s, run.violation.has_value(), out);
}

struct Explored {
  int code = 0;  // a run's failure code, or 0
  std::vector<uint64_t> failing;
  int64_t runs = 0;
  int64_t distinct_schedules = 0;
  double seconds = 0;                      // wall time of the runs
  std::optional<RunResult> first_failing;  // without its trace
  // The fault rules no call of any seed's run matched.
  std::vector<std::string> unmatched_rules;
};

// FNV-1a of a schedule's actor names (to count the distinct ones).
uint64_t ScheduleHash(const std::vector<std::string>& schedule) {
  uint64_t h = 1469598103934665603ull;
  for (const std::string& name : schedule) {
    for (char c : name)
      h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    h = (h ^ 0xffu) * 1099511628211ull;
  }
  return h;
}

// Runs `count` seeds from `from`, every `stride`-th (a shard's share).
Explored Explore(const Scenario& s, const RunArgs& args, uint64_t from,
                 int64_t count, uint64_t stride, bool print, bool terminal,
                 std::ostream& out, std::ostream& err) {
  Explored e;
  const auto started = std::chrono::steady_clock::now();
  std::unordered_set<uint64_t> schedules;
  RunOptions options = BaseOptions(args);
  options.trace = false;  // the one trace written is made again after
  if (options.strategy.kind == StrategySpec::Kind::kPct &&
      !HasCommandActors(s)) {
    RunResult probe = ProbeRun(s, options);  // once for every seed
    if (probe.code != 0) {
      err << probe.failure << "\n";
      e.code = probe.code;
      return e;
    }
    options.expected_steps =
        std::max<int>(1, static_cast<int>(probe.steps.size()));
  }
  // Up to --jobs runs at once, taken in seed order: the same output as
  // one at a time.
  std::deque<std::future<RunResult>> running;
  int64_t launched = 0;
  const auto seed_of = [&](int64_t i) {
    return from + static_cast<uint64_t>(i) * stride;
  };
  const auto launch = [&] {
    RunOptions one = options;
    one.seed = seed_of(launched++);
    running.push_back(
        std::async(std::launch::async, [&s, one] { return RunOnce(s, one); }));
  };
  for (int64_t i = 0; i < count; ++i) {
    options.seed = seed_of(i);
    RunResult run;
    if (args.jobs <= 1) {
      run = RunOnce(s, options);
    } else {
      while (launched < count &&
             running.size() < static_cast<size_t>(args.jobs)) {
        launch();
      }
      run = running.front().get();
      running.pop_front();
    }
    ++e.runs;
    schedules.insert(ScheduleHash(run.schedule));
    e.distinct_schedules = static_cast<int64_t>(schedules.size());
    if (run.code != 0) {
      if (terminal) err << "\n";
      err << run.failure << "\n";
      e.code = run.code;
      return e;
    }
    if (i == 0) {
      e.unmatched_rules = run.unmatched_rules;
    } else {
      std::erase_if(e.unmatched_rules, [&](const std::string& line) {
        return std::find(run.unmatched_rules.begin(), run.unmatched_rules.end(),
                         line) == run.unmatched_rules.end();
      });
    }
    if (run.violation) {
      if (terminal) err << "\r\033[K";
      if (print) {
        out << s.file << ": seed " << options.seed << ": "
            << Broken(*run.violation) << "\n";
      }
      e.failing.push_back(options.seed);
      if (!e.first_failing) e.first_failing = std::move(run);
    }
    if (terminal) {
      const int64_t done = i + 1;
      const int64_t width = 30;
      const int64_t filled = done * width / count;
      err << "\r[" << std::string(static_cast<size_t>(filled), '#')
          << std::string(static_cast<size_t>(width - filled), ' ') << "] "
          << done << "/" << count << " seeds, " << e.failing.size() << " broke"
          << std::flush;
    }
  }
  if (terminal) err << "\r\033[K" << std::flush;
  e.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  return e;
}

// The seeds of --explore/--seeds and --shard.
SeedRange RangeOf(const RunArgs& args) {
  SeedRange range;
  range.from = args.seed.value_or(1);
  range.to = range.from + static_cast<uint64_t>(*args.explore) - 1;
  if (args.shard) {
    range.index = args.shard->first;
    range.count = args.shard->second;
  }
  return range;
}

// The start of a --json result for `s`.
ExploreResult ResultOf(const Scenario& s, const RunArgs& args) {
  ExploreResult r;
  r.file = s.file;
  r.scenario = s.name;
  r.expect = s.expect_violated ? "violated" : "holds";
  r.strategy = args.strategy.Text();
  return r;
}

int ExploreMode(const Scenario& s, const RunArgs& args, bool terminal,
                std::ostream& out, std::ostream& err,
                std::vector<ExploreResult>* results) {
  const SeedRange range = RangeOf(args);
  if (range.Size() == 0) {
    err << "ddblab run: --shard " << range.index << "/" << range.count
        << " leaves no seed of " << range.from << "-" << range.to << "\n";
    return 2;
  }
  const uint64_t from = range.First();
  const int64_t count = static_cast<int64_t>(range.Size());
  Explored e =
      Explore(s, args, from, count, range.count, true, terminal, out, err);
  if (e.code != 0) return e.code;
  if (!args.trace.empty() || !args.report.empty()) {
    // The first failing seed (or the first seed), run again with its trace.
    RunOptions options = BaseOptions(args);
    options.seed = e.failing.empty() ? from : e.failing.front();
    options.logs_dir = LogsDirOf(args);
    RunResult run = RunOnce(s, options);
    if (run.code != 0) {
      err << run.failure << "\n";
      return run.code;
    }
    if (!WriteOutputs(args, s, run, err)) return 2;
  }
  out << s.file << ": explored " << count << " seeds (" << range.Text()
      << "): " << e.failing.size() << " broke an invariant, "
      << count - static_cast<int64_t>(e.failing.size()) << " held";
  if (!e.failing.empty()) out << " (first: seed " << e.failing.front() << ")";
  out << "\n";
  // "7 distinct schedules; first failure after 3 runs; 1,234 seeds/s".
  const double rate =
      e.seconds > 0 ? static_cast<double>(count) / e.seconds : 0;
  out << s.file << ": " << Thousands(e.distinct_schedules)
      << " distinct schedule" << (e.distinct_schedules == 1 ? "" : "s") << "; ";
  if (e.failing.empty()) {
    out << "no failure in " << Count(static_cast<size_t>(count), "run");
  } else {
    out << "first failure after "
        << Count(static_cast<size_t>((e.failing.front() - from) / range.count +
                                     1),
                 "run");
  }
  out << "; " << Rate(rate) << " seeds/s\n";
  ExploreResult r = ResultOf(s, args);
  r.seconds = e.seconds;
  r.seeds = range;
  r.runs = count;
  r.broke = static_cast<int64_t>(e.failing.size());
  if (!e.failing.empty()) r.first_failing_seed = e.failing.front();
  r.distinct_schedules = e.distinct_schedules;
  results->push_back(r);
  PrintUnmatched(s, e.unmatched_rules, out);
  if (range.count > 1 && s.expect_violated && e.failing.empty()) {
    // One shard's seeds holding says nothing about the others'.
    out << s.file << ": expect violated: not met by shard " << range.index
        << "/" << range.count
        << " alone; --merge of every shard's --json judges it\n";
    return 0;
  }
  return Expectation(s, !e.failing.empty(), out);
}

ExhaustiveLimits LimitsOf(const RunArgs& args) {
  ExhaustiveLimits limits;
  limits.max_preemptions =
      args.max_preemptions.value_or(kDefaultMaxPreemptions);
  limits.budget = args.budget.value_or(kDefaultBudget);
  limits.max_fault_flips = args.max_faults.value_or(-1);
  limits.reduce = !args.no_reduction;
  return limits;
}

ExhaustiveResult Exhaustive(const Scenario& s, const RunArgs& args,
                            bool terminal, std::ostream& err,
                            double* seconds = nullptr) {
  const auto started = std::chrono::steady_clock::now();
  RunOptions options = BaseOptions(args);
  options.seed = args.seed.value_or(s.seed);
  const ExhaustiveLimits limits = LimitsOf(args);
  ExhaustiveResult e = ExploreExhaustive(s, options, limits, [&](int64_t runs) {
    if (terminal && (runs % 16 == 0)) {
      err << "\r" << Thousands(runs) << "/" << Thousands(limits.budget)
          << " runs (K=" << limits.max_preemptions << ")" << std::flush;
    }
  });
  if (terminal) err << "\r\033[K" << std::flush;
  if (e.code != 0) err << e.failure << "\n";
  if (seconds) {
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             started)
                   .count();
  }
  return e;
}

int ExhaustiveMode(const Scenario& s, const RunArgs& args, bool terminal,
                   std::ostream& out, std::ostream& err,
                   std::vector<ExploreResult>* results) {
  const ExhaustiveLimits limits = LimitsOf(args);
  double seconds = 0;
  ExhaustiveResult e = Exhaustive(s, args, terminal, err, &seconds);
  if (e.code != 0) return e.code;
  ExploreResult r = ResultOf(s, args);
  r.seconds = seconds;
  r.seed = args.seed.value_or(s.seed);
  r.max_preemptions = limits.max_preemptions;
  r.budget = limits.budget;
  r.explored = e.schedules;
  r.stopped = e.stopped;
  r.complete = e.complete;
  if (e.failing) r.failing_schedule = e.failing_number;
  if (e.estimated_schedules > 0) r.estimated_schedules = e.estimated_schedules;
  results->push_back(r);
  if (!args.trace.empty() || !args.report.empty()) {
    // The failing schedule (or the first), run again with its trace.
    RunOptions options = BaseOptions(args);
    options.seed = args.seed.value_or(s.seed);
    RunResult run = RunExhaustiveSchedule(
        s, options, e.failing_branches,
        e.failing_number > 0 ? e.failing_number : 1, limits.max_preemptions);
    if (run.code != 0) {
      err << run.failure << "\n";
      return run.code;
    }
    if (!WriteOutputs(args, s, run, err)) return 2;
  }
  // Each leaf of the tree: an order of the steps and, where a fault rule
  // with a probability matched, an outcome of each draw.
  const std::string what = e.fault_branches
                               ? "distinct schedules and fault outcomes"
                               : "distinct schedules";
  // "(K=2)", "(K=2; 3 runs stopped as redundant)".
  std::string bound = "(K=" + std::to_string(limits.max_preemptions);
  if (limits.max_fault_flips >= 0) {
    bound += ", F=" + std::to_string(limits.max_fault_flips);
  }
  if (e.stopped > 0) {
    bound += "; " + Thousands(e.stopped) + " run" +
             (e.stopped == 1 ? "" : "s") + " stopped as redundant";
  }
  bound += ")";
  if (e.failing) {
    out << s.file << ": schedule " << Thousands(e.failing_number)
        << " of the exploration " << bound << " broke "
        << Broken(*e.failing->violation) << "\n";
    out << s.file << ": its schedule (seed " << args.seed.value_or(s.seed)
        << "):";
    for (const std::string& name : e.failing->schedule) out << " " << name;
    out << "\n";
  } else if (e.complete) {
    out << s.file << ": explored all " << Thousands(e.schedules) << " " << what
        << " " << bound << ": every invariant held\n";
  } else {
    out << s.file << ": budget reached after " << Thousands(e.schedules);
    if (e.estimated_schedules > 0) {
      out << " of about " << Thousands(e.estimated_schedules);
    }
    out << " " << what << " " << bound
        << ": every invariant held in those; more schedules remain within "
           "the bound";
    if (e.estimated_schedules > 0) {
      out << " (the total is a rough estimate from random walks, before "
             "the reduction)";
    }
    out << "\n";
  }
  PrintUnmatched(s, e.unmatched_rules, out);
  return Expectation(s, e.failing.has_value(), out);
}

// --shrink of command actors (command_shrink.h): the first failing seed of
// --seed N or of --explore N (200) from --seed (1), its schedule with
// fewer context switches, written as a trace for --replay.
int CommandShrinkMode(const Scenario& s, const RunArgs& args, std::ostream& out,
                      std::ostream& err) {
  const uint64_t from = args.seed.value_or(1);
  const int64_t count = args.explore.value_or(args.seed ? 1 : 200);
  RunOptions options = BaseOptions(args);
  options.trace = true;
  std::optional<uint64_t> seed;
  RunResult failing;
  for (int64_t i = 0; i < count && !seed; ++i) {
    options.seed = from + static_cast<uint64_t>(i);
    failing = RunOnce(s, options);
    if (failing.code != 0) {
      err << failing.failure << "\n";
      return failing.code;
    }
    if (failing.violation && !failing.stopped) seed = options.seed;
  }
  if (!seed) {
    out << s.file << ": no seed of " << from << "-"
        << from + static_cast<uint64_t>(count) - 1
        << " broke an invariant; nothing to shrink\n";
    return 1;
  }
  CommandShrinkResult shrunk =
      ShrinkCommandRun(s, *seed, failing, BaseOptions(args));
  std::string path = args.shrink_out;
  if (path.empty()) {
    path = std::filesystem::path(s.file).stem().string() + ".shrunk.jsonl";
  }
  if (!WriteLines(path, shrunk.run.trace, err)) return 2;
  const auto switches = [](size_t n) {
    return std::to_string(n) +
           (n == 1 ? " context switch" : " context switches");
  };
  out << s.file << ": seed " << *seed << " broke " << Broken(*failing.violation)
      << "\n";
  out << s.file << ": shrunk in "
      << Count(static_cast<size_t>(shrunk.runs), "run") << " from "
      << switches(shrunk.switches_before) << " to "
      << switches(shrunk.switches_after) << " ("
      << Count(shrunk.schedule.size(), "step") << "); still "
      << Broken(*shrunk.run.violation) << "\n";
  out << s.file << ": wrote " << path << " (schedule:";
  for (const std::string& key : shrunk.schedule) out << " " << key;
  out << "); replay it: ddblab run " << s.file << " --replay " << path << "\n";
  return 0;
}

int ShrinkMode(const Scenario& s, const RunArgs& args, bool terminal,
               std::ostream& out, std::ostream& err) {
  if (HasCommandActors(s)) return CommandShrinkMode(s, args, out, err);
  // The failing run: the given seed, or the first of --explore N (200).
  uint64_t seed = 0;
  RunResult failing;
  if (args.strategy.kind == StrategySpec::Kind::kExhaustive) {
    ExhaustiveResult e = Exhaustive(s, args, terminal, err);
    if (e.code != 0) return e.code;
    seed = args.seed.value_or(s.seed);
    if (!e.failing) {
      out << s.file << ": no schedule of seed " << seed << " ("
          << Count(static_cast<size_t>(e.schedules), "schedule")
          << " run, K=" << LimitsOf(args).max_preemptions
          << ") broke an invariant; nothing to shrink\n";
      return 1;
    }
    failing = std::move(*e.failing);
  } else if (args.seed && !args.explore) {
    RunOptions options = BaseOptions(args);
    options.seed = *args.seed;
    failing = RunOnce(s, options);
    if (failing.code != 0) {
      err << failing.failure << "\n";
      return failing.code;
    }
    seed = *args.seed;
  } else {
    const uint64_t from = args.seed.value_or(1);
    const int64_t count = args.explore.value_or(200);
    Explored e = Explore(s, args, from, count, 1, false, terminal, out, err);
    if (e.code != 0) return e.code;
    if (!e.first_failing) {
      out << s.file << ": no seed of " << from << "-"
          << from + static_cast<uint64_t>(count) - 1
          << " broke an invariant; nothing to shrink\n";
      return 1;
    }
    seed = e.failing.front();
    failing = std::move(*e.first_failing);
  }
  if (!failing.violation) {
    out << s.file << ": seed " << seed
        << " breaks no invariant; nothing to shrink\n";
    return 1;
  }
  RunOptions options = BaseOptions(args);
  ShrinkResult shrunk = Shrink(s, seed, failing, options);
  std::string path = args.shrink_out;
  if (path.empty()) {
    path = std::filesystem::path(s.file).stem().string() + ".shrunk.json";
  }
  Scenario& pinned = shrunk.pinned;
  pinned.name += "-shrunk";
  pinned.description = "Shrunk by `ddblab run --shrink` from " + s.file +
                       ", seed " + std::to_string(seed) + "." +
                       (s.description.empty() ? "" : " " + s.description);
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << ScenarioToJson(pinned).dump(2) << "\n";
    file.close();
    if (!file) {
      err << "ddblab run: cannot write " << path << "\n";
      return 2;
    }
  }
  if (!WriteOutputs(args, pinned, shrunk.run, err)) return 2;
  out << s.file << ": seed " << seed << " broke " << Broken(*failing.violation)
      << "\n";
  if (shrunk.schedule_independent) {
    out << s.file
        << ": this failure does not depend on the schedule: the serial, "
           "fault-free run (actors one after another in file order) broke "
        << Broken(*shrunk.serial_violation) << "; kept all "
        << Count(pinned.actors.size(), "actor") << "\n";
  } else {
    out << s.file << ": shrunk in " << shrunk.runs << " runs from "
        << Count(shrunk.steps_before, "step") << ", "
        << Count(shrunk.faults_before, "fault") << ", "
        << Count(shrunk.actors_before, "actor") << " to "
        << Count(shrunk.run.steps.size(), "step") << ", "
        << Count(shrunk.faults_after, "fault") << ", "
        << Count(pinned.actors.size(), "actor") << "; still "
        << Broken(*shrunk.run.violation) << "\n";
  }
  out << s.file << ": wrote " << path << " (schedule:";
  for (const std::string& name : shrunk.run.schedule) out << " " << name;
  out << ")\n";
  return 0;
}

// Command actors: why the trace cannot be replayed against `s` ("" when
// it can): another scenario's, or a step of a copy the file lacks.
std::string CommandTraceProblem(const Scenario& s,
                                const std::optional<std::string>& name,
                                const std::vector<std::string>& schedule) {
  if (name && *name != s.name) {
    return "the trace is of scenario \"" + *name + "\", not of " + s.file +
           " (\"" + s.name + "\")";
  }
  std::vector<std::string> keys;
  for (const ActorSpec& actor : s.actors) keys.push_back(ActorKey(actor.name));
  for (size_t i = 0; i < schedule.size(); ++i) {
    if (std::find(keys.begin(), keys.end(), schedule[i]) == keys.end()) {
      return "step " + std::to_string(i + 1) + " is actor \"" + schedule[i] +
             "\"'s, which " + s.file + " does not have";
    }
  }
  return "";
}

// Command actors: the problem that stopped a replay, if any.
void PrintReplayStop(const RunResult& run, std::ostream& out) {
  if (!run.stopped || !run.violation || run.violation->problems.empty()) {
    return;
  }
  out << "  stopped: " << run.violation->problems.front() << "\n";
}

int ReplayMode(const Scenario& s, const RunArgs& args, std::ostream& out,
               std::ostream& err) {
  std::ifstream file(args.replay, std::ios::binary);
  if (!file) {
    err << "ddblab run: cannot read " << args.replay << "\n";
    return 2;
  }
  std::vector<std::string> recorded;  // step and call lines
  std::vector<std::string> schedule;
  std::vector<bool> draws;  // the fault_draw lines' outcomes
  std::optional<uint64_t> seed;
  std::optional<std::string> scenario_name;
  const bool programs = HasCommandActors(s);
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    json event = json::parse(line, nullptr, false);
    if (event.is_discarded() || !event.is_object()) {
      err << args.replay << ": line " << number << ": not a JSON object\n";
      return 2;
    }
    if (event.value("event", "") == "start" && event.contains("seed") &&
        event["seed"].is_number_unsigned()) {
      seed = event["seed"].get<uint64_t>();
      if (event.contains("scenario") && event["scenario"].is_string()) {
        scenario_name = event["scenario"].get<std::string>();
      }
    }
    if (!line.starts_with("{\"step\":")) continue;
    recorded.push_back(line);
    if (event.contains("actor")) {
      if (!event["actor"].is_string()) {
        err << args.replay << ": line " << number
            << ": actor is not a string\n";
        return 2;
      }
      schedule.push_back(event["actor"].get<std::string>());
    }
    if (event.contains("fault_draw")) {
      const json& draw = event["fault_draw"];
      if (!draw.is_object() || !draw.contains("fires") ||
          !draw["fires"].is_boolean()) {
        err << args.replay << ": line " << number
            << ": fault_draw has no boolean fires\n";
        return 2;
      }
      draws.push_back(draw["fires"].get<bool>());
    }
  }
  if (!seed) {
    err << args.replay << ": no start event with the seed\n";
    return 2;
  }
  if (programs) {
    if (std::string bad = CommandTraceProblem(s, scenario_name, schedule);
        !bad.empty()) {
      err << args.replay << ": " << bad << "\n";
      return 2;
    }
  }
  RunOptions options = BaseOptions(args);
  options.seed = *seed;
  options.schedule = &schedule;
  if (!draws.empty()) options.draws = &draws;
  options.logs_dir = LogsDirOf(args);
  RunResult run = RunOnce(s, options);
  if (run.code != 0) {
    err << run.failure << "\n";
    return run.code;
  }
  if (!WriteOutputs(args, s, run, err)) return 2;
  std::vector<std::string> now;
  for (const std::string& l : run.trace) {
    if (l.starts_with("{\"step\":")) now.push_back(l);
  }
  for (size_t i = 0; i < std::max(recorded.size(), now.size()); ++i) {
    const std::string a = i < recorded.size() ? recorded[i] : "(nothing)";
    const std::string b = i < now.size() ? now[i] : "(nothing)";
    if (a == b) continue;
    json parsed = json::parse(i < recorded.size() ? a : b, nullptr, false);
    const std::string step = parsed.is_object() && parsed.contains("step")
                                 ? parsed["step"].dump()
                                 : "?";
    out << args.replay << ": step " << step << " differs\n  recorded: " << a
        << "\n  replayed: " << b << "\n";
    if (programs) PrintReplayStop(run, out);
    return 1;
  }
  if (programs && run.stopped) {
    // Every recorded step again, then a request the recording lacks (or
    // an idle program).
    out << args.replay << ": replayed " << schedule.size() << " steps of seed "
        << *seed << ", then:\n";
    PrintReplayStop(run, out);
    return 1;
  }
  out << args.replay << ": replayed " << schedule.size() << " steps of seed "
      << *seed << "; every " << (programs ? "request and answer" : "response")
      << " identical\n";
  return 0;
}

}  // namespace

int RunScenarioCommand(std::span<const std::string> args, std::ostream& out,
                       std::ostream& err, bool terminal,
                       const StartRunServer* start_server) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << kRunUsage << kRunHelp;
    return 0;
  }
  RunArgs parsed;
  if (std::string bad = ParseRunArgs(args, &parsed); !bad.empty()) {
    err << "ddblab run: " << bad << "\n" << kRunUsage;
    return 2;
  }
  parsed.start_server = start_server;
  if (parsed.merge) return MergeResults(parsed.files, out, err);
  std::vector<ExploreResult> results;
  int code = 0;
  for (const std::string& file : parsed.files) {
    auto scenario = LoadScenario(file);
    if (!scenario.ok()) {
      err << file << ": " << scenario.error().message << "\n";
      code = std::max(code, 2);
      continue;
    }
    int one = 0;
    if (HasCommandActors(*scenario)) {
      if (std::string flag = CommandModeProblem(parsed); !flag.empty()) {
        err << file << ": " << flag
            << " is not available for command actors yet (they run against "
               "a ddblab server that ddblab run starts itself)\n";
        code = std::max(code, 2);
        continue;
      }
    }
    if (!parsed.replay.empty()) {
      one = ReplayMode(*scenario, parsed, out, err);
    } else if (parsed.shrink) {
      one = ShrinkMode(*scenario, parsed, terminal, out, err);
    } else if (parsed.strategy.kind == StrategySpec::Kind::kExhaustive) {
      one = ExhaustiveMode(*scenario, parsed, terminal, out, err, &results);
    } else if (parsed.explore) {
      one = ExploreMode(*scenario, parsed, terminal, out, err, &results);
    } else {
      one = OneRun(*scenario, parsed, out, err);
    }
    code = std::max(code, one);
  }
  if (!parsed.json_out.empty()) {
    std::ofstream file(parsed.json_out, std::ios::binary | std::ios::trunc);
    file << ResultsToJson(results).dump(2) << "\n";
    file.close();
    if (!file) {
      err << "ddblab run: --json: cannot write " << parsed.json_out << "\n";
      return 2;
    }
  }
  return code;
}

}  // namespace ddblab::harness::scenario
