// emulator/engine/change_event.h: the hook through which streams and TTL
// see every item change and every table lifecycle change, inside the SQLite
// transaction that makes it.
//
// The write path (item_writer.h) calls OnChange for each item it writes,
// for every registered sink whose Wants(table) is true, BEFORE committing,
// with the open storage transaction: a sink writes its own rows (stream
// records, TTL queue entries) through txn's sub-stores (txn.streams(),
// txn.ttl_queue()) and they commit or roll
// back together with the item. A sink error aborts the whole write.
//
// Events are raised for every applied write, including writes that change
// nothing (a PutItem identical to the stored item); a sink that must ignore
// no-ops (streams) asks ChangesNothing(). A delete of a missing item raises
// nothing. TTL deletions carry Origin::kTtl.
//
// The old item is decoded only if a sink asks for it (OldImage()); both
// images are also available in stored form (value/item_codec.h) with their
// DynamoDB sizes, which is all a stream record needs.
//
// Ownership: EmulatorImpl owns the sinks (AddChangeSink). Events borrow
// everything they point to for the duration of the call.
// Thread-safety: sinks are called with the engine lock held, one at a time.
#pragma once

#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/engine/table.h"
#include "emulator/storage/item_store.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

class ExistingItem;  // item_writer.h

struct ChangeEvent {
  enum class Origin { kUser, kTtl };

  const Table& table;
  const value::Item& keys;       // the table key attributes
  ExistingItem& old;             // the item before the write (resolved)
  const value::Item* new_image;  // null: the item is deleted
  std::string_view new_bytes;    // new_image in stored form
  int64_t new_size;              // new_image's DynamoDB size
  Origin origin;
  TimePoint now;  // the engine clock at the write

  bool existed() const;  // whether there was an old item
  // The old item, decoded on first use; null if it did not exist.
  Result<const value::Item*> OldImage() const;
  std::string_view old_bytes() const;  // stored form; empty if none
  int64_t old_size() const;
  // Whether the write leaves the item as it was (equal images; sets compare
  // as sets, numbers by value), or deletes a missing one. Decodes the old
  // item only when the stored forms differ but could still be equal.
  Result<bool> ChangesNothing() const;
};

class ChangeSink {
 public:
  virtual ~ChangeSink() = default;

  // Whether item writes to `table` must be reported (e.g. its stream is
  // enabled, or TTL is on). Called for every write: keep it cheap. When no
  // sink wants a table, the writer skips building events altogether.
  virtual bool Wants(const Table& table) const = 0;

  virtual Status OnChange(const ChangeEvent& event,
                          storage::WriteTransaction& txn) = 0;

  // Control-plane changes, inside the transaction that records them.
  // `before`/`after` are the table's metadata around an UpdateTable (also
  // UpdateTimeToLive, tags): compare stream / TTL settings to react.
  virtual Status OnTableCreated(const Table& table,
                                storage::WriteTransaction& txn) {
    (void)table;
    (void)txn;
    return OkStatus();
  }
  virtual Status OnTableUpdated(const Table& before, const Table& after,
                                storage::WriteTransaction& txn) {
    (void)before;
    (void)after;
    (void)txn;
    return OkStatus();
  }
  // The table and all its items are being dropped (DeleteTable, or the end
  // of its DELETING state).
  virtual Status OnTableDeleted(const Table& table,
                                storage::WriteTransaction& txn) {
    (void)table;
    (void)txn;
    return OkStatus();
  }
};

// A sink that wants nothing (the default when no layer registers one).
class NoopChangeSink final : public ChangeSink {
 public:
  bool Wants(const Table&) const override { return false; }
  Status OnChange(const ChangeEvent&, storage::WriteTransaction&) override {
    return OkStatus();
  }
};

}  // namespace ddblab::engine
