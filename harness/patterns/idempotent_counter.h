// harness/patterns/idempotent_counter.h: the idempotent counter pattern.
//
// A counter item {pk, count, history}. An increment carries an idempotency
// key; one UpdateItem adds to `count` and appends the key to `history` with
// the condition NOT contains(history, key), so a retry of an increment that
// was already applied (its response lost) fails the condition instead of
// counting again. The history is kept to a sliding idempotency window
// (default 5 minutes) by trimming its oldest entries.
//
// Variants (CounterVariant):
//   correct              the above; the trim is a second UpdateItem
//                        (REMOVE #history[0], ...) guarded by a condition on
//                        the last entry it removes, because DynamoDB rejects
//                        any single expression that appends and trims.
//   no_idempotency_key   ADD #count :amount; a retry after a lost response
//                        counts twice.
//   unbounded_history    the conditional append without any trim; the item
//                        grows until DynamoDB refuses it at 400 KB.
//   published_sliding_window  the published one-call window
//                        "SET ... list_append(...) DELETE #history[0]":
//                        DynamoDB rejects it (DELETE takes a path and a set
//                        value), so every increment fails.
//   remove_repair        the usual repair "SET ... list_append(...)
//                        REMOVE #history[0]": rejected too (the two paths
//                        overlap).
//   stale_read_modify_write  read the item with an eventually consistent
//                        GetItem, then PutItem count + amount and the
//                        history plus the key, unconditionally: a read that
//                        lags a recent increment writes over it (a lost
//                        update), with no concurrency at all.
//   consistent_read_modify_write  the same read with ConsistentRead, and the
//                        PutItem conditioned on the count it read
//                        (attribute_not_exists(pk) for a new counter); a
//                        failed condition reads again. Neither
//                        read-modify-write variant trims its history.
//
// History entries are "<issued-at epoch ms>#<key>": the time of the
// increment's first attempt (retries keep it) tells the trim how old an
// entry is. A retry later than the window after its first attempt may count
// again; that is the window's promise, not a bug.
//
// Thread-safety: Add/Read/Check may run from many threads (each call is one
// or two independent requests); the object itself is immutable after Open.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "harness/backend/backend.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::patterns {

enum class CounterVariant {
  kCorrect,
  kNoIdempotencyKey,
  kUnboundedHistory,
  kPublishedSlidingWindow,
  kRemoveRepair,
  kStaleReadModifyWrite,
  kConsistentReadModifyWrite,
};

// "correct", "no_idempotency_key", "unbounded_history",
// "published_sliding_window", "remove_repair", "stale_read_modify_write",
// "consistent_read_modify_write".
std::string_view CounterVariantName(CounterVariant variant);
Result<CounterVariant> ParseCounterVariant(std::string_view name);

struct CounterConfig {
  std::string table = "ddblab_idempotent_counter";
  CounterVariant variant = CounterVariant::kCorrect;
  // How long an increment's key is remembered after its first attempt.
  Duration window = std::chrono::minutes(5);
  // Attempts of one increment when an attempt fails with an error an SDK
  // retries (SdkRetries: a lost response, throttling, a server error), as
  // an SDK's standard retry mode makes (3).
  int max_attempts = 3;
  // At most this many entries removed by one trim request (keeps the
  // expression far below DynamoDB's 4 KB expression limit).
  int max_trim = 100;
};

// One logical increment. Retries reuse the same value.
struct Increment {
  std::string counter;  // the counter item's partition key (pk)
  std::string key;      // the idempotency key, unique per logical increment
  int64_t amount = 1;
  TimePoint issued_at;  // the first attempt's time (backend clock)
};

enum class IncrementOutcome {
  kApplied,    // this call added to the counter
  kDuplicate,  // the key was already in the history: nothing added
};

class IdempotentCounter {
 public:
  // Validates `config` (a ValidationException naming the bad field).
  static Result<IdempotentCounter> Open(Backend& backend, CounterConfig config);

  const CounterConfig& config() const { return config_; }

  // Creates the table (pk S, on demand) unless it exists.
  Status Setup();

  // Applies one increment, retrying what an SDK retries (SdkRetries: a
  // lost answer, throttling, a server error) up to config.max_attempts
  // attempts. The variant decides how.
  Result<IncrementOutcome> Add(const Increment& increment);
  // One attempt of Add, without the SDK's retries: one UpdateItem, or for
  // the read-modify-write variants one read and put (re-read after a
  // conditional failure, the pattern's own handling). A retry of an
  // attempt whose answer was lost is another attempt of the same
  // increment: the caller passes the same Increment (issued_at included).
  Result<IncrementOutcome> AddAttempt(const Increment& increment);

  // The counter's value (0 for a counter never incremented).
  Result<int64_t> Read(std::string_view counter);

  // The invariant: the counter equals `expected_total` (the sum of the
  // distinct logical increments the caller made) and its history holds no
  // key twice. Empty when it holds.
  Result<Problems> Check(std::string_view counter, int64_t expected_total);

 private:
  IdempotentCounter(Backend& backend, CounterConfig config)
      : backend_(&backend), config_(std::move(config)) {}

  json UpdateRequest(const Increment& increment) const;
  // The two read-modify-write variants: one attempt (read, then put).
  Result<IncrementOutcome> ReadModifyWrite(const Increment& increment);
  void Trim(const std::string& counter, const json& history);

  Backend* backend_;
  CounterConfig config_;
};

// The history entry of an increment: "<issued-at epoch ms>#<key>".
std::string HistoryEntry(const Increment& increment);

}  // namespace ddblab::harness::patterns
