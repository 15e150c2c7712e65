// emulator/engine/backup_record.h: one on-demand backup as the engine sees
// it (CreateBackup .. RestoreTableFromBackup, ops_on_demand_backups.cc), its
// persistent form (the `meta` of a storage::BackupRow) and its DynamoDB
// shapes (BackupDetails, BackupSummary, BackupDescription: the DynamoDB API
// reference).
//
// Status on the clock: a backup is CREATING from its creation until
// `available_at` (creation + Options.table_status_delay), then AVAILABLE;
// with the default delay of zero it is AVAILABLE at once. Nothing is stored
// at the transition: the status is a function of the clock.
//
// Thread-safety: a plain value type; callers hold the engine lock while
// they read or write the store.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/engine/table.h"
#include "emulator/storage/backup_store.h"

namespace ddblab::engine {

struct BackupRecord {
  int64_t id = 0;  // the store's backup id (not part of the meta)
  std::string arn;
  std::string name;
  TimePoint created;
  TimePoint available_at;
  int64_t size_bytes = 0;  // TableSizeBytes of the source when backed up
  int64_t item_count = 0;  // ItemCount of the source when backed up
  Table source;            // the source table's metadata when backed up

  bool Available(TimePoint now) const { return now >= available_at; }
  // "CREATING" or "AVAILABLE".
  std::string_view StatusAt(TimePoint now) const;
  // The source table's name (SourceTableDetails.TableName).
  const std::string& table_name() const { return source.name; }

  // The `meta` text of the store row (our own JSON, versioned with "v").
  std::string ToMeta() const;
  static Result<BackupRecord> FromRow(const storage::BackupRow& row);
};

// "<table arn>/backup/<13-digit epoch milliseconds>-<suffix>" (DynamoDB's
// shape: the suffix is 8 hex digits).
std::string MakeBackupArn(std::string_view table_arn, TimePoint created,
                          std::string_view suffix);

// BackupDetails with BackupStatus `status` (CREATING, AVAILABLE, DELETED).
Json BackupDetailsJson(const BackupRecord& b, std::string_view status);
// One BackupSummary of ListBackups.
Json BackupSummaryJson(const BackupRecord& b, std::string_view status);
// BackupDescription: BackupDetails, SourceTableDetails,
// SourceTableFeatureDetails (indexes, stream, TTL, SSE, vector indexes).
Json BackupDescriptionJson(const BackupRecord& b, std::string_view status);

}  // namespace ddblab::engine
