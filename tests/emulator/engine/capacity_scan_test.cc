// Scan under capacity enforcement: every partition a Scan page reads is
// charged its own bytes against its per-partition read limit (3,000 units a
// second), as a Query is for its one partition; the table is charged the
// page total once.
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/capacity_test_util.h"

namespace ddblab::engine::testing {
namespace {

class CapacityScanTest : public CapacityTest {
 protected:
  // Tbl with hash pk and range sk (S), on-demand.
  void CreateRanged() {
    Ok("CreateTable",
       {{"TableName", "Tbl"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}},
                      {{"AttributeName", "sk"}, {"AttributeType", "S"}}})},
        {"KeySchema",
         Json::array({{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
                      {{"AttributeName", "sk"}, {"KeyType", "RANGE"}}})}});
  }
  // `count` items of exactly 4 KB (one read unit each) under partition `pk`.
  void Fill(const std::string& pk, int count) {
    // "pk" + pk, "sk" + 4 digits, "p" + payload.
    const size_t payload = 4096 - (2 + pk.size()) - (2 + 4) - 1;
    for (int i = 0; i < count; ++i) {
      Json item{{"pk", S(pk)},
                {"sk", S(std::to_string(1000 + i))},
                {"p", S(std::string(payload, 'x'))}};
      Ok("PutItem", {{"TableName", "Tbl"}, {"Item", item}});
    }
  }
  Json HotQuery() {
    return {{"TableName", "Tbl"},
            {"KeyConditionExpression", "pk = :p"},
            {"ExpressionAttributeValues", {{":p", S("hot")}}},
            {"ConsistentRead", true}};
  }
};

TEST_F(CapacityScanTest, ScanReadsCountAgainstEachPartitionsLimit) {
  CreateRanged();
  Fill("hot", 200);  // 200 strongly consistent units per full read
  Fill("cold", 10);
  clock_->Advance(seconds(1));
  // 15 Queries of the hot partition: 3,000 units, its whole second.
  for (int i = 0; i < 15; ++i) {
    ASSERT_TRUE(emu_->Call("Query", HotQuery()).ok()) << i;
  }
  // A Scan reading the hot partition is throttled on it now.
  Result<Json> r =
      emu_->Call("Scan", {{"TableName", "Tbl"}, {"ConsistentRead", true}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ThrottlingException");
  EXPECT_EQ(r.error().message, kOnDemandText);
  EXPECT_EQ(r.error().extra,
            Reasons("throttlingReasons", "TableReadKeyRangeThroughputExceeded",
                    kArn));
  // The table itself is far from its 12,000 units: the cold partition reads.
  Json cold = HotQuery();
  cold["ExpressionAttributeValues"][":p"] = S("cold");
  EXPECT_TRUE(emu_->Call("Query", cold).ok());
  EXPECT_EQ(emu_->CapacityReport()["Tables"][0]["ThrottledRequests"],
            Json({{"TableReadKeyRangeThroughputExceeded", 1}}));
  clock_->Advance(seconds(1));
  EXPECT_TRUE(
      emu_->Call("Scan", {{"TableName", "Tbl"}, {"ConsistentRead", true}})
          .ok());
}

TEST_F(CapacityScanTest, ScansAloneReachThePartitionLimit) {
  CreateRanged();
  Fill("hot", 200);
  clock_->Advance(seconds(1));
  // Each full Scan reads the hot partition's 200 units (strongly
  // consistent): 15 fit in one second, the 16th does not.
  Json scan{{"TableName", "Tbl"}, {"ConsistentRead", true}};
  for (int i = 0; i < 15; ++i) {
    Result<Json> r = emu_->Call("Scan", scan);
    ASSERT_TRUE(r.ok()) << i << ": " << ToString(r.error());
  }
  Result<Json> r = emu_->Call("Scan", scan);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().extra,
            Reasons("throttlingReasons", "TableReadKeyRangeThroughputExceeded",
                    kArn));
  // Eventually consistent Scans cost half: in the next second 30 fit.
  clock_->Advance(seconds(1));
  Json eventual{{"TableName", "Tbl"}};
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(emu_->Call("Scan", eventual).ok()) << i;
  }
  EXPECT_FALSE(emu_->Call("Scan", eventual).ok());
}

}  // namespace
}  // namespace ddblab::engine::testing
