// The scheduling strategies of a run (strategy.h).
#include "harness/scenario/strategy.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "emulator/api/random.h"

namespace ddblab::harness::scenario {
namespace {

class RandomScheduler final : public Scheduler {
 public:
  explicit RandomScheduler(uint64_t seed) : rng_(Rng(seed).Fork("schedule")) {}

  size_t Pick(const std::vector<size_t>& ready, int) override {
    return ready[rng_.Uniform(ready.size())];
  }

 private:
  Rng rng_;
};

class PctScheduler final : public Scheduler {
 public:
  PctScheduler(uint64_t seed, int depth, size_t actors, int expected_steps)
      : priority_(actors) {
    Rng rng = Rng(seed).Fork("pct");
    // Initial priorities depth..depth+n-1 in a random order (Fisher-Yates).
    for (size_t i = 0; i < actors; ++i) {
      priority_[i] = depth + static_cast<int>(i);
    }
    for (size_t i = actors; i > 1; --i) {
      std::swap(priority_[i - 1], priority_[rng.Uniform(i)]);
    }
    // depth-1 change points among the steps 1..k (distinct when k allows).
    const int k = std::max(1, expected_steps);
    for (int j = 1; j < depth; ++j) {
      int point = 0;
      for (int tries = 0; tries < 64; ++tries) {
        point = 1 + static_cast<int>(rng.Uniform(static_cast<uint64_t>(k)));
        if (std::find_if(changes_.begin(), changes_.end(), [&](auto& c) {
              return c.first == point;
            }) == changes_.end()) {
          break;
        }
      }
      changes_.emplace_back(point, depth - j);  // the first point lowest
    }
  }

  size_t Pick(const std::vector<size_t>& ready, int step) override {
    size_t pick = Highest(ready);
    for (const auto& [point, low] : changes_) {
      if (point == step) {
        priority_[pick] = low;
        pick = Highest(ready);
      }
    }
    return pick;
  }

 private:
  size_t Highest(const std::vector<size_t>& ready) const {
    return *std::max_element(
        ready.begin(), ready.end(),
        [&](size_t a, size_t b) { return priority_[a] < priority_[b]; });
  }

  std::vector<int> priority_;                 // per actor; higher moves first
  std::vector<std::pair<int, int>> changes_;  // (step, priority it sets)
};

// Schedule 1 of an exhaustive exploration: no preemption, lowest first.
class FirstScheduleScheduler final : public Scheduler {
 public:
  size_t Pick(const std::vector<size_t>& ready, int) override {
    if (last_ && std::find(ready.begin(), ready.end(), *last_) != ready.end()) {
      return *last_;
    }
    last_ = ready.front();
    return *last_;
  }

 private:
  std::optional<size_t> last_;
};

}  // namespace

std::string StrategySpec::Text() const {
  if (kind == Kind::kRandom) return "random";
  if (kind == Kind::kExhaustive) return "exhaustive";
  return "pct:" + std::to_string(depth);
}

Result<StrategySpec> ParseStrategy(std::string_view text) {
  StrategySpec spec;
  if (text == "random") return spec;
  if (text == "exhaustive") {
    spec.kind = StrategySpec::Kind::kExhaustive;
    return spec;
  }
  if (text == "pct") {
    spec.kind = StrategySpec::Kind::kPct;
    return spec;
  }
  if (text.starts_with("pct:")) {
    std::string_view digits = text.substr(4);
    int depth = 0;
    auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), depth);
    if (ec == std::errc() && end == digits.data() + digits.size() &&
        depth >= 1 && depth <= kMaxPctDepth) {
      spec.kind = StrategySpec::Kind::kPct;
      spec.depth = depth;
      return spec;
    }
  }
  return Error::Validation("expected random, pct, pct:D with D from 1 to " +
                           std::to_string(kMaxPctDepth) +
                           " or exhaustive, got " + std::string(text));
}

std::unique_ptr<Scheduler> MakeScheduler(const StrategySpec& spec,
                                         uint64_t seed, size_t actors,
                                         int expected_steps) {
  if (spec.kind == StrategySpec::Kind::kPct) {
    return std::make_unique<PctScheduler>(seed, spec.depth, actors,
                                          expected_steps);
  }
  if (spec.kind == StrategySpec::Kind::kExhaustive) {
    return std::make_unique<FirstScheduleScheduler>();
  }
  return std::make_unique<RandomScheduler>(seed);
}

}  // namespace ddblab::harness::scenario
