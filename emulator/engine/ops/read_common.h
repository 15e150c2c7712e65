// emulator/engine/ops/read_common.h: what Query and Scan share (the DynamoDB
// API reference): Select rules, the secondary index being read,
// ExclusiveStartKey checks, reading one page, and rendering it (filter,
// projection, Count / ScannedCount, LastEvaluatedKey, ConsumedCapacity).
//
// A page is cut while reading, before any filter or projection: it ends
// after `Limit` rows, or after the row that brings the bytes read (item
// sizes, DynamoDB's data model, of the rows as stored: index entries for an
// index) to kMaxPageBytes or more. When the cut stopped the read,
// LastEvaluatedKey is the key of the last row read — even if the filter dropped
// it, and even if no further row exists; it is absent only when the range ran
// out. LastEvaluatedKey holds the table keys, plus the index keys on an index.
//
// Parallel scan segments are ranges of a stable 64-bit hash (FNV-1a, then
// MurmurHash3's finalizer) of the encoded partition key (the index
// partition key on an index), so every item of a partition falls in one
// segment and the segments of one TotalSegments are disjoint and cover the
// table.
//
// Capacity: ceil(bytes read / 4 KB) units (at least 1), halved for eventually
// consistent reads, charged to the index read (or the table); rows an LSI
// completes from the table also charge the table for the bytes fetched.
//
// Usage: the op parses its request without the lock; under the engine lock
// it looks the table up, runs the checks here in its order and calls
// ReadPage; it renders with RenderPage after releasing the lock.
//
// Thread-safety: stateless functions; ReadPage needs the engine lock.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/capacity/capacity_ledger.h"
#include "emulator/engine/consistency/read_view.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"
#include "emulator/expr/expr.h"
#include "emulator/storage/item_store.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

inline constexpr int64_t kMaxPageBytes = int64_t{1} << 20;

enum class SelectMode {
  kAllAttributes,
  kAllProjectedAttributes,
  kSpecificAttributes,
  kCount,
};

// The Select rules that need no table, in DynamoDB's order; the message
// (without any "1 validation error detected: " prefix) or nullopt:
//   "Cannot specify the <AttributesToGet|ProjectionExpression> when choosing
//    to get <ALL_ATTRIBUTES|ALL_PROJECTED_ATTRIBUTES|only the Count>"
//   "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an
//    IndexName"
//   "Must specify the AttributesToGet or ProjectionExpression when choosing
//    to get SPECIFIC_ATTRIBUTES"
// `select` must be one of the four enum values (or absent).
std::optional<std::string> SelectConflict(
    const std::optional<std::string>& select, bool has_attributes_to_get,
    bool has_projection_expression, bool has_index);

// The effective Select: as given, else SPECIFIC_ATTRIBUTES with a
// projection, else ALL_PROJECTED_ATTRIBUTES on an index, else
// ALL_ATTRIBUTES.
SelectMode ResolveSelect(const std::optional<std::string>& select,
                         bool has_projection, bool has_index);

// An ExclusiveStartKey value that did not decode: DynamoDB prefixes some
// texts with "The provided starting key is invalid: " and not others
// (numbers, number sets, duplicates in sets).
Error StartKeyValueError(Error decode_error);

// The index named by IndexName (nullptr when absent):
//   a vector index: "Query operation not supported on this index type."
//     (Query, with the full stop) / "Scan operation not supported on this
//     index type" (Scan), DynamoDB's texts;
//   "The table does not have the specified index: <i>" (also while the
//     index is being deleted)
//   "Consistent reads are not supported on global secondary indexes"
//   "Cannot read from backfilling global secondary index: <i>"
enum class ReadOperation { kQuery, kScan };
Result<const IndexDef*> FindReadIndex(const Table& table,
                                      const std::optional<std::string>& name,
                                      bool consistent, ReadOperation op);

// The key schema read: the index's, or the table's.
const KeySchema& ReadKeySchema(const Table& table, const IndexDef* index);

// The attributes of a LastEvaluatedKey / ExclusiveStartKey: the table keys,
// then the index keys that are not table keys.
std::vector<std::string> StartKeyNames(const Table& table,
                                       const IndexDef* index);

// One key attribute of an ExclusiveStartKey known to be present: "The
// provided key element does not match the schema" for another type, then
// the key size limits (hash 2048 bytes, range 1024 bytes).
Status CheckStartKeyPiece(const value::Item& esk, const KeyElement& element,
                          bool hash);

// The table-key part of an ExclusiveStartKey: "The provided starting key is
// invalid: The provided key element does not match the schema" for a
// missing or mistyped key attribute (or the size texts after the prefix).
Status CheckStartTableKey(const Table& table, const value::Item& esk);

// The storage position of a (validated) ExclusiveStartKey.
storage::ScanSpec::Position StartPosition(const Table& table,
                                          const IndexDef* index,
                                          const value::Item& esk);

// "Key attributes must be scalars; list random access '[]' and map lookup
// '.' are not allowed: Key: <a>" (table keys first, then "IndexKey: <a>"
// for every index's keys).
Status CheckNestedKeyPaths(const Table& table,
                           const std::vector<const expr::DocumentPath*>& paths);

