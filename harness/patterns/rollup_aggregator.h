// harness/patterns/rollup_aggregator.h: real-time rollups from a stream.
//
// Transfer records (TransferId S; CustomerId S, TransferTime N epoch ms,
// Bytes N) go into a source table with a NEW_IMAGE stream. A consumer (an
// event source mapping, harness/consumer) adds each INSERT to the
// customer's item for that day in the rollup table (CustomerId S HASH, Day
// S RANGE, Day = the UTC midnight of TransferTime as JavaScript's
// toISOString writes it, "2024-01-01T00:00:00.000Z"):
//   UpdateItem ADD #TotalBytes :b, #CombinedRecords :one
//
// Variants (RollupVariant):
//   published  the published function: the UpdateItem for each INSERT,
//              errors swallowed (logged), the batch always reported a
//              success. A batch delivered again (the function failed or
//              timed out part way, Lambda retries the whole batch) counts
//              its first records twice; a lost response retried by the SDK
//              counts twice; a write still throttled after the SDK's
//              retries is dropped.
//   correct    each INSERT is one TransactWriteItems: a dedupe item
//              (RecordId = the stream record's eventID, `ttl` after
//              dedupe_retention) Put with attribute_not_exists(RecordId),
//              and the same ADD. A record seen before cancels on the
//              condition and is skipped; a write that still fails after the
//              SDK's retries is reported with ReportBatchItemFailures, so
//              it and the records after it are delivered again, and the
//              records before it are not.
// Both retry a request as the AWS SDKs do (config.max_attempts attempts on
// throttling, 5xx and unknown outcomes, waiting backoff * 2^(n-1) on the
// backend's clock).
//
// The invariant (Check, after Poll has delivered everything): for each
// customer and day, TotalBytes and CombinedRecords equal the sums over the
// transfers in the source table.
//
// Thread-safety: not thread-safe (one thread drives an aggregator, as one
// event source mapping is stepped by one thread). Moving it is fine.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "harness/backend/backend.h"
#include "harness/consumer/esm.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::patterns {

enum class RollupVariant {
  kCorrect,
  kPublished,
};

// "correct", "published".
std::string_view RollupVariantName(RollupVariant variant);
Result<RollupVariant> ParseRollupVariant(std::string_view name);

struct RollupConfig {
  std::string source_table = "ddblab_transfers";
  std::string rollup_table = "ddblab_daily_rollup";
  // The correct variant's dedupe items (RecordId S, TTL on `ttl`).
  std::string dedupe_table = "ddblab_daily_rollup_dedupe";
  RollupVariant variant = RollupVariant::kCorrect;
  // The mapping's FunctionName.
  std::string function_name = "rollup";
  // Attempts of one request, as an SDK's standard retry mode makes (3).
  int max_attempts = 3;
  // The wait before SDK retry n is backoff * 2^(n-1).
  Duration backoff = std::chrono::milliseconds(50);
  // How long a dedupe item is kept; at least the stream's 24-hour
  // retention, the longest a record can be delivered again.
  Duration dedupe_retention = std::chrono::hours(48);
  // Extra CreateEventSourceMapping fields (BatchSize, MaximumRetryAttempts,
  // BisectBatchOnFunctionError, ...) over the pattern's own; TableName,
  // StartingPosition (TRIM_HORIZON) and FunctionResponseTypes are the
  // pattern's and refused.
  json mapping = json::object();
  // Seeds the mapping's UUID and request ids.
  uint64_t seed = 1;
  // ReturnConsumedCapacity on the function's writes: empty (not asked),
  // TOTAL, INDEXES or NONE. A benchmark that meters every call asks here
  // instead of adding it to (a copy of) each request.
  std::string return_consumed_capacity;
  // Called before the function handles each record (Lambda's record); an
  // error makes that invocation fail there, as a crash or a timeout part way
  // through a batch does: what was written before stays written. For tests
  // and scenarios; null means never.
  std::function<Status(const json& record)> before_record;
};

struct Transfer {
  std::string id;  // TransferId, unique per transfer
  std::string customer;
  int64_t bytes = 0;
  TimePoint time;  // TransferTime (stored as epoch milliseconds)
};

struct RollupStats {
  int64_t applied = 0;           // records added to a rollup
  int64_t duplicates = 0;        // correct: records skipped as seen before
  int64_t swallowed_errors = 0;  // published: writes given up and ignored
  int64_t failed_records = 0;    // correct: records reported as failed
  int64_t sdk_retries = 0;       // requests sent again
};

class RollupAggregator {
 public:
  // Validates `config` (a ValidationException naming the bad field; the
  // mapping's own errors as the consumer gives them).
  static Result<RollupAggregator> Open(Backend& backend, RollupConfig config);

  const RollupConfig& config() const;

  // Creates the source table (TransferId S, NEW_IMAGE stream), the rollup
  // table (CustomerId S, Day S) and, for the correct variant, the dedupe
  // table (RecordId S, TTL on `ttl`), each unless it exists.
  Status Setup();

  // "2024-01-01T00:00:00.000Z": the UTC day of `t`.
  static std::string DayOf(TimePoint t);

  // Writes a transfer to the source table (PutItem with
  // attribute_not_exists(TransferId), retried while its outcome is
  // unknown). False when the transfer was already there.
  Result<bool> RecordTransfer(const Transfer& transfer);

  // Delivers everything due now (the mapping's RunUntilIdle). Returns the
  // invocations made.
  Result<int64_t> Poll(int64_t max_rounds = 1000);

  // The function body: a DynamoDB stream event in, the response out
  // ({"batchItemFailures": [...]} for the correct variant, null for the
  // published one), or the error a failing invocation throws.
  Result<json> Handle(const json& event);

  const RollupStats& stats() const;
  const consumer::EventSourceMapping& mapping() const { return *esm_; }

  // The invariant: every customer-day's TotalBytes and CombinedRecords
  // equal the sums over the source table's transfers (Scans of both).
  Result<Problems> Check();

  struct State;

 private:
  RollupAggregator(std::shared_ptr<State> state,
                   std::unique_ptr<consumer::EventSourceMapping> esm)
      : state_(std::move(state)), esm_(std::move(esm)) {}

  std::shared_ptr<State> state_;
  std::unique_ptr<consumer::EventSourceMapping> esm_;
};

}  // namespace ddblab::harness::patterns
