// TableDescription rendering (DescribeTable and the control-plane answers).
#include "emulator/engine/table.h"

namespace ddblab::engine {
namespace {

Json KeySchemaJson(const KeySchema& key) {
  Json out = Json::array();
  for (const KeyElement* k : key.HashElements()) {
    out.push_back(Json{{"AttributeName", k->name}, {"KeyType", "HASH"}});
  }
  for (const KeyElement* k : key.RangeElements()) {
    out.push_back(Json{{"AttributeName", k->name}, {"KeyType", "RANGE"}});
  }
  return out;
}

Json ThroughputJson(const Throughput& t) {
  Json out{{"ReadCapacityUnits", t.read},
           {"WriteCapacityUnits", t.write},
           {"NumberOfDecreasesToday", t.decreases_today}};
  if (t.last_increase) {
    out["LastIncreaseDateTime"] = ToEpochSecondsDouble(*t.last_increase);
  }
  if (t.last_decrease) {
    out["LastDecreaseDateTime"] = ToEpochSecondsDouble(*t.last_decrease);
  }
  return out;
}

Json ProjectionJson(const IndexDef& idx) {
  Json out{{"ProjectionType", std::string(ProjectionTypeName(idx.projection))}};
  if (idx.projection == ProjectionType::kInclude) {
    out["NonKeyAttributes"] = idx.non_key_attributes;
  }
  return out;
}

Json VectorProjectionJson(const VectorIndexDef& v) {
  Json out{{"ProjectionType", std::string(ProjectionTypeName(v.projection))}};
  if (v.projection == ProjectionType::kInclude) {
    out["NonKeyAttributes"] = v.non_key_attributes;
  }
  return out;
}

// One VectorIndexDescription. Backfilling is shown only for an index added
// by UpdateTable while it is CREATING (false during resource allocation,
// true while backfilling), never once ACTIVE.
Json VectorIndexJson(const Table& table, const VectorIndexDef& v,
                     const TableStats& stats) {
  IndexStats s;
  if (auto it = stats.vector_indexes.find(v.name);
      it != stats.vector_indexes.end()) {
    s = it->second;
  }
  Json j{{"IndexName", v.name}};
  if (!v.search_schema.empty()) {
    Json schema = Json::array();
    for (const SearchSchemaElement& e : v.search_schema) {
      schema.push_back(
          Json{{"AttributeName", e.name},
               {"SearchSchemaElementType", e.hash ? "HASH" : "INLINE_FILTER"}});
    }
    j["SearchSchema"] = std::move(schema);
  }
  j["Projection"] = VectorProjectionJson(v);
  j["VectorAttribute"] = Json{{"AttributeName", v.attribute}};
  j["Dimensions"] = v.dimensions;
  j["DistanceFunction"] = std::string(DistanceFunctionName(v.distance));
  j["IndexStatus"] = std::string(TableStatusName(v.status));
  if (v.added_by_update && v.status == TableStatus::kCreating) {
    j["Backfilling"] = v.backfilling;
  }
  j["IndexSizeBytes"] = s.bytes;
  j["ItemCount"] = s.count;
  j["IndexArn"] = table.IndexArn(v.name);
  return j;
}

}  // namespace

Json DescribeTable(const Table& table, const TableStats& stats,
                   std::optional<TableStatus> status_override) {
  Json defs = Json::array();
  for (const KeyElement& a : table.attribute_definitions) {
    defs.push_back(
        Json{{"AttributeName", a.name},
             {"AttributeType",
              std::string(value::AttributeValue::TypeName(a.type))}});
  }
  TableStatus status = status_override.value_or(table.status);
  Json out{
      {"AttributeDefinitions", defs},
      {"TableName", table.name},
      {"KeySchema", KeySchemaJson(table.key)},
      {"TableStatus", std::string(TableStatusName(status))},
      {"CreationDateTime", ToEpochSecondsDouble(table.created)},
      {"ProvisionedThroughput", ThroughputJson(table.throughput)},
      {"TableSizeBytes", stats.size_bytes},
      {"ItemCount", stats.item_count},
      {"TableArn", table.arn},
      {"TableId", table.uuid},
      {"DeletionProtectionEnabled", table.deletion_protection},
  };
  table.on_demand.Describe(out);
  if (table.billing == BillingMode::kPayPerRequest || table.billing_explicit) {
    Json summary{{"BillingMode", std::string(BillingModeName(table.billing))}};
    if (table.last_update_to_pay_per_request) {
      summary["LastUpdateToPayPerRequestDateTime"] =
          ToEpochSecondsDouble(*table.last_update_to_pay_per_request);
    }
    out["BillingModeSummary"] = summary;
  }
  Json lsis = Json::array();
  Json gsis = Json::array();
  for (const IndexDef& idx : table.indexes) {
    IndexStats s;
    if (auto it = stats.indexes.find(idx.id); it != stats.indexes.end()) {
      s = it->second;
    }
    Json j{{"IndexName", idx.name},
           {"KeySchema", KeySchemaJson(idx.key)},
           {"Projection", ProjectionJson(idx)},
           {"IndexSizeBytes", s.bytes},
           {"ItemCount", s.count},
           {"IndexArn", table.IndexArn(idx.name)}};
    if (idx.global) {
      j["IndexStatus"] = std::string(TableStatusName(idx.status));
      if (idx.backfilling) j["Backfilling"] = true;
      j["ProvisionedThroughput"] = ThroughputJson(idx.throughput);
      idx.on_demand.Describe(j);
      gsis.push_back(std::move(j));
    } else {
      lsis.push_back(std::move(j));
    }
  }
  if (!lsis.empty()) out["LocalSecondaryIndexes"] = std::move(lsis);
  if (!gsis.empty()) out["GlobalSecondaryIndexes"] = std::move(gsis);
  if (!table.vector_indexes.empty()) {
    Json vectors = Json::array();
    for (const VectorIndexDef& v : table.vector_indexes) {
      vectors.push_back(VectorIndexJson(table, v, stats));
    }
    out["VectorIndexes"] = std::move(vectors);
  }
  if (table.stream.enabled) {
    out["StreamSpecification"] = Json{
        {"StreamEnabled", true}, {"StreamViewType", table.stream.view_type}};
  }
  if (!table.stream.label.empty()) {
    out["LatestStreamLabel"] = table.stream.label;
    out["LatestStreamArn"] = table.stream.arn;
  }
  if (!table.sse_description.is_null()) {
    out["SSEDescription"] = table.sse_description;
  }
  if (!table.restore_summary.is_null()) {
    Json restore = table.restore_summary;
    restore["RestoreInProgress"] = status == TableStatus::kCreating;
    out["RestoreSummary"] = std::move(restore);
  }
  if (!table.table_class.empty()) {
    out["TableClassSummary"] = Json{{"TableClass", table.table_class}};
  }
  return out;
}

}  // namespace ddblab::engine
