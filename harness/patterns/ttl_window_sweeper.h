// harness/patterns/ttl_window_sweeper.h: deleting expired items on time.
//
// DynamoDB's own TTL deletes an expired item "typically within a few days"
// (48 hours is the usual figure). The published fix: every item carries
// `ttl` (epoch seconds) and `expirationWindow`, the window of `window`
// length its ttl falls in, written "<start>_<end>" in ISO 8601 UTC with
// milliseconds ("2024-01-01T00:01:00.000Z_2024-01-01T00:02:00.000Z"). A GSI
// on expirationWindow (HASH) + ttl (RANGE, N) lets a sweeper, triggered every
// `frequency`, Query a window for ttl < now and delete what it finds. The
// published sweeper deletes with BatchWriteItem in chunks of 25, retrying
// UnprocessedItems; BatchWriteItem takes no condition, so an item whose ttl
// another writer extended between the Query and the delete is deleted all
// the same. The correct sweeper deletes each item with DeleteItem on the
// condition `#ttl < :now` (still expired as of the sweep's now), as AWS's
// TTL guidance filters expired items out of writes with a condition on the
// TTL attribute
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html);
// a refused condition means the item moved on (or is gone) and is kept.
// DynamoDB's TTL stays on as the backstop.
//
// Windows are half-open: a ttl exactly on a boundary belongs to the window
// that starts there (its start is floor(ttl / window) * window).
//
// Variants (SweeperVariant):
//   correct             the window is a multiple of the frequency; each
//                       sweep queries the current window and the previous
//                       one (the one that closed since the last trigger),
//                       every page of each Query, and deletes each item
//                       with a conditional DeleteItem (`#ttl < :now`),
//                       retrying a throttled one up to max_retries times
//                       with exponential backoff, reporting what is left.
//   unconditional_delete  as correct, but deletes with BatchWriteItem in
//                       chunks (retrying UnprocessedItems up to max_retries
//                       times with exponential backoff; a batch DynamoDB
//                       throttles whole counts as all unprocessed): an item
//                       whose ttl was extended after the Query is deleted.
//   The naive variants below delete with BatchWriteItem too.
//   window_not_multiple_of_frequency  the published sweep of the current
//                       window only, with a window that is not a multiple
//                       of the frequency: items whose window closed between
//                       two triggers stay until DynamoDB's TTL.
//   no_pagination       reads one page per Query: a window holding more
//                       than 1 MB of items keeps the rest.
//   no_unprocessed_retry  ignores UnprocessedItems: those items stay.
//
// A sweep is a sequence of single DynamoDB calls (a Query page, one
// DeleteItem, one BatchWriteItem attempt): StartSweep() and SweepStep() make
// them one at a time, so that a scheduler may run other actors between any
// two; Sweep() makes them all.
//
// Thread-safety: one Sweep (or SweepRun) at a time per sweeper (it is one
// scheduled job); PutItem, Check and DeleteKeys may run from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "harness/backend/backend.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::patterns {

enum class SweeperVariant {
  kCorrect,
  kWindowNotMultipleOfFrequency,
  kNoPagination,
  kNoUnprocessedRetry,
  kUnconditionalDelete,
};

// "correct", "window_not_multiple_of_frequency", "no_pagination",
// "no_unprocessed_retry", "unconditional_delete".
std::string_view SweeperVariantName(SweeperVariant variant);
Result<SweeperVariant> ParseSweeperVariant(std::string_view name);

struct SweeperConfig {
  std::string table = "ddblab_ttl_window";
  std::string index = "expirationWindow-ttl-index";
  SweeperVariant variant = SweeperVariant::kCorrect;
  // Length of an expiration window and the sweeper's trigger period, in
  // whole seconds.
  Duration window = std::chrono::minutes(1);
  Duration frequency = std::chrono::minutes(1);
  // Deletes per BatchWriteItem (DynamoDB's maximum is 25); the correct
  // variant's DeleteKeys takes keys in chunks of this size too (the bench
  // hands chunks to its workers).
  int chunk = 25;
  // Retries of a chunk's UnprocessedItems (of a throttled DeleteItem, for
  // the correct variant); the wait before retry n is backoff * 2^(n-1).
  int max_retries = 3;
  Duration backoff = std::chrono::milliseconds(100);
  // The GSI's projection: "ALL" (what an index defined without a
  // projection gets in most tools) or "KEYS_ONLY".
  std::string projection = "ALL";
  // Turn on DynamoDB's own TTL on `ttl` as the backstop.
  bool native_ttl = true;
};

struct SweepReport {
  TimePoint now;                     // the sweep's "now" (ttl < now)
  std::vector<std::string> windows;  // the windows queried
  int pages = 0;                     // Query pages read
  int found = 0;                     // expired items the Queries returned
  int deleted = 0;                   // deletes DynamoDB processed
  int kept = 0;     // conditional deletes refused: the item's ttl moved on
  int batches = 0;  // BatchWriteItem calls, retries included
  int delete_item_calls = 0;  // DeleteItem calls, retries included
  int retries = 0;    // of those calls, retries (UnprocessedItems, throttles)
  Duration waited{};  // backoff waits
  int unprocessed_left = 0;  // deletes given up (or ignored)
  // Capacity units DynamoDB reported (ReturnConsumedCapacity TOTAL): read
  // by the Queries, written by the BatchWriteItem calls (index writes
  // included).
  double read_units = 0;
  double write_units = 0;
};

