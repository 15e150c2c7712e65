// harness/patterns/ttl_window_sweeper.h: deleting expired items on time.
//
// DynamoDB's own TTL deletes an expired item "typically within a few days"
// (48 hours is the usual figure). The published fix: every item carries
// `ttl` (epoch seconds) and `expirationWindow`, the window of `window`
// length its ttl falls in, written "<start>_<end>" in ISO 8601 UTC with
// milliseconds ("2024-01-01T00:01:00.000Z_2024-01-01T00:02:00.000Z"). A GSI
// on expirationWindow (HASH) + ttl (RANGE, N) lets a sweeper, triggered every
// `frequency`, Query a window for ttl < now and delete what it finds with
// BatchWriteItem in chunks of 25, retrying UnprocessedItems. DynamoDB's TTL
// stays on as the backstop.
//
// Windows are half-open: a ttl exactly on a boundary belongs to the window
// that starts there (its start is floor(ttl / window) * window).
//
// Variants (SweeperVariant):
//   correct             the window is a multiple of the frequency; each
//                       sweep queries the current window and the previous
//                       one (the one that closed since the last trigger),
//                       every page of each Query, and retries
//                       UnprocessedItems up to max_retries times with
//                       exponential backoff (a batch DynamoDB throttles
//                       whole counts as all unprocessed), reporting what
//                       is left.
//   window_not_multiple_of_frequency  the published sweep of the current
//                       window only, with a window that is not a multiple
//                       of the frequency: items whose window closed between
//                       two triggers stay until DynamoDB's TTL.
//   no_pagination       reads one page per Query: a window holding more
//                       than 1 MB of items keeps the rest.
//   no_unprocessed_retry  ignores UnprocessedItems: those items stay.
//
// Thread-safety: one Sweep at a time per sweeper (it is one scheduled
// job); PutItem, Check and DeleteKeys may run from any thread.
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
};

// "correct", "window_not_multiple_of_frequency", "no_pagination",
// "no_unprocessed_retry".
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
  // Deletes per BatchWriteItem (DynamoDB's maximum is 25).
  int chunk = 25;
  // Retries of a chunk's UnprocessedItems; the wait before retry n is
  // backoff * 2^(n-1).
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
  int batches = 0;                   // BatchWriteItem calls, retries included
  int retries = 0;                   // of those, retries of UnprocessedItems
  Duration waited{};                 // backoff waits
  int unprocessed_left = 0;          // deletes given up (or ignored)
  // Capacity units DynamoDB reported (ReturnConsumedCapacity TOTAL): read
  // by the Queries, written by the BatchWriteItem calls (index writes
  // included).
  double read_units = 0;
  double write_units = 0;
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
  // queries, at the backend clock's now.
  Result<SweepReport> Sweep();

  // The parts of one Sweep, for callers that spread a trigger's work over
  // several workers (harness/bench): the windows this variant queries at
  // `now` (epoch seconds), the expired keys ({"pk": ...}) of one window, and
  // deleting keys in chunks. FindExpired and DeleteKeys add to `report`;
  // DeleteKeys may run from several threads at once, each with its own
  // report.
  std::vector<std::string> WindowsAt(int64_t now) const;
  Result<std::vector<json>> FindExpired(const std::string& window, int64_t now,
                                        SweepReport* report);
  Status DeleteKeys(std::vector<json> keys, SweepReport* report);

  // The invariant after a sweep at `swept_at`: no item with ttl < swept_at
  // is left, and every item's expirationWindow is the window of its ttl.
  Result<Problems> Check(TimePoint swept_at);

 private:
  TtlWindowSweeper(Backend& backend, SweeperConfig config)
      : backend_(&backend), config_(std::move(config)) {}

  Backend* backend_;
  SweeperConfig config_;
};

}  // namespace ddblab::harness::patterns
