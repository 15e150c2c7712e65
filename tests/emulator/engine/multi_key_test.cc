// The composite encoding of multi-attribute index keys (multi_key.h): memcmp
// order is attribute-by-attribute value order, a left prefix of the
// attributes is a byte prefix, and an item that cannot be in the index has
// no encoding.
#include "emulator/engine/multi_key.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emulator/value/key_codec.h"
#include "tests/emulator/engine/attribute_values_test_util.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;

using testing::Bv;
using testing::Nv;
using testing::Sv;

KeySchema TwoByTwo() {
  KeySchema k;
  k.hash = KeyElement{"h1", AttrType::kS};
  k.more_hash = {KeyElement{"h2", AttrType::kN}};
  k.range = KeyElement{"r1", AttrType::kB};
  k.more_range = {KeyElement{"r2", AttrType::kS}};
  return k;
}

std::string Composite(const std::vector<AttributeValue>& values) {
  std::string out;
  for (const AttributeValue& v : values) {
    AppendKeyComponent(value::EncodeKey(v), &out);
  }
  return out;
}

TEST(MultiKeyTest, ComponentEscapesZeroBytesAndTerminates) {
  std::string out;
  AppendKeyComponent(std::string("a\0b", 3), &out);
  EXPECT_EQ(out, std::string("a\0\xFF"
                             "b\0\x01",
                             6));
  EXPECT_EQ(EscapeKeyComponent(std::string("\0\0", 2)),
            std::string("\0\xFF\0\xFF", 4));
}

TEST(MultiKeyTest, OrderIsAttributeByAttribute) {
  // Each row sorts strictly before the next, whatever the byte lengths.
  const std::vector<std::vector<AttributeValue>> sorted = {
      {Bv(std::string("\0", 1)), Sv("z")},
      {Bv(std::string("\0\0", 2)), Sv("a")},
      {Bv(std::string("\x01", 1)), Sv("a")},
      {Bv("a"), Sv("")},
      {Bv("a"), Sv("a")},
      {Bv("a"), Sv("ab")},
      {Bv("a"), Sv("b")},
      {Bv("ab"), Sv("a")},
      {Bv("b"), Sv("a")},
  };
  for (size_t i = 0; i + 1 < sorted.size(); ++i) {
    EXPECT_LT(Composite(sorted[i]), Composite(sorted[i + 1])) << i;
  }
  // Numbers: 2 < 10 < 10.5 as values, not as text.
  EXPECT_LT(Composite({Nv("2"), Sv("z")}), Composite({Nv("10"), Sv("a")}));
  EXPECT_LT(Composite({Nv("10"), Sv("z")}), Composite({Nv("10.5"), Sv("a")}));
  EXPECT_LT(Composite({Nv("-3"), Sv("z")}), Composite({Nv("-2"), Sv("a")}));
}

TEST(MultiKeyTest, LeftPrefixIsBytePrefix) {
  const std::string full = Composite({Sv("x"), Nv("7"), Sv("tail")});
  const std::string prefix = Composite({Sv("x"), Nv("7")});
  EXPECT_EQ(full.rfind(prefix, 0), 0u);
  // begins_with("ta") on the third attribute: the escaped value without the
  // terminator is a prefix of every key whose third value starts with it.
  EXPECT_EQ(full.rfind(prefix + EscapeKeyComponent("ta"), 0), 0u);
}

TEST(MultiKeyTest, EncodedPartsOfAnItem) {
  const KeySchema k = TwoByTwo();
  Item item{{"h1", Sv("a")},
            {"h2", Nv("5")},
            {"r1", Bv("bin")},
            {"r2", Sv("s")},
            {"other", Sv("o")}};
  EXPECT_EQ(EncodeHashPart(k, item), Composite({Sv("a"), Nv("5")}));
  EXPECT_EQ(EncodeRangePart(k, item), Composite({Bv("bin"), Sv("s")}));

  // A single-attribute part keeps the plain key encoding.
  KeySchema single;
  single.hash = KeyElement{"h1", AttrType::kS};
  single.range = KeyElement{"h2", AttrType::kN};
  EXPECT_EQ(EncodeHashPart(single, item), value::EncodeKey(Sv("a")));
  EXPECT_EQ(EncodeRangePart(single, item), value::EncodeKey(Nv("5")));
  KeySchema hash_only;
  hash_only.hash = KeyElement{"h1", AttrType::kS};
  EXPECT_EQ(EncodeRangePart(hash_only, item), std::string());
}

TEST(MultiKeyTest, ItemsOutsideTheIndexHaveNoEncoding) {
  const KeySchema k = TwoByTwo();
  const Item good{
      {"h1", Sv("a")}, {"h2", Nv("5")}, {"r1", Bv("b")}, {"r2", Sv("s")}};
  auto with = [&](const std::string& attr, const AttributeValue& v) {
    Item item = good;
    item.insert_or_assign(attr, v);
    return item;
  };
  auto without = [&](const std::string& attr) {
    Item item = good;
    item.erase(attr);
    return item;
  };
  EXPECT_FALSE(EncodeHashPart(k, without("h2")));        // missing
  EXPECT_FALSE(EncodeHashPart(k, with("h2", Sv("5"))));  // wrong type
  EXPECT_FALSE(EncodeHashPart(k, with("h1", Sv(""))));   // empty
  EXPECT_FALSE(EncodeRangePart(k, without("r2")));
  EXPECT_FALSE(EncodeRangePart(k, with("r1", Bv(""))));
  // Limits per attribute: 2048 bytes for HASH ones, 1024 for RANGE ones.
  EXPECT_TRUE(EncodeHashPart(k, with("h1", Sv(std::string(2048, 'x')))));
  EXPECT_FALSE(EncodeHashPart(k, with("h1", Sv(std::string(2049, 'x')))));
  EXPECT_TRUE(EncodeRangePart(k, with("r2", Sv(std::string(1024, 'x')))));
  EXPECT_FALSE(EncodeRangePart(k, with("r2", Sv(std::string(1025, 'x')))));
  EXPECT_FALSE(EncodeRangePart(k, with("r1", Bv(std::string(1025, 'x')))));
}

}  // namespace
}  // namespace ddblab::engine
