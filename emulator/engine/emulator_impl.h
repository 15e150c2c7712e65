// emulator/engine/emulator_impl.h: the engine behind ddblab::Emulator.
//
// Owns the Options, the clock (a SystemClock unless Options.clock is set),
// the seeded Rng, the ItemStore (SQLite), the table Catalog, the two
// dispatchers (DynamoDB and DynamoDB Streams APIs) and the ChangeSinks.
//
// Locking: one engine mutex (Lock()) serialises every access to the store,
// the catalog, the Rng and the sinks. Handlers parse and validate their
// request without it, then hold it for "look up table, read, check,
// write, commit" — which makes conditional writes linearizable. Never call
// Call() while holding the lock (it is not recursive).
//
// Table status: with Options.table_status_delay > 0, CREATING / UPDATING /
// DELETING last that long on the clock; transitions happen lazily when a
// table is looked up (FindTable, SettleAll), never on a timer.
//
// Thread-safety: Call/CallStreams are safe from many threads. Methods
// marked "lock held" need Lock() to be held by the caller.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/options.h"
#include "emulator/api/random.h"
#include "emulator/api/result.h"
#include "emulator/engine/catalog.h"
#include "emulator/engine/change_event.h"
#include "emulator/engine/dispatcher.h"
#include "emulator/storage/item_store.h"

namespace ddblab::engine {

// How FindTable treats a table's status and words "not found".
enum class TableLookup {
  // Data plane: the table must be ACTIVE or UPDATING; missing, CREATING or
  // DELETING -> ResourceNotFoundException "Requested resource not found".
  kData,
  // Control plane: any status; missing -> ResourceNotFoundException
  // "Requested resource not found: Table: <name> not found".
  kControl,
};

class TtlSweeper;

class EmulatorImpl {
 public:
  // `decorate`, if set, wraps the SQLite store before anything uses it (a
  // storage::ForwardingItemStore subclass that fails or observes chosen
  // calls: fault injection, tests).
  using StoreDecorator = std::function<std::unique_ptr<storage::ItemStore>(
      std::unique_ptr<storage::ItemStore>)>;
  static Result<std::unique_ptr<EmulatorImpl>> Open(
      Options options, const StoreDecorator& decorate = nullptr);
  ~EmulatorImpl();

  EmulatorImpl(const EmulatorImpl&) = delete;
  EmulatorImpl& operator=(const EmulatorImpl&) = delete;

  Result<nlohmann::json> Call(std::string_view operation,
                              const nlohmann::json& request);
  Result<nlohmann::json> CallStreams(std::string_view operation,
                                     const nlohmann::json& request);

  const Options& options() const { return options_; }
  Clock& clock() const { return *clock_; }
  TimePoint Now() const { return clock_->Now(); }
  Dispatcher& dispatcher() { return dispatcher_; }
  Dispatcher& streams_dispatcher() { return streams_dispatcher_; }

  // Adds a sink for item and table changes. Call while building the
  // emulator (before concurrent use) or with the lock held.
  void AddChangeSink(std::shared_ptr<ChangeSink> sink);

  // Fault seam for partial batches (ops_batch_get.cc, ops_batch_write.cc).
  // When set, it is called once per write request of a BatchWriteItem and
  // once per key of a BatchGetItem that passed validation, with the engine
  // lock held (it must not call into the emulator): the operation name, the
  // table name or ARN as the request gave it, and the WriteRequest / Key
  // JSON. Returning true leaves that request unprocessed: it is not applied
  // (not read) and comes back in UnprocessedItems (UnprocessedKeys). Null,
  // the default, processes everything. Set it before concurrent use.
  using BatchUnprocessedHook =
      std::function<bool(std::string_view operation, std::string_view table,
                         const nlohmann::json& request)>;
  void SetBatchUnprocessedHook(BatchUnprocessedHook hook) {
    batch_unprocessed_hook_ = std::move(hook);
  }
  const BatchUnprocessedHook& batch_unprocessed_hook() const {
    return batch_unprocessed_hook_;
  }

  // Background work due at clock().Now() (TTL deletions) when no thread
  // drives it, i.e. on any clock but a SystemClock: Call and CallStreams run
  // it first. Call WITHOUT the lock. Errors are retried on the next call.
  void RunDueWork();
  // The TTL service (ttl_sweeper.h): queue, sweeps, status.
  TtlSweeper& ttl() { return *ttl_; }

  // ---- The engine lock and what it guards.
  [[nodiscard]] std::unique_lock<std::mutex> Lock() {
    return std::unique_lock<std::mutex>(mu_);
  }
  storage::ItemStore& store() { return *store_; }  // lock held
  Catalog& catalog() { return catalog_; }          // lock held
  Rng& rng() { return rng_; }                      // lock held
  const std::vector<std::shared_ptr<ChangeSink>>& sinks() const {
    return sinks_;
  }

  // Lock held. Looks a table up by name or ARN, applying due status
  // transitions first; errors per TableLookup. The entry stays valid while
  // the lock is held.
  Result<Catalog::Entry*> FindTable(std::string_view name_or_arn,
                                    TableLookup lookup);
  // Lock held. Applies due status transitions to every table.
  Status SettleAll();

  // The table name in a name-or-ARN parameter (an ARN of another region or
  // account, or of a non-table resource, gives nullopt).
  std::optional<std::string> TableNameOf(std::string_view name_or_arn) const;
  std::string TableArn(std::string_view name) const;
  // An RFC 4122 version-4 style UUID derived from the seed and `salt`: the
  // same seed and salt give the same UUID (deterministic runs); use a salt
  // that is unique in the database (e.g. the never-reused table id).
  std::string NewUuid(std::string_view salt) const;

  // Lock held. Persists `table` (UpdateTable on the catalog row) inside txn.
  static Status SaveTable(const Table& table, storage::WriteTransaction& txn);

 private:
  EmulatorImpl(Options options, std::shared_ptr<Clock> clock,
               std::unique_ptr<storage::ItemStore> store);
  // Lock held. Moves one table along its status timeline if due; may erase
  // the entry (end of DELETING). Returns whether the entry still exists.
  Result<bool> Settle(const std::string& name);

  Options options_;
  std::shared_ptr<Clock> clock_;
  std::mutex mu_;
  Rng rng_;
  std::unique_ptr<storage::ItemStore> store_;
  Catalog catalog_;
  Dispatcher dispatcher_;
  Dispatcher streams_dispatcher_;
  std::vector<std::shared_ptr<ChangeSink>> sinks_;
  BatchUnprocessedHook batch_unprocessed_hook_;
  std::unique_ptr<TtlSweeper> ttl_;  // reset first by ~EmulatorImpl (thread)
};

}  // namespace ddblab::engine
