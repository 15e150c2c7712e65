#include "emulator/storage/sqlite.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>

namespace ddblab::storage {
namespace {

TEST(DatabaseTest, ExecPrepareBindStep) {
  auto db = Database::Open(":memory:");
  ASSERT_TRUE(db.ok()) << ToString(db.error());
  ASSERT_TRUE((*db)->in_memory());
  ASSERT_TRUE(
      (*db)->Exec("CREATE TABLE t(k BLOB PRIMARY KEY, v INTEGER)").ok());
  {
    auto stmt = (*db)->Prepare("INSERT INTO t VALUES(?1, ?2)");
    ASSERT_TRUE(stmt.ok());
    const std::string key("a\0b", 3);  // bound by reference: keep it alive
    stmt->BindBlob(1, key).BindInt(2, 7);
    ASSERT_TRUE(stmt->Run().ok());
    EXPECT_EQ((*db)->Changes(), 1);
  }
  auto stmt = (*db)->Prepare("SELECT k, v FROM t");
  ASSERT_TRUE(stmt.ok());
  auto row = stmt->Step();
  ASSERT_TRUE(row.ok());
  ASSERT_TRUE(*row);
  EXPECT_EQ(stmt->ColumnBlob(0), std::string("a\0b", 3));
  EXPECT_EQ(stmt->ColumnInt(1), 7);
  row = stmt->Step();
  ASSERT_TRUE(row.ok());
  EXPECT_FALSE(*row);
}

TEST(DatabaseTest, EmptyBlobIsNotNull) {
  auto db = Database::Open(":memory:");
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->Exec("CREATE TABLE t(k BLOB NOT NULL)").ok());
  auto stmt = (*db)->Prepare("INSERT INTO t VALUES(?1)");
  ASSERT_TRUE(stmt.ok());
  stmt->BindBlob(1, "");
  EXPECT_TRUE(stmt->Run().ok());
}

TEST(DatabaseTest, CachedStatementIsResetAndNestedUseGetsPrivateCopy) {
  auto db = Database::Open(":memory:");
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)
                  ->Exec("CREATE TABLE t(v INTEGER);"
                         "INSERT INTO t VALUES(1),(2),(3)")
                  .ok());
  const char* sql = "SELECT v FROM t ORDER BY v";
  auto outer = (*db)->Prepare(sql);
  ASSERT_TRUE(outer.ok());
  ASSERT_TRUE(*outer->Step());
  EXPECT_EQ(outer->ColumnInt(0), 1);
  {
    auto inner = (*db)->Prepare(sql);  // same SQL while outer is open
    ASSERT_TRUE(inner.ok());
    ASSERT_TRUE(*inner->Step());
    EXPECT_EQ(inner->ColumnInt(0), 1);
  }
  ASSERT_TRUE(*outer->Step());
  EXPECT_EQ(outer->ColumnInt(0), 2);
  outer = Result<ScopedStatement>(ScopedStatement());  // release
  auto again = (*db)->Prepare(sql);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE(*again->Step());
  EXPECT_EQ(again->ColumnInt(0), 1);  // reset on release
}

// Releasing clears the bindings, except for a slot marked fully_bound
// (whose every use binds every parameter anyway).
TEST(DatabaseTest, ReleaseClearsBindingsUnlessTheSlotIsFullyBound) {
  auto db = Database::Open(":memory:");
  ASSERT_TRUE(db.ok());
  auto run = [&](Database::Slot* slot, bool bind) -> std::string {
    auto stmt = (*db)->Use(slot);
    EXPECT_TRUE(stmt.ok());
    if (bind) stmt->BindInt(1, 42);
    EXPECT_TRUE(*stmt->Step());
    return stmt->ColumnIsNull(0) ? "null" : std::to_string(stmt->ColumnInt(0));
  };
  auto cleared = (*db)->GetSlot("SELECT ?1");
  ASSERT_TRUE(cleared.ok());
  EXPECT_EQ(run(*cleared, true), "42");
  EXPECT_EQ(run(*cleared, false), "null");
  auto kept = (*db)->GetSlot("SELECT ?1 + 0");
  ASSERT_TRUE(kept.ok());
  (*kept)->fully_bound = true;
  EXPECT_EQ(run(*kept, true), "42");
  EXPECT_EQ(run(*kept, false), "42");
}

TEST(DatabaseTest, ErrorsAreValuesNotExceptions) {
  auto db = Database::Open(":memory:");
  ASSERT_TRUE(db.ok());
  auto bad = (*db)->Prepare("SELEKT 1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().type, ErrorType::kInternalServerError);
  EXPECT_NE(bad.error().message.find("syntax error"), std::string::npos);
  Status exec = (*db)->Exec("CREATE TABLE");
  ASSERT_FALSE(exec.ok());
  EXPECT_EQ(exec.error().type, ErrorType::kInternalServerError);
  ASSERT_TRUE((*db)->Exec("CREATE TABLE t(k INTEGER PRIMARY KEY)").ok());
  ASSERT_TRUE((*db)->Exec("INSERT INTO t VALUES(1)").ok());
  auto dup = (*db)->Prepare("INSERT INTO t VALUES(1)");
  ASSERT_TRUE(dup.ok());
  Status run = dup->Run();
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("UNIQUE"), std::string::npos);
}

