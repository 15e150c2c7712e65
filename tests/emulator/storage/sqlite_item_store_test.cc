#include "emulator/storage/sqlite_item_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "emulator/storage/schema.h"

namespace ddblab::storage {
namespace {

std::unique_ptr<SqliteItemStore> OpenMemory() {
  auto store = SqliteItemStore::Open(":memory:");
  EXPECT_TRUE(store.ok()) << ToString(store.error());
  return std::move(store).value();
}

int64_t MakeTable(ItemStore& store, const std::string& name) {
  auto txn = store.Begin();
  EXPECT_TRUE(txn.ok());
  auto id = (*txn)->CreateTable(name, "{}");
  EXPECT_TRUE(id.ok());
  EXPECT_TRUE((*txn)->Commit().ok());
  return *id;
}

std::vector<std::string> ScanSks(ItemStore& store, const ScanSpec& spec) {
  std::vector<std::string> out;
  Status status = store.Scan(spec, [&](const Row& row) {
    out.push_back(std::string(row.pk) + "/" + std::string(row.sk));
    return true;
  });
  EXPECT_TRUE(status.ok()) << ToString(status.error());
  return out;
}

TEST(PrefixUpperBoundTest, IncrementsLastNonFfByte) {
  EXPECT_EQ(PrefixUpperBound("ab"), std::optional<std::string>("ac"));
  EXPECT_EQ(PrefixUpperBound("a\xff"), std::optional<std::string>("b"));
  EXPECT_EQ(PrefixUpperBound("\xff\xff"), std::nullopt);
  EXPECT_EQ(PrefixUpperBound(""), std::nullopt);
}

TEST(SqliteItemStoreTest, PutGetDeleteCommitAndRollback) {
  auto store = OpenMemory();
  int64_t t = MakeTable(*store, "t1");
  {
    auto txn = store->Begin();
    ASSERT_TRUE(txn.ok());
    ASSERT_TRUE((*txn)->PutItem(t, "p", "", "bytes1", 10).ok());
    ASSERT_TRUE((*txn)->Commit().ok());
  }
  auto got = store->Get(t, "p", "");
  ASSERT_TRUE(got.ok());
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ((*got)->bytes, "bytes1");
  EXPECT_EQ((*got)->size, 10);
  {
    auto txn = store->Begin();
    ASSERT_TRUE(txn.ok());
    ASSERT_TRUE((*txn)->PutItem(t, "p", "", "bytes2", 20).ok());
    // Uncommitted writes are visible on the same connection.
    EXPECT_EQ((*store->Get(t, "p", ""))->bytes, "bytes2");
    (*txn)->Rollback();
  }
  EXPECT_EQ((*store->Get(t, "p", ""))->bytes, "bytes1");
  {
    auto txn = store->Begin();
    ASSERT_TRUE(txn.ok());
    ASSERT_TRUE((*txn)->DeleteItem(t, "p", "").ok());
    // Destroyed without Commit: rolled back.
  }
  EXPECT_TRUE(store->Get(t, "p", "")->has_value());
  {
    auto txn = store->Begin();
    ASSERT_TRUE((*txn)->DeleteItem(t, "p", "").ok());
    ASSERT_TRUE((*txn)->Commit().ok());
  }
  EXPECT_FALSE(store->Get(t, "p", "")->has_value());
}

// Get and the deletes take an empty sk through their own statements (the
// literal x''): they must reach exactly the row with the empty sk.
TEST(SqliteItemStoreTest, EmptyAndNonEmptySortKeysAreDistinct) {
  auto store = OpenMemory();
  int64_t t = MakeTable(*store, "t");
  auto txn = store->Begin();
  ASSERT_TRUE((*txn)->PutItem(t, "p", "", "hash", 1).ok());
  ASSERT_TRUE((*txn)->PutItem(t, "p", "s", "range", 2).ok());
  ASSERT_TRUE((*txn)->PutIndexEntry(t, 1, "g", "", "p", "", "e1", 1).ok());
  ASSERT_TRUE((*txn)->PutIndexEntry(t, 1, "g", "", "p", "s", "e2", 2).ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  EXPECT_EQ((*store->Get(t, "p", ""))->bytes, "hash");
  EXPECT_EQ((*store->Get(t, "p", "s"))->bytes, "range");

  txn = store->Begin();
  ASSERT_TRUE((*txn)->DeleteItem(t, "p", "").ok());
  ASSERT_TRUE((*txn)->DeleteIndexEntry(t, 1, "g", "", "p", "").ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  EXPECT_FALSE(store->Get(t, "p", "")->has_value());
  EXPECT_EQ((*store->Get(t, "p", "s"))->bytes, "range");
  EXPECT_EQ(store->ComputeStats(t, 1)->count, 1);
  EXPECT_EQ(store->ComputeStats(t, 1)->bytes, 2);

  txn = store->Begin();
  ASSERT_TRUE((*txn)->DeleteItem(t, "p", "s").ok());
  ASSERT_TRUE((*txn)->DeleteIndexEntry(t, 1, "g", "", "p", "s").ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  EXPECT_FALSE(store->Get(t, "p", "s")->has_value());
  EXPECT_EQ(store->ComputeStats(t, 1)->count, 0);
}

TEST(SqliteItemStoreTest, InsertItemIfAbsentNeverOverwrites) {
  auto store = OpenMemory();
  int64_t t = MakeTable(*store, "t1");
  auto txn = store->Begin();
  ASSERT_TRUE(txn.ok());
  auto first = (*txn)->InsertItemIfAbsent(t, "p", "s", "one", 3);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(*first);
  auto second = (*txn)->InsertItemIfAbsent(t, "p", "s", "two", 3);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(*second);
  ASSERT_TRUE((*txn)->Commit().ok());
  EXPECT_EQ((*store->Get(t, "p", "s"))->bytes, "one");
}

TEST(SqliteItemStoreTest, OnlyOneWriteTransactionAtATime) {
  auto store = OpenMemory();
  auto first = store->Begin();
  ASSERT_TRUE(first.ok());
  auto second = store->Begin();
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().type, ErrorType::kInternalServerError);
  ASSERT_TRUE((*first)->Commit().ok());
  EXPECT_FALSE((*first)->Commit().ok());
  EXPECT_TRUE(store->Begin().ok());
}

TEST(SqliteItemStoreTest, TablesAreIsolated) {
  auto store = OpenMemory();
  int64_t a = MakeTable(*store, "a");
  int64_t b = MakeTable(*store, "b");
  ASSERT_NE(a, b);
  auto txn = store->Begin();
  ASSERT_TRUE((*txn)->PutItem(a, "k", "", "A", 1).ok());
  ASSERT_TRUE((*txn)->PutItem(b, "k", "", "B", 1).ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  EXPECT_EQ((*store->Get(a, "k", ""))->bytes, "A");
  EXPECT_EQ((*store->Get(b, "k", ""))->bytes, "B");
}

class ScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = OpenMemory();
    t_ = MakeTable(*store_, "t");
    auto txn = store_->Begin();
    for (std::string pk : {"a", "b", "c"}) {
      for (std::string sk : {"1", "2", "3", "3x", "4"}) {
        ASSERT_TRUE((*txn)->PutItem(t_, pk, sk, pk + sk, 2).ok());
      }
    }
    ASSERT_TRUE((*txn)->Commit().ok());
  }
  std::unique_ptr<SqliteItemStore> store_;
  int64_t t_ = 0;
};

TEST_F(ScanTest, FullScanInKeyOrderBothDirections) {
  ScanSpec spec;
  spec.table_id = t_;
  auto all = ScanSks(*store_, spec);
  ASSERT_EQ(all.size(), 15u);
  EXPECT_EQ(all.front(), "a/1");
  EXPECT_EQ(all[4], "a/4");
  EXPECT_EQ(all.back(), "c/4");
  spec.forward = false;
  auto rev = ScanSks(*store_, spec);
  ASSERT_EQ(rev.size(), 15u);
  EXPECT_EQ(rev.front(), "c/4");
  EXPECT_EQ(rev.back(), "a/1");
}

TEST_F(ScanTest, PartitionWithBoundsAndBeginsWith) {
  ScanSpec spec;
  spec.table_id = t_;
  spec.partition = "b";
  spec.lower = SortBound{"2", false};
  spec.upper = SortBound{"3x", true};
  EXPECT_EQ(ScanSks(*store_, spec), (std::vector<std::string>{"b/3", "b/3x"}));
  spec.lower = SortBound{"3", true};
  spec.upper = SortBound{*PrefixUpperBound("3"), false};
  EXPECT_EQ(ScanSks(*store_, spec), (std::vector<std::string>{"b/3", "b/3x"}));
  spec.forward = false;
  EXPECT_EQ(ScanSks(*store_, spec), (std::vector<std::string>{"b/3x", "b/3"}));
}

TEST_F(ScanTest, ExclusiveStartInBothDirections) {
  ScanSpec spec;
  spec.table_id = t_;
  spec.start = ScanSpec::Position{"", "", "a", "4"};
  auto rest = ScanSks(*store_, spec);
  ASSERT_EQ(rest.size(), 10u);
  EXPECT_EQ(rest.front(), "b/1");
  spec.partition = "b";
  spec.start = ScanSpec::Position{"", "", "b", "2"};
  EXPECT_EQ(ScanSks(*store_, spec),
            (std::vector<std::string>{"b/3", "b/3x", "b/4"}));
  spec.forward = false;
  EXPECT_EQ(ScanSks(*store_, spec), (std::vector<std::string>{"b/1"}));
  // A start key in an earlier partition: forward sees all, backward none.
  spec.start = ScanSpec::Position{"", "", "a", "9"};
  EXPECT_TRUE(ScanSks(*store_, spec).empty());
  spec.forward = true;
  EXPECT_EQ(ScanSks(*store_, spec).size(), 5u);
}

TEST_F(ScanTest, VisitorCanStopEarly) {
  ScanSpec spec;
  spec.table_id = t_;
  int seen = 0;
  ASSERT_TRUE(store_->Scan(spec, [&](const Row&) { return ++seen < 3; }).ok());
  EXPECT_EQ(seen, 3);
}

TEST(SqliteItemStoreTest, IndexEntriesScanAndStats) {
  auto store = OpenMemory();
  int64_t t = MakeTable(*store, "t");
  auto txn = store->Begin();
  ASSERT_TRUE((*txn)->PutItem(t, "p1", "", "i1", 5).ok());
  ASSERT_TRUE((*txn)->PutIndexEntry(t, 1, "g", "2", "p1", "", "e1", 3).ok());
  ASSERT_TRUE((*txn)->PutIndexEntry(t, 1, "g", "1", "p2", "", "e2", 4).ok());
  ASSERT_TRUE((*txn)->PutIndexEntry(t, 1, "g", "1", "p1", "", "e3", 4).ok());
  ASSERT_TRUE((*txn)->PutIndexEntry(t, 2, "h", "", "p1", "", "e4", 1).ok());
  ASSERT_TRUE((*txn)->Commit().ok());

  ScanSpec spec;
  spec.table_id = t;
  spec.index_id = 1;
  spec.partition = "g";
  std::vector<std::string> seen;
  ASSERT_TRUE(store
                  ->Scan(spec,
                         [&](const Row& row) {
                           seen.push_back(std::string(row.isk) + "/" +
                                          std::string(row.pk) + "=" +
                                          std::string(row.item));
                           return true;
                         })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"1/p1=e3", "1/p2=e2", "2/p1=e1"}));

