#include "emulator/storage/sqlite_item_store.h"

#include <utility>

#include "emulator/storage/schema.h"

namespace ddblab::storage {

std::optional<std::string> PrefixUpperBound(std::string_view prefix) {
  std::string bound(prefix);
  while (!bound.empty() && static_cast<unsigned char>(bound.back()) == 0xFF) {
    bound.pop_back();
  }
  if (bound.empty()) return std::nullopt;
  bound.back() =
      static_cast<char>(static_cast<unsigned char>(bound.back()) + 1);
  return bound;
}

// ---------------------------------------------------------------------------
// SqliteWriteTransaction

class SqliteWriteTransaction final : public WriteTransaction {
 public:
  explicit SqliteWriteTransaction(SqliteItemStore* store) : store_(store) {}
  ~SqliteWriteTransaction() override { Rollback(); }

  Status PutItem(int64_t table_id, std::string_view pk, std::string_view sk,
                 std::string_view item, int64_t size) override {
    DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt,
                            db().Use(store_->slots_.put_item));
    stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk).BindInt(4, size);
    stmt.BindBlob(5, item);
    return stmt.Run();
  }

  Result<bool> InsertItemIfAbsent(int64_t table_id, std::string_view pk,
                                  std::string_view sk, std::string_view item,
                                  int64_t size) override {
    DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt,
                            db().Use(store_->slots_.insert_item));
    stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk).BindInt(4, size);
    stmt.BindBlob(5, item);
    DDBLAB_RETURN_IF_ERROR(stmt.Run());
    return db().Changes() == 1;
  }

  Status DeleteItem(int64_t table_id, std::string_view pk,
                    std::string_view sk) override {
    if (sk.empty()) {
      DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt,
                              db().Use(store_->slots_.delete_item_nosk));
      stmt.BindInt(1, table_id).BindBlob(2, pk);
      return stmt.Run();
    }
    DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt,
                            db().Use(store_->slots_.delete_item));
    stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk);
    return stmt.Run();
  }

  Status PutIndexEntry(int64_t table_id, int64_t index_id, std::string_view ipk,
                       std::string_view isk, std::string_view pk,
                       std::string_view sk, std::string_view item,
                       int64_t size) override {
    DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt,
                            db().Use(store_->slots_.put_entry));
    stmt.BindInt(1, table_id).BindInt(2, index_id).BindBlob(3, ipk);
    stmt.BindBlob(4, isk).BindBlob(5, pk).BindBlob(6, sk).BindInt(7, size);
    stmt.BindBlob(8, item);
    return stmt.Run();
  }

  Status DeleteIndexEntry(int64_t table_id, int64_t index_id,
                          std::string_view ipk, std::string_view isk,
                          std::string_view pk, std::string_view sk) override {
    DDBLAB_ASSIGN_OR_RETURN(
        ScopedStatement stmt,
        db().Use(sk.empty() ? store_->slots_.delete_entry_nosk
                            : store_->slots_.delete_entry));
    stmt.BindInt(1, table_id).BindInt(2, index_id).BindBlob(3, ipk);
    stmt.BindBlob(4, isk).BindBlob(5, pk);
    if (!sk.empty()) stmt.BindBlob(6, sk);
    return stmt.Run();
  }

  Result<int64_t> CreateTable(std::string_view name,
                              std::string_view meta) override {
    DDBLAB_ASSIGN_OR_RETURN(
        ScopedStatement stmt,
        db().Prepare("INSERT INTO tables(name, meta) VALUES(?1, ?2)"));
    stmt.BindText(1, name).BindText(2, meta);
    DDBLAB_RETURN_IF_ERROR(stmt.Run());
    return db().LastInsertRowId();
  }

  Status UpdateTable(int64_t table_id, std::string_view meta) override {
    DDBLAB_ASSIGN_OR_RETURN(
        ScopedStatement stmt,
        db().Prepare("UPDATE tables SET meta=?2 WHERE table_id=?1"));
    stmt.BindInt(1, table_id).BindText(2, meta);
    return stmt.Run();
  }

  Status DropTable(int64_t table_id) override {
    for (std::string_view sql : {"DELETE FROM items WHERE table_id=?1",
                                 "DELETE FROM index_entries WHERE table_id=?1",
                                 "DELETE FROM tables WHERE table_id=?1"}) {
      DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, db().Prepare(sql));
      stmt.BindInt(1, table_id);
      DDBLAB_RETURN_IF_ERROR(stmt.Run());
    }
    return OkStatus();
  }

  Status DropIndex(int64_t table_id, int64_t index_id) override {
    DDBLAB_ASSIGN_OR_RETURN(
        ScopedStatement stmt,
        db().Prepare(
            "DELETE FROM index_entries WHERE table_id=?1 AND index_id=?2"));
    stmt.BindInt(1, table_id).BindInt(2, index_id);
    return stmt.Run();
  }

  Status Commit() override {
    if (done_) return Error::Internal("transaction already finished");
    DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt,
                            db().Use(store_->slots_.commit));
    Status status = stmt.Run();
    if (!status.ok()) {
      // A failed COMMIT leaves the transaction open: roll it back.
      Rollback();
      return status;
    }
    done_ = true;
    store_->in_transaction_ = false;
    return OkStatus();
  }

  void Rollback() override {
    if (done_) return;
    done_ = true;
    store_->in_transaction_ = false;
    auto stmt = db().Use(store_->slots_.rollback);
    if (stmt.ok()) (void)stmt->Run();
  }

  TtlQueueStore& ttl_queue() override { return *store_->ttl_queue_; }
  StreamStore& streams() override { return *store_->streams_; }
  BackupStore& backups() override { return *store_->backups_; }

 private:
  Database& db() { return *store_->db_; }

  SqliteItemStore* store_;
  bool done_ = false;
};

