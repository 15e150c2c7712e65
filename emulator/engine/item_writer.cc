#include "emulator/engine/item_writer.h"

#include <algorithm>
#include <utility>

#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/vector/vector_entry.h"
#include "emulator/engine/vector/vector_rebuild.h"
#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {

// ---------------------------------------------------------------------------
// ExistingItem

ExistingItem::ExistingItem(storage::StoredItem stored)
    : stored_(std::move(stored)) {}

ExistingItem::ExistingItem(storage::StoredItem stored, value::Item decoded)
    : stored_(std::move(stored)), decoded_(std::move(decoded)) {}

Result<ExistingItem> ExistingItem::Read(storage::ItemStore& store,
                                        const Table& table,
                                        const PrimaryKey& key) {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<storage::StoredItem> stored,
                          store.Get(table.id, key.pk, key.sk));
  if (!stored) return ExistingItem();
  return ExistingItem(std::move(*stored));
}

ExistingItem ExistingItem::Deferred(storage::ItemStore& store,
                                    const Table& table, const PrimaryKey& key) {
  ExistingItem out;
  out.deferred_store_ = &store;
  out.table_id_ = table.id;
  out.key_ = key;
  return out;
}

Status ExistingItem::Resolve() {
  if (deferred_store_ == nullptr) return OkStatus();
  DDBLAB_ASSIGN_OR_RETURN(stored_,
                          deferred_store_->Get(table_id_, key_.pk, key_.sk));
  deferred_store_ = nullptr;
  return OkStatus();
}

Result<const value::Item*> ExistingItem::Get() {
  DDBLAB_RETURN_IF_ERROR(Resolve());
  if (!stored_) return static_cast<const value::Item*>(nullptr);
  if (!decoded_) {
    DDBLAB_ASSIGN_OR_RETURN(value::Item item,
                            value::DeserializeItem(stored_->bytes));
    decoded_ = std::move(item);
  }
  return &*decoded_;
}

// ---------------------------------------------------------------------------
// ChangeEvent

namespace {

bool ContainsSet(const value::AttributeValue& v) {
  using Type = value::AttributeValue::Type;
  switch (v.type()) {
    case Type::kSS:
    case Type::kNS:
    case Type::kBS:
      return true;
    case Type::kM:
      for (const auto& [name, member] : v.m()) {
        if (ContainsSet(member)) return true;
      }
      return false;
    case Type::kL:
      for (const value::AttributeValue& member : v.l()) {
        if (ContainsSet(member)) return true;
      }
      return false;
    default:
      return false;
  }
}

}  // namespace

bool ChangeEvent::existed() const { return old.exists(); }

Result<const value::Item*> ChangeEvent::OldImage() const { return old.Get(); }

std::string_view ChangeEvent::old_bytes() const { return old.bytes(); }

int64_t ChangeEvent::old_size() const { return old.size(); }

Result<bool> ChangeEvent::ChangesNothing() const {
  if (!existed() || new_image == nullptr) {
    return !existed() && new_image == nullptr;
  }
  // The stored form is canonical (maps in name order, numbers normalised)
  // except for the order of set members: without sets, equal items have
  // equal bytes.
  if (old_bytes() == new_bytes) return true;
  if (old_size() != new_size) return false;
  bool sets = false;
  for (const auto& [name, v] : *new_image) sets = sets || ContainsSet(v);
  if (!sets) return false;
  DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, OldImage());
  return *old_item == *new_image;
}

// ---------------------------------------------------------------------------
// WriteBatch

WriteBatch::WriteBatch(EmulatorImpl& impl, CapacityLedger& capacity)
    : impl_(impl),
      capacity_(capacity),
      consistency_(impl.consistency()),
      store_(impl.store()),
      catalog_(impl.catalog()),
      sinks_(impl.sinks()) {}

WriteBatch::WriteBatch(EmulatorImpl& impl, CallContext& call)
    : WriteBatch(impl, call.capacity) {
  faults_ = &call.faults;
}