  spec.start = ScanSpec::Position{"g", "1", "p1", ""};
  seen.clear();
  ASSERT_TRUE(store
                  ->Scan(spec,
                         [&](const Row& row) {
                           seen.push_back(std::string(row.item));
                           return true;
                         })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"e2", "e1"}));

  // Without row keys: the same rows, items and sizes; keys left empty.
  spec.start.reset();
  spec.row_keys = false;
  seen.clear();
  ASSERT_TRUE(store
                  ->Scan(spec,
                         [&](const Row& row) {
                           EXPECT_TRUE(row.ipk.empty() && row.isk.empty() &&
                                       row.pk.empty() && row.sk.empty());
                           seen.push_back(std::string(row.item) + "/" +
                                          std::to_string(row.size));
                           return true;
                         })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"e3/4", "e2/4", "e1/3"}));
  ScanSpec base_spec;
  base_spec.table_id = t;
  base_spec.row_keys = false;
  seen.clear();
  ASSERT_TRUE(store
                  ->Scan(base_spec,
                         [&](const Row& row) {
                           EXPECT_TRUE(row.pk.empty() && row.sk.empty());
                           seen.push_back(std::string(row.item) + "/" +
                                          std::to_string(row.size));
                           return true;
                         })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"i1/5"}));

  auto stats = store->ComputeStats(t, 1);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->count, 3);
  EXPECT_EQ(stats->bytes, 11);
  auto base = store->ComputeStats(t, kBaseTable);
  EXPECT_EQ(base->count, 1);
  EXPECT_EQ(base->bytes, 5);

  txn = store->Begin();
  ASSERT_TRUE((*txn)->DeleteIndexEntry(t, 1, "g", "1", "p2", "").ok());
  ASSERT_TRUE((*txn)->DropIndex(t, 2).ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  EXPECT_EQ(store->ComputeStats(t, 1)->count, 2);
  EXPECT_EQ(store->ComputeStats(t, 2)->count, 0);
}

