// The DynamoDB Streams API: ListStreams, DescribeStream, GetShardIterator,
// GetRecords — shapes, paging, validation, expiry, trimming, disabling.
#include <gtest/gtest.h>

#include <regex>

#include "tests/emulator/engine/streams_test_util.h"

namespace ddblab::engine::testing {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;

constexpr char kArnPrefix[] = "arn:aws:dynamodb:us-east-1:000000000000:table/";

class StreamsApiTest : public StreamsTest {};

TEST_F(StreamsApiTest, ListStreams) {
  EXPECT_EQ(StreamsOk("ListStreams", Json::object()),
            Json({{"Streams", Json::array()}}));
  CreateTable("plain");
  std::string b = CreateStreamTable("bbb", "KEYS_ONLY");
  std::string a = CreateStreamTable("aaa", "NEW_IMAGE");
  EXPECT_EQ(a, std::string(kArnPrefix) + "aaa/stream/2024-01-01T00:00:00.000");
  EXPECT_EQ(Describe("aaa")["LatestStreamArn"], a);
  EXPECT_EQ(Describe("aaa")["LatestStreamLabel"], "2024-01-01T00:00:00.000");
  Json all = StreamsOk("ListStreams", Json::object());
  EXPECT_EQ(all, Json({{"Streams",
                        {{{"StreamArn", a},
                          {"TableName", "aaa"},
                          {"StreamLabel", "2024-01-01T00:00:00.000"}},
                         {{"StreamArn", b},
                          {"TableName", "bbb"},
                          {"StreamLabel", "2024-01-01T00:00:00.000"}}}}}));
  Json only_b = StreamsOk("ListStreams", {{"TableName", "bbb"}});
  ASSERT_EQ(only_b["Streams"].size(), 1u);
  EXPECT_EQ(only_b["Streams"][0]["StreamArn"], b);
  EXPECT_EQ(StreamsOk("ListStreams", {{"TableName", "plain"}})["Streams"],
            Json::array());
  EXPECT_EQ(StreamsOk("ListStreams", {{"TableName", "nope"}})["Streams"],
            Json::array());

  Json page = StreamsOk("ListStreams", {{"Limit", 1}});
  ASSERT_EQ(page["Streams"].size(), 1u);
  EXPECT_EQ(page["Streams"][0]["StreamArn"], a);
  EXPECT_EQ(page["LastEvaluatedStreamArn"], a);
  page =
      StreamsOk("ListStreams", {{"Limit", 1}, {"ExclusiveStartStreamArn", a}});
  ASSERT_EQ(page["Streams"].size(), 1u);
  EXPECT_EQ(page["Streams"][0]["StreamArn"], b);
  EXPECT_FALSE(page.contains("LastEvaluatedStreamArn"));
}

TEST_F(StreamsApiTest, ListStreamsValidation) {
  EXPECT_EQ(StreamsFail("ListStreams", {{"Limit", 0}}),
            "ValidationException: 1 validation error detected: Value '0' at "
            "'limit' failed to satisfy constraint: Member must have value "
            "greater than or equal to 1");
  EXPECT_EQ(StreamsFail("ListStreams", {{"Limit", 101}}),
            "ValidationException: 1 validation error detected: Value '101' at "
            "'limit' failed to satisfy constraint: Member must have value "
            "less than or equal to 100");
  EXPECT_EQ(StreamsFail("ListStreams",
                        {{"ExclusiveStartStreamArn",
                          "kossaapaaasdafsdaasdasdasdasasdasfadfadfasd"}}),
            "ValidationException: Invalid StreamArn");
}

TEST_F(StreamsApiTest, DescribeStreamShape) {
  clock_->Advance(milliseconds(291));
  std::string arn =
      CreateStreamTable("desc", "NEW_AND_OLD_IMAGES", "p", "S", "c");
  Json d = StreamsOk("DescribeStream", {{"StreamArn", arn}});
  ASSERT_EQ(d["StreamDescription"]["Shards"].size(), 1u);
  std::string shard = d["StreamDescription"]["Shards"][0]["ShardId"];
  EXPECT_TRUE(std::regex_match(
      shard, std::regex("shardId-00000001704067200291-0000[0-9a-f]{4}")))
      << shard;
  EXPECT_EQ(
      d,
      Json(
          {{"StreamDescription",
            {{"StreamArn", arn},
             {"StreamLabel", "2024-01-01T00:00:00.291"},
             {"StreamStatus", "ENABLED"},
             {"StreamViewType", "NEW_AND_OLD_IMAGES"},
             {"CreationRequestDateTime", 1704067200.291},
             {"TableName", "desc"},
             {"KeySchema",
              {{{"AttributeName", "p"}, {"KeyType", "HASH"}},
               {{"AttributeName", "c"}, {"KeyType", "RANGE"}}}},
             {"Shards",
              {{{"ShardId", shard},
                {"SequenceNumberRange",
                 {{"StartingSequenceNumber", "101704067200291000000"}}}}}}}}}));
}

TEST_F(StreamsApiTest, DescribeStreamErrors) {
  EXPECT_EQ(StreamsFail("DescribeStream", Json::object()),
            "ValidationException: 1 validation error detected: Value null at "
            "'streamArn' failed to satisfy constraint: Member must not be "
            "null");
  EXPECT_EQ(
      StreamsFail("DescribeStream",
                  {{"StreamArn",
                    "sdfadfsdfnlfkajakfgjalksfgklasjklasdjfklasdfasdfgasf"}}),
      "ValidationException: Invalid StreamArn");
  std::string missing =
      std::string(kArnPrefix) + "gone/stream/2024-01-01T00:00:00.000";
  EXPECT_EQ(
      StreamsFail("DescribeStream", {{"StreamArn", missing}}),
      "ResourceNotFoundException: Requested resource not found: Stream: " +
          missing + " not found");
  std::string arn = CreateStreamTable("tbl", "KEYS_ONLY");
  EXPECT_EQ(StreamsFail("DescribeStream", {{"StreamArn", arn}, {"Limit", 101}}),
            "ValidationException: 1 validation error detected: Value '101' at "
            "'limit' failed to satisfy constraint: Member must have value "
            "less than or equal to 100");
  EXPECT_EQ(
      StreamsFail("DescribeStream",
                  {{"StreamArn", arn},
                   {"ShardFilter",
                    {{"Type", "PARENT_SHARDS"},
                     {"ShardId", "shardId-00000001704067200000-00000000"}}}}),
      "ValidationException: 1 validation error detected: Value 'PARENT_SHARDS' "
      "at 'shardFilter.type' failed to satisfy constraint: Member must "
      "satisfy enum value set: [CHILD_SHARDS]");
  EXPECT_EQ(StreamsFail("DescribeStream",
                        {{"StreamArn", arn},
                         {"ShardFilter", {{"Type", "CHILD_SHARDS"}}}}),
            "ValidationException: 1 validation error detected: Value null at "
            "'shardFilter.shardId' failed to satisfy constraint: Member must "
            "not be null");
  EXPECT_EQ(StreamsFail("DescribeStream",
                        {{"StreamArn", arn},
                         {"ShardFilter",
                          {{"Type", "CHILD_SHARDS"}, {"ShardId", "short"}}}}),
            "ValidationException: 1 validation error detected: Value 'short' "
            "at 'shardFilter.shardId' failed to satisfy constraint: Member "
            "must have length greater than or equal to 28");
}

TEST_F(StreamsApiTest, DescribeStreamPaging) {
  Options o;
  o.stream_shards = 5;
  Open(o);
  std::string arn = CreateStreamTable("paged", "KEYS_ONLY");
  std::vector<Json> all = Shards(arn, 100);
  ASSERT_EQ(all.size(), 5u);
  for (size_t i = 1; i < all.size(); ++i) {
    EXPECT_LT(all[i - 1]["ShardId"].get<std::string>(),
              all[i]["ShardId"].get<std::string>());
  }
  Json p1 = StreamsOk("DescribeStream", {{"StreamArn", arn}, {"Limit", 2}});
  ASSERT_EQ(p1["StreamDescription"]["Shards"].size(), 2u);
  EXPECT_EQ(p1["StreamDescription"]["LastEvaluatedShardId"], all[1]["ShardId"]);
  Json p3 = StreamsOk("DescribeStream",
                      {{"StreamArn", arn},
                       {"Limit", 2},
                       {"ExclusiveStartShardId", all[3]["ShardId"]}});
  ASSERT_EQ(p3["StreamDescription"]["Shards"].size(), 1u);
  EXPECT_EQ(p3["StreamDescription"]["Shards"][0], all[4]);
  EXPECT_FALSE(p3["StreamDescription"].contains("LastEvaluatedShardId"));
  EXPECT_EQ(Shards(arn, 2), all);
  // The last shard, or an unknown one, as the start: an empty page.
  for (const std::string& start :
       {all[4]["ShardId"].get<std::string>(),
        std::string("shardId-00000000000000000000-00000000"),
        std::string("zzzzzzzzzzzzzzzzzzzzzzzzsfasdgagadfadfgagkjsd")}) {
    Json d = StreamsOk("DescribeStream",
                       {{"StreamArn", arn}, {"ExclusiveStartShardId", start}});
    EXPECT_EQ(d["StreamDescription"]["Shards"], Json::array()) << start;
    EXPECT_FALSE(d["StreamDescription"].contains("LastEvaluatedShardId"));
  }
}

TEST_F(StreamsApiTest, GetShardIteratorErrors) {
  std::string arn = CreateStreamTable("iter", "KEYS_ONLY");
  std::vector<Json> shards = Shards(arn);
  std::string shard = shards[0]["ShardId"];
  std::string start =
      shards[0]["SequenceNumberRange"]["StartingSequenceNumber"];
  auto fail = [&](Json extra) {
    Json req{{"StreamArn", arn}, {"ShardId", shard}};
    req.update(extra);
    return StreamsFail("GetShardIterator", req);
  };
  EXPECT_EQ(fail({{"ShardIteratorType", "AT_SEQUENCE_NUMBER"}}),
            "ValidationException: Must either specify (1) AT_SEQUENCE_NUMBER "
            "or AFTER_SEQUENCE_NUMBER and SequenceNumber or (2) TRIM_HORIZON "
            "or LATEST and no SequenceNumber. Request specified "
            "AT_SEQUENCE_NUMBER and no SequenceNumber.");
  EXPECT_EQ(
      fail({{"ShardIteratorType", "TRIM_HORIZON"}, {"SequenceNumber", start}}),
      "ValidationException: Must either specify (1) AT_SEQUENCE_NUMBER "
      "or AFTER_SEQUENCE_NUMBER and SequenceNumber or (2) TRIM_HORIZON "
      "or LATEST and no SequenceNumber. Request specified TRIM_HORIZON "
      "and SequenceNumber.");
  EXPECT_EQ(fail({{"ShardIteratorType", "bulle"}}),
            "ValidationException: 1 validation error detected: Value 'bulle' "
            "at 'shardIteratorType' failed to satisfy constraint: Member must "
            "satisfy enum value set: [TRIM_HORIZON, LATEST, "
            "AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]");
  EXPECT_EQ(fail({{"ShardIteratorType", "AT_SEQUENCE_NUMBER"},
                  {"SequenceNumber", "12345678901234567890x"}}),
            "ValidationException: Invalid SequenceNumber: "
            "12345678901234567890x");
  EXPECT_EQ(fail({{"ShardIteratorType", "LATEST"},
                  {"SequenceNumber",
                   "sdfsafglldfngjdafnasdflgnaldklkafdsgklnasdlv"}}),
            "ValidationException: 1 validation error detected: Value "
            "'sdfsafglldfngjdafnasdflgnaldklkafdsgklnasdlv' at "
            "'sequenceNumber' failed to satisfy constraint: Member must have "
            "length less than or equal to 40");
  // Below the shard's start, or never issued.
  for (const char* seq : {"100000000000000000000", "000000000000000000001",
                          "100000000000000000099", "900000000000000000000"}) {
    EXPECT_EQ(fail({{"ShardIteratorType", "AFTER_SEQUENCE_NUMBER"},
                    {"SequenceNumber", seq}}),
              "ValidationException: Invalid SequenceNumber " +
                  std::string(seq) + " for shard " + shard);
  }
  EXPECT_EQ(
      StreamsFail("GetShardIterator",
                  {{"StreamArn", arn},
                   {"ShardId", "semprinidfaasdasfsdvacsdcfsdsvsdvsdvsdvsd"},
                   {"ShardIteratorType", "LATEST"}}),
      "ResourceNotFoundException: Requested resource not found: Shard "
      "does not exist");
  EXPECT_EQ(
      StreamsFail("GetShardIterator",
                  {{"StreamArn", "sdfadfsddafgdafsgjnadflkgnalngalsdfnlkasnlk"},
                   {"ShardId", shard},
                   {"ShardIteratorType", "LATEST"}}),
      "ValidationException: Invalid StreamArn");
  EXPECT_EQ(StreamsFail("GetShardIterator", {{"ShardIteratorType", "LATEST"}}),
            "ValidationException: 2 validation errors detected: Value null at "
            "'streamArn' failed to satisfy constraint: Member must not be "
            "null; Value null at 'shardId' failed to satisfy constraint: "
            "Member must not be null");
  // The starting sequence number itself is a valid position.
  EXPECT_FALSE(Iterator(arn, shard, "AT_SEQUENCE_NUMBER", start).empty());
  EXPECT_FALSE(Iterator(arn, shard, "AFTER_SEQUENCE_NUMBER", start).empty());
}

TEST_F(StreamsApiTest, IteratorPositions) {
  std::string arn = CreateStreamTable("pos", "KEYS_ONLY");
  std::string shard = Shards(arn)[0]["ShardId"];
  Put("pos", {{"pk", S("a")}});
  Put("pos", {{"pk", S("b")}});
  std::string latest = Iterator(arn, shard, "LATEST");
  Put("pos", {{"pk", S("c")}});
  auto keys = [](const Json& r) {
    std::vector<std::string> out;
    for (const Json& rec : r["Records"]) {
      out.push_back(rec["dynamodb"]["Keys"]["pk"]["S"]);
    }
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(keys(Records(latest)), V({"c"}));
  EXPECT_EQ(keys(Records(Iterator(arn, shard))), V({"a", "b", "c"}));
  Json all = Records(Iterator(arn, shard));
  std::string seq_b = all["Records"][1]["dynamodb"]["SequenceNumber"];
  EXPECT_EQ(keys(Records(Iterator(arn, shard, "AT_SEQUENCE_NUMBER", seq_b))),
            V({"b", "c"}));
  EXPECT_EQ(keys(Records(Iterator(arn, shard, "AFTER_SEQUENCE_NUMBER", seq_b))),
            V({"c"}));

  // Limit pages; an open shard always hands out a NextShardIterator, and a
  // record is never repeated through it.
  Json p = Records(Iterator(arn, shard), 2);
  EXPECT_EQ(keys(p), V({"a", "b"}));
  p = Records(p["NextShardIterator"], 2);
  EXPECT_EQ(keys(p), V({"c"}));
  p = Records(p["NextShardIterator"], 2);
  EXPECT_EQ(keys(p), V());
  ASSERT_TRUE(p.contains("NextShardIterator"));
  Put("pos", {{"pk", S("d")}});
  EXPECT_EQ(keys(Records(p["NextShardIterator"])), V({"d"}));
}

TEST_F(StreamsApiTest, GetRecordsValidation) {
  std::string arn = CreateStreamTable("grec", "KEYS_ONLY");
  std::string it = Iterator(arn, Shards(arn)[0]["ShardId"], "LATEST");
  EXPECT_TRUE(Records(it, 1000)["Records"].empty());
  EXPECT_EQ(StreamsFail("GetRecords", {{"ShardIterator", it}, {"Limit", 1001}}),
            "ValidationException: 1 validation error detected: Value '1001' at "
            "'limit' failed to satisfy constraint: Member must have value "
            "less than or equal to 1000");
  EXPECT_EQ(StreamsFail("GetRecords", {{"ShardIterator", it}, {"Limit", 0}}),
            "ValidationException: 1 validation error detected: Value '0' at "
            "'limit' failed to satisfy constraint: Member must have value "
            "greater than or equal to 1");
  EXPECT_EQ(
      StreamsFail("GetRecords",
                  {{"ShardIterator",
                    "sdfsdfsgagaddafgagasgasgasdfasdfasdfasdfasdgasdasdg"}}),
      "ValidationException: Invalid ShardIterator");
  // An edited iterator is refused too.
  std::string edited = it;
  edited[edited.size() - 3] = edited[edited.size() - 3] == 'A' ? 'B' : 'A';
  EXPECT_EQ(StreamsFail("GetRecords", {{"ShardIterator", edited}}),
            "ValidationException: Invalid ShardIterator");
  EXPECT_EQ(StreamsFail("GetRecords", Json::object()),
            "ValidationException: 1 validation error detected: Value null at "
            "'shardIterator' failed to satisfy constraint: Member must not be "
            "null");
}

TEST_F(StreamsApiTest, GetRecordsStopsAtOneMegabyte) {
  std::string arn = CreateStreamTable("big", "NEW_AND_OLD_IMAGES");
  std::string blob(300000, 'x');
  for (int i = 0; i < 5; ++i) {
    Put("big", {{"pk", S("k" + std::to_string(i))}, {"v", S(blob)}});
  }
  Json r = Records(Iterator(arn, Shards(arn)[0]["ShardId"]));
  EXPECT_EQ(r["Records"].size(), 3u);  // 3 x ~300 KB; a 4th exceeds 1 MB
  r = Records(r["NextShardIterator"]);
  EXPECT_EQ(r["Records"].size(), 2u);
}

TEST_F(StreamsApiTest, IteratorsExpireAfterFifteenMinutes) {
  std::string arn = CreateStreamTable("exp", "KEYS_ONLY");
  std::string it = Iterator(arn, Shards(arn)[0]["ShardId"]);
  clock_->Advance(minutes(15));
  Json r = Records(it);  // exactly 15 minutes: still valid
  std::string next = r["NextShardIterator"];
  clock_->Advance(milliseconds(1));
  EXPECT_EQ(StreamsFail("GetRecords", {{"ShardIterator", it}}),
            "ExpiredIteratorException: The provided iterator exceeds the "
            "maximum age allowed.");
  EXPECT_TRUE(Records(next)["Records"].empty());  // issued 1 ms ago
}

TEST_F(StreamsApiTest, RecordsAreTrimmedAfterTwentyFourHours) {
  Options o;
  o.shard_rollover = Duration::zero();  // one shard throughout
  Open(o);
  std::string arn = CreateStreamTable("trim", "KEYS_ONLY");
  std::string shard = Shards(arn)[0]["ShardId"];
  Put("trim", {{"pk", S("old")}});
  std::string old_seq =
      Records(Iterator(arn, shard))["Records"][0]["dynamodb"]["SequenceNumber"];
  clock_->Advance(hours(23) + minutes(50));
  Put("trim", {{"pk", S("new")}});
  std::string horizon = Iterator(arn, shard);  // still sees "old"
  clock_->Advance(minutes(10));                // "old" is 24 h old now
  EXPECT_EQ(StreamsFail("GetRecords", {{"ShardIterator", horizon}}),
            "TrimmedDataAccessException: The data you are trying to access "
            "has been trimmed.");
  EXPECT_EQ(StreamsFail("GetShardIterator",
                        {{"StreamArn", arn},
                         {"ShardId", shard},
                         {"ShardIteratorType", "AT_SEQUENCE_NUMBER"},
                         {"SequenceNumber", old_seq}}),
            "TrimmedDataAccessException: The data you are trying to access "
            "has been trimmed.");
  // AFTER the trimmed record is fine: nothing after it was trimmed.
  Json after = Records(Iterator(arn, shard, "AFTER_SEQUENCE_NUMBER", old_seq));
  ASSERT_EQ(after["Records"].size(), 1u);
  EXPECT_EQ(after["Records"][0]["dynamodb"]["Keys"]["pk"]["S"], "new");
  Json fresh = Records(Iterator(arn, shard));
  ASSERT_EQ(fresh["Records"].size(), 1u);
  EXPECT_EQ(fresh["Records"][0]["dynamodb"]["Keys"]["pk"]["S"], "new");
  clock_->Advance(hours(24));
  EXPECT_TRUE(Records(Iterator(arn, shard))["Records"].empty());
}

TEST_F(StreamsApiTest, DisabledStreamStaysReadableForTwentyFourHours) {
  std::string arn = CreateStreamTable("dis", "KEYS_ONLY");
  std::string shard = Shards(arn)[0]["ShardId"];
  std::string latest = Iterator(arn, shard, "LATEST");
  Put("dis", {{"pk", S("a")}});
  Put("dis", {{"pk", S("b")}});
  clock_->Advance(minutes(1));
  Ok("UpdateTable", {{"TableName", "dis"},
                     {"StreamSpecification", {{"StreamEnabled", false}}}});
  Json table = Describe("dis");
  EXPECT_FALSE(table.contains("StreamSpecification"));
  EXPECT_EQ(table["LatestStreamArn"], arn);

  Json d =
      StreamsOk("DescribeStream", {{"StreamArn", arn}})["StreamDescription"];
  EXPECT_EQ(d["StreamStatus"], "DISABLED");
  EXPECT_EQ(d["StreamViewType"], "KEYS_ONLY");
  ASSERT_EQ(d["Shards"].size(), 1u);
  EXPECT_EQ(d["Shards"][0]["SequenceNumberRange"],
            Json({{"StartingSequenceNumber", "101704067200000000000"},
                  {"EndingSequenceNumber", "101704067200000000002"}}));
  EXPECT_EQ(StreamsOk("ListStreams", {{"TableName", "dis"}})["Streams"].size(),
            1u);
  // The old LATEST iterator reads both records; the shard is closed and
  // fully read, so there is no NextShardIterator (as DynamoDB does).
  Json r = Records(latest);
  ASSERT_EQ(r["Records"].size(), 2u);
  EXPECT_FALSE(r.contains("NextShardIterator"));
  // Limit 1: the first record and a NextShardIterator, then the last one
  // and none.
  r = Records(
      Iterator(arn, shard, "AT_SEQUENCE_NUMBER", "101704067200000000001"), 1);
  ASSERT_EQ(r["Records"].size(), 1u);
  ASSERT_TRUE(r.contains("NextShardIterator"));
  r = Records(r["NextShardIterator"], 1);
  ASSERT_EQ(r["Records"].size(), 1u);
  EXPECT_FALSE(r.contains("NextShardIterator"));
  r = Records(Iterator(arn, shard));
  EXPECT_EQ(r["Records"].size(), 2u);
  EXPECT_FALSE(r.contains("NextShardIterator"));
  r = Records(Iterator(arn, shard, "LATEST"));
  EXPECT_TRUE(r["Records"].empty());
  EXPECT_FALSE(r.contains("NextShardIterator"));
  // Writes after disabling produce nothing.
  Put("dis", {{"pk", S("c")}});
  EXPECT_EQ(ReadAll(arn).size(), 2u);

  clock_->Advance(hours(24) - milliseconds(1));
  EXPECT_EQ(StreamsOk("ListStreams", {{"TableName", "dis"}})["Streams"].size(),
            1u);
  clock_->Advance(milliseconds(1));
  EXPECT_EQ(StreamsOk("ListStreams", {{"TableName", "dis"}})["Streams"],
            Json::array());
  EXPECT_EQ(
      StreamsFail("DescribeStream", {{"StreamArn", arn}}),
      "ResourceNotFoundException: Requested resource not found: Stream: " +
          arn + " not found");
}

TEST_F(StreamsApiTest, ReEnablingCreatesANewStream) {
  std::string first = CreateStreamTable("reen", "KEYS_ONLY");
  Put("reen", {{"pk", S("a")}});
  Ok("UpdateTable", {{"TableName", "reen"},
                     {"StreamSpecification", {{"StreamEnabled", false}}}});
  // Same millisecond: the new stream still gets its own label.
  Json out = Ok("UpdateTable",
                {{"TableName", "reen"},
                 {"StreamSpecification",
                  {{"StreamEnabled", true}, {"StreamViewType", "NEW_IMAGE"}}}});
  std::string second = out["TableDescription"]["LatestStreamArn"];
  EXPECT_EQ(second,
            std::string(kArnPrefix) + "reen/stream/2024-01-01T00:00:00.001");
  Put("reen", {{"pk", S("b")}});
  Json listed = StreamsOk("ListStreams", {{"TableName", "reen"}});
  ASSERT_EQ(listed["Streams"].size(), 2u);
  EXPECT_EQ(listed["Streams"][0]["StreamArn"], first);
  EXPECT_EQ(listed["Streams"][1]["StreamArn"], second);
  EXPECT_EQ(
      StreamsOk("DescribeStream",
                {{"StreamArn", first}})["StreamDescription"]["StreamStatus"],
      "DISABLED");
  Json d =
      StreamsOk("DescribeStream", {{"StreamArn", second}})["StreamDescription"];
  EXPECT_EQ(d["StreamStatus"], "ENABLED");
  EXPECT_EQ(d["StreamViewType"], "NEW_IMAGE");
  std::vector<Json> old_records = ReadAll(first);
  std::vector<Json> new_records = ReadAll(second);
  ASSERT_EQ(old_records.size(), 1u);
  ASSERT_EQ(new_records.size(), 1u);
  EXPECT_EQ(new_records[0]["dynamodb"]["NewImage"], Json({{"pk", S("b")}}));
  // Enabling again while enabled is refused (the DynamoDB API reference).
  EXPECT_EQ(
      FailText("UpdateTable",
               {{"TableName", "reen"},
                {"StreamSpecification",
                 {{"StreamEnabled", true}, {"StreamViewType", "KEYS_ONLY"}}}}),
      "ValidationException: Table already has an enabled stream: "
      "TableName: reen");
}

TEST_F(StreamsApiTest, DeletedTableLeavesItsStreamReadable) {
  std::string arn = CreateStreamTable("del", "KEYS_ONLY");
  Put("del", {{"pk", S("a")}});
  Ok("DeleteTable", {{"TableName", "del"}});
  Json d =
      StreamsOk("DescribeStream", {{"StreamArn", arn}})["StreamDescription"];
  EXPECT_EQ(d["StreamStatus"], "DISABLED");
  EXPECT_EQ(d["TableName"], "del");
  EXPECT_TRUE(
      d["Shards"][0]["SequenceNumberRange"].contains("EndingSequenceNumber"));
  EXPECT_EQ(ReadAll(arn).size(), 1u);
  // A new table of the same name gets a new stream.
  clock_->Advance(milliseconds(5));
  std::string again = CreateStreamTable("del", "KEYS_ONLY");
  EXPECT_NE(again, arn);
  EXPECT_EQ(StreamsOk("ListStreams", {{"TableName", "del"}})["Streams"].size(),
            2u);
}

}  // namespace
}  // namespace ddblab::engine::testing
