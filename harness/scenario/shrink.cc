// harness/scenario/shrink.cc: greedy shrinking of a failing run.
#include "harness/scenario/shrink.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace ddblab::harness::scenario {
namespace {

constexpr int kMaxRuns = 400;

size_t RuleCount(const Scenario& scenario) {
  if (scenario.faults.is_null() || !scenario.faults.contains("rules") ||
      !scenario.faults["rules"].is_array()) {
    return 0;
  }
  return scenario.faults["rules"].size();
}

// A rule of the plan that can be pinned to the calls it fired.
struct PinRule {
  std::string id;
  std::vector<std::string> operations;
  std::string effect;
  json count;  // unprocessed: the rule's count, or null
};

// The plan's rules as PinRules, or nullopt when one cannot be pinned.
std::optional<std::vector<PinRule>> Pinnable(const Scenario& s) {
  std::vector<PinRule> rules;
  if (s.faults.is_null()) return rules;
  for (const TimelineEvent& e : s.timeline) {
    if (e.kind == "faults") return std::nullopt;
  }
  const json& list = s.faults["rules"];
  if (!list.is_array()) return std::nullopt;
  static const std::set<std::string> kAllowed = {
      "id",    "operation",   "nth",   "after",
      "times", "probability", "count", "effect"};
  for (size_t i = 0; i < list.size(); ++i) {
    const json& rule = list[i];
    if (!rule.is_object()) return std::nullopt;
    for (const auto& [key, value] : rule.items()) {
      if (kAllowed.count(key) == 0) return std::nullopt;
    }
    PinRule pin;
    pin.effect = rule.value("effect", "");
    if (pin.effect != "lost_response" && pin.effect != "unprocessed") {
      return std::nullopt;
    }
    const json id = rule.value("id", json(std::to_string(i)));
    pin.id = id.is_string() ? id.get<std::string>() : id.dump();
    const json operation = rule.value("operation", json());
    if (operation.is_string()) {
      pin.operations.push_back(operation.get<std::string>());
    } else if (operation.is_array()) {
      for (const json& op : operation) {
        if (!op.is_string()) return std::nullopt;
        pin.operations.push_back(op.get<std::string>());
      }
    } else {
      return std::nullopt;
    }
    pin.count = rule.value("count", json());
    rules.push_back(std::move(pin));
  }
  return rules;
}

bool Matches(const PinRule& rule, const CallSummary& call) {
  return std::find(rule.operations.begin(), rule.operations.end(),
                   call.operation) != rule.operations.end();
}

bool Fired(const PinRule& rule, const CallSummary& call) {
  if (rule.effect == "lost_response") {
    return call.error == ErrorType::kOutcomeUnknown &&
           call.message.find("(fault rule " + rule.id + ")") !=
               std::string::npos;
  }
  // unprocessed: items left, or the whole batch refused as throttled.
  return call.unprocessed ||
         call.error == ErrorType::kProvisionedThroughputExceeded ||
         call.error == ErrorType::kThrottling;
}

size_t FiredCount(const std::vector<PinRule>& rules, const RunResult& run) {
  size_t fired = 0;
  for (const PinRule& rule : rules) {
    for (const CallSummary& call : run.calls) {
      if (Matches(rule, call) && Fired(rule, call)) ++fired;
    }
  }
  return fired;
}

// The plan firing exactly on the calls of `run` that fired, leaving out the
// calls of the steps in `dropped` and the one call `skip` ({rule, call}).
json PinnedPlan(const std::vector<PinRule>& rules, const RunResult& run,
                const std::set<size_t>& dropped,
                std::optional<std::pair<size_t, size_t>> skip) {
  json out = json::array();
  for (size_t r = 0; r < rules.size(); ++r) {
    json nth = json::array();
    int64_t n = 0;
    for (size_t c = 0; c < run.calls.size(); ++c) {
      const CallSummary& call = run.calls[c];
      if (dropped.count(call.step) > 0 || !Matches(rules[r], call)) continue;
      ++n;
      if (Fired(rules[r], call) && skip != std::make_pair(r, c)) {
        nth.push_back(n);
      }
    }
    if (nth.empty()) continue;
    json rule = {{"id", rules[r].id},
                 {"operation", rules[r].operations},
                 {"nth", nth},
                 {"effect", rules[r].effect}};
    if (!rules[r].count.is_null()) rule["count"] = rules[r].count;
    out.push_back(std::move(rule));
  }
  if (out.empty()) return nullptr;
  return json{{"rules", out}};
}

// A problem's text without its digits: "TotalBytes is 700, expected 400
// (overcounted by 300)" and "... is 200, expected 100 (overcounted by
// 100)" are the same kind of failure; "no rollup item" is another.
std::string Skeleton(const std::string& problem) {
  std::string out;
  for (char c : problem) {
    if (c < '0' || c > '9') out += c;
  }
  return out;
}

}  // namespace

