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

// One node of a run as the scheduler saw it: a step's pick of a ready
// actor, or a fault rule's draw (fires: 1, not: 0).
struct Choice {
  bool draw = false;
  std::vector<size_t> ready;  // a draw: {0, 1}
  size_t pick = 0;
  size_t last = kNone;          // the actor that moved at the step before
  std::vector<Sleeper> asleep;  // the sleep set at this step
  std::string draw_id;          // a draw: "<rule id>#<match>"
  bool seeded = false;          // a draw: what the seed's draw gives
};

// 1 when picking `actor` at `choice` preempts the actor that moved last.
int Cost(const Choice& choice, size_t actor) {
  return !choice.draw && choice.last != kNone && actor != choice.last &&
                 Contains(choice.ready, choice.last)
             ? 1
             : 0;
}

// 1 when taking `outcome` at a draw goes against the seed's draw.
int Flip(const Choice& choice, size_t outcome) {
  return choice.draw && (outcome == 1) != choice.seeded ? 1 : 0;
}

bool Asleep(const std::vector<Sleeper>& sleep, size_t actor) {
  return std::any_of(sleep.begin(), sleep.end(),
                     [&](const Sleeper& s) { return s.actor == actor; });
}

// A step on the current path of the depth-first walk.
struct Node {
  Choice choice;
  // Of the pick's step: the union over the runs through this pick (its
  // step's own fault draws may change what it calls).
  Footprint footprint;
  int preemptions_before = 0;  // on the path up to this step
  int flips_before = 0;        // draws against the seed's, up to here
  std::vector<Sleeper> done;   // picks explored here before the current one
  std::vector<size_t> todo;    // ready actors still to try here, ascending
};

// Follows `prefix`, then the default pick: the actor that moved last if it
// is ready and awake, else the lowest-numbered ready awake one; stops the
// run when every ready actor is asleep; a draw past the prefix is the
// seed's. With `reduce`, keeps the sleep set from the steps' footprints and
// `path`'s explored picks (Godefroid).
class PrefixScheduler final : public Scheduler {
 public:
  PrefixScheduler(const std::vector<ExhaustiveBranch>& prefix,
                  const std::vector<Node>& path, bool reduce)
      : prefix_(prefix), path_(path), reduce_(reduce) {}

  bool WantsFaultDraws() const override { return true; }

  bool Draw(const FaultDraw& draw) override {
    const size_t i = choices_.size();
    bool fires = draw.seeded;
    if (i < prefix_.size()) {
      if (prefix_[i].draw) {
        fires = prefix_[i].taken == 1;
      } else if (diverged_ == 0) {
        diverged_ = i + 1;
      }
    }
    Choice choice;
    choice.draw = true;
    choice.ready = {0, 1};
    choice.pick = fires ? 1 : 0;
    choice.draw_id = draw.rule_id + "#" + std::to_string(draw.match);
    choice.seeded = draw.seeded;
    choices_.push_back(std::move(choice));
    footprints_.emplace_back();
    return fires;
  }