TEST(SqliteItemStoreTest, CatalogAndDropTable) {
  auto store = OpenMemory();
  int64_t t = MakeTable(*store, "zeta");
  MakeTable(*store, "alpha");
  auto txn = store->Begin();
  ASSERT_TRUE((*txn)->UpdateTable(t, "{\"x\":1}").ok());
  ASSERT_TRUE((*txn)->PutItem(t, "k", "", "v", 1).ok());
  ASSERT_TRUE((*txn)->PutIndexEntry(t, 1, "a", "", "k", "", "v", 1).ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  auto rows = store->LoadCatalog();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].name, "alpha");
  EXPECT_EQ((*rows)[1].name, "zeta");
  EXPECT_EQ((*rows)[1].meta, "{\"x\":1}");
  // Duplicate names are refused by the store.
  txn = store->Begin();
  EXPECT_FALSE((*txn)->CreateTable("zeta", "{}").ok());
  (*txn)->Rollback();
  txn = store->Begin();
  ASSERT_TRUE((*txn)->DropTable(t).ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  EXPECT_EQ(store->LoadCatalog()->size(), 1u);
  EXPECT_EQ(store->ComputeStats(t, kBaseTable)->count, 0);
  EXPECT_EQ(store->ComputeStats(t, 1)->count, 0);
}

