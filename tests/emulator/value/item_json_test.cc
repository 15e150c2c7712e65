#include "emulator/value/item_json.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "emulator/api/random.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_codec.h"

namespace ddblab::value {
namespace {

using Json = nlohmann::json;

Item ParseItem(std::string_view text) {
  Result<Item> item = DecodeItem(Json::parse(text));
  EXPECT_TRUE(item.ok()) << text;
  return item.ok() ? *item : Item();
}

// StoredItemToJson(bytes) agrees with DeserializeItem + EncodeItem: the same
// JSON (compared as text too, so types match), or the same error.
void ExpectSameAsItemPath(std::string_view bytes, const std::string& what) {
  Result<Item> item = DeserializeItem(bytes);
  Result<Json> direct = StoredItemToJson(bytes);
  ASSERT_EQ(direct.ok(), item.ok()) << what;
  if (item.ok()) {
    const Json expected = EncodeItem(*item);
    EXPECT_EQ(*direct, expected) << what;
    // Random and corrupt strings need not be UTF-8: dump with replacement.
    const auto replace = Json::error_handler_t::replace;
    EXPECT_EQ(direct->dump(-1, ' ', false, replace),
              expected.dump(-1, ' ', false, replace))
        << what;
  } else {
    EXPECT_EQ(direct.error().type, item.error().type) << what;
    EXPECT_EQ(direct.error().message, item.error().message) << what;
  }
}

constexpr char kSample[] = R"({
  "pk": {"S": "user#1"}, "sk": {"N": "-12.5e-3"}, "b": {"B": "3q2+7w=="},
  "ok": {"BOOL": true}, "no": {"BOOL": false}, "nothing": {"NULL": true},
  "m": {"M": {"inner": {"L": [{"N": "1e125"}, {"SS": ["y", "x", ""]}]},
              "e": {"M": {}}}},
  "ns": {"NS": ["3", "-1e-130", "99999999999999999999999999999999999999"]},
  "bs": {"BS": ["AA==", "AAA="]}, "empty": {"S": ""}, "eb": {"B": ""},
  "l": {"L": []}, "long": {"S": "a string longer than the small buffer"}
})";

TEST(ItemJsonTest, EveryTypeMatchesTheItemPath) {
  ExpectSameAsItemPath(SerializeItem(ParseItem(kSample)), "sample");
}

TEST(ItemJsonTest, ExactWireJson) {
  const Item item = ParseItem(R"({
    "s": {"S": "x"}, "n": {"N": "0001.50"}, "b": {"B": "AQI="},
    "t": {"BOOL": true}, "f": {"BOOL": false}, "z": {"NULL": true},
    "ss": {"SS": ["b", "a"]}, "ns": {"NS": ["2", "-1E1"]},
    "bs": {"BS": ["AA=="]}, "l": {"L": [{"S": "e"}, {"L": []}]},
    "m": {"M": {"k": {"M": {}}}}
  })");
  Result<Json> json = StoredItemToJson(SerializeItem(item));
  ASSERT_TRUE(json.ok()) << ToString(json.error());
  EXPECT_EQ(json->dump(),
            R"({"b":{"B":"AQI="},"bs":{"BS":["AA=="]},"f":{"BOOL":false},)"
            R"("l":{"L":[{"S":"e"},{"L":[]}]},"m":{"M":{"k":{"M":{}}}},)"
            R"("n":{"N":"1.5"},"ns":{"NS":["2","-10"]},"s":{"S":"x"},)"
            R"("ss":{"SS":["b","a"]},"t":{"BOOL":true},"z":{"NULL":true}})");
}

TEST(ItemJsonTest, EmptyItem) {
  Result<Json> json = StoredItemToJson(SerializeItem({}));
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(json->is_object());
  EXPECT_EQ(json->dump(), "{}");
}

TEST(ItemJsonTest, NumberFormatting) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0", "0"},
      {"-0", "0"},
      {"0.000", "0"},
      {"1.50", "1.5"},
      {"-12.5e-3", "-0.0125"},
      {".5", "0.5"},
      {"1E+3", "1000"},
      {"100", "100"},
      {"-1e-130", "-0." + std::string(129, '0') + "1"},
      {"1e125", "1" + std::string(125, '0')},
      {"12345678901234567890123456789012345678",
       "12345678901234567890123456789012345678"},
      {"18446744073709551616", "18446744073709551616"},
  };
  for (const auto& [text, wire] : cases) {
    Result<Number> n = Number::Parse(text);
    ASSERT_TRUE(n.ok()) << text;
    const std::string bytes =
        SerializeItem({{"n", AttributeValue::N(*n)},
                       {"s", AttributeValue::NS({*n, Number::FromInt64(7)})}});
    Result<Json> json = StoredItemToJson(bytes);
    ASSERT_TRUE(json.ok()) << text;
    EXPECT_EQ((*json)["n"]["N"], wire) << text;
    EXPECT_EQ((*json)["s"]["NS"][0], wire) << text;
    ExpectSameAsItemPath(bytes, text);
  }
}

