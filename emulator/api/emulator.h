// emulator/api/emulator.h: the in-process DynamoDB.
//
//   auto emu = ddblab::Emulator::Open(ddblab::Options{});
//   Result<nlohmann::json> out = (*emu)->Call("PutItem", request);
//
// Call takes an operation name ("PutItem") and the request body exactly as
// DynamoDB's JSON 1.0 wire protocol carries it, and answers with the response
// body DynamoDB would send, or an Error with DynamoDB's exception name and
// message. CallStreams does the same for the DynamoDB Streams API
// (ListStreams, DescribeStream, GetShardIterator, GetRecords).
//
// Thread-safety: Call and CallStreams may be called from many threads at
// once; conditional writes on one item are linearizable. Reset waits for
// the calls in flight and holds every other call until it is done: a call
// sees the emulator as it was before the reset or as it is after, never
// half of it.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <shared_mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/deferred_answer.h"
#include "emulator/api/fault_draw.h"
#include "emulator/api/options.h"
#include "emulator/api/result.h"

namespace ddblab {

class Emulator;
namespace engine {
class EmulatorImpl;
// The engine behind an Emulator, for the layers that extend it (tests and
// benchmarks of the engine). Declared here only so that Emulator can befriend
// it; it is the engine's internal API (emulator/engine/emulator_impl.h), not
// part of the public surface. Emulator::Reset replaces it: the reference is
// good until the next Reset.
EmulatorImpl& ImplOf(Emulator& emulator);
}  // namespace engine

// TTL deletions waiting in one table (Emulator::TtlStatus).
struct TtlTableStatus {
  std::string table_name;
  int64_t waiting = 0;              // items with a scheduled deletion
  std::optional<int64_t> next_due;  // epoch seconds of the earliest one
};

// What Emulator::SplitStreamShards did: the shards it closed and the
// children it created (two per closed shard), by ShardId.
struct StreamShardSplit {
  std::vector<std::string> closed;
  std::vector<std::string> created;
};

// One fault the fault plan fired (Emulator::FaultLog), in firing order.
struct FaultLogEntry {
  int64_t seq = 0;  // 1, 2, ...
  TimePoint time;   // the emulator clock when it fired
  std::string operation;
  std::string table;    // "" when the call names no table
  nlohmann::json keys;  // array: the key of each item it hit
  std::string rule_id;  // the rule's "id" (default: its index)
  std::string effect;   // "throttle", "unprocessed", ...
};

// What Emulator::Reset sets once the emulator is empty; an unset member
// keeps the value in force.
struct ResetOptions {
  // The clock's new time, earlier than now too. Only on a ManualClock.
  std::optional<TimePoint> clock;
  std::optional<uint64_t> seed;            // Options.seed
  std::optional<std::string> ttl_delay;    // Options.ttl_delay
  std::optional<int> stream_shards;        // Options.stream_shards, 1..1024
  std::optional<Duration> shard_rollover;  // Options.shard_rollover (0: never)
};

class Emulator {
 public:
  // Opens (or creates) the database and loads its tables. Fails with an
  // InternalServerError if the database cannot be opened, and with a
  // ResourceInUseException if its file is open in another Emulator (of this
  // or another process): the file stays locked while this Emulator lives.
  static Result<std::unique_ptr<Emulator>> Open(Options options);
  ~Emulator();

  Emulator(const Emulator&) = delete;
  Emulator& operator=(const Emulator&) = delete;

  // A `latency` fault makes these wait (on clock()) until the answer is
  // due, at most fault::kMaxLatency (60 s) after the call. On a ManualClock
  // nobody else may be there to move it: the call moves the clock to the
  // due time itself (forward only) and answers then.
  Result<nlohmann::json> Call(std::string_view operation,
                              const nlohmann::json& request);
  Result<nlohmann::json> CallStreams(std::string_view operation,
                                     const nlohmann::json& request);
  // The same calls without the wait: they answer at once, with the time the
  // answer is due on clock() when a latency fault applies (unset
  // otherwise; on a ManualClock, moved to it as above, so it is reached).
  // For servers that hold answers without a thread each.
  DeferredAnswer CallDeferred(std::string_view operation,
                              const nlohmann::json& request);
  DeferredAnswer CallStreamsDeferred(std::string_view operation,
                                     const nlohmann::json& request);
  // Wakes every Call / CallStreams waiting for a due answer (they answer
  // at once) and makes later ones not wait: for shutdown, so that nothing
  // waits on a clock nobody moves. Thread-safe; cannot be undone.
  void StopWaiting();

  // The options in force (a copy: Reset changes them).
  Options options() const;
  Clock& clock();

