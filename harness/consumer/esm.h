// harness/consumer/esm.h: an event source mapping: reads a DynamoDB stream
// through a Backend and invokes a Function with AWS Lambda's delivery rules.
//
//   auto backend = OpenBackend("emulator?clock=manual");
//   auto config = ParseEsmConfig(R"({"TableName": "t", "FunctionName": "f",
//                                    "StartingPosition":
//                                    "TRIM_HORIZON"})"_json);
//   EventSourceMapping esm(**backend, *config,
//                          std::make_unique<CallableFunction>(handler));
//   esm.RunUntilIdle();   // or RunOnce() step by step
//
// Rules (Lambda's): one reader per shard, parents read to their end before
// their children; records of a batch come from one shard in sequence order;
// a batch goes out when BatchSize records are gathered, 6 MB is reached or
// the batching window (which starts when the previous invocation completed)
// has passed; ParallelizationFactor N splits a shard into N lanes by hash of
// the partition key, each lane strictly sequential; records not matching the
// filters are dropped and the checkpoint moves past them; a failed batch
// blocks its lane and is retried (bisected when BisectBatchOnFunctionError;
// a partial batch response retries from its lowest reported sequence
// number) until it succeeds, MaximumRetryAttempts is exceeded or its records
// are older than MaximumRecordAgeInSeconds (24 h, the stream retention, when
// -1); a discarded batch produces an on-failure record and delivery goes on.
// Tumbling windows carry state between invocations of a window and end with
// an isFinalInvokeForWindow invocation.
//
// Time comes only from backend.clock(). RunOnce performs one polling round:
// every readable shard is read, and every lane makes at most one invocation
// that is due. Nothing runs in the background, so with a ManualClock the
// invocations are the same on every run. StepRound performs the same round
// one unit at a time: one Streams call (DescribeTable at the start, a
// DescribeStream page, GetShardIterator, GetRecords) or one invocation, so
// that a scheduler may interleave other work between any two; RunOnce is
// StepRound until the round is over.
//
// Thread-safety: not thread-safe; one thread steps a mapping (a host that
// serves it from several threads must hold a lock around every call).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "emulator/api/random.h"
#include "emulator/api/result.h"
#include "harness/backend/backend.h"
#include "harness/consumer/config.h"
#include "harness/consumer/filter.h"
#include "harness/consumer/function.h"

namespace ddblab::harness::consumer {

struct EsmMetrics {
  int64_t invocations = 0;
  int64_t function_errors = 0;   // error, crash, timeout, bad response
  int64_t partial_failures = 0;  // responses reporting batchItemFailures
  int64_t not_delivered = 0;     // could not reach the function
  int64_t retries = 0;           // failed batches scheduled again
  int64_t bisections = 0;
  int64_t records_delivered = 0;  // counted once per invocation carrying it
  int64_t records_filtered = 0;   // dropped by FilterCriteria
  int64_t records_discarded = 0;  // given up (retries or age)
  int64_t iterator_age_ms = 0;    // age of the last record of the last batch
  json ToJson() const;
};

class EventSourceMapping {
 public:
  // `config` must have passed ValidateEsmConfig (ParseEsmConfig does).
  // `seed` drives the UUID and request ids.
  EventSourceMapping(Backend& backend, EsmConfig config,
                     std::unique_ptr<Function> function, uint64_t seed = 1);

  // One polling round (see the top of this file). Returns the number of
  // invocations made; an error only when the stream itself cannot be read
  // (then nothing was invoked).
  Result<int64_t> RunOnce();
  // RunOnce until a round makes no invocation, or max_rounds rounds. Returns
  // the invocations made.
  Result<int64_t> RunUntilIdle(int64_t max_rounds = 10000);

  // One unit of the polling round RunOnce makes: the round's next call or
  // invocation (the units that make neither, around it, run in the same
  // step). `what` says what it did ("GetRecords shardId-...: 2 records",
  // "invoke shardId-... lane 0: 3 records"); round_over is set by the
  // unit that ends the round. An error abandons the round (the next
  // StepRound starts a new one), as an error ends RunOnce.
  struct RoundStep {
    std::string what;
    int64_t invocations = 0;
    bool round_over = false;
  };
  Result<RoundStep> StepRound();

  // UpdateEventSourceMapping: Enabled false pauses (nothing is read or
  // invoked), true resumes from the checkpoint.
  Status Update(const json& request);

