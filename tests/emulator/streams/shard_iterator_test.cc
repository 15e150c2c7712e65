#include "emulator/streams/shard_iterator.h"

#include <gtest/gtest.h>

namespace ddblab::streams {
namespace {

constexpr char kArn[] =
    "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/"
    "2024-01-01T00:00:00.000";

TEST(ShardIteratorTest, RoundTrip) {
  IteratorPosition p{kArn, 3, 7, 123456, 1704067200123};
  std::string text = EncodeShardIterator(p);
  EXPECT_EQ(text.rfind(std::string(kArn) + "|1|", 0), 0u) << text;
  EXPECT_LE(text.size(), 2048u);
  auto back = DecodeShardIterator(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->stream_arn, kArn);
  EXPECT_EQ(back->stream_id, 3);
  EXPECT_EQ(back->shard, 7);
  EXPECT_EQ(back->after_seq, 123456);
  EXPECT_EQ(back->issued_ms, 1704067200123);
}

TEST(ShardIteratorTest, RejectsGarbageAndEdits) {
  EXPECT_FALSE(DecodeShardIterator(""));
  EXPECT_FALSE(DecodeShardIterator("sdfsdfsgagaddafgagasgasgasdfasdfasdf"));
  EXPECT_FALSE(DecodeShardIterator("|1|AAAA"));
  EXPECT_FALSE(DecodeShardIterator(std::string(kArn) + "|1|!!!!"));
  std::string good = EncodeShardIterator({kArn, 1, 0, 5, 1000});
  // Another stream's ARN with this payload: the check fails.
  std::string moved = good;
  moved.replace(moved.find("table/t/"), 8, "table/u/");
  EXPECT_FALSE(DecodeShardIterator(moved));
  // A forged payload without the right check value.
  EXPECT_FALSE(
      DecodeShardIterator(std::string(kArn) + "|1|MTowOjU6MTAwMDowMDAw"));
}

}  // namespace
}  // namespace ddblab::streams