  // A new run on the same emulator: drops every table (their items,
  // indexes, streams and TTL queues; in a file database too), the fault
  // plan with its counters and log, and the capacity ledger; then applies
  // `reset` (clock, seed, TTL delay, stream settings) and starts as an
  // emulator opened with those Options would: the same seed gives the same
  // fault draws, stream shard ids and UUIDs. The fault plan of the Options
  // is dropped too. Errors (nothing is changed): ValidationException for a
  // clock on a clock that is not a ManualClock ("the clock is the system
  // clock; it cannot be set"), a bad TTL delay (TtlDelay::Parse's message),
  // stream_shards outside 1..1024 or a negative rollover;
  // InternalServerError if the database cannot be emptied or reopened.
  Status Reset(const ResetOptions& reset);

  // TTL (DynamoDB's TTL and Streams documentation Part 1). Deletes every item
  // whose TTL deletion is due at clock().Now() (expiry + delay,
  // Options.ttl_delay), exactly as the background sweeper would, and returns
  // how many it deleted. With a ManualClock there is no background thread:
  // the deletions due run when the clock moves (advancing it is enough; the
  // next call, or TtlStatus, sees them done) or on this explicit sweep —
  // never because another call arrived, so between two moves an expired
  // item stays readable, as on DynamoDB before its background deletion.
  Result<int64_t> SweepTtl();
  // Every table with TTL enabled (by name): its scheduled deletions (after
  // the deletions due since the clock last moved).
  Result<std::vector<TtlTableStatus>> TtlStatus();

  // Streams (DynamoDB's TTL and Streams documentation Part 2). Splits the open
  // shard `shard_id` of the enabled stream of `table` (a name or ARN), or every
  // open shard, into two children each, as DynamoDB does when a partition
  // splits: the parent closes (EndingSequenceNumber) and an item's later
  // records go to the child covering its partition-key hash. Errors:
  // ResourceNotFoundException (no such table or shard), ValidationException (no
  // enabled stream, shard already closed).
  Result<StreamShardSplit> SplitStreamShards(
      std::string_view table, const std::optional<std::string>& shard_id = {});

  // Fault injection (emulator/fault/plan.h for the plan format). Replaces
  // the plan ({"rules": [...]}; null or no rules: none) and resets its
  // counters; a bad plan is a ValidationException naming the path
  // (`rules[2].effect: unknown effect "thorttle"`) and the old plan stays.
  Status SetFaultPlan(const nlohmann::json& plan);
  // Decides the draws of the plan's rules with 0 < probability < 1 in
  // place of the seeded generator (emulator/api/fault_draw.h); null: the
  // generator again. Kept across Reset. For a harness exploring both
  // outcomes of each draw; the hook runs with the fault layer's lock held
  // and must not call the emulator.
  void SetFaultDrawHook(FaultDrawHook hook);
  // Every fault fired so far (the newest 100000), oldest first.
  std::vector<FaultLogEntry> FaultLog() const;
  // The plan in force with, per rule, "matched" and "fired" counts.
  nlohmann::json FaultStatus() const;

  // Eventual consistency (Options.consistency): lagging global secondary
  // indexes and stale eventually consistent reads, seeded, on clock().
  // The status: the lags in force, per-table and per-index overrides, and
  // the index changes not yet visible:
  //   {"index_lag": "0s..2s", "read_lag": "1s",
  //    "tables": {"orders": {"indexes": {"byWindow": "5s"}}},
  //    "pending": {"orders": {"byWindow": 3}}}
  nlohmann::json ConsistencyStatus() const;
  // Changes the lags, e.g. {"index_lag": "2s", "read_lag": "0..1s",
  // "tables": {"orders": {"read_lag": "0", "indexes": {"byWindow": "5s"}}}}
  // (members left out stay as they are; a table's null drops its
  // overrides). A bad member is a ValidationException naming it, and
  // nothing changes.
  Status SetConsistency(const nlohmann::json& settings);
  // Makes every pending index change visible now; returns how many there
  // were.
  int64_t SettleConsistency();

  // Capacity enforcement (Options.capacity): per table and GSI touched so
  // far, the units consumed per clock second over the last hour and the
  // throttled requests by reason (engine/capacity/capacity_model.h gives the
  // shape), plus "Enforced": whether limits are enforced at all.
  nlohmann::json CapacityReport() const;

 private:
  friend engine::EmulatorImpl& engine::ImplOf(Emulator& emulator);
  explicit Emulator(std::unique_ptr<engine::EmulatorImpl> impl);
  DeferredAnswer MoveManualClock(DeferredAnswer answer);
  // Held shared by every call, exclusively by Reset (which replaces impl_).
  mutable std::shared_mutex reset_mu_;
  std::unique_ptr<engine::EmulatorImpl> impl_;
  std::shared_ptr<Clock> clock_;   // the same across resets
  std::stop_source stop_waiting_;  // StopWaiting(), across resets too
  FaultDrawHook draw_hook_;        // SetFaultDrawHook, across resets too
};

}  // namespace ddblab
