// emulator/engine/emulator_impl.h: the engine behind ddblab::Emulator.
//
// Owns the Options, the clock (a SystemClock unless Options.clock is set),
// the seeded Rng, the ItemStore (SQLite), the table Catalog, the two
// dispatchers (DynamoDB and DynamoDB Streams APIs), the ChangeSinks and the
// cache of parsed expressions (expression_cache.h, its own lock).
//
// Locking: one engine mutex serialises every access to the store, the
// catalog, the Rng and the sinks. Lock() returns an EngineLock guard that
// holds it for its scope; the store, catalog, rng and tables are reached
// through the guard (lock.store(), lock.FindTable(...)), or through the
// EmulatorImpl accessors, which carry Clang thread-safety annotations
// (DDBLAB_REQUIRES(mu())): code that reaches them without the lock does not
// pass the thread-safety check (a ctest). Handlers parse and validate their
// request without it, then hold it for "look up table, read, check,
// write, commit" — which makes conditional writes linearizable. Never call
// Call() while holding the lock (it is not recursive). A helper that needs
// the lock says so with DDBLAB_REQUIRES(impl.mu()).
//
// Table status: with Options.table_status_delay > 0, CREATING / UPDATING /
// DELETING last that long on the clock; transitions happen lazily when a
// table is looked up (FindTable, SettleAll), never on a timer.
//
// Calls: CallDeferred / CallStreamsDeferred look the operation's name up
// once (emulator/api/operation.h) and make the call's CallContext
// (call_context.h: operation, clock time, fault decision, capacity ledger),
// which the handler and everything under it receive explicitly.
//
// Latency faults: CallDeferred / CallStreamsDeferred answer at once with
// the time the answer is due; Call / CallStreams wait for it on the clock.
//
// Thread-safety: Call/CallStreams (and their deferred forms, StopWaiting)
// are safe from many threads (and must be called without the lock:
// DDBLAB_EXCLUDES). The rest as annotated.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/deferred_answer.h"
#include "emulator/api/mutex.h"
#include "emulator/api/options.h"
#include "emulator/api/random.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"
#include "emulator/engine/catalog.h"
#include "emulator/engine/change_event.h"
#include "emulator/engine/consistency/consistency.h"
#include "emulator/engine/dispatcher.h"
#include "emulator/engine/expression_cache.h"
#include "emulator/fault/injector.h"
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