bool SameFailure(const RunResult& run, const std::string& id,
                 const std::string& first) {
  if (run.code != 0 || !run.violation || run.violation->id != id) return false;
  const std::string want = Skeleton(first);
  for (const std::string& p : run.violation->problems) {
    if (Skeleton(p) == want) return true;
  }
  return false;
}

namespace {

// `faults` pinned to what they did in `run`: each fault chooses exactly the
// keys it fired on, as often as it fired (no position, no draw), so cutting
// steps does not move its choices; a fault that never fired is dropped.
std::vector<ConsumerFault> PinConsumerFaults(
    const std::vector<ConsumerFault>& faults, const RunResult& run) {
  std::vector<ConsumerFault> out;
  for (ConsumerFault fault : faults) {
    std::vector<std::string> keys;
    int64_t times = 0;
    for (const ConsumerFiring& firing : run.consumer_firings) {
      if (firing.fault != fault.id) continue;
      ++times;
      if (std::find(keys.begin(), keys.end(), firing.key) == keys.end()) {
        keys.push_back(firing.key);
      }
    }
    if (times == 0) continue;
    fault.records.clear();
    fault.keys = std::move(keys);
    fault.probability = 1.0;
    fault.times = times;
    out.push_back(std::move(fault));
  }
  return out;
}

}  // namespace

Scenario SerialFaultFree(const Scenario& scenario) {
  Scenario out = scenario;
  out.faults = nullptr;
  out.consumer_faults.clear();
  std::erase_if(out.timeline,
                [](const TimelineEvent& e) { return e.kind == "faults"; });
  // Each actor's name as often as a run may take steps: the runner skips an
  // entry of a finished actor, and waits for one not ready yet.
  std::vector<std::string> schedule;
  const size_t per_actor = static_cast<size_t>(std::max(out.max_steps, 0));
  schedule.reserve(per_actor * out.actors.size());
  for (const ActorSpec& actor : out.actors) {
    schedule.insert(schedule.end(), per_actor, actor.name);
  }
  out.schedule = std::move(schedule);
  return out;
}

