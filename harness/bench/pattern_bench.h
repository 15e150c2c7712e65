// harness/bench/pattern_bench.h: what a pattern benchmark is to the `ddblab
// bench` command: a name, its flag lines, and a run function that takes the
// opened backend, the benchmark's own flags and a progress callback, and
// answers a BenchOutcome the command wraps in the report envelope
// ("ddblab-pattern-bench/1").
//
// Each benchmark parses its own flags; a bad flag is a Result error naming
// the flag and what was expected. What the backend cannot do is listed in
// not_available, never faked.
//
// Thread-safety: plain values; a run function is called from one thread.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "harness/backend/backend.h"

namespace ddblab::harness::bench {

using json = nlohmann::json;

struct BenchTarget {
  Backend* backend;  // opened by the command
  std::string
      spec;  // as the user gave it: "emulator", "http://127.0.0.1:8000", "aws"
  std::string kind;    // "emulator" (in process), "ddblab" (ddblab serve over
                       // HTTP), "dynamodb" (another DynamoDB endpoint, e.g.
                       // DynamoDB Local), "aws"
  bool virtual_clock;  // true: the backend clock is a ManualClock the bench
                       // advances
};

using ProgressFn = std::function<void(double fraction, std::string_view label)>;

struct BenchOutcome {
  json parameters = json::object();    // every parameter, defaults included
  json results = json::object();       // numbers, and {p50,p99,max} objects
  json not_available = json::array();  // [{"what": "...", "why": "..."}]
  json checks =
      json::array();  // [{"name": "...", "ok": true, "detail": "..."}]
};

struct PatternBench {
  std::string_view name;
  std::string_view usage;
  Result<BenchOutcome> (*run)(const BenchTarget& target,
                              std::span<const std::string> flags,
                              const ProgressFn& progress);
};

}  // namespace ddblab::harness::bench