class TtlWindowSweeper;

// One trigger in progress (StartSweep / SweepStep).
class SweepRun {
 public:
  bool done() const { return phase_ == Phase::kDone; }
  const SweepReport& report() const { return report_; }

 private:
  friend class TtlWindowSweeper;
  enum class Phase { kQuery, kDelete, kDone };
  Phase phase_ = Phase::kQuery;
  SweepReport report_;
  int64_t now_ = 0;         // the sweep's now, epoch seconds
  size_t window_ = 0;       // index into report_.windows
  json query_;              // the window's next Query request
  int page_ = 0;            // Query pages of this window so far
  std::vector<json> keys_;  // the window's expired keys
  size_t next_ = 0;         // next key (DeleteItem) or chunk start
  json batch_;              // the BatchWriteItem request in flight
  int attempt_ = 0;         // retries of the current delete so far
};

class TtlWindowSweeper {
 public:
  // Validates `config` (a ValidationException naming the bad field).
  static Result<TtlWindowSweeper> Open(Backend& backend, SweeperConfig config);

  const SweeperConfig& config() const { return config_; }

  // Creates the table (pk S) with the GSI and, if native_ttl, enables TTL
  // on `ttl`, unless already so.
  Status Setup();

  // "<start>_<end>" of the window holding `epoch_seconds`.
  std::string WindowOf(int64_t epoch_seconds) const;

  // Writes an item expiring at `ttl_epoch_seconds` with `attributes` (pk,
  // ttl and expirationWindow are the pattern's).
  Status PutItem(std::string_view pk, int64_t ttl_epoch_seconds,
                 const json& attributes = json::object());

  // One trigger: deletes the expired items of the windows this variant
  // queries, at the backend clock's now. StartSweep() + SweepStep() until
  // done.
  Result<SweepReport> Sweep();

  // The same trigger, one DynamoDB call per SweepStep: StartSweep reads the
  // clock and makes no call; each SweepStep makes exactly one call (waiting
  // the backoff first, for a retry) and returns what it did, e.g.
  // "Query 2024-01-01T00:01:00.000Z_2024-01-01T00:02:00.000Z page 1: 3
  // expired", "DeleteItem session-3: deleted", "BatchWriteItem 25: 0
  // unprocessed". An error ends nothing: the caller stops the run.
  SweepRun StartSweep();
  Result<std::string> SweepStep(SweepRun& run);

  // The parts of one Sweep, for callers that spread a trigger's work over
  // several workers (harness/bench): the windows this variant queries at
  // `now` (epoch seconds), the expired keys of one window ({"pk": ...}, with
  // the "ttl" read for the correct variant), and deleting them as of `now`
  // (the variant's way). FindExpired and DeleteKeys add to `report`;
  // DeleteKeys may run from several threads at once, each with its own
  // report.
  std::vector<std::string> WindowsAt(int64_t now) const;
  Result<std::vector<json>> FindExpired(const std::string& window, int64_t now,
                                        SweepReport* report);
  Status DeleteKeys(std::vector<json> keys, int64_t now, SweepReport* report);

  // The invariant after a sweep at `swept_at`: no item with ttl < swept_at
  // is left, and every item's expirationWindow is the window of its ttl.
  Result<Problems> Check(TimePoint swept_at);

 private:
  TtlWindowSweeper(Backend& backend, SweeperConfig config)
      : backend_(&backend), config_(std::move(config)) {}

  bool conditional() const {
    return config_.variant == SweeperVariant::kCorrect;
  }
  json QueryRequest(const std::string& window, int64_t now) const;
  // One Query page: appends the keys found, sets the request's
  // ExclusiveStartKey; returns whether another page is to be read.
  Result<bool> QueryPage(json& request, std::vector<json>* keys,
                         SweepReport* report);
  // The BatchWriteItem request deleting keys[begin, end) (moved out).
  json ChunkRequest(std::vector<json>& keys, size_t begin, size_t end) const;
  // One BatchWriteItem attempt (the `attempt`th retry; waits the backoff
  // first): returns whether the chunk is finished (all processed, or what
  // is left given up); else `request` holds the unprocessed deletes. Writes
  // what happened to *what.
  Result<bool> BatchAttempt(json& request, int attempt, SweepReport* report,
                            std::string* what);
  // One conditional DeleteItem (the `attempt`th retry; waits first): returns
  // whether the key is finished; writes "deleted", "kept (...)",
  // "throttled" or "given up" to *what.
  Result<bool> DeleteAttempt(const json& key, int64_t now, int attempt,
                             SweepReport* report, std::string* what);

  Backend* backend_;
  SweeperConfig config_;
};

}  // namespace ddblab::harness::patterns
