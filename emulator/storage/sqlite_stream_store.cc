// emulator/storage/sqlite_stream_store.cc: the SQL of the stream store.
#include "emulator/storage/sqlite_stream_store.h"

#include <array>
#include <utility>

#include "emulator/storage/schema.h"

namespace ddblab::storage {
namespace {

constexpr std::string_view kStreamsV1 = R"sql(
CREATE TABLE stream_streams (
  stream_id INTEGER PRIMARY KEY AUTOINCREMENT,
  arn TEXT NOT NULL UNIQUE,
  table_name TEXT NOT NULL,
  label TEXT NOT NULL,
  view_type TEXT NOT NULL,
  key_schema TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  disabled_ms INTEGER,
  next_shard INTEGER NOT NULL,
  salt INTEGER NOT NULL
);
CREATE TABLE stream_shards (
  stream_id INTEGER NOT NULL,
  ordinal INTEGER NOT NULL,
  shard_id TEXT NOT NULL,
  parent_shard_id TEXT NOT NULL,
  hash_lo INTEGER NOT NULL,
  hash_hi INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  start_seq INTEGER NOT NULL,
  end_seq INTEGER,
  closed_ms INTEGER,
  trim_seq INTEGER NOT NULL,
  PRIMARY KEY (stream_id, ordinal)
) WITHOUT ROWID;
CREATE UNIQUE INDEX stream_shards_by_id ON stream_shards(stream_id, shard_id);
CREATE TABLE stream_records (
  stream_id INTEGER NOT NULL,
  shard INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  event INTEGER NOT NULL,
  service_delete INTEGER NOT NULL,
  size_bytes INTEGER NOT NULL,
  keys BLOB NOT NULL,
  new_image BLOB,
  old_image BLOB,
  PRIMARY KEY (stream_id, shard, seq)
) WITHOUT ROWID;
)sql";

// stream_records is WITHOUT ROWID, keyed (stream, shard, seq) like the items
// table: an append dirties one B-tree page (a rowid table plus an index on
// the key dirtied two, which doubled the extra WAL writes of a file
// database, for no CPU gain).

constexpr std::array<Migration, 1> kMigrations = {{{1, kStreamsV1}}};

constexpr std::string_view kStreamColumns =
    "stream_id, arn, table_name, label, view_type, key_schema, created_ms, "
    "disabled_ms, next_shard, salt";

constexpr std::string_view kShardColumns =
    "stream_id, ordinal, shard_id, parent_shard_id, hash_lo, hash_hi, "
    "created_ms, start_seq, end_seq, closed_ms, trim_seq";

std::string Sql(std::string_view a, std::string_view b, std::string_view c) {
  std::string s(a);
  s.append(b).append(c);
  return s;
}

Result<StreamRow> ReadStream(const ScopedStatement& s) {
  StreamRow row;
  row.id = s.ColumnInt(0);
  row.arn = std::string(s.ColumnText(1));
  row.table_name = std::string(s.ColumnText(2));
  row.label = std::string(s.ColumnText(3));
  std::optional<ViewType> view = ParseViewType(s.ColumnText(4));
  if (!view) return Error::Internal("corrupt stream row: bad view type");
  row.view_type = *view;
  row.key_schema = std::string(s.ColumnText(5));
  row.created_ms = s.ColumnInt(6);
  if (!s.ColumnIsNull(7)) row.disabled_ms = s.ColumnInt(7);
  row.next_shard = s.ColumnInt(8);
  row.salt = static_cast<uint64_t>(s.ColumnInt(9));
  return row;
}

ShardRow ReadShard(const ScopedStatement& s) {
  ShardRow row;
  row.stream_id = s.ColumnInt(0);
  row.ordinal = s.ColumnInt(1);
  row.shard_id = std::string(s.ColumnText(2));
  row.parent_shard_id = std::string(s.ColumnText(3));
  row.hash_lo = static_cast<uint64_t>(s.ColumnInt(4));
  row.hash_hi = static_cast<uint64_t>(s.ColumnInt(5));
  row.created_ms = s.ColumnInt(6);
  row.start_seq = s.ColumnInt(7);
  if (!s.ColumnIsNull(8)) row.end_seq = s.ColumnInt(8);
  if (!s.ColumnIsNull(9)) row.closed_ms = s.ColumnInt(9);
  row.trim_seq = s.ColumnInt(10);
  return row;
}

Result<std::vector<ShardRow>> CollectShards(ScopedStatement& s) {
  std::vector<ShardRow> out;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) break;
    out.push_back(ReadShard(s));
  }
  return out;
}

}  // namespace