WriteBatch::~WriteBatch() { Rollback(); }

Status WriteBatch::Begin() {
  if (txn_) return Error::Internal("WriteBatch already begun");
  // How far back stale_read faults may read decides what is kept.
  consistency_.set_stale_read_horizon(impl_.faults().stale_read_horizon());
  DDBLAB_ASSIGN_OR_RETURN(txn_, store_.Begin());
  return OkStatus();
}

void WriteBatch::Rollback() {
  if (!txn_) return;
  txn_->Rollback();
  txn_.reset();
  deltas_.clear();
}

Status WriteBatch::Commit() {
  if (!txn_) return Error::Internal("WriteBatch not begun");
  Status status = txn_->Commit();
  txn_.reset();
  if (!status.ok()) {
    deltas_.clear();
    return status;
  }
  for (Delta& delta : deltas_) {
    Catalog::Entry* entry = catalog_.Find(delta.name);
    if (entry == nullptr) continue;
    entry->stats.item_count += delta.count;
    entry->stats.size_bytes += delta.bytes;
    for (const auto& [id, d] : delta.indexes) {
      IndexStats& s = entry->stats.indexes[id];
      s.count += d.count;
      s.bytes += d.bytes;
    }
    for (VectorChange& c : delta.vectors) {
      VectorIndexData& data =
          entry->vectors.try_emplace(c.index, c.dims).first->second;
      if (c.entry) {
        data.Upsert(c.pk, c.sk, std::move(*c.entry));
      } else {
        data.Remove(c.pk, c.sk);
      }
      UpdateVectorStats(c.index, data, &entry->stats);
    }
    for (KeptChange& c : delta.kept) {
      consistency_.history().Record(delta.table_id, c.index_id,
                                    std::move(c.key), std::move(c.before),
                                    c.visible_at);
      if (c.lagging) consistency_.NoteLaggingIndex(delta.table_id, c.index_id);
    }
  }
  deltas_.clear();
  if (consistency_.active()) consistency_.Trim(impl_.Now());
  return OkStatus();
}

WriteBatch::Delta& WriteBatch::DeltaFor(const Table& table) {
  for (Delta& d : deltas_) {
    if (d.table == &table) return d;
  }
  for (Delta& d : deltas_) {
    if (d.name == table.name) return d;
  }
  Delta d;
  d.table = &table;
  d.name = table.name;
  d.table_id = table.id;
  deltas_.push_back(std::move(d));
  return deltas_.back();
}

bool WriteBatch::AnySinkWants(const Table& table) const {
  for (const auto& sink : sinks_) {
    if (sink->Wants(table)) return true;
  }
  return false;
}

Result<Consumed> WriteBatch::Apply(const Table& table, const PrimaryKey& key,
                                   ExistingItem& old,
                                   const value::Item* new_item,
                                   ChangeEvent::Origin origin,
                                   std::optional<TimePoint> at) {
  Consumed used;
  DDBLAB_RETURN_IF_ERROR(
      ApplyInto(table, key, old, new_item, &used, origin, at));
  return used;
}

