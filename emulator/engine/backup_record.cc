// BackupRecord: its meta and its DynamoDB shapes (backup_record.h).
#include "emulator/engine/backup_record.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <utility>

namespace ddblab::engine {
namespace {

constexpr int kMetaVersion = 1;

int64_t ToNanos(TimePoint t) { return t.time_since_epoch().count(); }
TimePoint FromNanos(int64_t n) { return TimePoint(Duration(n)); }

// The members of `from` named in `names`, in that order, when present.
Json Pick(const Json& from, std::initializer_list<std::string_view> names) {
  Json out = Json::object();
  for (std::string_view n : names) {
    auto it = from.find(n);
    if (it != from.end()) out[std::string(n)] = *it;
  }
  return out;
}

Json PlainThroughput(const Json& throughput) {
  return Pick(throughput, {"ReadCapacityUnits", "WriteCapacityUnits"});
}

}  // namespace

std::string_view BackupRecord::StatusAt(TimePoint now) const {
  return Available(now) ? "AVAILABLE" : "CREATING";
}

std::string BackupRecord::ToMeta() const {
  Json meta{
      {"v", kMetaVersion},           {"name", name},
      {"created", ToNanos(created)}, {"available_at", ToNanos(available_at)},
      {"size_bytes", size_bytes},    {"item_count", item_count},
      {"table", source.ToMeta()}};
  return meta.dump();
}

Result<BackupRecord> BackupRecord::FromRow(const storage::BackupRow& row) {
  try {
    Json meta = Json::parse(row.meta);
    if (meta.value("v", 0) != kMetaVersion) {
      return Error::Internal("unsupported backup metadata version");
    }
    BackupRecord b;
    b.id = row.id;
    b.arn = row.arn;
    b.name = meta.at("name").get<std::string>();
    b.created = FromNanos(meta.at("created").get<int64_t>());
    b.available_at = FromNanos(meta.at("available_at").get<int64_t>());
    b.size_bytes = meta.at("size_bytes").get<int64_t>();
    b.item_count = meta.at("item_count").get<int64_t>();
    DDBLAB_ASSIGN_OR_RETURN(b.source, Table::FromMeta(meta.at("table")));
    return b;
  } catch (const std::exception& e) {
    return Error::Internal(std::string("corrupt backup metadata: ") + e.what());
  }
}

std::string MakeBackupArn(std::string_view table_arn, TimePoint created,
                          std::string_view suffix) {
  const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         created.time_since_epoch())
                         .count();
  char digits[32];
  std::snprintf(digits, sizeof(digits), "%013lld", static_cast<long long>(ms));
  return std::string(table_arn) + "/backup/" + digits + "-" +
         std::string(suffix);
}

Json BackupDetailsJson(const BackupRecord& b, std::string_view status) {
  return Json{{"BackupArn", b.arn},
              {"BackupName", b.name},
              {"BackupSizeBytes", b.size_bytes},
              {"BackupStatus", status},
              {"BackupType", "USER"},
              {"BackupCreationDateTime", ToEpochSecondsDouble(b.created)}};
}

Json BackupSummaryJson(const BackupRecord& b, std::string_view status) {
  return Json{{"TableName", b.source.name},
              {"TableId", b.source.uuid},
              {"TableArn", b.source.arn},
              {"BackupArn", b.arn},
              {"BackupName", b.name},
              {"BackupCreationDateTime", ToEpochSecondsDouble(b.created)},
              {"BackupStatus", status},
              {"BackupType", "USER"},
              {"BackupSizeBytes", b.size_bytes}};
}

Json BackupDescriptionJson(const BackupRecord& b, std::string_view status) {
  // The source's TableDescription, trimmed to the members of the backup
  // shapes (no statuses, sizes or ARNs of indexes).
  const Json table = DescribeTable(b.source, TableStats{});
  Json details = Pick(table, {"TableName", "TableId", "TableArn"});
  details["TableSizeBytes"] = b.size_bytes;
  details["KeySchema"] = table.at("KeySchema");
  details["TableCreationDateTime"] = table.at("CreationDateTime");
  details["ProvisionedThroughput"] =
      PlainThroughput(table.at("ProvisionedThroughput"));
  if (table.contains("OnDemandThroughput")) {
    details["OnDemandThroughput"] = table.at("OnDemandThroughput");
  }
  details["ItemCount"] = b.item_count;
  details["BillingMode"] = std::string(BillingModeName(b.source.billing));

  Json features = Json::object();
  if (table.contains("LocalSecondaryIndexes")) {
    Json lsis = Json::array();
    for (const Json& i : table.at("LocalSecondaryIndexes")) {
      lsis.push_back(Pick(i, {"IndexName", "KeySchema", "Projection"}));
    }
    features["LocalSecondaryIndexes"] = std::move(lsis);
  }
  if (table.contains("GlobalSecondaryIndexes")) {
    Json gsis = Json::array();
    for (const Json& i : table.at("GlobalSecondaryIndexes")) {
      Json g = Pick(i, {"IndexName", "KeySchema", "Projection"});
      g["ProvisionedThroughput"] =
          PlainThroughput(i.at("ProvisionedThroughput"));
      if (i.contains("OnDemandThroughput")) {
        g["OnDemandThroughput"] = i.at("OnDemandThroughput");
      }
      gsis.push_back(std::move(g));
    }
    features["GlobalSecondaryIndexes"] = std::move(gsis);
  }
  if (b.source.stream.enabled) {
    features["StreamDescription"] = Json{
        {"StreamEnabled", true}, {"StreamViewType", b.source.stream.view_type}};
  }
  if (b.source.ttl.enabled) {
    features["TimeToLiveDescription"] =
        Json{{"TimeToLiveStatus", "ENABLED"},
             {"AttributeName", b.source.ttl.attribute}};
  }
  if (table.contains("SSEDescription")) {
    features["SSEDescription"] = table.at("SSEDescription");
  }
  if (table.contains("VectorIndexes")) {
    Json vectors = Json::array();
    for (const Json& v : table.at("VectorIndexes")) {
      vectors.push_back(
          Pick(v, {"IndexName", "VectorAttribute", "SearchSchema", "Projection",
                   "Dimensions", "DistanceFunction"}));
    }
    features["VectorIndexes"] = std::move(vectors);
  }
  return Json{{"BackupDetails", BackupDetailsJson(b, status)},
              {"SourceTableDetails", std::move(details)},
              {"SourceTableFeatureDetails", std::move(features)}};
}

}  // namespace ddblab::engine
