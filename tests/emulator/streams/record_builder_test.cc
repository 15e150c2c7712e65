#include "emulator/streams/record_builder.h"

#include <gtest/gtest.h>

#include <regex>

#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"

namespace ddblab::streams {
namespace {

using value::AttributeValue;
using value::Item;

Item Key() { return {{"Id", AttributeValue::N(*value::Number::Parse("101"))}}; }

// An item's stored image (owns the bytes the StoredImage views).
struct Image {
  explicit Image(const Item& item)
      : bytes(value::SerializeItem(item)),
        image{bytes, static_cast<int64_t>(value::ItemSize(item))} {}
  Image(const Image&) = delete;
  const StoredImage* operator&() const { return &image; }

  std::string bytes;
  StoredImage image;
};

TEST(RecordBuilderTest, NoOpDetection) {
  Image a(Item{{"Id", AttributeValue::S("1")},
               {"n", AttributeValue::N(*value::Number::Parse("1.0"))}});
  Image same(Item{{"n", AttributeValue::N(*value::Number::Parse("1"))},
                  {"Id", AttributeValue::S("1")}});
  Image other(Item{{"Id", AttributeValue::S("1")}});
  Item keys = Key();
  EXPECT_TRUE(IsNoOp({&keys, &a, &same, false}));
  EXPECT_FALSE(IsNoOp({&keys, &a, &other, false}));
  EXPECT_FALSE(IsNoOp({&keys, nullptr, &a, false}));
  EXPECT_FALSE(IsNoOp({&keys, &a, nullptr, false}));
  EXPECT_TRUE(IsNoOp({&keys, nullptr, nullptr, false}));
}

TEST(RecordBuilderTest, EventNamesImagesAndSizes) {
  Item keys = Key();
  Item v1_item = keys;
  v1_item["Message"] = AttributeValue::S("New item!");
  Item v2_item = keys;
  v2_item["Message"] = AttributeValue::S("This item has changed");
  Image v1(v1_item);
  Image v2(v2_item);

  RecordRow insert =
      BuildRecord({&keys, nullptr, &v1, false}, ViewType::kNewAndOldImages, 5);
  EXPECT_EQ(insert.event, EventName::kInsert);
  EXPECT_EQ(insert.size_bytes, 26);
  EXPECT_EQ(insert.created_ms, 5);
  EXPECT_EQ(insert.keys, value::SerializeItem(keys));
  EXPECT_EQ(insert.new_image, value::SerializeItem(v1_item));
  EXPECT_FALSE(insert.old_image.has_value());

  RecordRow modify =
      BuildRecord({&keys, &v1, &v2, false}, ViewType::kNewAndOldImages, 5);
  EXPECT_EQ(modify.event, EventName::kModify);
  EXPECT_EQ(modify.size_bytes, 59);

  RecordRow remove =
      BuildRecord({&keys, &v2, nullptr, true}, ViewType::kNewAndOldImages, 5);
  EXPECT_EQ(remove.event, EventName::kRemove);
  EXPECT_EQ(remove.size_bytes, 38);
  EXPECT_TRUE(remove.service_delete);

  RecordRow keys_only =
      BuildRecord({&keys, &v1, &v2, false}, ViewType::kKeysOnly, 5);
  EXPECT_EQ(keys_only.size_bytes, 5);
  EXPECT_FALSE(keys_only.new_image || keys_only.old_image);
}

TEST(RecordBuilderTest, RenderRecord) {
  Item keys = Key();
  Image old(keys);
  RecordRow row = BuildRecord({&keys, &old, nullptr, true}, ViewType::kOldImage,
                              1704067201999);
  row.seq = 9;
  row.event_id = "0123456789abcdef0123456789abcdef";
  auto json = RenderRecord(row, ViewType::kOldImage, "eu-west-1");
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(*json, nlohmann::json::parse(R"({
    "eventID": "0123456789abcdef0123456789abcdef",
    "eventName": "REMOVE", "eventVersion": "1.1",
    "eventSource": "aws:dynamodb", "awsRegion": "eu-west-1",
    "dynamodb": {"ApproximateCreationDateTime": 1704067201,
                 "Keys": {"Id": {"N": "101"}},
                 "OldImage": {"Id": {"N": "101"}},
                 "SequenceNumber": "100000000000000000009",
                 "SizeBytes": 10, "StreamViewType": "OLD_IMAGE"},
    "userIdentity": {"PrincipalId": "dynamodb.amazonaws.com",
                     "Type": "Service"}})"));
}

TEST(RecordBuilderTest, EventIds) {
  std::string a = MakeEventId(7, 0, 2);
  EXPECT_TRUE(std::regex_match(a, std::regex("[0-9a-f]{32}"))) << a;
  EXPECT_EQ(a, MakeEventId(7, 0, 2));
  EXPECT_NE(a, MakeEventId(7, 0, 3));
  EXPECT_NE(a, MakeEventId(7, 1, 2));
  EXPECT_NE(a, MakeEventId(8, 0, 2));
  EXPECT_NE(MakeEventId(7, 1, 23), MakeEventId(7, 12, 3));
}

}  // namespace
}  // namespace ddblab::streams