// ---------------------------------------------------------------------------
// SqliteItemStore

SqliteItemStore::SqliteItemStore(std::unique_ptr<Database> db)
    : db_(std::move(db)),
      ttl_queue_(std::make_unique<SqliteTtlQueueStore>(*db_)),
      streams_(std::make_unique<SqliteStreamStore>(*db_)),
      backups_(std::make_unique<SqliteBackupStore>(*db_)) {}

SqliteItemStore::~SqliteItemStore() = default;

Result<std::unique_ptr<SqliteItemStore>> SqliteItemStore::Open(
    const std::string& path) {
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Database::Open(path));
  DDBLAB_RETURN_IF_ERROR(EnsureCoreSchema(*db));
  std::unique_ptr<SqliteItemStore> store(new SqliteItemStore(std::move(db)));
  DDBLAB_RETURN_IF_ERROR(store->PrepareSlots());
  return store;
}

Status SqliteItemStore::PrepareSlots() {
  struct {
    Database::Slot** slot;
    std::string_view sql;
  } const specs[] = {
      {&slots_.get_item,
       "SELECT item, size FROM items WHERE table_id=?1 AND pk=?2 AND sk=?3"},
      {&slots_.put_item,
       "INSERT OR REPLACE INTO items(table_id, pk, sk, size, item) "
       "VALUES(?1, ?2, ?3, ?4, ?5)"},
      {&slots_.insert_item,
       "INSERT OR IGNORE INTO items(table_id, pk, sk, size, item) "
       "VALUES(?1, ?2, ?3, ?4, ?5)"},
      {&slots_.delete_item,
       "DELETE FROM items WHERE table_id=?1 AND pk=?2 AND sk=?3"},
      {&slots_.put_entry,
       "INSERT OR REPLACE INTO index_entries(table_id, index_id, ipk, isk, pk, "
       "sk, size, item) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"},
      {&slots_.delete_entry,
       "DELETE FROM index_entries WHERE table_id=?1 AND index_id=?2 AND "
       "ipk=?3 AND isk=?4 AND pk=?5 AND sk=?6"},
      {&slots_.get_item_nosk,
       "SELECT item, size FROM items WHERE table_id=?1 AND pk=?2 AND sk=x''"},
      {&slots_.delete_item_nosk,
       "DELETE FROM items WHERE table_id=?1 AND pk=?2 AND sk=x''"},
      {&slots_.delete_entry_nosk,
       "DELETE FROM index_entries WHERE table_id=?1 AND index_id=?2 AND "
       "ipk=?3 AND isk=?4 AND pk=?5 AND sk=x''"},
      {&slots_.begin, "BEGIN IMMEDIATE"},
      {&slots_.commit, "COMMIT"},
      {&slots_.rollback, "ROLLBACK"},
  };
  for (const auto& spec : specs) {
    DDBLAB_ASSIGN_OR_RETURN(*spec.slot, db_->GetSlot(spec.sql));
    // Every use below binds every parameter of these statements.
    (*spec.slot)->fully_bound = true;
  }
  return OkStatus();
}

Result<std::optional<StoredItem>> SqliteItemStore::Get(int64_t table_id,
                                                       std::string_view pk,
                                                       std::string_view sk) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement stmt,
      db_->Use(sk.empty() ? slots_.get_item_nosk : slots_.get_item));
  stmt.BindInt(1, table_id).BindBlob(2, pk);
  if (!sk.empty()) stmt.BindBlob(3, sk);
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<StoredItem>();
  std::optional<StoredItem> out(std::in_place);
  out->bytes.assign(stmt.ColumnBlob(0));
  out->size = stmt.ColumnInt(1);
  return out;
}