TEST(DatabaseTest, OpenFailsWithInternalErrorForBadPath) {
  auto db = Database::Open("/nonexistent-dir-ddblab/x/y.db");
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.error().type, ErrorType::kInternalServerError);
  EXPECT_NE(db.error().message.find("cannot open database"), std::string::npos);
}

TEST(DatabaseTest, FileDatabaseUsesWalAndNormalSync) {
  std::string dir = "/tmp/ddblab-sqlite-test-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::string path = dir + "/wal.db";
  {
    auto db = Database::Open(path);
    ASSERT_TRUE(db.ok()) << ToString(db.error());
    EXPECT_FALSE((*db)->in_memory());
    auto mode = (*db)->Prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode.ok());
    ASSERT_TRUE(*mode->Step());
    EXPECT_EQ(mode->ColumnText(0), "wal");
    auto sync = (*db)->Prepare("PRAGMA synchronous");
    ASSERT_TRUE(sync.ok());
    ASSERT_TRUE(*sync->Step());
    EXPECT_EQ(sync->ColumnInt(0), 1);  // NORMAL
  }
  std::filesystem::remove_all(dir);
}

// A file database is one Database's alone (file_lock.h): a second Open of
// the same file, also through a symlink, is refused while the first lives,
// and the first keeps working; once it is closed the file opens again with
// its data. ":memory:" takes no lock.
TEST(DatabaseTest, FileInUseIsRefusedUntilTheFirstDatabaseCloses) {
  std::string dir = "/tmp/ddblab-sqlite-lock-test-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string path = dir + "/in-use.db";
  std::filesystem::create_symlink(path, dir + "/link.db");
  {
    auto first = Database::Open(path);
    ASSERT_TRUE(first.ok()) << ToString(first.error());
    ASSERT_TRUE((*first)->Exec("CREATE TABLE t (v INTEGER)").ok());
    for (const std::string& other : {path, dir + "/link.db"}) {
      auto second = Database::Open(other);
      ASSERT_FALSE(second.ok()) << other;
      EXPECT_EQ(second.error().type, ErrorType::kResourceInUse);
      EXPECT_EQ(second.error().message,
                "database " + other +
                    " is already open in this process: one emulator per "
                    "database file; close it or use another database file");
    }
    EXPECT_TRUE((*first)->Exec("INSERT INTO t VALUES (7)").ok());
  }
  {
    auto reopened = Database::Open(dir + "/link.db");
    ASSERT_TRUE(reopened.ok()) << ToString(reopened.error());
    auto sum = (*reopened)->Prepare("SELECT sum(v) FROM t");
    ASSERT_TRUE(sum.ok());
    ASSERT_TRUE(*sum->Step());
    EXPECT_EQ(sum->ColumnInt(0), 7);
  }
  for (const char* memory_path : {":memory:", "file::memory:"}) {
    auto memory = Database::Open(memory_path);
    auto memory_too = Database::Open(memory_path);
    EXPECT_TRUE(memory.ok()) << memory_path;
    EXPECT_TRUE(memory_too.ok()) << memory_path;
  }
  std::filesystem::remove_all(dir);
}

// ":memory:" runs on the memdb VFS with its journal in memory and exclusive
// locking (a commit then costs what it changed, see sqlite.cc); two such
// databases in one process are separate, and a rolled-back transaction
// leaves nothing behind.
TEST(DatabaseTest, MemoryDatabaseUsesMemdbWithMemoryJournal) {
  auto db = Database::Open(":memory:");
  ASSERT_TRUE(db.ok()) << ToString(db.error());
  EXPECT_TRUE((*db)->in_memory());
  for (auto [sql, want] :
       {std::pair<const char*, const char*>{"PRAGMA journal_mode", "memory"},
        {"PRAGMA locking_mode", "exclusive"}}) {
    auto stmt = (*db)->Prepare(sql);
    ASSERT_TRUE(stmt.ok());
    ASSERT_TRUE(*stmt->Step());
    EXPECT_EQ(stmt->ColumnText(0), want) << sql;
  }
  {
    auto list = (*db)->Prepare("PRAGMA database_list");
    ASSERT_TRUE(list.ok());
    ASSERT_TRUE(*list->Step());
    EXPECT_EQ(list->ColumnText(1), "main");
    EXPECT_EQ(list->ColumnText(2), "ddblab-memory");  // memdb keeps the name
  }

  ASSERT_TRUE((*db)->Exec("CREATE TABLE t (v INTEGER)").ok());
  ASSERT_TRUE((*db)->Exec("INSERT INTO t VALUES (1)").ok());
  ASSERT_TRUE((*db)->Exec("BEGIN; INSERT INTO t VALUES (2); ROLLBACK").ok());
  auto other = Database::Open(":memory:");
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE((*other)->Exec("CREATE TABLE t (v INTEGER)").ok());
  auto count = (*db)->Prepare("SELECT count(*), sum(v) FROM t");
  ASSERT_TRUE(count.ok());
  ASSERT_TRUE(*count->Step());
  EXPECT_EQ(count->ColumnInt(0), 1);
  EXPECT_EQ(count->ColumnInt(1), 1);
  EXPECT_FALSE(std::filesystem::exists("ddblab-memory-journal"));
}

}  // namespace
}  // namespace ddblab::storage
