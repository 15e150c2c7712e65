// PartiQL under capacity enforcement: a throttled statement of a
// BatchExecuteStatement gets its own per-statement error (ThrottlingError on
// on-demand tables, ProvisionedThroughputExceeded on provisioned ones) and
// the other statements go on; ExecuteStatement is throttled like the
// operation it runs; a failed PartiQL condition still consumes its units.
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/capacity_test_util.h"

namespace ddblab::engine::testing {
namespace {

Json Statement(const std::string& text) { return {{"Statement", text}}; }

class CapacityPartiqlTest : public CapacityTest {
 protected:
  Json Batch() {
    return {
        {"Statements",
         Json::array({Statement("UPDATE \"Tbl\" SET p = 'a' WHERE pk = 'hot'"),
                      Statement("UPDATE \"Tbl\" SET p = 'b' WHERE pk = 'hot'"),
                      Statement("UPDATE \"Tbl\" SET p = 'c' WHERE pk = 'hot'"),
                      Statement("INSERT INTO \"Tbl\" VALUE {'pk': 'cold'}")})}};
  }
};

TEST_F(CapacityPartiqlTest, ThrottledStatementGetsItsOwnErrorOthersGoOn) {
  Create(0, 0);
  // 998 of the hot key's 1,000 units in this second.
  for (int i = 0; i < 998; ++i) ASSERT_TRUE(Put("hot").ok()) << i;
  Json out = Ok("BatchExecuteStatement", Batch());
  EXPECT_EQ(
      out["Responses"],
      Json::array({{{"TableName", "Tbl"}},
                   {{"TableName", "Tbl"}},
                   {{"Error",
                     {{"Code", "ThrottlingError"}, {"Message", kOnDemandText}}},
                    {"TableName", "Tbl"}},
                   {{"TableName", "Tbl"}}}));
  EXPECT_TRUE(Exists("cold"));
  const Json hot =
      Ok("GetItem", {{"TableName", "Tbl"}, {"Key", {{"pk", S("hot")}}}});
  EXPECT_EQ(hot["Item"]["p"], S("b"));  // the third update was not applied
  EXPECT_EQ(emu_->CapacityReport()["Tables"][0]["ThrottledRequests"],
            Json({{"TableWriteKeyRangeThroughputExceeded", 1}}));
}

TEST_F(CapacityPartiqlTest, ProvisionedTableStatementErrorIsPtee) {
  Create(10000, 5);
  Spend(1498);                   // 2 units left
  ASSERT_TRUE(Put("hot").ok());  // 1 left
  Json out = Ok("BatchExecuteStatement", Batch());
  EXPECT_EQ(out["Responses"][0], Json({{"TableName", "Tbl"}}));
  for (int i = 1; i < 4; ++i) {
    EXPECT_EQ(out["Responses"][i],
              Json({{"Error",
                     {{"Code", "ProvisionedThroughputExceeded"},
                      {"Message", kTableText}}},
                    {"TableName", "Tbl"}}))
        << i;
  }
  EXPECT_FALSE(Exists("cold"));
}

TEST_F(CapacityPartiqlTest, ExecuteStatementIsThrottledAndFailedGuardsCharged) {
  Create(10000, 5);
  Spend(1498);
  ASSERT_TRUE(Put("hot").ok());  // 1 unit left
  // An INSERT of an existing key fails its guard and still takes the unit.
  Result<Json> r = emu_->Call(
      "ExecuteStatement",
      Statement("INSERT INTO \"Tbl\" VALUE {'pk': 'hot', 'p': 'z'}"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "DuplicateItemException");
  r = emu_->Call("ExecuteStatement",
                 Statement("UPDATE \"Tbl\" SET p = 'q' WHERE pk = 'hot'"));
  ExpectTableThrottle(r);
}

}  // namespace
}  // namespace ddblab::engine::testing
