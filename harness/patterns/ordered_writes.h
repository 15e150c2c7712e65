// harness/patterns/ordered_writes.h: writes ordered by a client timestamp.
//
// Writers stamp every write with their own timestamp (`ts`, a number, e.g.
// epoch milliseconds). Writes can arrive out of order (retries, queues,
// several writers); the item must end up holding the write with the
// highest timestamp, whatever the arrival order.
//
//   put     PutItem {pk, sk, ts, ...} if attribute_not_exists(#ts) OR
//           :ts >= #ts (an equal timestamp is a retry and may land again)
//   delete  a tombstone put under the same condition: the key, `ts`,
//           `Deleted` = true and `ttl` = now + tombstone_ttl (7 days); the
//           other attributes are dropped. DynamoDB's TTL removes it later.
//   get / query  suppress tombstones (Query filters
//           attribute_not_exists(#deleted)).
// A write refused by the condition is stale: it lost to a newer one.
//
// Variants (OrderedVariant):
//   correct              the above.
//   unconditional_puts   puts and tombstones without the condition: the last
//                        arrival wins, even when it is older.
//   hard_deletes         conditional puts, but a delete is a DeleteItem: a
//                        late older put finds no item and resurrects it.
//
// OrderedLedger records what the writers sent (not the arrival order) and
// gives Check the state the table must reach.
//
// Thread-safety: OrderedWrites may be used from many threads (each call is
// one request, or pages of one Query); OrderedLedger is not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "harness/backend/backend.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::patterns {

enum class OrderedVariant { kCorrect, kUnconditionalPuts, kHardDeletes };

// "correct", "unconditional_puts", "hard_deletes".
std::string_view OrderedVariantName(OrderedVariant variant);
Result<OrderedVariant> ParseOrderedVariant(std::string_view name);

struct OrderedConfig {
  std::string table = "ddblab_ordered_writes";
  OrderedVariant variant = OrderedVariant::kCorrect;
  // How long a tombstone stays (its `ttl` is now + this).
  Duration tombstone_ttl = std::chrono::hours(24 * 7);
};

enum class WriteOutcome {
  kApplied,
  kStale,  // refused: the item holds a newer write
};

// How a write ended, as its writer knows it. A write never settled counts
// as answered.
enum class WriteFate {
  kAnswered,  // an answer came: applied, or refused as stale
  kRefused,   // a definite error (a throttle, a 500 given up on): not applied
  kUnknown,   // every attempt's answer was lost: it may or may not have applied
};

// What the writers sent, in any arrival order, and how each write ended.
class OrderedLedger {
 public:
  // Record a write; return its id for Settle.
  size_t Put(std::string pk, std::string sk, int64_t ts, json attributes);
  size_t Delete(std::string pk, std::string sk, int64_t ts);
  void Settle(size_t id, WriteFate fate);

  struct Write {
    int64_t ts = 0;
    bool deleted = false;
    json attributes;  // non-key attributes of a put
    WriteFate fate = WriteFate::kAnswered;
  };
  using Key = std::pair<std::string, std::string>;  // (pk, sk)
  // For each (pk, sk): its writes in the order recorded.
  const std::map<Key, std::vector<Write>>& writes() const { return writes_; }

 private:
  size_t Record(std::string pk, std::string sk, Write write);
  std::map<Key, std::vector<Write>> writes_;
  std::vector<std::pair<Key, size_t>> ids_;  // id -> (key, index)
};

class OrderedWrites {
 public:
  // Validates `config` (a ValidationException naming the bad field).
  static Result<OrderedWrites> Open(Backend& backend, OrderedConfig config);

  const OrderedConfig& config() const { return config_; }

  // Creates the table (pk S HASH, sk S RANGE, on demand) and enables TTL on
  // `ttl`, unless already so.
  Status Setup();

  // `attributes`: the item's other attributes (an object of AttributeValues;
  // pk, sk, ts, Deleted and ttl are the pattern's own and refused).
  Result<WriteOutcome> Put(std::string_view pk, std::string_view sk, int64_t ts,
                           const json& attributes);
  Result<WriteOutcome> Delete(std::string_view pk, std::string_view sk,
                              int64_t ts);

  // The live item, or nullopt when absent or a tombstone.
  Result<std::optional<json>> Get(std::string_view pk, std::string_view sk);
  // The live items of a partition (every page), in sort key order.
  Result<std::vector<json>> Query(std::string_view pk);

  // The invariant: every key of `ledger` holds its newest answered write
  // (a tombstone or nothing where that is a delete; nothing where no write
  // was answered) or a newer write whose outcome is unknown (Elle's rule: a
  // call whose answer was lost may or may not have applied), and Query
  // shows exactly the live ones. Refused writes are not expected.
  Result<Problems> Check(const OrderedLedger& ledger);

 private:
  OrderedWrites(Backend& backend, OrderedConfig config)
      : backend_(&backend), config_(std::move(config)) {}

  Result<WriteOutcome> Write(json request, bool conditional);

  Backend* backend_;
  OrderedConfig config_;
};

}  // namespace ddblab::harness::patterns