class CapacityModel;
class TtlSweeper;
class TransactTokens;
class EngineLock;

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

  // Answer at once; a latency fault sets the time the answer is due on
  // the clock (emulator/api/deferred_answer.h).
  DeferredAnswer CallDeferred(std::string_view operation,
                              const nlohmann::json& request)
      DDBLAB_EXCLUDES(mu_);
  DeferredAnswer CallStreamsDeferred(std::string_view operation,
                                     const nlohmann::json& request)
      DDBLAB_EXCLUDES(mu_);
  // The deferred forms, then wait until the answer is due (or StopWaiting).
  Result<nlohmann::json> Call(std::string_view operation,
                              const nlohmann::json& request)
      DDBLAB_EXCLUDES(mu_);
  Result<nlohmann::json> CallStreams(std::string_view operation,
                                     const nlohmann::json& request)
      DDBLAB_EXCLUDES(mu_);
  // Wakes every Call / CallStreams waiting for a due answer, and makes later
  // ones answer at once (shutdown: nothing may wait on a ManualClock).
  void StopWaiting() { stop_waiting_.request_stop(); }

  const Options& options() const { return options_; }
  Clock& clock() const { return *clock_; }
  const std::shared_ptr<Clock>& shared_clock() const { return clock_; }
  TimePoint Now() const { return clock_->Now(); }
  Dispatcher& dispatcher() { return dispatcher_; }
  Dispatcher& streams_dispatcher() { return streams_dispatcher_; }

  // Adds a sink for item and table changes.
  void AddChangeSink(std::shared_ptr<ChangeSink> sink) DDBLAB_REQUIRES(mu_);

  // The capacity model (capacity/capacity_model.h); null unless
  // Options.capacity is kEnforce. Each call's CapacityLedger
  // (capacity/capacity_ledger.h) charges it. Thread-safe.
  CapacityModel* capacity() const { return capacity_.get(); }

  // The fault plan, its counters and log (fault_seam.h). Thread-safe.
  fault::Injector& faults() { return faults_; }

  // Parsed expressions of this emulator's requests (expression_cache.h).
  // Thread-safe; independent of the engine lock.
  ExpressionCache& expression_cache() { return expression_cache_; }

  // Background work due at clock().Now() (TTL deletions) when no thread
  // drives it, i.e. on any clock but a SystemClock: Call and CallStreams run
  // it first, and it does something only if the clock has moved since the
  // last sweep (TtlSweeper::CatchUp). Errors are retried on the next call.
  void RunDueWork() DDBLAB_EXCLUDES(mu_);
  // The TTL service (ttl_sweeper.h): queue, sweeps, status.
  TtlSweeper& ttl() { return *ttl_; }

  // ---- The engine lock and what it guards.
  // Takes the lock for the guard's scope: `auto lock = impl.Lock();`.
  [[nodiscard]] EngineLock Lock() DDBLAB_ACQUIRE(mu_);
  // The engine mutex, to name it in annotations of helpers.
  Mutex& mu() DDBLAB_RETURN_CAPABILITY(mu_) { return mu_; }
  storage::ItemStore& store() DDBLAB_REQUIRES(mu_) { return *store_; }
  Catalog& catalog() DDBLAB_REQUIRES(mu_) { return catalog_; }
  Rng& rng() DDBLAB_REQUIRES(mu_) { return rng_; }
  // The eventual-consistency model (consistency/consistency.h).
  Consistency& consistency() DDBLAB_REQUIRES(mu_) { return consistency_; }
  // TransactWriteItems' ClientRequestToken store (transact_tokens.h).
  TransactTokens& transact_tokens() DDBLAB_REQUIRES(mu_) {
    return *transact_tokens_;
  }
  const std::vector<std::shared_ptr<ChangeSink>>& sinks() const
      DDBLAB_REQUIRES(mu_) {
    return sinks_;
  }

  // Looks a table up by name or ARN, applying due status transitions
  // first; errors per TableLookup. The entry stays valid while the lock is
  // held.
  Result<Catalog::Entry*> FindTable(std::string_view name_or_arn,
                                    TableLookup lookup) DDBLAB_REQUIRES(mu_);
  // Applies due status transitions to every table.
  Status SettleAll() DDBLAB_REQUIRES(mu_);
  // Drops every table (items, indexes, TTL queue rows), every stream and
  // every on-demand backup from the store, and empties the catalog: what
  // Emulator::Reset leaves of a file database. Takes the lock.
  Status DropEverything() DDBLAB_EXCLUDES(mu_);

  // The table name in a name-or-ARN parameter (an ARN of another region or
  // account, or of a non-table resource, gives nullopt).
  std::optional<std::string> TableNameOf(std::string_view name_or_arn) const;
  std::string TableArn(std::string_view name) const;
  // An RFC 4122 version-4 style UUID derived from the seed and `salt`: the
  // same seed and salt give the same UUID (deterministic runs); use a salt
  // that is unique in the database (e.g. the never-reused table id).
  std::string NewUuid(std::string_view salt) const;

  // Persists `table` (UpdateTable on the catalog row) inside txn (which
  // exists only under the lock).
  static Status SaveTable(const Table& table, storage::WriteTransaction& txn);

 private:
  EmulatorImpl(Options options, std::shared_ptr<Clock> clock,
               std::unique_ptr<storage::ItemStore> store);
  // The one entry of both APIs: looks `name` up once (an unknown name, or
  // one of the other API, is UnknownOperationException), makes the call's
  // CallContext and runs its handler under the capacity ledger and the
  // fault plan.
  DeferredAnswer Run(const Dispatcher& dispatcher, Api api,
                     std::string_view name, const nlohmann::json& request)
      DDBLAB_EXCLUDES(mu_);
  // Moves one table along its status timeline if due; may erase the entry
  // (end of DELETING). Returns whether the entry still exists.
  Result<bool> Settle(const std::string& name) DDBLAB_REQUIRES(mu_);

  Options options_;
  std::shared_ptr<Clock> clock_;
  Mutex mu_;
  Rng rng_ DDBLAB_GUARDED_BY(mu_);
  Consistency consistency_ DDBLAB_GUARDED_BY(mu_);
  std::unique_ptr<storage::ItemStore> store_ DDBLAB_PT_GUARDED_BY(mu_);
  Catalog catalog_ DDBLAB_GUARDED_BY(mu_);
  Dispatcher dispatcher_{Api::kDynamoDb};
  Dispatcher streams_dispatcher_{Api::kStreams};
  std::vector<std::shared_ptr<ChangeSink>> sinks_ DDBLAB_GUARDED_BY(mu_);
  fault::Injector faults_;
  ExpressionCache expression_cache_;
  std::unique_ptr<CapacityModel> capacity_;  // null: not enforced
  std::unique_ptr<TransactTokens> transact_tokens_ DDBLAB_PT_GUARDED_BY(mu_);
  std::unique_ptr<TtlSweeper> ttl_;  // reset first by ~EmulatorImpl (thread)
  std::stop_source stop_waiting_;    // StopWaiting()
};

// The engine lock, held for the guard's scope (from EmulatorImpl::Lock()),
// and the way to what it guards: holding an EngineLock is what lets code
// reach the store, the catalog, the Rng and the tables. Neither copied nor
// moved: `auto lock = impl.Lock();` (guaranteed copy elision).
class DDBLAB_SCOPED_CAPABILITY EngineLock {
 public:
  ~EngineLock() DDBLAB_RELEASE() { impl_.mu().unlock(); }
  EngineLock(const EngineLock&) = delete;
  EngineLock& operator=(const EngineLock&) = delete;

  // What the lock guards. The analysis cannot see that this guard holds
  // impl_.mu(), so the accessors skip it: holding the guard is the proof.
  storage::ItemStore& store() const DDBLAB_NO_THREAD_SAFETY_ANALYSIS {
    return impl_.store();
  }
  Catalog& catalog() const DDBLAB_NO_THREAD_SAFETY_ANALYSIS {
    return impl_.catalog();
  }
  Rng& rng() const DDBLAB_NO_THREAD_SAFETY_ANALYSIS { return impl_.rng(); }
  Consistency& consistency() const DDBLAB_NO_THREAD_SAFETY_ANALYSIS {
    return impl_.consistency();
  }
  // EmulatorImpl::FindTable under this lock.
  Result<Catalog::Entry*> FindTable(std::string_view name_or_arn,
                                    TableLookup lookup) const
      DDBLAB_NO_THREAD_SAFETY_ANALYSIS {
    return impl_.FindTable(name_or_arn, lookup);
  }

 private:
  friend class EmulatorImpl;
  explicit EngineLock(EmulatorImpl& impl) DDBLAB_ACQUIRE(impl.mu())
      : impl_(impl) {
    impl_.mu().lock();
  }

  EmulatorImpl& impl_;
};

// The guard is made here and returned by copy elision; the analysis (Clang
// 16 and later) follows it into the caller as holding mu_.
inline EngineLock EmulatorImpl::Lock() DDBLAB_NO_THREAD_SAFETY_ANALYSIS {
  return EngineLock(*this);
}

}  // namespace ddblab::engine