Status WriteBatch::ApplyInto(const Table& table, const PrimaryKey& key,
                             ExistingItem& old, const value::Item* new_item,
                             Consumed* total, ChangeEvent::Origin origin,
                             std::optional<TimePoint> at) {
  if (!txn_) return Error::Internal("WriteBatch not begun");
  Change change{table, key, old, new_item};
  change.wanted = AnySinkWants(table);
  // The consistency model needs the old item (one branch when it is off,
  // and the call has no index_lag fault).
  change.keeps = consistency_.active() ||
                 (faults_ != nullptr && !faults_->index_lags.empty());
  if (new_item != nullptr) {
    change.new_bytes = value::SerializeItem(*new_item);
    change.new_size = static_cast<int64_t>(value::ItemSize(*new_item));
  }
  DDBLAB_RETURN_IF_ERROR(ReadOld(change));
  const bool enforce = origin == ChangeEvent::Origin::kUser &&
                       capacity_.enforced();  // TTL deletions are free
  if (new_item == nullptr && !old.exists()) {
    // Deleting a missing item: 1 WCU, nothing written.
    if (enforce) {
      DDBLAB_RETURN_IF_ERROR(capacity_.Admit(table, {{0, true, key.pk, 1}}));
    }
    total->table += 1;
    return OkStatus();
  }
  // Added to *total only once admitted: a throttled change costs nothing.
  const double table_units = WriteUnits(std::max(old.size(), change.new_size));
  DDBLAB_RETURN_IF_ERROR(PlanIndexChanges(change));
  if (enforce) DDBLAB_RETURN_IF_ERROR(Admit(change, table_units));

  Delta& delta = DeltaFor(table);
  DDBLAB_RETURN_IF_ERROR(WriteRows(change, delta));
  if (change.keeps) KeepChanges(table, key, old, change.index_changes, delta);
  if (table.HasLiveVectorIndexes()) {
    AddVectorChanges(table, key, new_item, change.new_bytes, change.new_size,
                     delta, total);
  }
  if (change.wanted) {
    DDBLAB_RETURN_IF_ERROR(Notify(change, origin, at.value_or(impl_.Now())));
  }
  total->table += table_units;
  for (const IndexChange& c : change.index_changes) {
    (c.index->global ? total->global_indexes
                     : total->local_indexes)[c.index->name] +=
        c.delete_units + c.put_units;
  }
  return OkStatus();
}

Status WriteBatch::ReadOld(Change& change) {
  ExistingItem& old = change.old;
  if (old.resolved()) return OkStatus();
  if (change.new_item != nullptr && change.table.indexes.empty() &&
      !change.wanted && !change.keeps) {
    // Nobody needs the old item unless there is one: insert first.
    DDBLAB_ASSIGN_OR_RETURN(
        bool inserted,
        txn_->InsertItemIfAbsent(change.table.id, change.key.pk, change.key.sk,
                                 change.new_bytes, change.new_size));
    if (inserted) {
      old = ExistingItem();
      change.written = true;
    }
  }
  return old.Resolve();
}

Status WriteBatch::PlanIndexChanges(Change& change) {
  const Table& table = change.table;
  ExistingItem& old = change.old;
  if (table.indexes.empty()) return OkStatus();
  if (old.exists() && change.new_item == nullptr && !change.wanted &&
      !old.decoded_ && !change.keeps) {
    // A delete nobody watches needs only the keys and sizes of the old
    // item's index entries: decode just their key attributes.
    DDBLAB_ASSIGN_OR_RETURN(
        change.before, StoredIndexEntryKeys(table, old.bytes(), old.size()));
  } else if (old.exists()) {
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, old.Get());
    change.before =
        ComputeIndexEntries(table, *old_item, old.bytes(), old.size());
  }
  if (change.new_item != nullptr) {
    change.after = ComputeIndexEntries(table, *change.new_item,
                                       change.new_bytes, change.new_size);
  }
  for (const IndexDef& idx : table.indexes) {
    auto find = [&](const std::vector<IndexEntry>& v) -> const IndexEntry* {
      for (const IndexEntry& e : v) {
        if (e.index == &idx) return &e;
      }
      return nullptr;
    };
    const IndexEntry* o = find(change.before);
    const IndexEntry* n = find(change.after);
    if (o == nullptr && n == nullptr) continue;
    bool same_key =
        o != nullptr && n != nullptr && o->ipk == n->ipk && o->isk == n->isk;
    if (same_key && o->bytes == n->bytes) continue;  // entry unchanged
    IndexChange c{&idx, o, n, same_key, 0, 0};
    if (o != nullptr && !same_key) c.delete_units = WriteUnits(o->size);
    if (n != nullptr) {
      c.put_units = same_key ? WriteUnits(std::max(o->size, n->size))
                             : WriteUnits(n->size);
    }
    change.index_changes.push_back(c);
  }
  return OkStatus();
}