Status SqliteItemStore::Scan(const ScanSpec& spec, const RowVisitor& visit) {
  const bool index = spec.index_id != kBaseTable;
  // Column names: the partition / sort columns the spec talks about, and the
  // full ordering key.
  const char* part_col = index ? "ipk" : "pk";
  const char* sort_col = index ? "isk" : "sk";
  std::string sql = index ? "SELECT ipk, isk, pk, sk, size, item FROM "
                            "index_entries WHERE table_id=?1 AND index_id=?2"
                          : "SELECT pk, sk, size, item FROM items WHERE "
                            "table_id=?1";
  // Blob parameters follow ?1 (table_id) and, for an index, ?2 (index_id).
  const int first_param = index ? 3 : 2;
  std::vector<std::string_view> params;
  auto param = [&](std::string_view value) {
    params.push_back(value);
    return "?" + std::to_string(params.size() - 1 + first_param);
  };

  bool empty = false;
  if (spec.partition) {
    sql += std::string(" AND ") + part_col + "=" + param(*spec.partition);
    if (spec.lower) {
      sql += std::string(" AND ") + sort_col +
             (spec.lower->inclusive ? ">=" : ">") + param(spec.lower->bytes);
    }
    if (spec.upper) {
      sql += std::string(" AND ") + sort_col +
             (spec.upper->inclusive ? "<=" : "<") + param(spec.upper->bytes);
    }
  }
  if (spec.start) {
    const char* op = spec.forward ? ">" : "<";
    const ScanSpec::Position& s = spec.start.value();
    std::string_view start_part = index ? s.ipk : s.pk;
    if (spec.partition && start_part != *spec.partition) {
      // A start outside the partition: everything or nothing remains.
      bool before = start_part < *spec.partition;
      if (before != spec.forward) empty = true;
    } else if (spec.partition) {
      if (index) {
        sql += std::string(" AND (isk, pk, sk)") + op + "(" + param(s.isk) +
               "," + param(s.pk) + "," + param(s.sk) + ")";
      } else {
        sql += std::string(" AND sk") + op + param(s.sk);
      }
    } else if (index) {
      sql += std::string(" AND (ipk, isk, pk, sk)") + op + "(" + param(s.ipk) +
             "," + param(s.isk) + "," + param(s.pk) + "," + param(s.sk) + ")";
    } else {
      sql += std::string(" AND (pk, sk)") + op + "(" + param(s.pk) + "," +
             param(s.sk) + ")";
    }
  }
  if (empty) return OkStatus();
  const char* dir = spec.forward ? " ASC" : " DESC";
  if (index) {
    sql += std::string(" ORDER BY ipk") + dir + ", isk" + dir + ", pk" + dir +
           ", sk" + dir;
  } else {
    sql += std::string(" ORDER BY pk") + dir + ", sk" + dir;
  }

  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, db_->Prepare(sql));
  stmt.BindInt(1, spec.table_id);
  if (index) stmt.BindInt(2, spec.index_id);
  for (size_t i = 0; i < params.size(); ++i) {
    stmt.BindBlob(static_cast<int>(i) + first_param, params[i]);
  }
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) return OkStatus();
    Row row;
    if (index) {
      if (spec.row_keys) {
        row.ipk = stmt.ColumnBlob(0);
        row.isk = stmt.ColumnBlob(1);
        row.pk = stmt.ColumnBlob(2);
        row.sk = stmt.ColumnBlob(3);
      }
      row.size = stmt.ColumnInt(4);
      row.item = stmt.ColumnBlob(5);
    } else {
      if (spec.row_keys) {
        row.pk = stmt.ColumnBlob(0);
        row.sk = stmt.ColumnBlob(1);
      }
      row.size = stmt.ColumnInt(2);
      row.item = stmt.ColumnBlob(3);
    }
    if (!visit(row)) return OkStatus();
  }
}

Result<std::unique_ptr<WriteTransaction>> SqliteItemStore::Begin() {
  if (in_transaction_) {
    return Error::Internal("a write transaction is already open");
  }
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, db_->Use(slots_.begin));
  DDBLAB_RETURN_IF_ERROR(stmt.Run());
  in_transaction_ = true;
  return std::unique_ptr<WriteTransaction>(
      std::make_unique<SqliteWriteTransaction>(this));
}

Result<std::vector<CatalogRow>> SqliteItemStore::LoadCatalog() {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement stmt,
      db_->Prepare("SELECT table_id, name, meta FROM tables ORDER BY name"));
  std::vector<CatalogRow> rows;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) break;
    CatalogRow row;
    row.table_id = stmt.ColumnInt(0);
    row.name = std::string(stmt.ColumnText(1));
    row.meta = std::string(stmt.ColumnText(2));
    rows.push_back(std::move(row));
  }
  return rows;
}

Result<Stats> SqliteItemStore::ComputeStats(int64_t table_id,
                                            int64_t index_id) {
  Result<ScopedStatement> prepared =
      index_id == kBaseTable
          ? db_->Prepare(
                "SELECT count(*), coalesce(sum(size), 0) FROM items "
                "WHERE table_id=?1")
          : db_->Prepare(
                "SELECT count(*), coalesce(sum(size), 0) FROM index_entries "
                "WHERE table_id=?1 AND index_id=?2");
  if (!prepared.ok()) return std::move(prepared).error();
  ScopedStatement stmt = std::move(prepared).value();
  stmt.BindInt(1, table_id);
  if (index_id != kBaseTable) stmt.BindInt(2, index_id);
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  Stats stats;
  if (row) {
    stats.count = stmt.ColumnInt(0);
    stats.bytes = stmt.ColumnInt(1);
  }
  return stats;
}

}  // namespace ddblab::storage
