// Tests of emulator/engine/vector/vector_entry.h: the float32 conversion of
// numbers, the float32 texts, and an item's entry in an index.
#include "emulator/engine/vector/vector_entry.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <string>

#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {
namespace {

std::optional<float> F(const char* text) {
  Result<value::Number> n = value::Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return ToFloat32(*n);
}

TEST(VectorEntryTest, NumbersRoundToTheNearestFloat32) {
  EXPECT_EQ(F("0.1"), 0.1f);
  EXPECT_EQ(F("-0.123456"), -0.123456f);
  EXPECT_EQ(F("16777217"), 16777216.0f);
  EXPECT_EQ(F("0.123456789012345678901234567890123"), 0.12345679f);
  // 1 + 2^-24, the midpoint between 1 and the next float: ties to even.
  EXPECT_EQ(F("1.000000059604644775390625"), 1.0f);
  EXPECT_EQ(F("1.000000059604644775390626"), 1.00000012f);
  EXPECT_EQ(F("3.4028235E38"), FLT_MAX);
  EXPECT_EQ(F("-3.4028235E38"), -FLT_MAX);
  EXPECT_EQ(F("3.5E38"), std::nullopt);
  EXPECT_EQ(F("1E-60"), 0.0f);    // below float32: zero, accepted
  EXPECT_EQ(F("1E-40"), 1e-40f);  // a subnormal float32
}

TEST(VectorEntryTest, Float32TextsAreShortestWithADecimalPoint) {
  EXPECT_EQ(Float32Text(1.0f), "1.0");
  EXPECT_EQ(Float32Text(0.0f), "0.0");
  EXPECT_EQ(Float32Text(0.1f), "0.1");
  EXPECT_EQ(Float32Text(-2.5f), "-2.5");
  EXPECT_EQ(Float32Text(16777216.0f), "16777216.0");
  EXPECT_EQ(Float32Text(0.0001f), "0.0001");
  EXPECT_EQ(Float32Text(1e-7f), "1e-7");
  EXPECT_EQ(Float32Text(1.5e16f), "1.5e16");
  EXPECT_EQ(Float32Text(FLT_MAX), "3.4028235e38");
}

TEST(VectorEntryTest, EntryOfAnItem) {
  Table table;
  table.key.hash = KeyElement{"pk", AttrType::kS};
  VectorIndexDef index;
  index.name = "vix";
  index.attribute = "emb";
  index.dimensions = 2;
  index.search_schema = {SearchSchemaElement{"tenant", true, AttrType::kS}};
  index.projection = ProjectionType::kKeysOnly;
  auto n = [](const char* t) {
    return value::AttributeValue::N(*value::Number::Parse(t));
  };
  value::Item item{{"pk", value::AttributeValue::S("a")},
                   {"emb", value::AttributeValue::L({n("1"), n("0.5")})},
                   {"other", value::AttributeValue::S("xyz")}};
  auto entry = [&](const value::Item& i) {
    return ComputeVectorEntry(table, index, i, value::SerializeItem(i),
                              static_cast<int64_t>(value::ItemSize(i)));
  };
  EXPECT_EQ(entry(item), std::nullopt);  // no HASH value: sparse
  item["tenant"] = value::AttributeValue::S("acme");
  std::optional<VectorEntry> e = entry(item);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->values, (std::vector<float>{1.0f, 0.5f}));
  ASSERT_EQ(e->schema_keys.size(), 1u);
  EXPECT_TRUE(e->schema_keys[0].has_value());
  // 4 x 2 + "emb" + the view {pk: "a", tenant: "acme"} (3 + 10 bytes).
  EXPECT_EQ(e->size, 8 + 3 + 13);
  // Attributes outside the view do not change it; the vector does.
  value::Item other = item;
  other["other"] = value::AttributeValue::S("changed");
  EXPECT_EQ(entry(other)->view_hash, e->view_hash);
  other["emb"] = value::AttributeValue::L({n("1"), n("0.25")});
  EXPECT_NE(entry(other)->view_hash, e->view_hash);
  item["emb"] = value::AttributeValue::L({n("1")});
  EXPECT_EQ(entry(item), std::nullopt);  // wrong length: not indexed
}

}  // namespace
}  // namespace ddblab::engine
