// emulator/storage/item_store.h: the storage interface the engine uses.
//
// An ItemStore keeps, per table (an integer table_id chosen by the store):
// items keyed by (pk, sk) and secondary-index entries keyed by
// (index_id, ipk, isk, pk, sk), plus the table catalog (name -> metadata
// text). Two typed sub-stores hang off it and off each WriteTransaction:
// the TTL queue (ttl_queue_store.h), the stream log (stream_store.h) and
// on-demand backups (backup_store.h).
// Every SQL statement lives in storage/: no layer above sees a connection.
//
// Decorating: every call is virtual, so a store that wraps another and
// fails (or observes) chosen calls derives from the forwarding bases in
// forwarding_store.h and overrides just those calls.
//
// Keys are value::EncodeKey bytes (memcmp order = DynamoDB order); sk/isk
// are empty for hash-only keys. Item bytes are value::SerializeItem output;
// `size` is the DynamoDB item size of those bytes. The store never looks
// inside keys or items.
//
// Reads (Get, Scan, LoadCatalog, Stats) see committed data, plus the
// uncommitted writes of an open WriteTransaction (one connection).
// A WriteTransaction is one SQLite transaction: nothing it does is visible
// after a crash unless Commit() returned ok. Destroying it without Commit
// rolls back. At most one WriteTransaction may be open at a time.
//
// Thread-safety: none. The engine holds its lock around every call.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/storage/backup_store.h"
#include "emulator/storage/stream_store.h"
#include "emulator/storage/ttl_queue_store.h"

namespace ddblab::storage {

// index_id 0 means "the base table" wherever an index id is taken.
inline constexpr int64_t kBaseTable = 0;

struct StoredItem {
  std::string bytes;  // value::SerializeItem output
  int64_t size = 0;   // DynamoDB item size
};

// One row met by a Scan. Views are valid only during the visitor call.
struct Row {
  std::string_view ipk;  // index partition key (empty for the base table)
  std::string_view isk;  // index sort key (empty for the base table)
  std::string_view pk;
  std::string_view sk;
  std::string_view item;  // serialized item (projected, for an index)
  int64_t size = 0;
};

// Return false to stop the scan.
using RowVisitor = std::function<bool(const Row&)>;

struct SortBound {
  std::string bytes;
  bool inclusive = true;
};

// Which rows a Scan visits, and in which order.
//   * index_id == kBaseTable: rows ordered by (pk, sk);
//     otherwise by (ipk, isk, pk, sk) within that index.
//   * partition: if set, only rows whose (i)pk equals it; lower/upper then
//     bound the (i)sk (begins_with is [prefix, PrefixUpperBound(prefix))).
//   * forward == false visits in descending order.
//   * start: an exclusive start position (a full row key: for the base
//     table pk+sk, for an index ipk+isk+pk+sk); the scan begins strictly
//     after it in the scan direction.
struct ScanSpec {
  int64_t table_id = 0;
  int64_t index_id = kBaseTable;
  std::optional<std::string> partition;
  std::optional<SortBound> lower;
  std::optional<SortBound> upper;
  bool forward = true;
  struct Position {
    std::string ipk, isk, pk, sk;
  };
  std::optional<Position> start;
  // false: the visitor does not look at Row::ipk/isk/pk/sk, which are then
  // left empty (not read from storage).
  bool row_keys = true;
};

// The smallest byte string greater than every string with this prefix
// (strip trailing 0xFF, increment the last byte); nullopt if none exists
// (empty prefix or all 0xFF).
std::optional<std::string> PrefixUpperBound(std::string_view prefix);

struct CatalogRow {
  int64_t table_id = 0;
  std::string name;
  std::string meta;  // opaque to the store (the engine's JSON)
};

struct Stats {
  int64_t count = 0;
  int64_t bytes = 0;
};

class WriteTransaction {
 public:
  virtual ~WriteTransaction() = default;

  // Insert or replace.
  virtual Status PutItem(int64_t table_id, std::string_view pk,
                         std::string_view sk, std::string_view item,
                         int64_t size) = 0;
  // Inserts only if no item has this key: true if inserted, false if an item
  // exists (left unchanged).
  virtual Result<bool> InsertItemIfAbsent(int64_t table_id, std::string_view pk,
                                          std::string_view sk,
                                          std::string_view item,
                                          int64_t size) = 0;
  virtual Status DeleteItem(int64_t table_id, std::string_view pk,
                            std::string_view sk) = 0;
  virtual Status PutIndexEntry(int64_t table_id, int64_t index_id,
                               std::string_view ipk, std::string_view isk,
                               std::string_view pk, std::string_view sk,
                               std::string_view item, int64_t size) = 0;
  virtual Status DeleteIndexEntry(int64_t table_id, int64_t index_id,
                                  std::string_view ipk, std::string_view isk,
                                  std::string_view pk, std::string_view sk) = 0;

  // Catalog. CreateTable assigns a new table_id.
  virtual Result<int64_t> CreateTable(std::string_view name,
                                      std::string_view meta) = 0;
  virtual Status UpdateTable(int64_t table_id, std::string_view meta) = 0;
  // Removes the catalog row, every item and every index entry of the table.
  virtual Status DropTable(int64_t table_id) = 0;
  // Removes every entry of one index.
  virtual Status DropIndex(int64_t table_id, int64_t index_id) = 0;

  virtual Status Commit() = 0;
  virtual void Rollback() = 0;

  // The sub-stores, writing inside this transaction: their rows commit or
  // roll back with the items.
  virtual TtlQueueStore& ttl_queue() = 0;
  virtual StreamStore& streams() = 0;
  virtual BackupStore& backups() = 0;
};

class ItemStore {
 public:
  virtual ~ItemStore() = default;

  virtual Result<std::optional<StoredItem>> Get(int64_t table_id,
                                                std::string_view pk,
                                                std::string_view sk) = 0;
  // Visits rows per spec until the visitor returns false or rows run out.
  virtual Status Scan(const ScanSpec& spec, const RowVisitor& visit) = 0;

  virtual Result<std::unique_ptr<WriteTransaction>> Begin() = 0;
  // Whether a WriteTransaction is open.
  virtual bool in_transaction() const = 0;

  virtual Result<std::vector<CatalogRow>> LoadCatalog() = 0;
  // Count and summed size of a table's items (index_id == kBaseTable) or of
  // one index's entries. O(rows): used when loading, not per request.
  virtual Result<Stats> ComputeStats(int64_t table_id, int64_t index_id) = 0;

  // The sub-stores, for reads outside a transaction (and for EnsureSchema,
  // which runs its own). Writes go through WriteTransaction's.
  virtual TtlQueueStore& ttl_queue() = 0;
  virtual StreamStore& streams() = 0;
  virtual BackupStore& backups() = 0;
};

}  // namespace ddblab::storage
