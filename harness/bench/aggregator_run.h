// harness/bench/aggregator_run.h: one run of the aggregator benchmark
// (internal to harness/bench; RunAggregatorBench in aggregator_bench.h is
// the entry point). It owns the metered backend, the aggregator, the
// mapping and what is measured:
//   aggregator_bench.cc   setup (tables, clock sync, shards), the timed
//                         function, the polling loop, table deletion
//   aggregator_report.cc  the producer, the results and checks, and
//                         RunAggregatorBench
//
// Thread-safety: one thread runs it; on a real clock Loop runs the
// producer on a second thread (produced_ is shared, the rest is each
// side's own).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emulator/api/random.h"
#include "harness/bench/aggregator_bench.h"
#include "harness/bench/metered_backend.h"
#include "harness/consumer/esm.h"
#include "harness/patterns/rollup_aggregator.h"

namespace ddblab::harness::bench {

class AggregatorRun {
 public:
  AggregatorRun(const BenchTarget& target, AggregatorParams params,
                const ProgressFn& progress);

  // Creates the tables, syncs the clocks, sets the shards, builds the
  // mapping.
  Status Setup();
  // Produces and consumes until every record is delivered and the mapping is
  // idle, or the drain timeout passes.
  Status Loop();
  // Fills the outcome's results and checks (Scans the tables).
  Result<BenchOutcome> Finish();
  // Deletes the three tables unless --keep-tables (ResourceNotFound is
  // fine; tables still being created are waited for).
  Status DeleteTables();

  BenchOutcome& outcome() { return outcome_; }

 private:
  void Unavailable(std::string what, std::string why);
  Status SyncClocks();
  Result<json> StreamShards();
  Status SetShards();
  // Writes records [produced_, upto).
  Status Produce(int64_t upto);
  Status PutOne(json item);
  Status PutBatch(std::vector<json> items);
  json NextItem();
  Result<json> Invoke(const json& event);
  // Calls progress when it moved by 1 %.
  void Report();
  Status Advance(Duration d);
  // Records due by `now` (all of them when unpaced), in whole batches of 25
  // while more remain; and when the next write comes due.
  int64_t DueBy(TimePoint start, TimePoint now) const;
  TimePoint NextDue(TimePoint start) const;
  Status LoopVirtual(TimePoint start,
                     std::chrono::steady_clock::time_point wall_start);
  Status LoopReal(TimePoint start,
                  std::chrono::steady_clock::time_point wall_start);

  const BenchTarget& target_;
  AggregatorParams p_;
  const ProgressFn& progress_;
  MeteredBackend backend_;
  Rng rng_;
  patterns::RollupConfig config_;
  std::unique_ptr<patterns::RollupAggregator> aggregator_;
  std::unique_ptr<consumer::EventSourceMapping> esm_;
  bool tables_created_ = false;
  int64_t open_shards_ = 0;
  BenchOutcome outcome_;

  // Measured.
  // Written by the producer (its own thread on a real clock), read by the
  // consumer's progress.
  std::atomic<int64_t> produced_{0};
  int64_t producer_retries_ = 0;
  std::vector<uint8_t> delivered_;  // by record index
  int64_t delivered_unique_ = 0;
  int64_t invocations_ = 0;
  int64_t injected_failures_ = 0;
  std::vector<double> ages_ms_;
  Duration round_cost_{};
  bool timed_out_ = false;
  double last_progress_ = -1;
  std::chrono::steady_clock::duration producer_wall_{};
  std::chrono::steady_clock::duration loop_wall_{};
  Duration loop_clock_{};
  double loop_cpu_seconds_ = 0;  // the process's CPU time in Loop
};

}  // namespace ddblab::harness::bench
