#include "emulator/engine/ops/read_common.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/engine/capacity/capacity_ledger.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/multi_key.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/request.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_codec.h"
#include "emulator/value/item_json.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;

constexpr char kNoMatch[] =
    "The provided key element does not match the schema";
constexpr char kStartKeyInvalid[] = "The provided starting key is invalid";

bool HasPrefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Whether an index stores `attr` (keys of the table and the index included).
bool IndexHas(const Table& table, const IndexDef& index,
              std::string_view attr) {
  return table.key.Contains(attr) || index.key.Contains(attr) ||
         index.Projects(attr);
}

}  // namespace

std::optional<std::string> SelectConflict(
    const std::optional<std::string>& select, bool has_attributes_to_get,
    bool has_projection_expression, bool has_index) {
  if (!select) return std::nullopt;
  const bool has_projection =
      has_attributes_to_get || has_projection_expression;
  const std::string what =
      has_attributes_to_get ? "AttributesToGet" : "ProjectionExpression";
  if (has_projection) {
    if (*select == "COUNT") {
      return "Cannot specify the " + what +
             " when choosing to get only the Count";
    }
    if (*select == "ALL_ATTRIBUTES" || *select == "ALL_PROJECTED_ATTRIBUTES") {
      return "Cannot specify the " + what + " when choosing to get " + *select;
    }
  }
  if (*select == "ALL_PROJECTED_ATTRIBUTES" && !has_index) {
    return std::string(
        "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an "
        "IndexName");
  }
  if (*select == "SPECIFIC_ATTRIBUTES" && !has_projection) {
    return std::string(
        "Must specify the AttributesToGet or ProjectionExpression when "
        "choosing to get SPECIFIC_ATTRIBUTES");
  }
  return std::nullopt;
}

SelectMode ResolveSelect(const std::optional<std::string>& select,
                         bool has_projection, bool has_index) {
  if (select) {
    if (*select == "COUNT") return SelectMode::kCount;
    if (*select == "SPECIFIC_ATTRIBUTES")
      return SelectMode::kSpecificAttributes;
    if (*select == "ALL_PROJECTED_ATTRIBUTES") {
      return SelectMode::kAllProjectedAttributes;
    }
    return SelectMode::kAllAttributes;
  }
  if (has_projection) return SelectMode::kSpecificAttributes;
  return has_index ? SelectMode::kAllProjectedAttributes
                   : SelectMode::kAllAttributes;
}

Error StartKeyValueError(Error decode_error) {
  if (decode_error.type != ErrorType::kValidation) return decode_error;
  const std::string& m = decode_error.message;
  const bool bare =
      Contains(m, "numeric value") || Contains(m, "significant digits") ||
      HasPrefix(m, "Number overflow") || HasPrefix(m, "Number underflow") ||
      Contains(m, "An number set") || Contains(m, "Input collection");
  if (bare) return decode_error;
  return Error::Validation(std::string(kStartKeyInvalid) + ": " + m);
}

Result<const IndexDef*> FindReadIndex(const Table& table,
                                      const std::optional<std::string>& name,
                                      bool consistent, ReadOperation op) {
  if (!name) return static_cast<const IndexDef*>(nullptr);
  if (const VectorIndexDef* v = table.FindVectorIndex(*name);
      v != nullptr && v->Live()) {
    return Error::Validation(op == ReadOperation::kQuery
                                 ? "Query operation not supported on this "
                                   "index type."
                                 : "Scan operation not supported on this "
                                   "index type");
  }
  const IndexDef* index = table.FindIndex(*name);
  if (index == nullptr || index->status == TableStatus::kDeleting) {
    return Error::Validation("The table does not have the specified index: " +
                             *name);
  }
  if (index->global && consistent) {
    return Error::Validation(
        "Consistent reads are not supported on global secondary indexes");
  }
  if (index->global &&
      (index->backfilling || index->status == TableStatus::kCreating)) {
    return Error::Validation(
        "Cannot read from backfilling global secondary index: " + *name);
  }
  return index;
}

