// emulator/storage/schema.h: the SQLite schema and its versioning.
//
// The core schema (catalog, items, index entries) is versioned with
// PRAGMA user_version. Other layers (TTL queue, stream records, ...) add their
// own tables as named components: ApplyMigrations(db, "streams", {...}) runs,
// in one transaction, every migration whose version is above the version
// recorded for that component in the `schema_components` table. Migrations
// are append-only: never edit a released one, add the next version.
//
// Core tables (keys are value::EncodeKey bytes, so memcmp order is DynamoDB's
// order; sk is the empty blob for hash-only tables and hash-only GSIs):
//   tables(table_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE,
//          meta TEXT)             ids are never reused
//   items(table_id, pk, sk, size, item)           PK (table_id, pk, sk)
//   index_entries(table_id, index_id, ipk, isk, pk, sk, size, item)
//                                  PK (table_id, index_id, ipk, isk, pk, sk)
// `size` is the DynamoDB item size (DynamoDB's data model) of `item`, so counts
// and sizes can be recomputed without decoding. All are WITHOUT ROWID tables.
//
// Thread-safety: functions take the Database; callers serialise access.
#pragma once

#include <span>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/storage/sqlite.h"

namespace ddblab::storage {

inline constexpr int kCoreSchemaVersion = 1;

struct Migration {
  int version;           // 1, 2, 3, ... in order
  std::string_view sql;  // one or more statements
};

// Creates or upgrades the core schema. Fails (InternalServerError) if the
// database was written by a newer ddblab (user_version > kCoreSchemaVersion).
Status EnsureCoreSchema(Database& db);

// Applies the pending migrations of a component (see above). Fails if the
// recorded version is newer than the last migration given.
Status ApplyMigrations(Database& db, std::string_view component,
                       std::span<const Migration> migrations);

// The recorded version of a component (0 if never migrated).
Result<int> ComponentVersion(Database& db, std::string_view component);

}  // namespace ddblab::storage