Status SqliteStreamStore::EnsureSchema() {
  return ApplyMigrations(db_, "streams", kMigrations);
}

// ---------------------------------------------------------------------------
// Streams

Result<std::optional<StreamRow>> SqliteStreamStore::FindStream(
    std::string_view arn) {
  static const std::string sql =
      Sql("SELECT ", kStreamColumns, " FROM stream_streams WHERE arn=?1");
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
  s.BindText(1, arn);
  DDBLAB_ASSIGN_OR_RETURN(bool row, s.Step());
  if (!row) return std::optional<StreamRow>();
  DDBLAB_ASSIGN_OR_RETURN(StreamRow stream, ReadStream(s));
  return std::optional<StreamRow>(std::move(stream));
}

Result<std::vector<StreamRow>> SqliteStreamStore::ListStreams() {
  static const std::string sql =
      Sql("SELECT ", kStreamColumns, " FROM stream_streams ORDER BY arn");
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
  std::vector<StreamRow> out;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) break;
    DDBLAB_ASSIGN_OR_RETURN(StreamRow stream, ReadStream(s));
    out.push_back(std::move(stream));
  }
  return out;
}

Result<int64_t> SqliteStreamStore::InsertStream(const StreamRow& row) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement s,
      db_.Prepare("INSERT INTO stream_streams(arn, table_name, label, "
                  "view_type, key_schema, created_ms, disabled_ms, "
                  "next_shard, salt) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                  "?9)"));
  s.BindText(1, row.arn)
      .BindText(2, row.table_name)
      .BindText(3, row.label)
      .BindText(4, ViewTypeName(row.view_type))
      .BindText(5, row.key_schema)
      .BindInt(6, row.created_ms)
      .BindInt(8, row.next_shard)
      .BindInt(9, static_cast<int64_t>(row.salt));
  if (row.disabled_ms) {
    s.BindInt(7, *row.disabled_ms);
  } else {
    s.BindNull(7);
  }
  DDBLAB_RETURN_IF_ERROR(s.Run());
  db_.BumpGeneration();
  return db_.LastInsertRowId();
}

Status SqliteStreamStore::SaveCounters(const StreamRow& row) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement s,
      db_.Prepare(
          "UPDATE stream_streams SET next_shard=?2 WHERE stream_id=?1"));
  s.BindInt(1, row.id).BindInt(2, row.next_shard);
  return s.Run();
}

Status SqliteStreamStore::SetDisabled(int64_t stream_id, int64_t disabled_ms) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement s,
      db_.Prepare(
          "UPDATE stream_streams SET disabled_ms=?2 WHERE stream_id=?1"));
  s.BindInt(1, stream_id).BindInt(2, disabled_ms);
  db_.BumpGeneration();
  return s.Run();
}

Status SqliteStreamStore::DeleteStream(int64_t stream_id) {
  db_.BumpGeneration();
  for (std::string_view sql :
       {"DELETE FROM stream_records WHERE stream_id=?1",
        "DELETE FROM stream_shards WHERE stream_id=?1",
        "DELETE FROM stream_streams WHERE stream_id=?1"}) {
    DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
    s.BindInt(1, stream_id);
    DDBLAB_RETURN_IF_ERROR(s.Run());
  }
  return OkStatus();
}

// ---------------------------------------------------------------------------
// Shards

Result<std::vector<ShardRow>> SqliteStreamStore::Shards(int64_t stream_id) {
  static const std::string sql =
      Sql("SELECT ", kShardColumns,
          " FROM stream_shards WHERE stream_id=?1 ORDER BY shard_id");
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
  s.BindInt(1, stream_id);
  return CollectShards(s);
}