TEST(ItemJsonTest, NamesAndBytesKeepTheirOrderAndValues) {
  std::string all_bytes;
  for (int c = 0; c < 256; ++c) all_bytes.push_back(static_cast<char>(c));
  Item item{{"B", AttributeValue::S("upper")},
            {"a", AttributeValue::B(all_bytes)},
            {"\xc3\xa9t\xc3\xa9", AttributeValue::S("\xe2\x82\xac")},
            {"z", AttributeValue::BS({all_bytes, "", "\xff"})}};
  const std::string bytes = SerializeItem(item);
  ExpectSameAsItemPath(bytes, "names");
  Result<Json> json = StoredItemToJson(bytes);
  ASSERT_TRUE(json.ok());
  std::vector<std::string> names;
  for (const auto& [name, v] : json->items()) names.push_back(name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"B", "a", "z", "\xc3\xa9t\xc3\xa9"}));
  EXPECT_EQ((*json)["a"]["B"], Base64Encode(all_bytes));
  EXPECT_EQ((*json)["z"]["BS"][1], "");
  EXPECT_EQ((*json)["z"]["BS"][2], "/w==");
}

// A random value of any type, nested up to `depth` more levels.
AttributeValue RandomValue(Rng& rng, int depth) {
  auto text = [&rng]() {
    std::string s(rng.Uniform(24), 'x');
    for (char& c : s) c = static_cast<char>(rng.Next());
    return s;
  };
  auto number = [&rng]() {
    const std::string digits = std::to_string(rng.Next() % 100000000);
    const int exp = static_cast<int>(rng.Uniform(60)) - 30;
    std::string t =
        (rng.Bernoulli(0.3) ? "-" : "") + digits + "e" + std::to_string(exp);
    Result<Number> n = Number::Parse(t);
    return n.ok() ? *n : Number();
  };
  const uint64_t kinds = depth > 0 ? 10 : 8;
  switch (rng.Uniform(kinds)) {
    case 0:
      return AttributeValue::S(text());
    case 1:
      return AttributeValue::N(number());
    case 2:
      return AttributeValue::B(text());
    case 3:
      return AttributeValue::Bool(rng.Bernoulli(0.5));
    case 4:
      return AttributeValue::Null();
    case 5: {
      std::vector<std::string> set;
      for (uint64_t i = rng.Uniform(4); i > 0; --i) set.push_back(text());
      return AttributeValue::SS(std::move(set));
    }
    case 6: {
      std::vector<Number> set;
      for (uint64_t i = rng.Uniform(4); i > 0; --i) set.push_back(number());
      return AttributeValue::NS(std::move(set));
    }
    case 7: {
      std::vector<std::string> set;
      for (uint64_t i = rng.Uniform(4); i > 0; --i) set.push_back(text());
      return AttributeValue::BS(std::move(set));
    }
    case 8: {
      AttributeMap m;
      for (uint64_t i = rng.Uniform(4); i > 0; --i) {
        m.emplace(text(), RandomValue(rng, depth - 1));
      }
      return AttributeValue::M(std::move(m));
    }
    default: {
      AttributeList l;
      for (uint64_t i = rng.Uniform(4); i > 0; --i) {
        l.push_back(RandomValue(rng, depth - 1));
      }
      return AttributeValue::L(std::move(l));
    }
  }
}

TEST(ItemJsonTest, RandomItemsMatchTheItemPath) {
  Rng rng(42);
  for (int i = 0; i < 2000; ++i) {
    Item item;
    for (uint64_t k = rng.Uniform(8); k > 0; --k) {
      item.emplace(std::to_string(rng.Uniform(1000)), RandomValue(rng, 4));
    }
    ExpectSameAsItemPath(SerializeItem(item), "item " + std::to_string(i));
  }
}

// StoredAttributesToJson(bytes, names) is EncodeItem of
// DeserializeAttributes(bytes, names): same JSON or same error, on random
// items (names present and absent) and on corrupt bytes.
void ExpectSameAsAttributesPath(std::string_view bytes,
                                std::span<const std::string_view> names,
                                const std::string& what) {
  Result<Item> item = DeserializeAttributes(bytes, names);
  Result<Json> direct = StoredAttributesToJson(bytes, names);
  ASSERT_EQ(direct.ok(), item.ok()) << what;
  if (item.ok()) {
    EXPECT_EQ(*direct, EncodeItem(*item)) << what;
  } else {
    EXPECT_EQ(direct.error().type, item.error().type) << what;
    EXPECT_EQ(direct.error().message, item.error().message) << what;
  }
}