Status WriteBatch::Admit(const Change& change, double table_units) {
  // The table (with its LSIs) and every GSI whose entry changes, each on
  // its partition; all or nothing.
  const std::string& pk = change.key.pk;
  std::vector<CapacityCharge> charges{{0, true, pk, table_units}};
  for (const IndexChange& c : change.index_changes) {
    if (!c.index->global) {
      charges.push_back({0, true, pk, c.delete_units + c.put_units});
      continue;
    }
    if (c.delete_units > 0) {
      charges.push_back({c.index->id, true, c.before->ipk, c.delete_units});
    }
    if (c.put_units > 0) {
      charges.push_back({c.index->id, true, c.after->ipk, c.put_units});
    }
  }
  Status admitted = capacity_.Admit(change.table, std::move(charges));
  if (!admitted.ok() && change.written) {  // undo the insert-first write
    DDBLAB_RETURN_IF_ERROR(
        txn_->DeleteItem(change.table.id, change.key.pk, change.key.sk));
  }
  return admitted;
}

Status WriteBatch::WriteRows(const Change& change, Delta& delta) {
  const Table& table = change.table;
  const PrimaryKey& key = change.key;
  if (!change.written) {
    if (change.new_item != nullptr) {
      DDBLAB_RETURN_IF_ERROR(txn_->PutItem(table.id, key.pk, key.sk,
                                           change.new_bytes, change.new_size));
    } else {
      DDBLAB_RETURN_IF_ERROR(txn_->DeleteItem(table.id, key.pk, key.sk));
    }
  }
  delta.count +=
      (change.new_item != nullptr ? 1 : 0) - (change.old.exists() ? 1 : 0);
  delta.bytes += change.new_size - change.old.size();
  for (const IndexChange& c : change.index_changes) {
    const IndexEntry* o = c.before;
    const IndexEntry* n = c.after;
    IndexStats& d = delta.indexes[c.index->id];
    if (o != nullptr && !c.same_key) {
      DDBLAB_RETURN_IF_ERROR(txn_->DeleteIndexEntry(
          table.id, c.index->id, o->ipk, o->isk, key.pk, key.sk));
    }
    if (n != nullptr) {
      DDBLAB_RETURN_IF_ERROR(txn_->PutIndexEntry(table.id, c.index->id, n->ipk,
                                                 n->isk, key.pk, key.sk,
                                                 n->bytes, n->size));
    }
    d.count += (n != nullptr ? 1 : 0) - (o != nullptr ? 1 : 0);
    d.bytes += (n != nullptr ? n->size : 0) - (o != nullptr ? o->size : 0);
  }
  return OkStatus();
}

Status WriteBatch::Notify(Change& change, ChangeEvent::Origin origin,
                          TimePoint at) {
  const Table& table = change.table;
  value::Item keys;
  if (change.new_item != nullptr) {
    keys = TableKeyOf(table, *change.new_item);
  } else {
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, change.old.Get());
    keys = TableKeyOf(table, *old_item);
  }
  ChangeEvent event{
      table,           keys,   change.old, change.new_item, change.new_bytes,
      change.new_size, origin, at};
  for (const auto& sink : sinks_) {
    if (!sink->Wants(table)) continue;
    DDBLAB_RETURN_IF_ERROR(sink->OnChange(event, *txn_));
  }
  return OkStatus();
}

