// emulator/engine/table.h: a table's metadata (schema, indexes, billing,
// stream and TTL settings, tags, status) and its TableDescription.
//
// A Table is an immutable snapshot: the catalog hands out
// std::shared_ptr<const Table>, and a control-plane change builds a modified
// copy and publishes it. Live counters (ItemCount, sizes) are not part of it:
// they live in TableStats, owned by the catalog.
//
// Key-related helpers (extracting and validating keys, index entries) are in
// keys.h.
//
// Thread-safety: a Table is immutable once published and safe to share;
// TableStats is guarded by the engine lock.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/engine/capacity/on_demand_settings.h"
#include "emulator/engine/resource_policy.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

using Json = nlohmann::json;
using AttrType = value::AttributeValue::Type;

enum class TableStatus { kCreating, kActive, kUpdating, kDeleting };
std::string_view TableStatusName(TableStatus status);

enum class ProjectionType { kAll, kKeysOnly, kInclude };
std::string_view ProjectionTypeName(ProjectionType type);

enum class BillingMode { kProvisioned, kPayPerRequest };
std::string_view BillingModeName(BillingMode mode);

struct KeyElement {
  std::string name;
  AttrType type = AttrType::kS;  // S, N or B
};

// A key schema. Tables and LSIs have one HASH and at most one RANGE
// attribute; a GSI may have up to four of each (multi-attribute keys):
// `hash`/`range` are then the first ones and `more_hash`/`more_range` the
// rest, in KeySchema order (`range` is set whenever `more_range` is not
// empty). Storage encodes a part with several attributes as a composite
// (multi_key.h); a part with one attribute keeps the plain key encoding.
struct KeySchema {
  KeyElement hash;
  std::optional<KeyElement> range;
  std::vector<KeyElement> more_hash;
  std::vector<KeyElement> more_range;

  bool Contains(std::string_view attr) const {
    if (hash.name == attr || (range && range->name == attr)) return true;
    for (const KeyElement& k : more_hash) {
      if (k.name == attr) return true;
    }
    for (const KeyElement& k : more_range) {
      if (k.name == attr) return true;
    }
    return false;
  }
  bool MultiHash() const { return !more_hash.empty(); }
  bool MultiRange() const { return !more_range.empty(); }
  // The HASH / RANGE attributes in KeySchema order.
  std::vector<const KeyElement*> HashElements() const {
    std::vector<const KeyElement*> out{&hash};
    for (const KeyElement& k : more_hash) out.push_back(&k);
    return out;
  }
  std::vector<const KeyElement*> RangeElements() const {
    std::vector<const KeyElement*> out;
    if (range) out.push_back(&*range);
    for (const KeyElement& k : more_range) out.push_back(&k);
    return out;
  }
};

struct Throughput {
  int64_t read = 0;
  int64_t write = 0;
  int64_t decreases_today = 0;
  std::optional<TimePoint> last_increase;
  std::optional<TimePoint> last_decrease;
};

struct IndexDef {
  int64_t id = 0;  // storage index_id; never reused within a table
  std::string name;
  bool global = true;  // GSI; false: LSI
  KeySchema key;
  ProjectionType projection = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;  // INCLUDE only
  Throughput throughput;                        // GSI on PROVISIONED only
  OnDemandSettings on_demand;  // GSI OnDemandThroughput / WarmThroughput
  // GSI lifecycle: CREATING (backfilling) -> ACTIVE; DELETING -> gone.
  // LSIs are always ACTIVE.
  TableStatus status = TableStatus::kActive;
  TimePoint status_until;
  bool backfilling = false;

  // Whether an attribute (besides the keys) is stored in the index.
  bool Projects(std::string_view attr) const;
};

enum class DistanceFunction { kCosine, kEuclidean, kDotProduct };
std::string_view DistanceFunctionName(DistanceFunction f);

// One SearchSchema element of a vector index: HASH partitions the index
// (a search must name its value), INLINE_FILTER is an optional equality
// filter. The type is the attribute's AttributeDefinitions type.
struct SearchSchemaElement {
  std::string name;
  bool hash = false;  // HASH; false: INLINE_FILTER
  AttrType type = AttrType::kS;
};

// A vector index (VectorIndexes / VectorIndexUpdates; read only through
// SearchVectors). The vector attribute is a list of numbers held by the
// index as float32 copies (vector/vector_store.h).
//
// Lifecycle on the clock (Options.table_status_delay = d):
//   * declared by CreateTable: CREATING with the table, then ACTIVE, no
//     Backfilling member;
//   * added by UpdateTable: CREATING with Backfilling false for d (resource
//     allocation; the table is UPDATING), then CREATING with Backfilling
//     true for d more (the table is ACTIVE again), then ACTIVE;
//   * deleted: DELETING for d, then gone.
// With d = 0 every change is immediate.
struct VectorIndexDef {
  std::string name;
  std::string attribute;  // VectorAttribute.AttributeName
  int64_t dimensions = 0;
  DistanceFunction distance = DistanceFunction::kCosine;
  std::vector<SearchSchemaElement> search_schema;  // as declared
  ProjectionType projection = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;  // INCLUDE only
  TableStatus status = TableStatus::kActive;
  TimePoint status_until;        // end of the current phase
  bool added_by_update = false;  // shows Backfilling while CREATING
  bool backfilling = false;      // in the backfill phase (after allocation)