TEST(ItemJsonTest, NamedAttributesMatchTheItemPath) {
  Rng rng(7);
  for (int i = 0; i < 2000; ++i) {
    Item item;
    for (uint64_t k = rng.Uniform(8); k > 0; --k) {
      item.emplace(std::to_string(rng.Uniform(20)), RandomValue(rng, 4));
    }
    std::vector<std::string> owned;
    for (uint64_t k = rng.Uniform(4); k > 0; --k) {
      owned.push_back(std::to_string(rng.Uniform(20)));
    }
    const std::vector<std::string_view> names(owned.begin(), owned.end());
    const std::string bytes = SerializeItem(item);
    ExpectSameAsAttributesPath(bytes, names, "item " + std::to_string(i));
    std::string corrupt = bytes;
    if (!corrupt.empty()) {
      corrupt[rng.Uniform(corrupt.size())] = static_cast<char>(rng.Next());
    }
    ExpectSameAsAttributesPath(corrupt, names,
                               "corruption " + std::to_string(i));
    if (HasFatalFailure()) return;
  }
  const std::string bytes = SerializeItem(ParseItem(kSample));
  const std::string_view pk[] = {"pk"};
  Result<Json> one = StoredAttributesToJson(bytes, pk);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, Json::parse(R"({"pk": {"S": "user#1"}})"));
}

TEST(ItemJsonTest, EveryTruncationIsTheSameError) {
  const std::string bytes = SerializeItem(ParseItem(kSample));
  for (size_t len = 0; len < bytes.size(); ++len) {
    Result<Json> r = StoredItemToJson(std::string_view(bytes).substr(0, len));
    ASSERT_FALSE(r.ok()) << len;
    EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
    EXPECT_EQ(r.error().message, "corrupt stored item");
  }
  EXPECT_FALSE(StoredItemToJson(bytes + "x").ok());  // trailing garbage
}

TEST(ItemJsonTest, CorruptBytesAgreeWithTheItemPath) {
  const std::string bytes = SerializeItem(ParseItem(kSample));
  Rng rng(1234);
  int ok = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string corrupt = bytes;
    const int flips = 1 + static_cast<int>(rng.Uniform(4));
    for (int f = 0; f < flips; ++f) {
      corrupt[rng.Uniform(corrupt.size())] = static_cast<char>(rng.Next());
    }
    ok += StoredItemToJson(corrupt).ok() ? 1 : 0;
    ExpectSameAsItemPath(corrupt, "corruption " + std::to_string(i));
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(ok, 0);
  EXPECT_LT(ok, 20000);
}

TEST(ItemJsonTest, RejectsHostileInput) {
  const std::vector<std::string> hostile = {
      "",
      std::string("\x02\x00", 2),                  // unknown format byte
      std::string("\x01\xff\xff\xff\xff\x0f", 6),  // count beyond the input
      std::string("\x01\x01\x01"
                  "a\x0b",
                  5),  // unknown tag
      std::string("\x01\x01\x01"
                  "a\x01\x02\x00\x01",
                  8),  // number sign byte 2
  };
  for (const std::string& bytes : hostile) {
    Result<Json> r = StoredItemToJson(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
    ExpectSameAsItemPath(bytes, "hostile");
  }
  // Deeply nested lists: format, 1 attribute "a", then L(1, L(1, ...)).
  std::string deep(
      "\x01\x01\x01"
      "a",
      4);
  for (int i = 0; i < 100000; ++i) deep += std::string("\x07\x01", 2);
  deep += std::string("\x05", 1);
  EXPECT_FALSE(StoredItemToJson(deep).ok());
  // Names out of order or duplicated.
  Item two{{"a", AttributeValue::Null()}, {"b", AttributeValue::Null()}};
  const std::string bytes = SerializeItem(two);
  std::string swapped = bytes;
  std::swap(swapped[3], swapped[6]);  // "a" <-> "b"
  EXPECT_FALSE(StoredItemToJson(swapped).ok());
  swapped[3] = swapped[6];
  EXPECT_FALSE(StoredItemToJson(swapped).ok());
  EXPECT_TRUE(StoredItemToJson(bytes).ok());
}

TEST(ItemJsonTest, NestingLimitIsTheItemPaths) {
  // Lists nested n deep around a NULL, and maps nested n deep.
  for (int n : {1, 40, 62, 63, 64, 65, 66}) {
    AttributeValue list = AttributeValue::Null();
    AttributeValue map = AttributeValue::Null();
    for (int i = 0; i < n; ++i) {
      list = AttributeValue::L({list});
      map = AttributeValue::M({{"k", map}});
    }
    const std::string l_bytes = SerializeItem({{"deep", list}});
    const std::string m_bytes = SerializeItem({{"deep", map}});
    ExpectSameAsItemPath(l_bytes, "L " + std::to_string(n));
    ExpectSameAsItemPath(m_bytes, "M " + std::to_string(n));
    EXPECT_EQ(StoredItemToJson(l_bytes).ok(), n <= 64) << n;
    EXPECT_EQ(StoredItemToJson(m_bytes).ok(), n <= 64) << n;
  }
}

}  // namespace
}  // namespace ddblab::value
