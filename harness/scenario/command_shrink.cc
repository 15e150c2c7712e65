// The schedule shrink of command actors (command_shrink.h).
#include "harness/scenario/command_shrink.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "harness/scenario/shrink.h"

namespace ddblab::harness::scenario {
namespace {

// Consecutive steps of one copy.
struct Block {
  std::string key;
  size_t steps = 0;
};

std::vector<Block> BlocksOf(const std::vector<std::string>& schedule) {
  std::vector<Block> blocks;
  for (const std::string& key : schedule) {
    if (blocks.empty() || blocks.back().key != key) blocks.push_back({key, 0});
    ++blocks.back().steps;
  }
  return blocks;
}

std::vector<std::string> Flatten(const std::vector<Block>& blocks) {
  std::vector<std::string> schedule;
  for (const Block& b : blocks) schedule.insert(schedule.end(), b.steps, b.key);
  return schedule;
}

// Block `j` moved up to follow block `i` (i + 1 < j).
std::vector<Block> MovedUp(std::vector<Block> blocks, size_t i, size_t j) {
  Block moved = blocks[j];
  blocks.erase(blocks.begin() + static_cast<std::ptrdiff_t>(j));
  blocks.insert(blocks.begin() + static_cast<std::ptrdiff_t>(i + 1), moved);
  return blocks;
}

}  // namespace

std::vector<std::string> StepKeys(const std::vector<std::string>& trace) {
  std::vector<std::string> keys;
  for (const std::string& line : trace) {
    if (!line.starts_with("{\"step\":")) continue;
    nlohmann::json event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_object() && event.contains("actor") &&
        event["actor"].is_string()) {
      keys.push_back(event["actor"].get<std::string>());
    }
  }
  return keys;
}

size_t Switches(const std::vector<std::string>& schedule) {
  size_t n = 0;
  for (size_t i = 1; i < schedule.size(); ++i) {
    if (schedule[i] != schedule[i - 1]) ++n;
  }
  return n;
}

CommandShrinkResult ShrinkCommandRun(const Scenario& s, uint64_t seed,
                                     const RunResult& failing,
                                     const RunOptions& base) {
  CommandShrinkResult result;
  result.schedule = StepKeys(failing.trace);
  result.run = failing;
  result.switches_before = Switches(result.schedule);
  const std::string id = failing.violation->id;
  const std::string first = failing.violation->problems.empty()
                                ? std::string()
                                : failing.violation->problems.front();
  RunOptions options = base;
  options.seed = seed;
  options.trace = true;
  for (bool kept = true; kept;) {
    kept = false;
    const std::vector<Block> blocks = BlocksOf(result.schedule);
    for (size_t i = 0; i + 2 < blocks.size() && !kept; ++i) {
      size_t j = i + 2;
      while (j < blocks.size() && blocks[j].key != blocks[i].key) ++j;
      if (j == blocks.size()) continue;
      std::vector<std::string> candidate = Flatten(MovedUp(blocks, i, j));
      options.schedule = &candidate;
      RunResult run = RunOnce(s, options);
      ++result.runs;
      if (run.stopped || !SameFailure(run, id, first) ||
          StepKeys(run.trace) != candidate) {
        continue;
      }
      result.schedule = std::move(candidate);
      result.run = std::move(run);
      kept = true;
    }
  }
  result.switches_after = Switches(result.schedule);
  return result;
}

}  // namespace ddblab::harness::scenario