Result<std::vector<ShardRow>> SqliteStreamStore::OpenShards(int64_t stream_id) {
  // With each shard's last record (one statement on the append path).
  static const std::string sql = Sql(
      "SELECT ", kShardColumns,
      ", (SELECT r.seq FROM stream_records r WHERE "
      "r.stream_id=stream_shards.stream_id AND r.shard=stream_shards.ordinal "
      "ORDER BY r.seq DESC LIMIT 1) "
      "FROM stream_shards WHERE stream_id=?1 AND end_seq IS NULL "
      "ORDER BY ordinal");
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
  s.BindInt(1, stream_id);
  std::vector<ShardRow> out;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) break;
    out.push_back(ReadShard(s));
    out.back().last_seq = s.ColumnIsNull(11) ? 0 : s.ColumnInt(11);
  }
  return out;
}

Result<std::optional<ShardRow>> SqliteStreamStore::FindShard(
    int64_t stream_id, std::string_view shard_id) {
  static const std::string sql =
      Sql("SELECT ", kShardColumns,
          " FROM stream_shards WHERE stream_id=?1 AND shard_id=?2");
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
  s.BindInt(1, stream_id).BindText(2, shard_id);
  DDBLAB_ASSIGN_OR_RETURN(bool row, s.Step());
  if (!row) return std::optional<ShardRow>();
  return std::optional<ShardRow>(ReadShard(s));
}

Result<std::optional<ShardRow>> SqliteStreamStore::ShardByOrdinal(
    int64_t stream_id, int64_t ordinal) {
  static const std::string sql =
      Sql("SELECT ", kShardColumns,
          " FROM stream_shards WHERE stream_id=?1 AND ordinal=?2");
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
  s.BindInt(1, stream_id).BindInt(2, ordinal);
  DDBLAB_ASSIGN_OR_RETURN(bool row, s.Step());
  if (!row) return std::optional<ShardRow>();
  return std::optional<ShardRow>(ReadShard(s));
}

Status SqliteStreamStore::InsertShard(const ShardRow& row) {
  db_.BumpGeneration();
  static const std::string sql =
      Sql("INSERT INTO stream_shards(", kShardColumns,
          ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
  s.BindInt(1, row.stream_id)
      .BindInt(2, row.ordinal)
      .BindText(3, row.shard_id)
      .BindText(4, row.parent_shard_id)
      .BindInt(5, static_cast<int64_t>(row.hash_lo))
      .BindInt(6, static_cast<int64_t>(row.hash_hi))
      .BindInt(7, row.created_ms)
      .BindInt(8, row.start_seq)
      .BindInt(11, row.trim_seq);
  if (row.end_seq) {
    s.BindInt(9, *row.end_seq);
  } else {
    s.BindNull(9);
  }
  if (row.closed_ms) {
    s.BindInt(10, *row.closed_ms);
  } else {
    s.BindNull(10);
  }
  return s.Run();
}

Status SqliteStreamStore::CloseShard(int64_t stream_id, int64_t ordinal,
                                     int64_t end_seq, int64_t closed_ms) {
  db_.BumpGeneration();
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement s,
      db_.Prepare("UPDATE stream_shards SET end_seq=?3, closed_ms=?4 "
                  "WHERE stream_id=?1 AND ordinal=?2"));
  s.BindInt(1, stream_id)
      .BindInt(2, ordinal)
      .BindInt(3, end_seq)
      .BindInt(4, closed_ms);
  return s.Run();
}

Status SqliteStreamStore::DeleteShard(int64_t stream_id, int64_t ordinal) {
  db_.BumpGeneration();
  for (std::string_view sql :
       {"DELETE FROM stream_records WHERE stream_id=?1 AND shard=?2",
        "DELETE FROM stream_shards WHERE stream_id=?1 AND ordinal=?2"}) {
    DDBLAB_ASSIGN_OR_RETURN(ScopedStatement s, db_.Prepare(sql));
    s.BindInt(1, stream_id).BindInt(2, ordinal);
    DDBLAB_RETURN_IF_ERROR(s.Run());
  }
  return OkStatus();
}

// ---------------------------------------------------------------------------
// Records