  const EsmConfig& config() const { return config_; }
  const std::string& uuid() const { return uuid_; }
  // "Enabled" or "Disabled".
  std::string State() const;
  // "No records processed", "OK" or "PROBLEM: Function call failed".
  const std::string& LastProcessingResult() const { return last_result_; }
  const EsmMetrics& metrics() const { return metrics_; }
  // On-failure invocation records, oldest first (kept whether or not a
  // DestinationConfig names a destination; ddblab has no SQS/SNS to send to).
  const std::vector<json>& failures() const { return failures_; }
  // The mapping object as GetEventSourceMapping answers, plus ddblab's
  // "Metrics".
  json Describe() const;
  // The sequence number below which everything of the shard is processed,
  // filtered or discarded (none yet: nullopt).
  std::optional<std::string> Checkpoint(const std::string& shard_id) const;
  // Shard ids in the order they were discovered.
  std::vector<std::string> Shards() const;
  // True while records read are neither processed, filtered nor discarded
  // (pending a batch, in a failed batch waiting to be retried, or in an open
  // tumbling window): a round that invoked nothing is caught up only
  // without them.
  bool HasOutstanding() const;

  struct Record {
    json event;  // as delivered
    std::string sequence_number;
    int64_t created = 0;  // ApproximateCreationDateTime, epoch seconds
    size_t bytes = 0;
    uint64_t ordinal = 0;  // position in the shard
  };

 private:
  struct Segment {
    std::vector<Record> records;
    int64_t attempts = 0;  // failed invocations of these records
  };
  struct Lane {
    std::deque<Record> pending;
    std::vector<Segment> stack;  // back() is invoked next
    std::optional<TimePoint> window_opened;
    // Tumbling window.
    std::optional<int64_t> tw_start;
    json tw_state = json::object();
    bool tw_terminated_early = false;
  };
  struct Shard {
    std::string id;
    std::string parent;
    bool done = false;
    bool reading_done = false;
    bool use_latest = false;
    std::string iterator;
    std::vector<std::string> sequence_numbers;  // by ordinal
    std::set<uint64_t> outstanding;
    std::vector<Lane> lanes;
  };

  // Where StepRound is in its round.
  enum class Stage { kBegin, kDiscover, kShard, kPoll, kLanes };

  Status Start();
  // One DescribeStream page of the discovery; *more when another follows.
  Status DiscoverPage(bool* more);
  // One Streams call of reading `shard` (GetShardIterator or GetRecords),
  // or none when reading is over for this round (*finished).
  Status PollOnce(Shard& shard, bool* finished, std::string* what);
  // Runs the units that make no call from the current position: skipped
  // shards, lanes with nothing to do, the end of a shard and of the round.
  void SkipIdle(RoundStep* out);
  Status ReadIterator(Shard& shard);
  // One lane's turn; true when it invoked the function.
  bool StepLane(Shard& shard, Lane& lane);
  bool InvokeTop(Shard& shard, Lane& lane);
  bool InvokeFinal(Shard& shard, Lane& lane);
  bool BatchDue(const Lane& lane) const;
  void FormBatch(Lane& lane);
  void Succeed(Shard& shard, Lane& lane, size_t count);
  void Fail(Shard& shard, Lane& lane);
  void Discard(Shard& shard, Lane& lane, size_t count,
               const std::string& condition);
  void Rebalance(Shard& shard);
  size_t LaneOf(const json& record) const;
  int64_t WindowOf(const Record& r) const;
  json WindowFields(const Shard& shard, const Lane& lane, bool final) const;
  std::string NewUuid();
  TimePoint Now() const { return backend_.clock().Now(); }

  Backend& backend_;
  EsmConfig config_;
  std::unique_ptr<Function> function_;
  FilterSet filters_;
  Rng rng_;
  std::string uuid_;
  std::string stream_arn_;
  std::string hash_key_;
  bool started_ = false;
  bool initial_discovery_done_ = false;
  // StepRound's position.
  Stage stage_ = Stage::kBegin;
  std::optional<std::string> discover_after_;
  bool discover_initial_ = false;
  size_t shard_pos_ = 0;
  int poll_reads_ = 0;
  size_t lane_pos_ = 0;
  std::vector<std::string> shard_order_;
  std::map<std::string, Shard> shards_;
  std::string last_result_ = "No records processed";
  int64_t last_modified_ = 0;
  EsmMetrics metrics_;
  std::vector<json> failures_;
};

}  // namespace ddblab::harness::consumer
