// emulator/engine/item_writer.h: THE write path for items.
//
// Every item change — PutItem, UpdateItem, DeleteItem, batch and
// transaction members, TTL deletions — goes through WriteBatch::Apply, which
// in the batch's single SQLite transaction:
//   1. writes or deletes the item row;
//   2. adds, replaces or removes its entry in every secondary index
//      (projected per index; sparse: no entry without the index keys),
//      and works out its entry in every vector index (vector/vector_entry.h:
//      float32 copies held in memory, applied to the catalog's data only
//      when Commit() succeeds; VectorWriteRequestBytes when the entry's view
//      changes);
//   3. calls the ChangeSinks that want the table (streams, TTL), which
//      write their own rows in the same transaction;
// and records ItemCount / TableSizeBytes / index counters, applied to the
// catalog only when Commit() succeeds. Nothing is half-applied: any error
// rolls everything back (the destructor rolls back an uncommitted batch).
//
// Usage (engine lock held from the read to the commit, so that
// "read, check condition, write" is linearizable):
//
//   auto lock = impl.Lock();
//   DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry* entry,
//                           impl.FindTable(name, TableLookup::kData));
//   const Table& table = *entry->table;
//   DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key, ValidateItemForWrite(table, it));
//   DDBLAB_ASSIGN_OR_RETURN(ExistingItem old,
//                           ExistingItem::Read(impl.store(), table, key));
//   ... check the condition against old.Get() ...
//   WriteBatch batch(impl, call.capacity);
//   DDBLAB_RETURN_IF_ERROR(batch.Begin());
//   DDBLAB_ASSIGN_OR_RETURN(Consumed used, batch.Apply(table, key, old, &it));
//   DDBLAB_RETURN_IF_ERROR(batch.Commit());
//
// Several Apply calls in one batch make one atomic unit (transactions,
// batch writes). Look every table up (FindTable) before Begin(): due table
// status transitions are not applied while a batch is open. The caller must not
// apply two changes to the same item in one batch with stale ExistingItems.
//
// Thread-safety: the engine lock must be held for the whole life of an
// ExistingItem read and of a WriteBatch. Both are made under it, checked:
// WriteBatch's constructor and WriteItem are DDBLAB_REQUIRES(impl.mu()), and
// an ExistingItem is read from impl.store(), which is too. (The analysis
// cannot tie a later batch.Apply() to the lock, so the batch keeps the store,
// catalog and sinks it was given under the lock.)
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/call_context.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/capacity/capacity_ledger.h"
#include "emulator/engine/change_event.h"
#include "emulator/engine/consistency/consistency.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/table.h"
#include "emulator/engine/vector/vector_store.h"
#include "emulator/storage/item_store.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

// The stored state of one item, read before a write or for a GetItem.
// Decoding is lazy: paths that only need existence and size never decode.
//
// A Deferred ExistingItem does not read the store until needed: Resolve(),
// Get() or WriteBatch::Apply read it (engine lock held). A write that only
// replaces the item (no condition, no indexes, no interested sink) then
// skips the read entirely: Apply inserts first and reads the old item only
// if one is there. After Apply the object always describes the OLD state.
// exists()/size()/bytes() require a resolved object (they answer "absent"
// for an unresolved one).
class ExistingItem {
 public:
  ExistingItem() = default;  // "no such item"
  explicit ExistingItem(storage::StoredItem stored);
  // Also accepts an already-decoded item (e.g. from a scan).
  ExistingItem(storage::StoredItem stored, value::Item decoded);

  static Result<ExistingItem> Read(storage::ItemStore& store,
                                   const Table& table, const PrimaryKey& key);
  static ExistingItem Deferred(storage::ItemStore& store, const Table& table,
                               const PrimaryKey& key);

  // Reads a deferred item; no-op for a resolved one.
  Status Resolve();
  bool resolved() const { return deferred_store_ == nullptr; }

  bool exists() const { return stored_.has_value(); }
  int64_t size() const { return stored_ ? stored_->size : 0; }
  std::string_view bytes() const {
    return stored_ ? std::string_view(stored_->bytes) : std::string_view();
  }
  // The decoded item, or null if it does not exist (resolving a deferred
  // item first). Corrupt bytes give an InternalServerError.
  Result<const value::Item*> Get();

 private:
  friend class WriteBatch;
  std::optional<storage::StoredItem> stored_;
  std::optional<value::Item> decoded_;
  // Set while deferred.
  storage::ItemStore* deferred_store_ = nullptr;
  int64_t table_id_ = 0;
  PrimaryKey key_;
};

class WriteBatch {
 public:
  // User writes are charged to `capacity`, the call's ledger (call_context.h:
  // CallContext::capacity; a default CapacityLedger charges nothing), before
  // anything is written; a change it cannot afford fails with the throttle
  // error and writes nothing.
  WriteBatch(EmulatorImpl& impl, CapacityLedger& capacity)
      DDBLAB_REQUIRES(impl.mu());
  // A call's writes: charged to call.capacity, lagging GSIs as its
  // index_lag faults say (consistency/consistency.h).
  WriteBatch(EmulatorImpl& impl, CallContext& call) DDBLAB_REQUIRES(impl.mu());
  ~WriteBatch();  // rolls back if not committed

  WriteBatch(const WriteBatch&) = delete;
  WriteBatch& operator=(const WriteBatch&) = delete;

  // Opens the storage transaction.
  Status Begin();

