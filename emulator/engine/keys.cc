#include "emulator/engine/keys.h"

#include <array>
#include <span>
#include <utility>

#include "emulator/engine/multi_key.h"
#include "emulator/engine/request.h"
#include "emulator/engine/vector/vector_entry.h"
#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"
#include "emulator/value/key_codec.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;

std::string_view TypeName(AttrType t) { return AttributeValue::TypeName(t); }

// The raw bytes of a key value that count for the size limits (S: UTF-8
// bytes, B: raw bytes); numbers are only bounded by number rules.
size_t KeyBytes(const AttributeValue& v) {
  switch (v.type()) {
    case AttrType::kS:
      return v.s().size();
    case AttrType::kB:
      return v.b().size();
    default:
      return 0;
  }
}

bool IsEmptyKeyValue(const AttributeValue& v) {
  return (v.type() == AttrType::kS && v.s().empty()) ||
         (v.type() == AttrType::kB && v.b().empty());
}

std::string_view EmptyKind(const AttributeValue& v) {
  return v.type() == AttrType::kB ? "binary" : "string";
}

Status CheckKeySize(const AttributeValue& v, bool hash) {
  if (hash && KeyBytes(v) > kMaxHashKeyBytes) {
    return Error::Validation(
        std::string(kInvalidParams) +
        "Size of hashkey has exceeded the maximum size limit of2048 bytes");
  }
  if (!hash && KeyBytes(v) > kMaxRangeKeyBytes) {
    return Error::Validation(
        std::string(kInvalidParams) +
        "Aggregated size of all range keys has exceeded the size limit of "
        "1024 bytes");
  }
  return OkStatus();
}

Status CheckItemKeyElement(const KeyElement& k, const Item& item, bool hash) {
  auto it = item.find(k.name);
  if (it == item.end()) {
    return Error::Validation(std::string(kInvalidParams) + "Missing the key " +
                             k.name + " in the item");
  }
  const AttributeValue& v = it->second;
  if (v.type() != k.type) {
    return Error::Validation(std::string(kInvalidParams) +
                             "Type mismatch for key " + k.name +
                             " expected: " + std::string(TypeName(k.type)) +
                             " actual: " + std::string(TypeName(v.type())));
  }
  if (IsEmptyKeyValue(v)) {
    return Error::Validation(
        "One or more parameter values are not valid. The AttributeValue for a "
        "key attribute cannot contain an empty " +
        std::string(EmptyKind(v)) + " value. Key: " + k.name);
  }
  return CheckKeySize(v, hash);
}

}  // namespace

std::string EncodeKeyValue(const AttributeValue& v) {
  return value::EncodeKey(v);
}

Result<PrimaryKey> ExtractItemKey(const Table& table, const Item& item) {
  DDBLAB_RETURN_IF_ERROR(CheckItemKeyElement(table.key.hash, item, true));
  if (table.key.range) {
    DDBLAB_RETURN_IF_ERROR(CheckItemKeyElement(*table.key.range, item, false));
  }
  PrimaryKey key;
  key.pk = value::EncodeKey(item.find(table.key.hash.name)->second);
  if (table.key.range) {
    key.sk = value::EncodeKey(item.find(table.key.range->name)->second);
  }
  return key;
}

Result<PrimaryKey> ExtractKeyParam(const Table& table, const Item& key) {
  const size_t expected = table.key.range ? 2 : 1;
  // Built only when needed: this runs for every key of every request.
  auto mismatch = [] {
    return Error::Validation(
        "The provided key element does not match the schema");
  };
  if (key.size() != expected) return mismatch();
  auto hash = key.find(table.key.hash.name);
  if (hash == key.end() || hash->second.type() != table.key.hash.type) {
    return mismatch();
  }
  Item::const_iterator range = key.end();
  if (table.key.range) {
    range = key.find(table.key.range->name);
    if (range == key.end() || range->second.type() != table.key.range->type) {
      return mismatch();
    }
  }
  for (auto it : {hash, range}) {
    if (it == key.end()) continue;
    if (IsEmptyKeyValue(it->second)) {
      return Error::Validation(
          std::string(kInvalidParams) +
          "The AttributeValue for a key attribute cannot contain an empty " +
          std::string(EmptyKind(it->second)) + " value. Key: " + it->first);
    }
  }
  DDBLAB_RETURN_IF_ERROR(CheckKeySize(hash->second, true));
  if (range != key.end()) {
    DDBLAB_RETURN_IF_ERROR(CheckKeySize(range->second, false));
  }
  PrimaryKey out;
  out.pk = value::EncodeKey(hash->second);
  if (range != key.end()) out.sk = value::EncodeKey(range->second);
  return out;
}