Status SqliteStreamStore::InsertRecord(int64_t stream_id, int64_t shard,
                                       const RecordRow& row) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement s,
      db_.Prepare("INSERT INTO stream_records(stream_id, shard, seq, "
                  "created_ms, event, service_delete, size_bytes, keys, "
                  "new_image, old_image) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                  "?8, ?9, ?10)"));
  s.BindInt(1, stream_id)
      .BindInt(2, shard)
      .BindInt(3, row.seq)
      .BindInt(4, row.created_ms)
      .BindInt(5, static_cast<int64_t>(row.event))
      .BindInt(6, row.service_delete ? 1 : 0)
      .BindInt(7, row.size_bytes)
      .BindBlob(8, row.keys);
  if (row.new_image) {
    s.BindBlob(9, *row.new_image);
  } else {
    s.BindNull(9);
  }
  if (row.old_image) {
    s.BindBlob(10, *row.old_image);
  } else {
    s.BindNull(10);
  }
  return s.Run();
}

Result<std::optional<int64_t>> SqliteStreamStore::LastSeq(int64_t stream_id,
                                                          int64_t shard) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement s,
      db_.Prepare("SELECT seq FROM stream_records WHERE stream_id=?1 AND "
                  "shard=?2 ORDER BY seq DESC LIMIT 1"));
  s.BindInt(1, stream_id).BindInt(2, shard);
  DDBLAB_ASSIGN_OR_RETURN(bool row, s.Step());
  if (!row) return std::optional<int64_t>();
  return std::optional<int64_t>(s.ColumnInt(0));
}

Status SqliteStreamStore::ReadRecords(
    int64_t stream_id, int64_t shard, int64_t after_seq,
    const std::function<bool(RecordRow&&)>& visit) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement s,
      db_.Prepare("SELECT seq, created_ms, event, service_delete, size_bytes, "
                  "keys, new_image, old_image FROM stream_records "
                  "WHERE stream_id=?1 AND shard=?2 AND seq>?3 ORDER BY seq"));
  s.BindInt(1, stream_id).BindInt(2, shard).BindInt(3, after_seq);
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(bool has_row, s.Step());
    if (!has_row) break;
    RecordRow row;
    row.seq = s.ColumnInt(0);
    row.created_ms = s.ColumnInt(1);
    int64_t event = s.ColumnInt(2);
    if (event < 1 || event > 3) {
      return Error::Internal("corrupt stream record: bad event");
    }
    row.event = static_cast<EventName>(event);
    row.service_delete = s.ColumnInt(3) != 0;
    row.size_bytes = s.ColumnInt(4);
    row.keys = std::string(s.ColumnBlob(5));
    if (!s.ColumnIsNull(6)) row.new_image = std::string(s.ColumnBlob(6));
    if (!s.ColumnIsNull(7)) row.old_image = std::string(s.ColumnBlob(7));
    if (!visit(std::move(row))) break;
  }
  return OkStatus();
}

Result<bool> SqliteStreamStore::Trim(int64_t stream_id, int64_t shard,
                                     int64_t cutoff_ms) {
  std::optional<int64_t> last;
  {
    DDBLAB_ASSIGN_OR_RETURN(
        ScopedStatement s,
        db_.Prepare("SELECT seq, created_ms FROM stream_records WHERE "
                    "stream_id=?1 AND shard=?2 ORDER BY seq"));
    s.BindInt(1, stream_id).BindInt(2, shard);
    while (true) {
      DDBLAB_ASSIGN_OR_RETURN(bool row, s.Step());
      if (!row || s.ColumnInt(1) >= cutoff_ms) break;
      last = s.ColumnInt(0);
    }
  }
  if (!last) return false;
  db_.BumpGeneration();
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement del,
      db_.Prepare("DELETE FROM stream_records WHERE stream_id=?1 AND "
                  "shard=?2 AND seq<=?3"));
  del.BindInt(1, stream_id).BindInt(2, shard).BindInt(3, *last);
  DDBLAB_RETURN_IF_ERROR(del.Run());
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement upd,
      db_.Prepare("UPDATE stream_shards SET trim_seq=?3 WHERE stream_id=?1 "
                  "AND ordinal=?2"));
  upd.BindInt(1, stream_id).BindInt(2, shard).BindInt(3, *last);
  DDBLAB_RETURN_IF_ERROR(upd.Run());
  return true;
}

}  // namespace ddblab::storage
