// The depth-first exploration of schedules (exhaustive.h).
#include "harness/scenario/exhaustive.h"

#include <algorithm>
#include <utility>

#include "harness/scenario/strategy.h"

namespace ddblab::harness::scenario {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

bool Contains(const std::vector<size_t>& v, size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// One step of a run as the scheduler saw it.
struct Choice {
  std::vector<size_t> ready;
  size_t pick = 0;
  size_t last = kNone;  // the actor that moved at the step before
};

// 1 when picking `actor` at `choice` preempts the actor that moved last.
int Cost(const Choice& choice, size_t actor) {
  return choice.last != kNone && actor != choice.last &&
                 Contains(choice.ready, choice.last)
             ? 1
             : 0;
}

// Follows `prefix`, then the default pick; records every step.
class PrefixScheduler final : public Scheduler {
 public:
  explicit PrefixScheduler(const std::vector<size_t>& prefix)
      : prefix_(prefix) {}

  size_t Pick(const std::vector<size_t>& ready, int) override {
    const size_t i = choices_.size();
    size_t pick = ready.front();
    if (i < prefix_.size()) {
      if (Contains(ready, prefix_[i])) {
        pick = prefix_[i];
      } else if (diverged_ == 0) {
        diverged_ = i + 1;
      }
    } else if (last_ != kNone && Contains(ready, last_)) {
      pick = last_;
    }
    choices_.push_back({ready, pick, last_});
    last_ = pick;
    return pick;
  }

  const std::vector<Choice>& choices() const { return choices_; }
  size_t diverged() const { return diverged_; }  // its step, or 0

 private:
  const std::vector<size_t>& prefix_;
  std::vector<Choice> choices_;
  size_t last_ = kNone;
  size_t diverged_ = 0;
};

// A step on the current path of the depth-first walk.
struct Node {
  Choice choice;
  int preemptions_before = 0;  // on the path up to this step
  std::vector<size_t> todo;    // ready actors still to try here, ascending
};

}  // namespace

ExhaustiveResult ExploreExhaustive(
    const Scenario& scenario, const RunOptions& base,
    const ExhaustiveLimits& limits,
    const std::function<void(int64_t schedules)>& progress) {
  ExhaustiveResult result;
  std::vector<Node> path;
  std::vector<size_t> prefix;
  RunOptions options = base;
  options.trace = false;
  options.strategy.kind = StrategySpec::Kind::kExhaustive;
  while (true) {
    PrefixScheduler scheduler(prefix);
    options.scheduler = &scheduler;
    RunResult run = RunOnce(scenario, options);
    ++result.schedules;
    if (progress) progress(result.schedules);
    if (run.code != 0) {
      result.code = run.code;
      result.failure = std::move(run.failure);
      return result;
    }
    const std::vector<Choice>& choices = scheduler.choices();
    size_t diverged = scheduler.diverged();
    if (diverged == 0 && choices.size() < path.size()) {
      diverged = choices.size() + 1;
    }
    for (size_t i = 0; diverged == 0 && i < path.size(); ++i) {
      if (choices[i].ready != path[i].choice.ready) diverged = i + 1;
    }
    if (diverged != 0) {
      result.code = 1;
      result.failure =
          scenario.file + ": schedule " + std::to_string(result.schedules) +
          " did not follow its picks at step " + std::to_string(diverged) +
          ": the scenario does not run the same way twice on one schedule";
      return result;
    }
    if (result.schedules == 1) {
      result.unmatched_rules = run.unmatched_rules;
    } else {
      std::erase_if(result.unmatched_rules, [&](const std::string& line) {
        return !std::count(run.unmatched_rules.begin(),
                           run.unmatched_rules.end(), line);
      });
    }
    for (size_t i = path.size(); i < choices.size(); ++i) {
      Node node;
      node.choice = choices[i];
      if (i > 0) {
        const Node& before = path[i - 1];
        node.preemptions_before =
            before.preemptions_before + Cost(before.choice, before.choice.pick);
      }
      for (size_t actor : node.choice.ready) {
        if (actor != node.choice.pick &&
            node.preemptions_before + Cost(node.choice, actor) <=
                limits.max_preemptions) {
          node.todo.push_back(actor);
        }
      }
      path.push_back(std::move(node));
    }
    if (run.violation) {
      result.failing_number = result.schedules;
      for (const Choice& c : choices) result.failing_picks.push_back(c.pick);
      result.failing = std::move(run);
      return result;
    }
    while (!path.empty() && path.back().todo.empty()) path.pop_back();
    if (path.empty()) {
      result.complete = true;
      return result;
    }
    if (result.schedules >= limits.budget) return result;
    Node& next = path.back();
    next.choice.pick = next.todo.front();
    next.todo.erase(next.todo.begin());
    prefix.clear();
    for (const Node& node : path) prefix.push_back(node.choice.pick);
  }
}

RunResult RunExhaustiveSchedule(const Scenario& scenario,
                                const RunOptions& base,
                                const std::vector<size_t>& picks,
                                int64_t number, int max_preemptions) {
  PrefixScheduler scheduler(picks);
  RunOptions options = base;
  options.strategy.kind = StrategySpec::Kind::kExhaustive;
  options.scheduler = &scheduler;
  options.exhaustive = {{"schedule", number},
                        {"max_preemptions", max_preemptions}};
  return RunOnce(scenario, options);
}

}  // namespace ddblab::harness::scenario
