// harness/bench/pattern_bench.h: what `ddblab bench` (bench_command.h) and
// each pattern benchmark (sweeper_bench.h, aggregator_bench.h) agree on.
//
// The command opens the backend, fills in a BenchTarget, hands the
// benchmark the flags it does not know itself, and wraps the BenchOutcome
// in the report envelope ("ddblab-pattern-bench/1", described by
// bench/pattern_report.schema.json). A benchmark parses its own flags: a
// bad one is a Result error whose message names the flag and what was
// expected (the command prints it and exits 2).
//
// Thread-safety: plain values; a benchmark's run may use threads of its own
// but calls `progress` from one thread at a time.
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

// What a benchmark runs against (filled in by the command).
struct BenchTarget {
  Backend* backend;    // opened by the command
  std::string spec;    // as the user gave it: "emulator",
                       // "http://127.0.0.1:8000", "aws"
  std::string kind;    // "emulator" (in process), "ddblab" (ddblab serve over
                       // HTTP), "dynamodb" (another DynamoDB endpoint, e.g.
                       // DynamoDB Local), "aws"
  bool virtual_clock;  // true: the backend clock is a ManualClock the bench
                       // advances
};

// Called now and then with the fraction done (0..1) and a short label.
using ProgressFn = std::function<void(double fraction, std::string_view label)>;

// What a benchmark returns; the command wraps it in the report envelope.
struct BenchOutcome {
  json parameters = json::object();    // every parameter, defaults included
  json results = json::object();       // flat-ish: numbers, and {p50,p99,max}
                                       // objects
  json not_available = json::array();  // [{"what": "native_ttl_deletion",
                                       //   "why": "..."}]
  json checks = json::array();  // [{"name": "...", "ok": true, "detail": ".."}]
};

struct PatternBench {
  std::string_view name;   // "sweeper", "aggregator"
  std::string_view usage;  // the flag lines for --help
  Result<BenchOutcome> (*run)(const BenchTarget& target,
                              std::span<const std::string> flags,
                              const ProgressFn& progress);
};

}  // namespace ddblab::harness::bench
