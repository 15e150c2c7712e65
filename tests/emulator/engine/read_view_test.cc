// ReadView over a real SQLite store: the store's order, bounds, partition,
// exclusive start and stop, with past rows merged in.
#include "emulator/engine/consistency/read_view.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "emulator/storage/sqlite_item_store.h"

namespace ddblab::engine {
namespace {

using std::chrono::seconds;

TimePoint At(int s) { return TimePoint{} + seconds(s); }

class ReadViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = storage::SqliteItemStore::Open(":memory:");
    ASSERT_TRUE(store.ok());
    store_ = std::move(store).value();
    auto txn = store_->Begin();
    ASSERT_TRUE(txn.ok());
    auto id = (*txn)->CreateTable("t", "{}");
    ASSERT_TRUE(id.ok());
    table_ = *id;
    // Current rows of partition p: sort keys b, d (and q/x elsewhere).
    for (const char* sk : {"b", "d"}) {
      ASSERT_TRUE(
          (*txn)->PutItem(table_, "p", sk, std::string("now-") + sk, 5).ok());
    }
    ASSERT_TRUE((*txn)->PutItem(table_, "q", "x", "now-qx", 6).ok());
    ASSERT_TRUE((*txn)->Commit().ok());
    // At 10: a and c existed, b held "old-b", d did not exist.
    auto item = [](std::string bytes) {
      return std::optional<storage::StoredItem>(
          storage::StoredItem{bytes, static_cast<int64_t>(bytes.size())});
    };
    history_.Record(table_, 0, RowKey{{}, {}, "p", "a"}, item("old-a"), At(20));
    history_.Record(table_, 0, RowKey{{}, {}, "p", "b"}, item("old-b"), At(20));
    history_.Record(table_, 0, RowKey{{}, {}, "p", "c"}, item("old-c"), At(20));
    history_.Record(table_, 0, RowKey{{}, {}, "p", "d"}, std::nullopt, At(20));
  }

  std::vector<std::string> Read(const storage::ScanSpec& spec, TimePoint at,
                                int limit = 100) {
    ReadView view(*store_, &history_, at);
    std::vector<std::string> out;
    Status s = view.Scan(spec, [&](const storage::Row& row) {
      out.push_back(std::string(row.sk) + ":" + std::string(row.item));
      return static_cast<int>(out.size()) < limit;
    });
    EXPECT_TRUE(s.ok());
    return out;
  }

  storage::ScanSpec Partition() {
    storage::ScanSpec spec;
    spec.table_id = table_;
    spec.partition = "p";
    return spec;
  }

  std::unique_ptr<storage::SqliteItemStore> store_;
  ChangeHistory history_;
  int64_t table_ = 0;
  using Rows = std::vector<std::string>;
};

TEST_F(ReadViewTest, APastReadMergesOldRowsInOrder) {
  EXPECT_EQ(Read(Partition(), At(10)), (Rows{"a:old-a", "b:old-b", "c:old-c"}));
  EXPECT_EQ(Read(Partition(), At(20)), (Rows{"b:now-b", "d:now-d"}));
}

TEST_F(ReadViewTest, BackwardBoundsStartAndStopHold) {
  storage::ScanSpec spec = Partition();
  spec.forward = false;
  EXPECT_EQ(Read(spec, At(10)), (Rows{"c:old-c", "b:old-b", "a:old-a"}));
  EXPECT_EQ(Read(spec, At(10), 2), (Rows{"c:old-c", "b:old-b"}));
  spec.start = storage::ScanSpec::Position{"", "", "p", "c"};
  EXPECT_EQ(Read(spec, At(10)), (Rows{"b:old-b", "a:old-a"}));
  storage::ScanSpec bounded = Partition();
  bounded.lower = storage::SortBound{"b", false};
  bounded.upper = storage::SortBound{"d", true};
  EXPECT_EQ(Read(bounded, At(10)), (Rows{"c:old-c"}));
  // A whole-table scan keeps other partitions in place.
  storage::ScanSpec all;
  all.table_id = table_;
  all.row_keys = false;
  EXPECT_EQ(Read(all, At(10)),
            (Rows{"a:old-a", "b:old-b", "c:old-c", "x:now-qx"}));
}

TEST_F(ReadViewTest, GetSeesTheRowAsItWas) {
  ReadView past(*store_, &history_, At(10));
  auto a = past.Get(table_, "p", "a");
  ASSERT_TRUE(a.ok() && a->has_value());
  EXPECT_EQ((*a)->bytes, "old-a");
  auto d = past.Get(table_, "p", "d");
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(d->has_value());
  ReadView now(*store_);
  auto current = now.Get(table_, "p", "d");
  ASSERT_TRUE(current.ok() && current->has_value());
  EXPECT_EQ((*current)->bytes, "now-d");
}

}  // namespace
}  // namespace ddblab::engine