const KeySchema& ReadKeySchema(const Table& table, const IndexDef* index) {
  return index != nullptr ? index->key : table.key;
}

std::vector<std::string> StartKeyNames(const Table& table,
                                       const IndexDef* index) {
  std::vector<std::string> names = TableKeyNames(table);
  if (index != nullptr) {
    auto add = [&](const KeyElement& k) {
      if (!table.key.Contains(k.name)) names.push_back(k.name);
    };
    add(index->key.hash);
    if (index->key.range) add(*index->key.range);
    for (const KeyElement& k : index->key.more_hash) add(k);
    for (const KeyElement& k : index->key.more_range) add(k);
  }
  return names;
}

Status CheckStartKeyPiece(const Item& esk, const KeyElement& element,
                          bool hash) {
  auto it = esk.find(element.name);
  if (it == esk.end() || it->second.type() != element.type) {
    return Error::Validation(kNoMatch);
  }
  const AttributeValue& v = it->second;
  size_t bytes = 0;
  if (v.type() == AttrType::kS) bytes = v.s().size();
  if (v.type() == AttrType::kB) bytes = v.b().size();
  if (hash && bytes > kMaxHashKeyBytes) {
    return Error::Validation(
        std::string(kInvalidParams) +
        "Size of hashkey has exceeded the maximum size limit of2048 bytes");
  }
  if (!hash && bytes > kMaxRangeKeyBytes) {
    return Error::Validation(
        std::string(kInvalidParams) +
        "Aggregated size of all range keys has exceeded the size limit of "
        "1024 bytes");
  }
  return OkStatus();
}

Status CheckStartTableKey(const Table& table, const Item& esk) {
  Status s = CheckStartKeyPiece(esk, table.key.hash, true);
  if (s.ok() && table.key.range) {
    s = CheckStartKeyPiece(esk, *table.key.range, false);
  }
  if (s.ok()) return s;
  return Error::Validation(std::string(kStartKeyInvalid) + ": " +
                           s.error().message);
}

storage::ScanSpec::Position StartPosition(const Table& table,
                                          const IndexDef* index,
                                          const Item& esk) {
  auto encode = [&esk](const KeyElement& k) {
    auto it = esk.find(k.name);
    return it == esk.end() ? std::string() : EncodeKeyValue(it->second);
  };
  storage::ScanSpec::Position pos;
  pos.pk = encode(table.key.hash);
  if (table.key.range) pos.sk = encode(*table.key.range);
  if (index != nullptr) {
    pos.ipk = EncodeHashPart(index->key, esk).value_or(std::string());
    pos.isk = EncodeRangePart(index->key, esk).value_or(std::string());
  }
  return pos;
}

Status CheckNestedKeyPaths(
    const Table& table, const std::vector<const expr::DocumentPath*>& paths) {
  if (paths.empty()) return OkStatus();  // no key name lists to build
  if (std::optional<Error> error = expr::CheckNestedKeyPaths(
          paths, TableKeyNames(table), IndexKeyNames(table))) {
    return *std::move(error);
  }
  return OkStatus();
}

std::vector<const expr::DocumentPath*> ProjectionPaths(
    const std::optional<expr::ProjectionExpression>& projection) {
  std::vector<const expr::DocumentPath*> out;
  if (projection) {
    for (const expr::DocumentPath& p : projection->paths) out.push_back(&p);
  }
  return out;
}

Status CheckGsiSelect(const IndexDef* index, SelectMode select) {
  if (index == nullptr || !index->global ||
      index->projection == ProjectionType::kAll ||
      select != SelectMode::kAllAttributes) {
    return OkStatus();
  }
  return Error::Validation(
      std::string(kInvalidParams) +
      "Select type ALL_ATTRIBUTES is not supported for global secondary "
      "index " +
      index->name + " because its projection type is not ALL");
}