TEST(SqliteItemStoreTest, FileDatabaseKeepsCommittedDataAcrossReopen) {
  std::string dir =
      "/tmp/ddblab-store-test-" + std::to_string(getpid()) + "-reopen";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string path = dir + "/db.sqlite";
  int64_t t = 0;
  {
    auto store = SqliteItemStore::Open(path);
    ASSERT_TRUE(store.ok()) << ToString(store.error());
    t = MakeTable(**store, "persist");
    auto txn = (*store)->Begin();
    ASSERT_TRUE((*txn)->PutItem(t, "k", "s", "kept", 4).ok());
    ASSERT_TRUE((*txn)->Commit().ok());
    auto lost = (*store)->Begin();
    ASSERT_TRUE((*lost)->PutItem(t, "k2", "s", "lost", 4).ok());
    // Not committed: closed with the store.
  }
  {
    auto store = SqliteItemStore::Open(path);
    ASSERT_TRUE(store.ok()) << ToString(store.error());
    auto rows = (*store)->LoadCatalog();
    ASSERT_EQ(rows->size(), 1u);
    EXPECT_EQ((*rows)[0].name, "persist");
    EXPECT_EQ((*(*store)->Get(t, "k", "s"))->bytes, "kept");
    EXPECT_FALSE((*store)->Get(t, "k2", "s")->has_value());
  }
  std::filesystem::remove_all(dir);
}

TEST(SchemaTest, ComponentMigrationsRunOnceAndInOrder) {
  auto store = OpenMemory();
  Database& db = store->database();
  EXPECT_EQ(*ComponentVersion(db, "extra"), 0);
  const Migration v1[] = {{1, "CREATE TABLE extra1(x INTEGER)"}};
  ASSERT_TRUE(ApplyMigrations(db, "extra", v1).ok());
  ASSERT_TRUE(ApplyMigrations(db, "extra", v1).ok());  // no-op
  EXPECT_EQ(*ComponentVersion(db, "extra"), 1);
  const Migration v2[] = {{1, "CREATE TABLE extra1(x INTEGER)"},
                          {2, "CREATE TABLE extra2(y INTEGER)"}};
  ASSERT_TRUE(ApplyMigrations(db, "extra", v2).ok());
  EXPECT_EQ(*ComponentVersion(db, "extra"), 2);
  EXPECT_TRUE(db.Exec("INSERT INTO extra2 VALUES(1)").ok());
  // Older code refuses a newer database component.
  Status old = ApplyMigrations(db, "extra", v1);
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.error().type, ErrorType::kInternalServerError);
  // A failing migration changes nothing.
  const Migration bad[] = {{1, ""},
                           {2, ""},
                           {3,
                            "CREATE TABLE extra3(z);"
                            "SELEKT"}};
  EXPECT_FALSE(ApplyMigrations(db, "extra", bad).ok());
  EXPECT_EQ(*ComponentVersion(db, "extra"), 2);
  EXPECT_FALSE(db.Exec("INSERT INTO extra3 VALUES(1)").ok());
}

TEST(SchemaTest, CoreSchemaVersionIsRecorded) {
  auto store = OpenMemory();
  auto stmt = store->database().Prepare("PRAGMA user_version");
  ASSERT_TRUE(stmt.ok());
  ASSERT_TRUE(*stmt->Step());
  EXPECT_EQ(stmt->ColumnInt(0), kCoreSchemaVersion);
  // A newer database is refused.
  ASSERT_TRUE(store->database().Exec("PRAGMA user_version=99").ok());
  Status status = EnsureCoreSchema(store->database());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().type, ErrorType::kInternalServerError);
}

}  // namespace
}  // namespace ddblab::storage
