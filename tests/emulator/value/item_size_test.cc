#include "emulator/value/item_size.h"

#include <gtest/gtest.h>

#include "emulator/value/codec.h"

namespace ddblab::value {
namespace {

size_t NumberSize(std::string_view text) {
  return AttributeValueSize(AttributeValue::N(*Number::Parse(text)));
}

size_t JsonItemSize(std::string_view text) {
  Result<Item> item = DecodeItem(nlohmann::json::parse(text));
  EXPECT_TRUE(item.ok()) << text;
  return item.ok() ? ItemSize(*item) : 0;
}

TEST(ItemSizeTest, DocumentationExample) {
  EXPECT_EQ(JsonItemSize(R"({"shirt-color":{"S":"R"},"shirt-size":{"S":"M"}})"),
            23u);
}

TEST(ItemSizeTest, Numbers) {
  EXPECT_EQ(NumberSize("5"), 2u);
  EXPECT_EQ(NumberSize("12"), 2u);
  EXPECT_EQ(NumberSize("123"), 3u);
  EXPECT_EQ(NumberSize("1.2"), 3u);
  EXPECT_EQ(NumberSize("0.5"), 2u);
  EXPECT_EQ(NumberSize("-5"), 3u);
  EXPECT_EQ(NumberSize("0"), 1u);
  EXPECT_EQ(NumberSize("-0.0"), 1u);
  EXPECT_EQ(NumberSize("1234"), 3u);
  EXPECT_EQ(NumberSize("12345"), 4u);
  EXPECT_EQ(NumberSize("100"), 2u);  // one base-100 digit, "01" then 00
  EXPECT_EQ(NumberSize("1000"), 2u);
  EXPECT_EQ(NumberSize("0.05"), 2u);
  EXPECT_EQ(NumberSize("0.005"), 2u);
  EXPECT_EQ(NumberSize("10.5"), 3u);     // 10 . 50
  EXPECT_EQ(NumberSize("1.05"), 3u);     // 01 . 05
  EXPECT_EQ(NumberSize("-12.345"), 5u);  // - 12 . 34 50
  EXPECT_EQ(NumberSize(std::string(38, '9')), 20u);
  EXPECT_EQ(NumberSize("1e125"), 2u);
  EXPECT_EQ(NumberSize("1e-130"), 2u);
  EXPECT_EQ(NumberSize("-1e-130"), 3u);
}

TEST(ItemSizeTest, Scalars) {
  EXPECT_EQ(AttributeValueSize(AttributeValue::S("")), 0u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::S("héllo")), 6u);  // UTF-8
  EXPECT_EQ(AttributeValueSize(AttributeValue::B("abc")), 3u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::Bool(false)), 1u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::Null()), 1u);
}

TEST(ItemSizeTest, Sets) {
  EXPECT_EQ(AttributeValueSize(AttributeValue::SS({"ab", "", "cde"})), 5u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::BS({"ab", "c"})), 3u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::NS(
                {Number::FromInt64(5), Number::FromInt64(-123)})),
            2u + 4u);
}

TEST(ItemSizeTest, ListsAndMaps) {
  EXPECT_EQ(AttributeValueSize(AttributeValue::L({})), 3u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::M({})), 3u);
  // 3 + (1 + 1) + (1 + 2)
  EXPECT_EQ(AttributeValueSize(AttributeValue::L(
                {AttributeValue::Bool(true), AttributeValue::S("ab")})),
            8u);
  // 3 + (1 + len("key") + 2)
  EXPECT_EQ(
      AttributeValueSize(AttributeValue::M({{"key", AttributeValue::S("ab")}})),
      9u);
  // Nested: outer 3 + (1 + 1 + inner), inner = 3 + (1 + 1).
  EXPECT_EQ(AttributeValueSize(AttributeValue::M(
                {{"a", AttributeValue::L({AttributeValue::Null()})}})),
            3u + 1 + 1 + 5);
}

TEST(ItemSizeTest, ItemAndAttributeSize) {
  Item item;
  item.emplace("pk", AttributeValue::S("abc"));
  item.emplace("n", AttributeValue::N(Number::FromInt64(12)));
  EXPECT_EQ(AttributeSize("pk", item.at("pk")), 5u);
  EXPECT_EQ(ItemSize(item), 5u + 1 + 2);
  EXPECT_EQ(ItemSize({}), 0u);
  // The limit constant.
  EXPECT_EQ(kMaxItemSize, 400u * 1024);
  Item big;
  big.emplace("a", AttributeValue::S(std::string(kMaxItemSize - 1, 'x')));
  EXPECT_EQ(ItemSize(big), kMaxItemSize);
}

}  // namespace
}  // namespace ddblab::value