Status CheckGsiProjection(
    const Table& table, const IndexDef* index,
    const std::optional<expr::ProjectionExpression>& projection) {
  if (index == nullptr || !index->global || !projection ||
      index->projection == ProjectionType::kAll) {
    return OkStatus();
  }
  std::vector<std::string> missing;
  for (const expr::DocumentPath& p : projection->paths) {
    const std::string& top = p.top();
    if (IndexHas(table, *index, top)) continue;
    bool seen = false;
    for (const std::string& m : missing) seen = seen || m == top;
    if (!seen) missing.push_back(top);
  }
  if (missing.empty()) return OkStatus();
  std::string list;
  for (const std::string& m : missing) {
    if (!list.empty()) list += ", ";
    list += m;
  }
  return Error::Validation(std::string(kInvalidParams) +
                           "Global secondary index " + index->name +
                           " does not project [" + list + "]");
}

bool NeedsTableFetch(const Table& table, const IndexDef* index,
                     SelectMode select,
                     const std::optional<expr::ProjectionExpression>& proj,
                     const std::optional<expr::ConditionExpression>& filter) {
  if (index == nullptr || index->global ||
      index->projection == ProjectionType::kAll) {
    return false;
  }
  if (select == SelectMode::kAllAttributes) return true;
  for (const expr::DocumentPath* p : ProjectionPaths(proj)) {
    if (!IndexHas(table, *index, p->top())) return true;
  }
  if (filter) {
    for (const expr::DocumentPath* p : expr::ReferencedPaths(filter->root)) {
      if (!IndexHas(table, *index, p->top())) return true;
    }
  }
  return false;
}

int64_t SegmentOf(std::string_view encoded_partition_key,
                  int64_t total_segments) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (unsigned char c : encoded_partition_key) {
    h ^= c;
    h *= 1099511628211ull;
  }
  // MurmurHash3's finalizer: FNV's top bits barely move for short keys
  // that differ in their last bytes.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  // Ranges of the top 32 bits: segment s holds [s, s+1) * 2^32 / total.
  const uint64_t top = h >> 32;
  return static_cast<int64_t>((top * static_cast<uint64_t>(total_segments)) >>
                              32);
}

// ---------------------------------------------------------------------------

Result<RawPage> ReadPage(const ReadView& view, const Table& table,
                         const PageSpec& spec) {
  RawPage page;
  const bool index = spec.scan.index_id != storage::kBaseTable;
  std::vector<std::pair<std::string, std::string>> fetch_keys;
  int64_t count = 0;
  // Row keys are read only for what needs them (segments, table fetches,
  // partition tracking); a copy of the spec says so, once per page.
  const bool keys =
      spec.segment || spec.fetch_from_table || spec.track_partitions;
  std::optional<storage::ScanSpec> keyless;
  if (!keys) {
    keyless = spec.scan;
    keyless->row_keys = false;
  }
  DDBLAB_RETURN_IF_ERROR(
      view.Scan(keys ? spec.scan : *keyless, [&](const storage::Row& row) {
        if (spec.segment) {
          std::string_view part = index ? row.ipk : row.pk;
          if (SegmentOf(part, spec.segment->total) != spec.segment->segment) {
            return true;
          }
        }
        page.rows.push_back(RawRow{std::string(row.item), std::nullopt});
        if (spec.fetch_from_table) {
          fetch_keys.emplace_back(std::string(row.pk), std::string(row.sk));
        }
        page.read_bytes += row.size;
        if (spec.track_partitions) {
          std::string_view part = index ? row.ipk : row.pk;
          if (page.partitions.empty() || page.partitions.back().first != part) {
            page.partitions.emplace_back(std::string(part), 0);
          }
          page.partitions.back().second += row.size;
        }
        ++count;
        if ((spec.limit && count >= *spec.limit) ||
            page.read_bytes >= kMaxPageBytes) {
          page.stopped = true;
          return false;
        }
        return true;
      }));
  for (size_t i = 0; i < fetch_keys.size(); ++i) {
    DDBLAB_ASSIGN_OR_RETURN(
        std::optional<storage::StoredItem> stored,
        view.Get(table.id, fetch_keys[i].first, fetch_keys[i].second));
    if (!stored) continue;
    page.fetched_bytes += stored->size;
    page.rows[i].table_item = std::move(stored->bytes);
  }
  return page;
}