  // Replaces the item at `key` (whose current state is `old`) by *new_item,
  // or deletes it when new_item is null. `new_item` must already be
  // validated (ValidateItemForWrite, size). Returns the write capacity the
  // change consumed (table and indexes; not doubled for transactions).
  // Deleting a missing item writes nothing and costs 1 unit.
  // `at` is the time the sinks see (ChangeEvent::now): the clock's now by
  // default; a TTL deletion passes the time it fell due.
  Result<Consumed> Apply(
      const Table& table, const PrimaryKey& key, ExistingItem& old,
      const value::Item* new_item,
      ChangeEvent::Origin origin = ChangeEvent::Origin::kUser,
      std::optional<TimePoint> at = std::nullopt);

  // The same, adding the capacity consumed to *total (nothing when it
  // fails): for callers summing many changes, without a Consumed (and its
  // index-name maps) per change.
  Status ApplyInto(const Table& table, const PrimaryKey& key, ExistingItem& old,
                   const value::Item* new_item, Consumed* total,
                   ChangeEvent::Origin origin = ChangeEvent::Origin::kUser,
                   std::optional<TimePoint> at = std::nullopt);

  // Commits, then applies the counters to the catalog.
  Status Commit();
  void Rollback();

  // The open transaction, for callers that write extra rows in it.
  storage::WriteTransaction& txn() { return *txn_; }

 private:
  // A vector index change, applied to the catalog entry on commit.
  struct VectorChange {
    std::string index;
    size_t dims = 0;
    std::string pk;
    std::string sk;
    std::optional<VectorEntry> entry;  // nullopt: remove
  };
  // A row change the consistency model keeps, recorded on commit.
  struct KeptChange {
    int64_t index_id = 0;
    RowKey key;
    std::optional<storage::StoredItem> before;
    TimePoint visible_at;
    bool lagging = false;  // a GSI change visible later than the write
  };
  // What changes in one index, and what it costs, before anything is
  // written.
  struct IndexChange {
    const IndexDef* index;
    const IndexEntry* before;  // null: no entry before
    const IndexEntry* after;   // null: no entry after
    bool same_key;
    double delete_units;  // removing the old entry (its key changed)
    double put_units;     // writing the new entry
  };
  // One item change on its way through ApplyInto's steps.
  struct Change {
    Change(const Table& t, const PrimaryKey& k, ExistingItem& o,
           const value::Item* n)
        : table(t), key(k), old(o), new_item(n) {}
    const Table& table;
    const PrimaryKey& key;
    ExistingItem& old;
    const value::Item* new_item;
    std::string new_bytes;  // SerializeItem(*new_item)
    int64_t new_size = 0;
    bool wanted = false;   // a sink wants the table
    bool keeps = false;    // the consistency model records the change
    bool written = false;  // the insert-first path wrote the item already
    // The item's index entries before and after, and what changes in each
    // index (pointing into before/after).
    std::vector<IndexEntry> before;
    std::vector<IndexEntry> after;
    std::vector<IndexChange> index_changes;
  };
  struct Delta {
    const Table* table = nullptr;  // identity only (never dereferenced)
    std::string name;
    int64_t count = 0;
    int64_t bytes = 0;
    std::map<int64_t, IndexStats> indexes;
    std::vector<VectorChange> vectors;
    int64_t table_id = 0;
    std::vector<KeptChange> kept;
  };
  // ApplyInto's steps, in order. ReadOld resolves a deferred old item (or
  // inserts first when nobody needs it); PlanIndexChanges works out each
  // index's change and its cost; Admit charges the capacity ledger (all or
  // nothing; undoes an insert-first write it refuses); WriteRows writes the
  // item and its index entries and counts them; Notify hands the change to
  // the sinks that want the table.
  Status ReadOld(Change& change);
  Status PlanIndexChanges(Change& change);
  Status Admit(const Change& change, double table_units);
  Status WriteRows(const Change& change, Delta& delta);
  Status Notify(Change& change, ChangeEvent::Origin origin, TimePoint at);
  // What the consistency model keeps of one item write, for readers that
  // lag (consistency/consistency.h): the table row and LSI entries it
  // replaced when the table keeps its changes, and the GSI entries it
  // replaced with the time each GSI will see the write.
  void KeepChanges(const Table& table, const PrimaryKey& key,
                   const ExistingItem& old,
                   const std::vector<IndexChange>& changes, Delta& delta);
  // The vector index changes of one item write, with their bytes.
  void AddVectorChanges(const Table& table, const PrimaryKey& key,
                        const value::Item* new_item, std::string_view new_bytes,
                        int64_t new_size, Delta& delta, Consumed* total);
  Delta& DeltaFor(const Table& table);
  bool AnySinkWants(const Table& table) const;

  EmulatorImpl& impl_;
  CapacityLedger& capacity_;
  const CallFaults* faults_ = nullptr;  // the call's, if any
  // Reached under the lock, at construction.
  Consistency& consistency_;
  storage::ItemStore& store_;
  Catalog& catalog_;
  const std::vector<std::shared_ptr<ChangeSink>>& sinks_;
  std::unique_ptr<storage::WriteTransaction> txn_;
  std::vector<Delta> deltas_;  // one per table written
};

// One change in its own WriteBatch, charged to `capacity`.
Result<Consumed> WriteItem(
    EmulatorImpl& impl, CapacityLedger& capacity, const Table& table,
    const PrimaryKey& key, ExistingItem& old, const value::Item* new_item,
    ChangeEvent::Origin origin = ChangeEvent::Origin::kUser)
    DDBLAB_REQUIRES(impl.mu());
// A call's user write in its own WriteBatch(impl, call).
Result<Consumed> WriteItem(EmulatorImpl& impl, CallContext& call,
                           const Table& table, const PrimaryKey& key,
                           ExistingItem& old, const value::Item* new_item)
    DDBLAB_REQUIRES(impl.mu());

}  // namespace ddblab::engine