void WriteBatch::KeepChanges(const Table& table, const PrimaryKey& key,
                             const ExistingItem& old,
                             const std::vector<IndexChange>& changes,
                             Delta& delta) {
  const TimePoint now = impl_.Now();
  const bool table_rows = consistency_.KeepsTableChanges(table);
  if (table_rows) {
    delta.kept.push_back(KeptChange{storage::kBaseTable,
                                    RowKey{{}, {}, key.pk, key.sk}, old.stored_,
                                    now, false});
  }
  auto entry = [](const IndexEntry* e) -> std::optional<storage::StoredItem> {
    if (e == nullptr) return std::nullopt;
    return storage::StoredItem{e->bytes, e->size};
  };
  for (const IndexChange& c : changes) {
    TimePoint at = now;
    bool lagging = false;
    if (c.index->global) {
      std::optional<TimePoint> visible =
          consistency_.IndexVisibleAt(table, *c.index, now, faults_);
      if (!visible) continue;  // the index sees the write at once
      at = *visible;
      lagging = true;
    } else if (!table_rows) {
      continue;
    }
    // The entry the write removed or replaced, then the one it created
    // under a new key (absent before).
    if (c.before != nullptr) {
      delta.kept.push_back(KeptChange{
          c.index->id, RowKey{c.before->ipk, c.before->isk, key.pk, key.sk},
          entry(c.before), at, lagging});
    }
    if (c.after != nullptr && !c.same_key) {
      delta.kept.push_back(KeptChange{
          c.index->id, RowKey{c.after->ipk, c.after->isk, key.pk, key.sk},
          std::nullopt, at, lagging});
    }
  }
}

void WriteBatch::AddVectorChanges(const Table& table, const PrimaryKey& key,
                                  const value::Item* new_item,
                                  std::string_view new_bytes, int64_t new_size,
                                  Delta& delta, Consumed* total) {
  Catalog::Entry* entry = catalog_.Find(table.name);
  for (const VectorIndexDef& v : table.vector_indexes) {
    if (!v.Live()) continue;
    const VectorIndexData::Row* old_row = nullptr;
    if (entry != nullptr) {
      if (auto it = entry->vectors.find(v.name); it != entry->vectors.end()) {
        old_row = it->second.Find(key.pk, key.sk);
      }
    }
    std::optional<VectorEntry> e;
    if (new_item != nullptr) {
      e = ComputeVectorEntry(table, v, *new_item, new_bytes, new_size);
    }
    if (!e && old_row == nullptr) continue;
    if (e && old_row != nullptr && old_row->view_hash == e->view_hash) {
      continue;  // the index's view is unchanged: nothing written, no bytes
    }
    total->vector_indexes[v.name] +=
        VectorWriteBytes(e ? e->size : old_row->size);
    delta.vectors.push_back(VectorChange{v.name,
                                         static_cast<size_t>(v.dimensions),
                                         key.pk, key.sk, std::move(e)});
  }
}

namespace {

Result<Consumed> WriteOne(WriteBatch& batch, const Table& table,
                          const PrimaryKey& key, ExistingItem& old,
                          const value::Item* new_item,
                          ChangeEvent::Origin origin) {
  DDBLAB_RETURN_IF_ERROR(batch.Begin());
  DDBLAB_ASSIGN_OR_RETURN(Consumed used,
                          batch.Apply(table, key, old, new_item, origin));
  DDBLAB_RETURN_IF_ERROR(batch.Commit());
  return used;
}

}  // namespace

Result<Consumed> WriteItem(EmulatorImpl& impl, CapacityLedger& capacity,
                           const Table& table, const PrimaryKey& key,
                           ExistingItem& old, const value::Item* new_item,
                           ChangeEvent::Origin origin) {
  WriteBatch batch(impl, capacity);
  return WriteOne(batch, table, key, old, new_item, origin);
}

Result<Consumed> WriteItem(EmulatorImpl& impl, CallContext& call,
                           const Table& table, const PrimaryKey& key,
                           ExistingItem& old, const value::Item* new_item) {
  WriteBatch batch(impl, call);
  return WriteOne(batch, table, key, old, new_item, ChangeEvent::Origin::kUser);
}

}  // namespace ddblab::engine