namespace {

// Whether every returned row is a whole stored item, rendered straight from
// its bytes: no filter reads it and no projection cuts it.
bool PlainRows(const RenderSpec& spec) {
  if (spec.filter != nullptr) return false;
  switch (spec.select) {
    case SelectMode::kAllAttributes:
    case SelectMode::kAllProjectedAttributes:
      return true;
    case SelectMode::kSpecificAttributes:
      return spec.projection == nullptr;
    case SelectMode::kCount:
      return false;
  }
  return false;
}

// The LastEvaluatedKey of the last row read: its key attributes.
Result<Json> LastKey(const RawRow& last, const RenderSpec& spec) {
  DDBLAB_ASSIGN_OR_RETURN(Json row, value::StoredItemToJson(last.item));
  Json key(Json::value_t::object);
  auto& from = row.get_ref<Json::object_t&>();
  auto& to = key.get_ref<Json::object_t&>();
  for (const std::string& name : StartKeyNames(*spec.table, spec.index)) {
    auto it = from.find(name);
    if (it != from.end()) to.emplace(it->first, std::move(it->second));
  }
  return key;
}

}  // namespace

Result<Json> RenderPage(const RawPage& page, const RenderSpec& spec) {
  Json items(Json::value_t::array);
  auto& list = items.get_ref<Json::array_t&>();
  int64_t count = 0;
  if (PlainRows(spec)) {
    list.reserve(page.rows.size());
    for (const RawRow& row : page.rows) {
      // ALL_PROJECTED_ATTRIBUTES returns the index entry even when the row
      // was completed from the table.
      const bool full =
          row.table_item && spec.select != SelectMode::kAllProjectedAttributes;
      DDBLAB_ASSIGN_OR_RETURN(
          Json item,
          value::StoredItemToJson(full ? *row.table_item : row.item));
      list.push_back(std::move(item));
    }
    count = static_cast<int64_t>(page.rows.size());
  } else if (spec.select == SelectMode::kCount && spec.filter == nullptr) {
    count = static_cast<int64_t>(page.rows.size());  // nothing to decode
  } else {
    // A projection without a filter reads only its top-level attributes.
    std::optional<std::vector<std::string_view>> tops;
    // Only top-level names: the projection is those attributes, written
    // straight from the stored bytes.
    bool only_tops = true;
    if (spec.select == SelectMode::kSpecificAttributes &&
        spec.projection != nullptr && spec.filter == nullptr) {
      tops.emplace();
      for (const expr::DocumentPath& path : spec.projection->paths) {
        tops->push_back(path.top());
        only_tops = only_tops && !path.nested();
      }
      list.reserve(page.rows.size());
    }
    for (const RawRow& row : page.rows) {
      if (tops && only_tops && !row.table_item) {
        DDBLAB_ASSIGN_OR_RETURN(Json item,
                                value::StoredAttributesToJson(row.item, *tops));
        ++count;
        list.push_back(std::move(item));
        continue;
      }
      if (tops && !row.table_item) {
        DDBLAB_ASSIGN_OR_RETURN(Item some,
                                value::DeserializeAttributes(row.item, *tops));
        ++count;
        list.push_back(
            value::EncodeItem(expr::Project(*spec.projection, some)));
        continue;
      }
      DDBLAB_ASSIGN_OR_RETURN(Item stored, value::DeserializeItem(row.item));
      std::optional<Item> full;
      if (row.table_item) {
        DDBLAB_ASSIGN_OR_RETURN(full, value::DeserializeItem(*row.table_item));
      }
      const Item& source = full ? *full : stored;
      if (spec.filter != nullptr &&
          !expr::EvaluateCondition(*spec.filter, source)) {
        continue;
      }
      ++count;
      switch (spec.select) {
        case SelectMode::kCount:
          break;
        case SelectMode::kAllProjectedAttributes:
          list.push_back(value::EncodeItem(stored));
          break;
        case SelectMode::kAllAttributes:
          list.push_back(value::EncodeItem(source));
          break;
        case SelectMode::kSpecificAttributes:
          list.push_back(
              value::EncodeItem(spec.projection != nullptr
                                    ? expr::Project(*spec.projection, source)
                                    : source));
          break;
      }
    }
  }

  Json out(Json::value_t::object);
  if (spec.select != SelectMode::kCount) out["Items"] = std::move(items);
  out["Count"] = count;
  out["ScannedCount"] = static_cast<int64_t>(page.rows.size());
  if (page.stopped && !page.rows.empty()) {
    DDBLAB_ASSIGN_OR_RETURN(out["LastEvaluatedKey"],
                            LastKey(page.rows.back(), spec));
  }
  if (spec.capacity != CapacityMode::kNone) {
    const Consumed used =
        PageConsumed(page, spec.index, spec.consistent, spec.min_units);
    out["ConsumedCapacity"] =
        ConsumedCapacityJson(spec.table_name, used, spec.capacity);
  }
  return out;
}