  // The HASH element, or null.
  const SearchSchemaElement* HashElement() const;
  const SearchSchemaElement* FindSchemaElement(std::string_view attr) const;
  // Whether a non-key attribute other than the vector and the SearchSchema
  // attributes is part of the index's view of an item.
  bool ProjectsOther(std::string_view attr) const;
  // Still maintained by writes (not DELETING).
  bool Live() const { return status != TableStatus::kDeleting; }
};

struct StreamSettings {
  bool enabled = false;
  std::string view_type;  // KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES
  // The latest stream, kept after the stream is disabled (AWS keeps
  // LatestStreamArn/Label).
  std::string label;  // "2024-01-01T00:00:00.000"
  std::string arn;
};

struct TtlSettings {
  bool enabled = false;
  std::string attribute;
  std::optional<TimePoint> last_change;  // for the cooldown
};

struct Table {
  int64_t id = 0;  // storage table_id
  std::string name;
  std::string uuid;  // TableId
  std::string arn;   // arn:aws:dynamodb:<region>:<account>:table/<name>
  TimePoint created;
  TableStatus status = TableStatus::kActive;
  TimePoint status_until;  // when CREATING/UPDATING/DELETING ends

  // As given (order kept), only the attributes used by keys.
  std::vector<KeyElement> attribute_definitions;
  KeySchema key;
  std::vector<IndexDef> indexes;  // LSIs and GSIs, in creation order
  std::vector<VectorIndexDef> vector_indexes;  // in creation order

  BillingMode billing = BillingMode::kProvisioned;
  bool billing_explicit = false;  // BillingModeSummary shown
  std::optional<TimePoint> last_update_to_pay_per_request;
  Throughput throughput;
  OnDemandSettings on_demand;  // OnDemandThroughput / WarmThroughput

  StreamSettings stream;
  TtlSettings ttl;
  std::vector<std::pair<std::string, std::string>> tags;  // in order added
  bool deletion_protection = false;
  // Point-in-time recovery (UpdateContinuousBackups); `pitr_since` is when
  // it was last enabled.
  bool pitr_enabled = false;
  TimePoint pitr_since;
  int64_t pitr_recovery_days = 35;
  std::string table_class;  // "" if never given
  Json sse_description;     // null unless SSE was requested
  // RestoreTableFromBackup: {SourceBackupArn, SourceTableArn,
  // RestoreDateTime} of the backup the table was restored from (null if
  // none). DescribeTable adds RestoreInProgress (true while CREATING).
  Json restore_summary;
  int64_t next_index_id = 1;
  // Resource-based policies of the table and its streams (stored, not
  // enforced).
  ResourcePolicies policies;

  const IndexDef* FindIndex(std::string_view index_name) const;
  const VectorIndexDef* FindVectorIndex(std::string_view index_name) const;
  // Whether a GSI, LSI or vector index has this name.
  bool HasIndexNamed(std::string_view index_name) const;
  // Whether any vector index is maintained by writes.
  bool HasLiveVectorIndexes() const;
  std::string IndexArn(std::string_view index_name) const;
  // Whether any index is a GSI / an LSI.
  bool HasGlobalIndexes() const;
  bool HasLocalIndexes() const;
  // Drops attribute definitions no key of the table or an index (or a
  // vector index's SearchSchema) uses.
  void PruneAttributeDefinitions();
  // The type declared for an attribute in attribute_definitions.
  std::optional<AttrType> DefinedType(std::string_view attr) const;

  // The catalog form (our own JSON; versioned with "v").
  Json ToMeta() const;
  static Result<Table> FromMeta(const Json& meta);
};

struct IndexStats {
  int64_t count = 0;
  int64_t bytes = 0;
};

// Live counters of a table and its indexes (index id -> stats).
struct TableStats {
  int64_t item_count = 0;
  int64_t size_bytes = 0;
  std::map<int64_t, IndexStats> indexes;
  // Vector indexes by name (kept by the catalog from its VectorIndexData).
  std::map<std::string, IndexStats, std::less<>> vector_indexes;
};

// "arn:aws:dynamodb:<region>:<account>:table/<name>".
std::string MakeTableArn(std::string_view region, std::string_view account,
                         std::string_view name);
// The table name of a table ARN of this region/account; nullopt if `arn` is
// not one.
std::optional<std::string> TableNameFromArn(std::string_view arn,
                                            std::string_view region,
                                            std::string_view account);

// The full TableDescription (DescribeTable "Table", CreateTable/UpdateTable/
// DeleteTable "TableDescription"). `status_override` replaces TableStatus
// (CreateTable answers CREATING even when the table is usable at once).
Json DescribeTable(const Table& table, const TableStats& stats,
                   std::optional<TableStatus> status_override = std::nullopt);

// "2024-01-01T00:00:00.000" (UTC, milliseconds) — stream labels.
std::string FormatStreamLabel(TimePoint t);

}  // namespace ddblab::engine