ShrinkResult Shrink(const Scenario& scenario, uint64_t seed,
                    const RunResult& failing, const RunOptions& options) {
  ShrinkResult out;
  out.steps_before = failing.steps.size();
  out.actors_before = scenario.actors.size();
  const std::string target = failing.violation ? failing.violation->id : "";
  const std::string first_problem =
      failing.violation && !failing.violation->problems.empty()
          ? failing.violation->problems.front()
          : "";
  const std::optional<std::vector<PinRule>> pins = Pinnable(scenario);
  out.faults_before =
      (pins ? FiredCount(*pins, failing) : RuleCount(scenario)) +
      failing.consumer_firings.size();

  RunOptions run_options = options;
  run_options.seed = seed;
  run_options.schedule = nullptr;
  run_options.trace = false;
  Scenario best = scenario;
  best.seed = seed;
  best.schedule = failing.schedule;
  RunResult best_run = failing;

  // True when `candidate` holds on the serial, fault-free schedule: its
  // failure still needs the interleaving or the faults.
  const auto holds_serially = [&](const Scenario& candidate) {
    ++out.runs;
    RunResult serial = RunOnce(SerialFaultFree(candidate), run_options);
    return serial.code == 0 && !serial.violation;
  };
  {
    // The failing file itself, without its interleaving and faults.
    ++out.runs;
    RunResult serial = RunOnce(SerialFaultFree(scenario), run_options);
    if (serial.code == 0 && serial.violation) {
      out.schedule_independent = true;
      out.serial_violation = serial.violation;
      out.run = failing;
      out.pinned = std::move(best);
      out.faults_after = out.faults_before;
      return out;
    }
  }

  const auto try_candidate = [&](Scenario candidate) {
    if (out.runs >= kMaxRuns) return false;
    ++out.runs;
    RunResult run = RunOnce(candidate, run_options);
    if (!SameFailure(run, target, first_problem) ||
        !holds_serially(candidate)) {
      return false;
    }
    best = std::move(candidate);
    best_run = std::move(run);
    return true;
  };
  // `best` without the steps in `dropped` (their schedule entries, and
  // their fault firings when pinned).
  const auto without = [&](const std::set<size_t>& dropped) {
    Scenario candidate = best;
    std::vector<std::string> schedule;
    for (size_t i = 0; i < best_run.steps.size(); ++i) {
      if (dropped.count(i) == 0) schedule.push_back(best_run.schedule[i]);
    }
    candidate.schedule = std::move(schedule);
    if (out.pinned_faults) {
      candidate.faults = PinnedPlan(*pins, best_run, dropped, std::nullopt);
    }
    return candidate;
  };
  const auto steps_of = [&](auto pick) {
    std::set<size_t> steps;
    for (size_t i = 0; i < best_run.steps.size(); ++i) {
      if (pick(best_run.steps[i])) steps.insert(i);
    }
    return steps;
  };

  if (pins && !pins->empty()) {
    Scenario candidate = best;
    candidate.faults = PinnedPlan(*pins, best_run, {}, std::nullopt);
    out.pinned_faults = try_candidate(std::move(candidate));
  }
  if (!best.consumer_faults.empty()) {
    Scenario candidate = best;
    candidate.consumer_faults =
        PinConsumerFaults(best.consumer_faults, best_run);
    (void)try_candidate(std::move(candidate));
  }
  bool changed = true;
  while (changed && out.runs < kMaxRuns) {
    changed = false;
    // Whole actors.
    for (size_t a = best.actors.size(); a-- > 0 && best.actors.size() > 1;) {
      Scenario candidate =
          without(steps_of([&](const StepRef& ref) { return ref.actor == a; }));
      candidate.actors.erase(candidate.actors.begin() +
                             static_cast<std::ptrdiff_t>(a));
      if (try_candidate(std::move(candidate))) changed = true;
    }
    // Faults: single firings when pinned, whole rules otherwise.
    if (out.pinned_faults) {
      for (size_t r = 0; r < pins->size(); ++r) {
        for (size_t c = best_run.calls.size(); c-- > 0;) {
          if (c >= best_run.calls.size()) continue;
          const CallSummary& call = best_run.calls[c];
          if (!Matches((*pins)[r], call) || !Fired((*pins)[r], call)) continue;
          Scenario candidate = best;
          candidate.faults =
              PinnedPlan(*pins, best_run, {}, std::make_pair(r, c));
          if (try_candidate(std::move(candidate))) changed = true;
        }
      }
    } else {
      for (size_t j = RuleCount(best); j-- > 0;) {
        Scenario candidate = best;
        json& rules = candidate.faults["rules"];
        rules.erase(j);
        if (rules.empty()) candidate.faults = nullptr;
        if (try_candidate(std::move(candidate))) changed = true;
      }
    }
    // Consumer faults: whole entries, then single keys of pinned ones.
    for (size_t j = best.consumer_faults.size(); j-- > 0;) {
      Scenario candidate = best;
      candidate.consumer_faults.erase(candidate.consumer_faults.begin() +
                                      static_cast<std::ptrdiff_t>(j));
      if (try_candidate(std::move(candidate))) changed = true;
    }
    for (size_t j = 0; j < best.consumer_faults.size(); ++j) {
      for (size_t k = best.consumer_faults[j].keys.size(); k-- > 0;) {
        if (j >= best.consumer_faults.size() ||
            k >= best.consumer_faults[j].keys.size() ||
            best.consumer_faults[j].keys.size() <= 1) {
          continue;
        }
        Scenario candidate = best;
        auto& keys = candidate.consumer_faults[j].keys;
        keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(k));
        if (try_candidate(std::move(candidate))) changed = true;
      }
    }
    // Single ops, each with the steps that ran it.
    for (size_t a = 0; a < best.actors.size(); ++a) {
      for (size_t k = best.actors[a].ops.size(); k-- > 0;) {
        if (best.actors[a].ops.size() <= 1) break;
        if (k >= best.actors[a].ops.size()) continue;
        Scenario candidate = without(steps_of(
            [&](const StepRef& ref) { return ref.actor == a && ref.op == k; }));
        auto& ops = candidate.actors[a].ops;
        ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(k));
        if (try_candidate(std::move(candidate))) changed = true;
      }
    }
  }
  // Pin the schedule to the steps taken and drop the ops never reached.
  Scenario tidy = best;
  tidy.schedule = best_run.schedule;
  for (size_t a = 0; a < tidy.actors.size(); ++a) {
    size_t reached = 0;
    for (const StepRef& ref : best_run.steps) {
      if (ref.actor == a) reached = std::max(reached, ref.op + 1);
    }
    if (reached > 0 && reached < tidy.actors[a].ops.size()) {
      tidy.actors[a].ops.resize(reached);
    }
  }
  ++out.runs;
  RunResult tidy_run = RunOnce(tidy, run_options);
  if (SameFailure(tidy_run, target, first_problem) && holds_serially(tidy)) {
    best = std::move(tidy);
    best_run = std::move(tidy_run);
  }
  out.faults_after = (pins ? FiredCount(*pins, best_run) : RuleCount(best)) +
                     best_run.consumer_firings.size();
  // The result's run once more, with its trace.
  run_options.trace = true;
  RunResult traced = RunOnce(best, run_options);
  out.run = traced.code == 0 ? std::move(traced) : std::move(best_run);
  out.pinned = std::move(best);
  return out;
}

}  // namespace ddblab::harness::scenario
