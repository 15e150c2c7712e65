// StoredIndexEntryKeys (keys.h): the index entries of a stored item, keys
// and sizes, computed from the key attributes alone, must be exactly those
// ComputeIndexEntries finds on the decoded item — for every projection,
// multi-attribute keys, items outside an index, indexes being deleted and
// the general path (INCLUDE, many key attributes).
#include "emulator/engine/keys.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"
#include "tests/emulator/engine/attribute_values_test_util.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;

using testing::Bv;
using testing::Nv;
using testing::Sv;

IndexDef Index(int64_t id, KeySchema key, ProjectionType projection,
               bool global = true) {
  IndexDef idx;
  idx.id = id;
  idx.name = "i" + std::to_string(id);
  idx.global = global;
  idx.key = std::move(key);
  idx.projection = projection;
  return idx;
}

KeySchema Key(const std::string& hash, AttrType hash_type,
              const std::string& range = "",
              AttrType range_type = AttrType::kS) {
  KeySchema k;
  k.hash = KeyElement{hash, hash_type};
  if (!range.empty()) k.range = KeyElement{range, range_type};
  return k;
}

Table MakeTable() {
  Table t;
  t.id = 1;
  t.name = "t";
  t.key = Key("pk", AttrType::kS, "sk", AttrType::kN);
  // ALL, KEYS_ONLY on a key attribute of the table, an LSI, a
  // multi-attribute GSI (KEYS_ONLY) and one being deleted.
  t.indexes.push_back(Index(1, Key("g", AttrType::kS, "ttl", AttrType::kN),
                            ProjectionType::kAll));
  t.indexes.push_back(Index(2, Key("g", AttrType::kS, "pk", AttrType::kS),
                            ProjectionType::kKeysOnly));
  t.indexes.push_back(Index(3, Key("pk", AttrType::kS, "l", AttrType::kB),
                            ProjectionType::kKeysOnly, false));
  KeySchema multi = Key("h1", AttrType::kS, "r1", AttrType::kN);
  multi.more_hash = {KeyElement{"h2", AttrType::kB}};
  multi.more_range = {KeyElement{"r2", AttrType::kS}};
  t.indexes.push_back(Index(4, multi, ProjectionType::kKeysOnly));
  IndexDef gone = Index(5, Key("g", AttrType::kS), ProjectionType::kAll);
  gone.status = TableStatus::kDeleting;
  t.indexes.push_back(gone);
  return t;
}

// Items in and out of each index: missing, mistyped, empty and oversized
// key values, and attributes no key uses.
std::vector<Item> Items() {
  const Item base{
      {"pk", Sv("user#1")},
      {"sk", Nv("-12.5")},
      {"g", Sv("2024-01-01T00:00:00.000Z_2024-01-01T00:01:00.000Z")},
      {"ttl", Nv("1700000000")},
      {"l", Bv(std::string("a\0b", 3))},
      {"h1", Sv("x")},
      {"h2", Bv("y")},
      {"r1", Nv("0")},
      {"r2", Sv("z")},
      {"payload", Sv(std::string(300, 'p'))},
      {"m", AttributeValue::M({{"g", Sv("nested")}})}};
  std::vector<Item> items{base};
  auto with = [&](const std::string& name, const AttributeValue& v) {
    Item item = base;
    item.insert_or_assign(name, v);
    items.push_back(item);
  };
  auto without = [&](const std::string& name) {
    Item item = base;
    item.erase(name);
    items.push_back(item);
  };
  for (const char* name : {"g", "ttl", "l", "h1", "h2", "r1", "r2"}) {
    without(name);
  }
  with("g", Nv("1"));
  with("ttl", Sv("1"));
  with("l", Sv("l"));
  with("h2", Bv(""));
  with("r2", Sv(""));
  with("h1", Sv(std::string(2049, 'h')));
  with("r2", Sv(std::string(1025, 'r')));
  with("r2", Sv(std::string(1024, 'r')));
  with("ttl", Nv("-1e-130"));
  items.push_back(Item{{"pk", Sv("only")}, {"sk", Nv("1")}});
  return items;
}

void ExpectSameEntries(const Table& table, const Item& item) {
  const std::string bytes = value::SerializeItem(item);
  const auto size = static_cast<int64_t>(value::ItemSize(item));
  const std::vector<IndexEntry> want =
      ComputeIndexEntries(table, item, bytes, size);
  Result<std::vector<IndexEntry>> got =
      StoredIndexEntryKeys(table, bytes, size);
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  ASSERT_EQ(got->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ((*got)[i].index, want[i].index) << i;
    EXPECT_EQ((*got)[i].ipk, want[i].ipk) << i;
    EXPECT_EQ((*got)[i].isk, want[i].isk) << i;
    EXPECT_EQ((*got)[i].size, want[i].size) << want[i].index->name;
    EXPECT_TRUE((*got)[i].bytes.empty());
  }
}

TEST(StoredIndexEntryKeysTest, SameEntriesAsTheDecodedItem) {
  const Table table = MakeTable();
  const std::vector<Item> items = Items();
  // The base item is in the four live indexes, not in the deleted one.
  EXPECT_EQ(
      ComputeIndexEntries(table, items[0], value::SerializeItem(items[0]), 1)
          .size(),
      4u);
  for (const Item& item : items) ExpectSameEntries(table, item);
}

TEST(StoredIndexEntryKeysTest, GeneralPathForIncludeAndManyKeyAttributes) {
  Table include = MakeTable();
  IndexDef inc = Index(6, Key("g", AttrType::kS), ProjectionType::kInclude);
  inc.non_key_attributes = {"payload", "m", "absent"};
  include.indexes.push_back(inc);
  for (const Item& item : Items()) ExpectSameEntries(include, item);

  // More key attributes than the stack buffer holds.
  Table many = MakeTable();
  for (int i = 0; i < 12; ++i) {
    many.indexes.push_back(Index(10 + i,
                                 Key("k" + std::to_string(i), AttrType::kS),
                                 ProjectionType::kKeysOnly));
  }
  for (Item item : Items()) {
    for (int i = 0; i < 12; i += 2) item["k" + std::to_string(i)] = Sv("v");
    ExpectSameEntries(many, item);
  }
}

TEST(StoredIndexEntryKeysTest, CorruptBytes) {
  const Table table = MakeTable();
  const std::string bytes = value::SerializeItem(Items()[0]);
  Result<std::vector<IndexEntry>> r = StoredIndexEntryKeys(
      table, std::string_view(bytes).substr(0, bytes.size() / 2), 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
}

}  // namespace
}  // namespace ddblab::engine