Status CheckIndexKeys(const Table& table, const Item& item) {
  for (const IndexDef& idx : table.indexes) {
    if (idx.status == TableStatus::kDeleting) continue;
    auto check = [&](const KeyElement& k, bool hash) -> Status {
      if (table.key.Contains(k.name)) return OkStatus();
      auto it = item.find(k.name);
      if (it == item.end()) return OkStatus();
      const AttributeValue& v = it->second;
      if (v.type() != k.type) {
        return Error::Validation(std::string(kInvalidParams) +
                                 "Type mismatch for Index Key " + k.name +
                                 " Expected: " + std::string(TypeName(k.type)) +
                                 " Actual: " + std::string(TypeName(v.type())) +
                                 " IndexName: " + idx.name);
      }
      if (IsEmptyKeyValue(v)) {
        return Error::Validation(
            "One or more parameter values are not valid. A value specified "
            "for a secondary index key is not supported. The AttributeValue "
            "for a key attribute cannot contain an empty " +
            std::string(EmptyKind(v)) + " value. IndexName: " + idx.name +
            ", IndexKey: " + k.name);
      }
      // An index key value has the table key's size limits and texts
      // (each attribute of a multi-attribute key on its own: our choice,
      // DynamoDB's rule for several RANGE attributes is not documented).
      return CheckKeySize(v, hash);
    };
    DDBLAB_RETURN_IF_ERROR(check(idx.key.hash, true));
    if (idx.key.range) DDBLAB_RETURN_IF_ERROR(check(*idx.key.range, false));
    for (const KeyElement& k : idx.key.more_hash) {
      DDBLAB_RETURN_IF_ERROR(check(k, true));
    }
    for (const KeyElement& k : idx.key.more_range) {
      DDBLAB_RETURN_IF_ERROR(check(k, false));
    }
  }
  return OkStatus();
}

Result<PrimaryKey> ValidateItemForWrite(const Table& table, const Item& item) {
  DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key, ExtractItemKey(table, item));
  if (!table.indexes.empty()) {
    DDBLAB_RETURN_IF_ERROR(CheckIndexKeys(table, item));
  }
  if (!table.vector_indexes.empty()) {
    DDBLAB_RETURN_IF_ERROR(
        CheckVectorAttributes(table, item, nullptr, VectorWriteForm::kPut));
  }
  return key;
}

Result<PrimaryKey> ValidateUpdatedItem(const Table& table, const Item& item,
                                       const Item* before) {
  DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key, ExtractItemKey(table, item));
  if (!table.indexes.empty()) {
    DDBLAB_RETURN_IF_ERROR(CheckIndexKeys(table, item));
  }
  if (!table.vector_indexes.empty()) {
    DDBLAB_RETURN_IF_ERROR(
        CheckVectorAttributes(table, item, before, VectorWriteForm::kUpdate));
  }
  return key;
}

Item KeyAttributes(const KeySchema& key, const Item& item) {
  Item out;
  auto copy = [&](const KeyElement& k) {
    if (auto it = item.find(k.name); it != item.end()) {
      out.emplace(it->first, it->second);
    }
  };
  copy(key.hash);
  if (key.range) copy(*key.range);
  for (const KeyElement& k : key.more_hash) copy(k);
  for (const KeyElement& k : key.more_range) copy(k);
  return out;
}

Item TableKeyOf(const Table& table, const Item& item) {
  return KeyAttributes(table.key, item);
}

Item ProjectForIndex(const Table& table, const IndexDef& index,
                     const Item& item) {
  if (index.projection == ProjectionType::kAll) return item;
  Item out = TableKeyOf(table, item);
  for (const auto& [name, v] : KeyAttributes(index.key, item)) {
    out.emplace(name, v);
  }
  if (index.projection == ProjectionType::kInclude) {
    for (const std::string& name : index.non_key_attributes) {
      if (auto it = item.find(name); it != item.end()) {
        out.emplace(it->first, it->second);
      }
    }
  }
  return out;
}

namespace {

// Calls add(name) for each attribute of `key`: the hash and range
// attributes, and the further ones of a multi-attribute key.
template <class Add>
void ForEachKeyAttribute(const KeySchema& key, Add&& add) {
  add(key.hash.name);
  if (key.range) add(key.range->name);
  for (const KeyElement& k : key.more_hash) add(k.name);
  for (const KeyElement& k : key.more_range) add(k.name);
}

}  // namespace

std::vector<std::string_view> IndexedAttributeNames(const Table& table) {
  std::vector<std::string_view> names;
  auto add = [&](std::string_view name) {
    for (std::string_view n : names) {
      if (n == name) return;
    }
    names.push_back(name);
  };
  auto add_key = [&](const KeySchema& key) { ForEachKeyAttribute(key, add); };
  add_key(table.key);
  for (const IndexDef& idx : table.indexes) {
    add_key(idx.key);
    if (idx.projection == ProjectionType::kInclude) {
      for (const std::string& name : idx.non_key_attributes) add(name);
    }
  }
  return names;
}