Consumed PageConsumed(const RawPage& page, const IndexDef* index,
                      bool consistent, double min_units) {
  Consumed used;
  const double units = std::max(ReadUnits(page.read_bytes, consistent),
                                consistent ? min_units : min_units / 2);
  if (index == nullptr) {
    used.table = units;
  } else {
    (index->global ? used.global_indexes : used.local_indexes)[index->name] =
        units;
    if (page.fetched_bytes > 0) {
      used.table = ReadUnits(page.fetched_bytes, consistent);
    }
  }
  return used;
}

Status AdmitPage(CapacityLedger& capacity, const Table& table,
                 const IndexDef* index, const RawPage& page, bool consistent,
                 double min_units, const std::string& partition) {
  if (!capacity.enforced()) return OkStatus();
  const Consumed used = PageConsumed(page, index, consistent, min_units);
  std::vector<CapacityCharge> charges;
  const bool gsi = index != nullptr && index->global;
  double table_units = used.table;
  if (index != nullptr && !gsi) table_units += used.Total() - used.table;
  if (gsi) {
    charges.push_back(
        {index->id, false, partition, used.global_indexes.at(index->name)});
  }
  if (table_units > 0) {
    // An LSI query and the table items it fetches draw on the table; the
    // fetched items of a GSI cannot happen (GSIs never fetch).
    charges.push_back({0, false, gsi ? "" : partition, table_units});
  }
  // A Scan reads partition after partition: each one it read is charged for
  // its own bytes (rounded up to 4 KB per partition) against its
  // per-partition limit, as a Query is for its one partition.
  const int64_t resource = gsi ? index->id : 0;
  for (const auto& [part, bytes] : page.partitions) {
    CapacityCharge c{resource, false, part, ReadUnits(bytes, consistent)};
    c.partition_only = true;
    charges.push_back(std::move(c));
  }
  return capacity.Admit(table, std::move(charges));
}

void CheckLimit(RequestParser& p, const std::optional<int64_t>& limit) {
  if (limit && *limit < 1) {
    p.AddConstraintError(
        "Value at 'Limit' failed to satisfy constraint: Member must have value "
        "greater than or equal to 1");
  }
}

void CheckSegment(RequestParser& p, const std::optional<int64_t>& segment) {
  if (!segment) return;
  if (*segment < 0) {
    p.AddConstraintError(
        "Value at 'Segment' failed to satisfy constraint: Member must have "
        "value greater than or equal to 0");
    return;
  }
  p.Range(*segment, "segment", 0, 999999);
}

double ScanMinimumUnits(const std::optional<ScanSegment>& segment) {
  constexpr int64_t kNewTablePartitions = 4;
  const int64_t segments = segment ? segment->total : 1;
  return static_cast<double>(
      std::max<int64_t>(1, (kNewTablePartitions + segments - 1) / segments));
}

}  // namespace ddblab::engine
