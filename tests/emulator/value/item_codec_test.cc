#include "emulator/value/item_codec.h"

#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/random.h"
#include "emulator/value/codec.h"

namespace ddblab::value {
namespace {

Item ParseItem(std::string_view text) {
  Result<Item> item = DecodeItem(nlohmann::json::parse(text));
  EXPECT_TRUE(item.ok()) << text;
  return item.ok() ? *item : Item();
}

constexpr char kSample[] = R"({
  "pk": {"S": "user#1"}, "sk": {"N": "-12.5e-3"}, "b": {"B": "3q2+7w=="},
  "ok": {"BOOL": true}, "no": {"BOOL": false}, "nothing": {"NULL": true},
  "m": {"M": {"inner": {"L": [{"N": "1e125"}, {"SS": ["y", "x", ""]}]},
              "e": {"M": {}}}},
  "ns": {"NS": ["3", "-1e-130", "99999999999999999999999999999999999999"]},
  "bs": {"BS": ["AA==", "AAA="]}, "empty": {"S": ""}, "l": {"L": []}
})";

TEST(ItemCodecTest, RoundTrip) {
  const Item item = ParseItem(kSample);
  const std::string bytes = SerializeItem(item);
  Result<Item> back = DeserializeItem(bytes);
  ASSERT_TRUE(back.ok()) << ToString(back.error());
  EXPECT_EQ(*back, item);
  // Exactly the same JSON, so set order and number values are kept.
  EXPECT_EQ(EncodeItem(*back), EncodeItem(item));
  EXPECT_EQ(SerializeItem(*back), bytes);
}

TEST(ItemCodecTest, EmptyItem) {
  Result<Item> back = DeserializeItem(SerializeItem({}));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->empty());
}

TEST(ItemCodecTest, NumbersAreExact) {
  for (const char* text :
       {"0", "-0.5", "1e125", "-1e-130",
        "12345678901234567890123456789012345678",
        "-1.2345678901234567890123456789012345678e-100", "18446744073709551616",
        "99999999999999999999999999999999999999e-167"}) {
    Result<Number> n = Number::Parse(text);
    if (!n.ok()) {
      ADD_FAILURE() << text;
      continue;
    }
    Item item{{"n", AttributeValue::N(*n)}};
    Result<Item> back = DeserializeItem(SerializeItem(item));
    ASSERT_TRUE(back.ok()) << text;
    EXPECT_EQ(back->at("n").n(), *n) << text;
    EXPECT_EQ(back->at("n").n().ToString(), n->ToString()) << text;
  }
}

TEST(ItemCodecTest, EveryTruncationIsAnError) {
  const std::string bytes = SerializeItem(ParseItem(kSample));
  for (size_t len = 0; len < bytes.size(); ++len) {
    Result<Item> r = DeserializeItem(std::string_view(bytes).substr(0, len));
    ASSERT_FALSE(r.ok()) << len;
    EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
  }
  EXPECT_FALSE(DeserializeItem(bytes + "x").ok());  // trailing garbage
}

TEST(ItemCodecTest, CorruptBytesNeverCrash) {
  const std::string bytes = SerializeItem(ParseItem(kSample));
  Rng rng(1234);
  int ok = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string corrupt = bytes;
    const int flips = 1 + static_cast<int>(rng.Uniform(4));
    for (int f = 0; f < flips; ++f) {
      corrupt[rng.Uniform(corrupt.size())] = static_cast<char>(rng.Next());
    }
    Result<Item> r = DeserializeItem(corrupt);
    if (r.ok()) {
      ++ok;
      // Whatever decodes re-serializes to a decodable item.
      EXPECT_TRUE(DeserializeItem(SerializeItem(*r)).ok());
    } else {
      EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
    }
  }
  EXPECT_LT(ok, 20000);
}

TEST(ItemCodecTest, RejectsHostileInput) {
  // Unknown format byte.
  EXPECT_FALSE(DeserializeItem("\x02\x00").ok());
  EXPECT_FALSE(DeserializeItem("").ok());
  // A count far larger than the input.
  EXPECT_FALSE(
      DeserializeItem(std::string("\x01\xff\xff\xff\xff\x0f", 6)).ok());
  // Deeply nested lists: format, 1 attribute "a", then L(1, L(1, ...)).
  std::string deep(
      "\x01\x01\x01"
      "a",
      4);
  for (int i = 0; i < 100000; ++i) deep += std::string("\x07\x01", 2);
  deep += std::string("\x05", 1);
  EXPECT_FALSE(DeserializeItem(deep).ok());
  // Names out of order or duplicated.
  Item two{{"a", AttributeValue::Null()}, {"b", AttributeValue::Null()}};
  std::string bytes = SerializeItem(two);
  std::string swapped = bytes;
  std::swap(swapped[3], swapped[6]);  // "a" <-> "b"
  EXPECT_FALSE(DeserializeItem(swapped).ok());
  swapped[3] = swapped[6];
  EXPECT_FALSE(DeserializeItem(swapped).ok());
  EXPECT_TRUE(DeserializeItem(bytes).ok());
}

