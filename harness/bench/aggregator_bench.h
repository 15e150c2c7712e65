// harness/bench/aggregator_bench.h: the rollup-aggregator benchmark
// (`ddblab bench aggregator`).
//
// A producer writes R transfer records per second for T seconds across K
// customers into the aggregator's source table (a PutItem per record, or
// BatchWriteItem of 25); the table's stream has S shards; an event source
// mapping (harness/consumer) with BatchSize B and ParallelizationFactor P
// delivers them to the rollup aggregator (harness/patterns), published or
// correct variant, which folds them into per-customer daily totals.
//
// Reported: end-to-end records/s (wall time, first write to last record
// delivered), the modelled rate on the backend clock, iterator age p50/p99/
// max (age of the newest record of each batch when it is invoked, on the
// backend clock), whether the totals are exact (RollupAggregator::Check),
// WCU consumed on the aggregate side per WCU on the source (from
// ReturnConsumedCapacity), throttles and unprocessed items per table.
//
// Clocks: on a virtual clock (target.virtual_clock) the producer and the
// consumer run as fast as the machine allows and the bench moves time: the
// producer's writes come due on the clock, an idle consumer waits
// --poll-interval, and a polling round in which the function ran lasts as
// long as its slowest invocation (--handler-cost + --record-cost per
// record; lanes and shards run in parallel as Lambda runs them). On a real
// clock the producer is paced, the function's cost is slept, and the run is
// bounded by --drain-timeout.
//
// Tables get unique names and are deleted at the end, on error too (unless
// --keep-tables).
//
// Thread-safety: RunAggregatorBench uses the target's backend from the
// calling thread only.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "harness/bench/pattern_bench.h"
#include "harness/patterns/rollup_aggregator.h"

namespace ddblab::harness::bench {

// The flag lines of `ddblab bench aggregator`.
extern const std::string_view kAggregatorUsage;

struct AggregatorParams {
  double rate = 0;          // records/s; 0: as fast as the producer can
  Duration duration{};      // T
  int64_t records = 0;      // R x T unless given
  int64_t customers = 100;  // K
  bool batch_writes = true;
  int64_t shards = 1;
  int64_t batch_size = 100;
  int64_t parallelization = 1;
  patterns::RollupVariant variant = patterns::RollupVariant::kCorrect;
  Duration handler_cost{};  // per invocation
  Duration record_cost{};   // per record of an invocation
  Duration poll_interval = std::chrono::milliseconds(250);
  Duration drain_timeout{};
  int64_t fail_every = 0;  // every Nth invocation fails half way; 0: never
  uint64_t seed = 1;
  bool keep_tables = false;

  json ToJson() const;
};

// Reads the benchmark's flags (`--name value` or `--name=value`); defaults
// depend on the clock. A bad flag is a ValidationException "--<flag>:
// expected ..., got \"...\"" (the command puts "ddblab bench aggregator: "
// before it).
Result<AggregatorParams> ParseAggregatorFlags(
    std::span<const std::string> flags, bool virtual_clock);

Result<BenchOutcome> RunAggregatorBench(const BenchTarget& target,
                                        std::span<const std::string> flags,
                                        const ProgressFn& progress);

}  // namespace ddblab::harness::bench
