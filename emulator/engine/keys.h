// emulator/engine/keys.h: primary keys and index keys of items, with
// DynamoDB's exact errors (DynamoDB's data model).
//
// Two forms of key input exist and DynamoDB words their errors differently:
//   * an Item being written (PutItem, BatchWriteItem put, TransactWriteItems
//     Put): ExtractItemKey — "Missing the key <a> in the item", "Type mismatch
//     for key <a> expected: S actual: N", "One or more parameter values are
//     not valid. The AttributeValue for a key attribute cannot contain an
//     empty string value. Key: <a>";
//   * a Key parameter (GetItem, DeleteItem, UpdateItem, batch keys, ...):
//     ExtractKeyParam — "The provided key element does not match the schema"
//     for a wrong attribute set or type, "One or more parameter values were
//     invalid: The AttributeValue for a key attribute cannot contain an empty
//     string value. Key: <a>".
// Both check the size limits (hash key 2048 bytes "of2048" sic, range key
// 1024 bytes). CheckIndexKeys validates the index-key attributes an item
// carries (type, emptiness); absent ones are fine (sparse indexes).
//
// Encoded keys (PrimaryKey, IndexEntry) are value::EncodeKey bytes as the
// store expects; sk/isk are empty for hash-only keys.
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/table.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

struct PrimaryKey {
  std::string pk;  // EncodeKey(hash value)
  std::string sk;  // EncodeKey(range value), or "" for a hash-only table

  friend bool operator==(const PrimaryKey&, const PrimaryKey&) = default;
};

// The key of an Item being written (PutItem form of the errors).
Result<PrimaryKey> ExtractItemKey(const Table& table, const value::Item& item);

// The key given as a Key parameter (Key-parameter form of the errors).
Result<PrimaryKey> ExtractKeyParam(const Table& table, const value::Item& key);

// Index-key attributes present in an item being written must have the
// declared type and must not be empty. Key attributes of the table itself
// are checked by ExtractItemKey.
Status CheckIndexKeys(const Table& table, const value::Item& item);

// ExtractItemKey + CheckIndexKeys + the vector index checks
// (vector/vector_entry.h): everything schema-related about an item about to
// be stored.
Result<PrimaryKey> ValidateItemForWrite(const Table& table,
                                        const value::Item& item);
// The same for the result of an update of `before` (null: no item): the
// vector checks apply to the attributes the update changed, with the update
// form of the texts.
Result<PrimaryKey> ValidateUpdatedItem(const Table& table,
                                       const value::Item& item,
                                       const value::Item* before);

// The attributes of `item` named by `key` (those present).
value::Item KeyAttributes(const KeySchema& key, const value::Item& item);
// The table key attributes of an item (for events, LastEvaluatedKey, ...).
value::Item TableKeyOf(const Table& table, const value::Item& item);

// The item as stored in an index: KEYS_ONLY = table keys + index keys;
// INCLUDE adds the NonKeyAttributes; ALL = the whole item.
value::Item ProjectForIndex(const Table& table, const IndexDef& index,
                            const value::Item& item);

// The names of the attributes an item's index entries are computed from: the
// table's key, every index's key and INCLUDE attributes (views into `table`).
// Decoding only these (value::DeserializeAttributes) is enough for
// ComputeIndexEntries of a stored item.
std::vector<std::string_view> IndexedAttributeNames(const Table& table);

// One index row of an item.
struct IndexEntry {
  const IndexDef* index = nullptr;
  std::string ipk;    // EncodeKey(index hash value)
  std::string isk;    // EncodeKey(index range value) or ""
  std::string bytes;  // SerializeItem(projected item)
  int64_t size = 0;   // ItemSize(projected item)
};

// The entries of an item in every index it belongs to (an index whose key
// attributes are missing from the item, or have another type, gets none).
// Indexes being deleted are skipped. `item_bytes`/`item_size` are the
// serialized item and its size, reused for ALL projections.
std::vector<IndexEntry> ComputeIndexEntries(const Table& table,
                                            const value::Item& item,
                                            std::string_view item_bytes,
                                            int64_t item_size);

// The entries of a STORED item (value::SerializeItem bytes and their size)
// in every index, keys and sizes only: `bytes` is left empty. What deleting
// the item removes; the same entries as ComputeIndexEntries of the decoded
// item, computed from the key attributes alone, building no Item (an
// INCLUDE projection decodes its attributes as an Item). Corrupt bytes give
// an InternalServerError.
Result<std::vector<IndexEntry>> StoredIndexEntryKeys(
    const Table& table, std::string_view item_bytes, int64_t item_size);

// The entry of an item in one index, if it belongs there.
std::optional<IndexEntry> ComputeIndexEntry(const Table& table,
                                            const IndexDef& index,
                                            const value::Item& item,
                                            std::string_view item_bytes,
                                            int64_t item_size);

// Encoded key of one key attribute value (S, N or B).
std::string EncodeKeyValue(const value::AttributeValue& v);

inline constexpr size_t kMaxHashKeyBytes = 2048;
inline constexpr size_t kMaxRangeKeyBytes = 1024;

}  // namespace ddblab::engine