TEST(ItemCodecTest, NestingWithinStorageLimitRoundTrips) {
  AttributeValue v = AttributeValue::S("leaf");
  for (int i = 0; i < 40; ++i) v = AttributeValue::L({v});
  Item item{{"deep", v}};
  Result<Item> back = DeserializeItem(SerializeItem(item));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, item);
}

TEST(ItemCodecTest, DeserializeAttributesReadsOnlyTheNamedOnes) {
  const Item item = ParseItem(kSample);
  const std::string bytes = SerializeItem(item);
  // Names on both sides of skipped maps, lists and sets; one absent name.
  const std::string_view names[] = {"sk", "l", "absent", "ok", "pk"};
  Result<Item> some = DeserializeAttributes(bytes, names);
  ASSERT_TRUE(some.ok()) << ToString(some.error());
  EXPECT_EQ(*some, (Item{{"sk", item.at("sk")},
                         {"l", item.at("l")},
                         {"ok", item.at("ok")},
                         {"pk", item.at("pk")}}));
  // Every attribute named: the whole item.
  std::vector<std::string_view> all;
  for (const auto& [name, v] : item) all.push_back(name);
  Result<Item> whole = DeserializeAttributes(bytes, all);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(*whole, item);
  // None named: nothing decoded.
  Result<Item> none = DeserializeAttributes(bytes, {});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(ItemCodecTest, DeserializeAttributesRejectsWhatItReadsCorrupt) {
  const std::string bytes = SerializeItem(ParseItem(kSample));
  // "sk" sorts after every other attribute: the whole input is read.
  const std::string_view last[] = {"sk"};
  for (size_t len = 0; len < bytes.size(); ++len) {
    Result<Item> r =
        DeserializeAttributes(std::string_view(bytes).substr(0, len), last);
    ASSERT_FALSE(r.ok()) << len;
    EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
  }
  Rng rng(99);
  for (int i = 0; i < 20000; ++i) {
    std::string corrupt = bytes;
    corrupt[rng.Uniform(corrupt.size())] = static_cast<char>(rng.Next());
    Result<Item> r = DeserializeAttributes(corrupt, last);
    if (!r.ok()) {
      EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
    }
  }
  EXPECT_FALSE(DeserializeAttributes("\x02\x00", last).ok());
}

TEST(ItemCodecTest, ReadKeyAttributesMatchesTheItemForm) {
  const Item item = ParseItem(kSample);
  const std::string bytes = SerializeItem(item);
  // Key types in place, other types by type only, one absent name.
  const std::string_view names[] = {"sk", "l", "absent", "pk", "b", "m", "ok"};
  StoredKeyValue out[7];
  out[2].present = true;  // reset when absent
  ASSERT_TRUE(ReadKeyAttributes(bytes, names, out).ok());
  for (size_t i = 0; i < std::size(names); ++i) {
    auto it = item.find(names[i]);
    if (it == item.end()) {
      EXPECT_FALSE(out[i].present) << names[i];
      continue;
    }
    ASSERT_TRUE(out[i].present) << names[i];
    EXPECT_EQ(out[i].type, it->second.type()) << names[i];
  }
  EXPECT_EQ(out[0].number, item.at("sk").n());
  EXPECT_EQ(out[3].bytes, "user#1");
  EXPECT_EQ(out[4].bytes, item.at("b").b());
  // Corrupt or truncated input: InternalServerError, as DeserializeItem.
  const std::string_view last[] = {"sk"};
  StoredKeyValue one[1];
  for (size_t len = 0; len < bytes.size(); ++len) {
    Status s =
        ReadKeyAttributes(std::string_view(bytes).substr(0, len), last, one);
    ASSERT_FALSE(s.ok()) << len;
    EXPECT_EQ(s.error().type, ErrorType::kInternalServerError);
  }
  // One output per name.
  EXPECT_FALSE(ReadKeyAttributes(bytes, names, one).ok());
}

}  // namespace
}  // namespace ddblab::value