// Every path of a projection.
std::vector<const expr::DocumentPath*> ProjectionPaths(
    const std::optional<expr::ProjectionExpression>& projection);

// ALL_ATTRIBUTES on a GSI whose projection is not ALL: "One or more
// parameter values were invalid: Select type ALL_ATTRIBUTES is not supported
// for global secondary index <i> because its projection type is not ALL".
Status CheckGsiSelect(const IndexDef* index, SelectMode select);

// A projection naming attributes a GSI does not store: "One or more
// parameter values were invalid: Global secondary index <i> does not
// project [a, b]".
Status CheckGsiProjection(
    const Table& table, const IndexDef* index,
    const std::optional<expr::ProjectionExpression>& projection);

// Whether an LSI read must complete its rows from the table: the LSI does
// not project everything and ALL_ATTRIBUTES, the projection or the filter
// wants an attribute it does not store.
bool NeedsTableFetch(const Table& table, const IndexDef* index,
                     SelectMode select,
                     const std::optional<expr::ProjectionExpression>& proj,
                     const std::optional<expr::ConditionExpression>& filter);

// The parallel-scan segment (0 .. total-1) of an encoded partition key.
int64_t SegmentOf(std::string_view encoded_partition_key,
                  int64_t total_segments);

// ---------------------------------------------------------------------------
// Reading and rendering one page.

struct ScanSegment {
  int64_t segment = 0;
  int64_t total = 1;
};

struct PageSpec {
  storage::ScanSpec scan;  // table_id, index_id, bounds, order, start
  std::optional<int64_t> limit;
  std::optional<ScanSegment> segment;
  bool fetch_from_table = false;  // LSI rows completed from the table
  // Fill RawPage::partitions (a Scan under capacity enforcement).
  bool track_partitions = false;
};

struct RawRow {
  std::string item;  // serialized, as stored (the projected entry on an index)
  std::optional<std::string> table_item;  // fetched from the table
};

struct RawPage {
  std::deque<RawRow> rows;    // a deque: no large reallocations as it grows
  bool stopped = false;       // Limit or 1 MB ended the read
  int64_t read_bytes = 0;     // sizes of the rows read
  int64_t fetched_bytes = 0;  // sizes of the table items fetched
  // With PageSpec::track_partitions: the bytes read per partition key (of
  // the table, or of the scanned index), in the order read.
  std::vector<std::pair<std::string, int64_t>> partitions;
};

// Engine lock held. The view (consistency/read_view.h) is the store's
// current state, or the state a lagging read sees.
Result<RawPage> ReadPage(const ReadView& view, const Table& table,
                         const PageSpec& spec);

struct RenderSpec {
  const Table* table = nullptr;
  const IndexDef* index = nullptr;
  SelectMode select = SelectMode::kAllAttributes;
  const expr::ConditionExpression* filter = nullptr;
  const expr::ProjectionExpression* projection = nullptr;
  bool consistent = false;
  CapacityMode capacity = CapacityMode::kNone;
  std::string_view table_name;  // as the request gave it
  // The least a page costs, in strongly consistent read units (halved for
  // an eventually consistent read): ScanMinimumUnits() for a Scan, 0 for a
  // Query (whose own minimum is the one read unit ReadUnits() rounds to).
  double min_units = 0;
};

// What a page read costs (ReturnConsumedCapacity and enforcement): the
// bytes read rounded up to 4 KB once, at least `min_units`; on an index, the
// table items fetched besides.
Consumed PageConsumed(const RawPage& page, const IndexDef* index,
                      bool consistent, double min_units);
// Capacity enforcement of a page read, on the call's ledger
// (capacity/capacity_ledger.h): a no-op unless enforced; `partition` is the
// partition read ("" for a Scan).
Status AdmitPage(CapacityLedger& capacity, const Table& table,
                 const IndexDef* index, const RawPage& page, bool consistent,
                 double min_units, const std::string& partition);

// Query's Limit below 1, and Scan's negative Segment, as DynamoDB words
// them now: the API's member name and no value ("Value at 'Limit' failed to
// satisfy constraint: Member must have value greater than or equal to 1").
// Other constraint errors (Scan's Limit included: us-east-1 still words it
// so) keep the "Value '<v>' at '<member>'" form.
void CheckLimit(RequestParser& p, const std::optional<int64_t>& limit);
void CheckSegment(RequestParser& p, const std::optional<int64_t>& segment);

// What a Scan page costs at least, in strongly consistent read units.
// DynamoDB charges a Scan of a new table holding one tiny item 4 units (2
// eventually consistent), not the 1 its size gives: a read unit for each of
// the partitions a new table starts with, which ddblab takes to be four. A
// segment of a parallel Scan covers its share of them (at least one); that
// share is ddblab's model, unverified against DynamoDB.
double ScanMinimumUnits(const std::optional<ScanSegment>& segment);

// Items (unless COUNT), Count, ScannedCount, LastEvaluatedKey,
// ConsumedCapacity.
Result<Json> RenderPage(const RawPage& page, const RenderSpec& spec);

}  // namespace ddblab::engine
