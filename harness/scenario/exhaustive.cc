// The depth-first exploration of schedules (exhaustive.h).
#include "harness/scenario/exhaustive.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "emulator/api/random.h"
#include "harness/scenario/strategy.h"

namespace ddblab::harness::scenario {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

bool Contains(const std::vector<size_t>& v, size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// An actor whose next step need not be tried here: the same step, taken
// from an earlier node, was explored there and nothing since depended on it.
struct Sleeper {
  size_t actor = 0;
  Footprint footprint;  // of its next step
};

// One step of a run as the scheduler saw it.
struct Choice {
  std::vector<size_t> ready;
  size_t pick = 0;
  size_t last = kNone;          // the actor that moved at the step before
  std::vector<Sleeper> asleep;  // the sleep set at this step
};

// 1 when picking `actor` at `choice` preempts the actor that moved last.
int Cost(const Choice& choice, size_t actor) {
  return choice.last != kNone && actor != choice.last &&
                 Contains(choice.ready, choice.last)
             ? 1
             : 0;
}

bool Asleep(const std::vector<Sleeper>& sleep, size_t actor) {
  return std::any_of(sleep.begin(), sleep.end(),
                     [&](const Sleeper& s) { return s.actor == actor; });
}

// A step on the current path of the depth-first walk.
struct Node {
  Choice choice;
  Footprint footprint;         // of the pick's step
  int preemptions_before = 0;  // on the path up to this step
  std::vector<Sleeper> done;   // picks explored here before the current one
  std::vector<size_t> todo;    // ready actors still to try here, ascending
};

// Follows `prefix`, then the default pick: the actor that moved last if it
// is ready and awake, else the lowest-numbered ready awake one; stops the
// run when every ready actor is asleep. With `reduce`, keeps the sleep set
// from the steps' footprints and `path`'s explored picks (Godefroid).
class PrefixScheduler final : public Scheduler {
 public:
  PrefixScheduler(const std::vector<size_t>& prefix,
                  const std::vector<Node>& path, bool reduce)
      : prefix_(prefix), path_(path), reduce_(reduce) {}

  size_t Pick(const std::vector<size_t>& ready, int) override {
    const size_t i = choices_.size();
    size_t pick = kNone;
    if (i < prefix_.size()) {
      pick = prefix_[i];
      if (!Contains(ready, pick)) {
        if (diverged_ == 0) diverged_ = i + 1;
        pick = ready.front();
      }
    } else {
      std::vector<size_t> awake;
      for (size_t actor : ready) {
        if (!Asleep(sleep_, actor)) awake.push_back(actor);
      }
      if (awake.empty()) return kStopRun;
      pick = last_ != kNone && Contains(awake, last_) ? last_ : awake.front();
    }
    choices_.push_back({ready, pick, last_, sleep_});
    last_ = pick;
    return pick;
  }

  bool WantsFootprints() const override { return reduce_; }

  // The sleep set of the next step: those asleep here or explored here
  // before, but the one that moved and those its step depends on.
  void Stepped(const Footprint& footprint) override {
    const size_t i = choices_.size() - 1;
    footprints_.push_back(footprint);
    std::vector<Sleeper> next;
    const auto keep = [&](const Sleeper& s) {
      if (s.actor != choices_[i].pick && !Dependent(s.footprint, footprint)) {
        next.push_back(s);
      }
    };
    for (const Sleeper& s : sleep_) keep(s);
    if (i < path_.size()) {
      for (const Sleeper& s : path_[i].done) keep(s);
    }
    sleep_ = std::move(next);
  }

  const std::vector<Choice>& choices() const { return choices_; }
  const std::vector<Footprint>& footprints() const { return footprints_; }
  size_t diverged() const { return diverged_; }  // its step, or 0

 private:
  const std::vector<size_t>& prefix_;
  const std::vector<Node>& path_;
  const bool reduce_;
  std::vector<Choice> choices_;
  std::vector<Footprint> footprints_;
  std::vector<Sleeper> sleep_;
  size_t last_ = kNone;
  size_t diverged_ = 0;
};

// A random walk down the tree of schedules within the preemption bound
// (no reduction): at each step a uniform pick among those the bound
// allows, and the product of their counts. The product's mean over walks
// is an unbiased estimate of the number of such schedules (Knuth 1975).
class ProbeScheduler final : public Scheduler {
 public:
  ProbeScheduler(uint64_t seed, int max_preemptions)
      : rng_(seed), max_preemptions_(max_preemptions) {}

  size_t Pick(const std::vector<size_t>& ready, int) override {
    const Choice here{ready, 0, last_, {}};
    std::vector<size_t> allowed;
    for (size_t actor : ready) {
      if (preemptions_ + Cost(here, actor) <= max_preemptions_) {
        allowed.push_back(actor);
      }
    }
    const size_t pick = allowed[rng_.Uniform(allowed.size())];
    product_ *= static_cast<double>(allowed.size());
    preemptions_ += Cost(here, pick);
    last_ = pick;
    return pick;
  }

  double product() const { return product_; }

 private:
  Rng rng_;
  const int max_preemptions_;
  int preemptions_ = 0;
  size_t last_ = kNone;
  double product_ = 1;
};

// About how many schedules the bound holds (before the reduction), from
// `probes` random walks; 0 if a walk's run failed.
double EstimateSchedules(const Scenario& scenario, const RunOptions& base,
                         int max_preemptions, int probes) {
  RunOptions options = base;
  double sum = 0;
  for (int i = 0; i < probes; ++i) {
    ProbeScheduler walk(Rng::Hash(base.seed, "probe#" + std::to_string(i)),
                        max_preemptions);
    options.scheduler = &walk;
    if (RunOnce(scenario, options).code != 0) return 0;
    sum += walk.product();
  }
  return sum / probes;
}

// `n` to two significant digits (12,345 -> 12,000), at most kMaxEstimate.
int64_t TwoDigits(double n) {
  constexpr double kMaxEstimate = 1e18;
  n = std::min(n, kMaxEstimate);
  double scale = 1;
  while (n / scale >= 100) scale *= 10;
  return static_cast<int64_t>(std::round(n / scale) * scale);
}

}  // namespace

ExhaustiveResult ExploreExhaustive(
    const Scenario& scenario, const RunOptions& base,
    const ExhaustiveLimits& limits,
    const std::function<void(int64_t runs)>& progress) {
  ExhaustiveResult result;
  std::vector<Node> path;
  std::vector<size_t> prefix;
  RunOptions options = base;
  options.trace = false;
  options.strategy.kind = StrategySpec::Kind::kExhaustive;
  bool first_complete = true;
  while (true) {
    PrefixScheduler scheduler(prefix, path, limits.reduce);
    options.scheduler = &scheduler;
    RunResult run = RunOnce(scenario, options);
    ++result.runs;
    if (progress) progress(result.runs);
    if (run.code != 0) {
      result.code = run.code;
      result.failure = std::move(run.failure);
      return result;
    }
    const std::vector<Choice>& choices = scheduler.choices();
    const std::vector<Footprint>& footprints = scheduler.footprints();
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
          scenario.file + ": run " + std::to_string(result.runs) +
          " of the exploration did not follow its picks at step " +
          std::to_string(diverged) +
          ": the scenario does not run the same way twice on one schedule";
      return result;
    }
    if (run.stopped) {
      ++result.stopped;
    } else {
      ++result.schedules;
      if (first_complete) {
        result.unmatched_rules = run.unmatched_rules;
        first_complete = false;
      } else {
        std::erase_if(result.unmatched_rules, [&](const std::string& line) {
          return !std::count(run.unmatched_rules.begin(),
                             run.unmatched_rules.end(), line);
        });
      }
    }
    for (size_t i = 0; i < path.size() && i < footprints.size(); ++i) {
      path[i].footprint = footprints[i];
    }
    for (size_t i = path.size(); i < choices.size(); ++i) {
      Node node;
      node.choice = choices[i];
      if (i < footprints.size()) node.footprint = footprints[i];
      if (i > 0) {
        const Node& before = path[i - 1];
        node.preemptions_before =
            before.preemptions_before + Cost(before.choice, before.choice.pick);
      }
      for (size_t actor : node.choice.ready) {
        if (actor != node.choice.pick && !Asleep(node.choice.asleep, actor) &&
            node.preemptions_before + Cost(node.choice, actor) <=
                limits.max_preemptions) {
          node.todo.push_back(actor);
        }
      }
      path.push_back(std::move(node));
    }
    if (run.violation) {
      result.failing_number = result.runs;
      for (const Choice& c : choices) result.failing_picks.push_back(c.pick);
      result.failing = std::move(run);
      return result;
    }
    while (!path.empty() && path.back().todo.empty()) path.pop_back();
    if (path.empty()) {
      result.complete = true;
      return result;
    }
    if (result.runs >= limits.budget) {
      const int probes = static_cast<int>(
          std::clamp<int64_t>(limits.budget / 10, 1, kEstimateProbes));
      const double about =
          EstimateSchedules(scenario, options, limits.max_preemptions, probes);
      if (about > 0) {
        result.estimated_schedules =
            std::max<int64_t>(result.schedules + 1, TwoDigits(about));
      }
      return result;
    }
    Node& next = path.back();
    next.done.push_back({next.choice.pick, next.footprint});
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
  const std::vector<Node> no_path;
  PrefixScheduler scheduler(picks, no_path, false);
  RunOptions options = base;
  options.strategy.kind = StrategySpec::Kind::kExhaustive;
  options.scheduler = &scheduler;
  options.exhaustive = {{"schedule", number},
                        {"max_preemptions", max_preemptions}};
  return RunOnce(scenario, options);
}

}  // namespace ddblab::harness::scenario