std::optional<IndexEntry> ComputeIndexEntry(const Table& table,
                                            const IndexDef& idx,
                                            const Item& item,
                                            std::string_view item_bytes,
                                            int64_t item_size) {
  std::optional<std::string> ipk = EncodeHashPart(idx.key, item);
  if (!ipk) return std::nullopt;
  std::optional<std::string> isk = EncodeRangePart(idx.key, item);
  if (!isk) return std::nullopt;
  IndexEntry e;
  e.index = &idx;
  e.ipk = std::move(*ipk);
  e.isk = std::move(*isk);
  if (idx.projection == ProjectionType::kAll) {
    e.bytes = std::string(item_bytes);
    e.size = item_size;
  } else {
    Item projected = ProjectForIndex(table, idx, item);
    e.bytes = value::SerializeItem(projected);
    e.size = static_cast<int64_t>(value::ItemSize(projected));
  }
  return e;
}

std::vector<IndexEntry> ComputeIndexEntries(const Table& table,
                                            const Item& item,
                                            std::string_view item_bytes,
                                            int64_t item_size) {
  std::vector<IndexEntry> entries;
  for (const IndexDef& idx : table.indexes) {
    if (idx.status == TableStatus::kDeleting) continue;
    std::optional<IndexEntry> e =
        ComputeIndexEntry(table, idx, item, item_bytes, item_size);
    if (e) entries.push_back(std::move(*e));
  }
  return entries;
}

Result<std::vector<IndexEntry>> StoredIndexEntryKeys(
    const Table& table, std::string_view item_bytes, int64_t item_size) {
  // The key attributes of the table and of every index, on the stack.
  constexpr size_t kMaxNames = 16;
  std::array<std::string_view, kMaxNames> names;
  size_t count = 0;
  bool fits = true;
  bool include = false;
  auto add = [&](std::string_view name) {
    for (size_t i = 0; i < count; ++i) {
      if (names[i] == name) return;
    }
    if (count == kMaxNames) {
      fits = false;
      return;
    }
    names[count++] = name;
  };
  auto add_key = [&](const KeySchema& key) { ForEachKeyAttribute(key, add); };
  add_key(table.key);
  for (const IndexDef& idx : table.indexes) {
    if (idx.status == TableStatus::kDeleting) continue;
    add_key(idx.key);
    include = include || idx.projection == ProjectionType::kInclude;
  }
  if (include || !fits) {
    // INCLUDE sizes need the included attributes, of any type; many key
    // attributes: the general path.
    DDBLAB_ASSIGN_OR_RETURN(
        Item indexed,
        value::DeserializeAttributes(item_bytes, IndexedAttributeNames(table)));
    std::vector<IndexEntry> entries =
        ComputeIndexEntries(table, indexed, item_bytes, item_size);
    for (IndexEntry& e : entries) e.bytes.clear();
    return entries;
  }
  std::array<value::StoredKeyValue, kMaxNames> values;
  const std::span<const std::string_view> used(names.data(), count);
  DDBLAB_RETURN_IF_ERROR(value::ReadKeyAttributes(
      item_bytes, used, std::span(values.data(), count)));
  const StoredKeyValues stored{used, std::span(values.data(), count)};
  std::vector<IndexEntry> entries;
  for (const IndexDef& idx : table.indexes) {
    if (idx.status == TableStatus::kDeleting) continue;
    std::optional<std::string> ipk = EncodeHashPart(idx.key, stored);
    if (!ipk) continue;
    std::optional<std::string> isk = EncodeRangePart(idx.key, stored);
    if (!isk) continue;
    IndexEntry& e = entries.emplace_back();
    e.index = &idx;
    e.ipk = std::move(*ipk);
    e.isk = std::move(*isk);
    if (idx.projection == ProjectionType::kAll) {
      e.size = item_size;
      continue;
    }
    // KEYS_ONLY: the table's and the index's key attributes (ProjectFor-
    // Index), each counted once; all of them S, N or B (the table's by the
    // schema, the index's or there would be no entry).
    size_t size = 0;
    for (size_t i = 0; i < count; ++i) {
      const value::StoredKeyValue& v = values[i];
      if (!v.present) continue;
      if (!table.key.Contains(names[i]) && !idx.key.Contains(names[i])) {
        continue;
      }
      size += names[i].size() + (v.type == AttrType::kN
                                     ? value::NumberSize(v.number)
                                     : v.bytes.size());
    }
    e.size = static_cast<int64_t>(size);
  }
  return entries;
}

}  // namespace ddblab::engine