  size_t Pick(const std::vector<size_t>& ready, int) override {
    const size_t i = choices_.size();
    size_t pick = kNone;
    if (i < prefix_.size()) {
      pick = prefix_[i].taken;
      if (prefix_[i].draw || !Contains(ready, pick)) {
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
    choices_.push_back({false, ready, pick, last_, sleep_, "", false});
    footprints_.emplace_back();
    step_ = i;
    last_ = pick;
    return pick;
  }

  bool WantsFootprints() const override { return reduce_; }

  // The sleep set of the next step: those asleep here or explored here
  // before, but the one that moved and those its step depends on.
  void Stepped(const Footprint& footprint) override {
    const size_t i = step_;
    footprints_[i] = footprint;
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
  // Per choice: a pick's step's footprint (empty for a draw).
  const std::vector<Footprint>& footprints() const { return footprints_; }
  size_t diverged() const { return diverged_; }  // its choice, or 0

 private:
  const std::vector<ExhaustiveBranch>& prefix_;
  const std::vector<Node>& path_;
  const bool reduce_;
  std::vector<Choice> choices_;
  std::vector<Footprint> footprints_;
  size_t step_ = 0;  // the choice of the step under way
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
  ProbeScheduler(uint64_t seed, int max_preemptions, int max_flips)
      : rng_(seed), max_preemptions_(max_preemptions), max_flips_(max_flips) {}

  bool WantsFaultDraws() const override { return true; }

  // Both outcomes, or only the seed's once the flips are spent.
  bool Draw(const FaultDraw& draw) override {
    if (max_flips_ >= 0 && flips_ >= max_flips_) return draw.seeded;
    product_ *= 2;
    const bool fires = rng_.Uniform(2) == 1;
    if (fires != draw.seeded) ++flips_;
    return fires;
  }

  size_t Pick(const std::vector<size_t>& ready, int) override {
    const Choice here{false, ready, 0, last_, {}, "", false};
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
  const int max_flips_;  // -1: no bound
  int preemptions_ = 0;
  int flips_ = 0;
  size_t last_ = kNone;
  double product_ = 1;
};

// About how many schedules the bound holds (before the reduction), from
// `probes` random walks; 0 if a walk's run failed.
double EstimateSchedules(const Scenario& scenario, const RunOptions& base,
                         int max_preemptions, int max_flips, int probes) {
  RunOptions options = base;
  double sum = 0;
  for (int i = 0; i < probes; ++i) {
    ProbeScheduler walk(Rng::Hash(base.seed, "probe#" + std::to_string(i)),
                        max_preemptions, max_flips);
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
  std::vector<ExhaustiveBranch> prefix;
  RunOptions options = base;
  options.trace = false;
  options.strategy.kind = StrategySpec::Kind::kExhaustive;
  bool first_complete = true;
  // Pass F runs the tree within F flips and counts the leaves of exactly F
  // (those of fewer were counted by an earlier pass, and run again).
  int pass = 0;
  bool cut = false;  // this pass left out a draw's outcome (its bound)
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
      if (choices[i].draw != path[i].choice.draw ||
          choices[i].ready != path[i].choice.ready ||
          choices[i].draw_id != path[i].choice.draw_id) {
        diverged = i + 1;
      }
    }
    if (diverged != 0) {
      result.code = 1;
      result.failure =
          scenario.file + ": run " + std::to_string(result.runs) +
          " of the exploration did not follow its picks at choice " +
          std::to_string(diverged) +
          ": the scenario does not run the same way twice on one schedule";
      return result;
    }
    int flips = 0;
    for (const Choice& c : choices) flips += Flip(c, c.pick);
    if (flips < pass) {
      // A leaf of an earlier pass, run again on the way.
    } else if (run.stopped) {
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
      path[i].footprint.Add(footprints[i]);
    }
    for (size_t i = path.size(); i < choices.size(); ++i) {
      Node node;
      node.choice = choices[i];
      if (i < footprints.size()) node.footprint = footprints[i];
      if (i > 0) {
        const Node& before = path[i - 1];
        node.preemptions_before =
            before.preemptions_before + Cost(before.choice, before.choice.pick);
        node.flips_before =
            before.flips_before + Flip(before.choice, before.choice.pick);
      }
      for (size_t branch : node.choice.ready) {
        if (branch == node.choice.pick) continue;
        if (node.choice.draw) {
          if (node.flips_before + Flip(node.choice, branch) <= pass) {
            node.todo.push_back(branch);
          } else {
            cut = true;
          }
        } else if (!Asleep(node.choice.asleep, branch) &&
                   node.preemptions_before + Cost(node.choice, branch) <=
                       limits.max_preemptions) {
          node.todo.push_back(branch);
        }
      }
      result.fault_branches = result.fault_branches || node.choice.draw;
      path.push_back(std::move(node));
    }
    if (run.violation) {
      result.failing_number = result.runs;
      for (const Choice& c : choices) {
        result.failing_branches.push_back({c.draw, c.pick});
      }
      result.failing = std::move(run);
      return result;
    }
    while (!path.empty() && path.back().todo.empty()) path.pop_back();
    if (path.empty()) {
      if (!cut || pass == limits.max_fault_flips || pass == kMaxFaultFlips) {
        result.complete = true;
        return result;
      }
      ++pass;  // the same tree again, one more flip allowed
      cut = false;
      prefix.clear();
      if (result.runs < limits.budget) continue;
    }
    if (result.runs >= limits.budget) {
      const int probes = static_cast<int>(
          std::clamp<int64_t>(limits.budget / 10, 1, kEstimateProbes));
      const double about =
          EstimateSchedules(scenario, options, limits.max_preemptions,
                            limits.max_fault_flips, probes);
      if (about > 0) {
        result.estimated_schedules =
            std::max<int64_t>(result.schedules + 1, TwoDigits(about));
      }
      return result;
    }
    Node& next = path.back();
    if (!next.choice.draw) {
      next.done.push_back({next.choice.pick, next.footprint});
    }
    next.footprint = Footprint();  // the new pick's step's, from its runs
    next.choice.pick = next.todo.front();
    next.todo.erase(next.todo.begin());
    prefix.clear();
    for (const Node& node : path) {
      prefix.push_back({node.choice.draw, node.choice.pick});
    }
  }
}

RunResult RunExhaustiveSchedule(const Scenario& scenario,
                                const RunOptions& base,
                                const std::vector<ExhaustiveBranch>& picks,
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
