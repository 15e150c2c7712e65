// The eventual-consistency model through the Emulator (engine/consistency/):
// lagging GSIs, stale eventually consistent reads, conditions on the current
// state, TTL deletions, faults, settling, seeded ranges. ManualClock only.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class ConsistencyTest : public EngineTest {
 protected:
  void OpenWith(const std::string& index_lag, const std::string& read_lag) {
    Options options;
    options.consistency.index_lag = *ParseLagRange(index_lag);
    options.consistency.read_lag = *ParseLagRange(read_lag);
    Open(std::move(options));
    // orders: pk; GSI byWindow on w (projection ALL).
    Json req{
        {"TableName", "orders"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         Json::array({Json{{"AttributeName", "pk"}, {"AttributeType", "S"}},
                      Json{{"AttributeName", "w"}, {"AttributeType", "S"}}})},
        {"KeySchema",
         Json::array({Json{{"AttributeName", "pk"}, {"KeyType", "HASH"}}})},
        {"GlobalSecondaryIndexes",
         Json::array({Json{
             {"IndexName", "byWindow"},
             {"KeySchema",
              Json::array({Json{{"AttributeName", "w"}, {"KeyType", "HASH"}}})},
             {"Projection", {{"ProjectionType", "ALL"}}}}})}};
    Ok("CreateTable", req);
  }

  void Put(const std::string& pk, const std::string& w, const std::string& v) {
    Ok("PutItem",
       {{"TableName", "orders"},
        {"Item", {{"pk", {{"S", pk}}}, {"w", {{"S", w}}}, {"v", {{"S", v}}}}}});
  }

  // "pk=v" of every item a GSI Query for w returns, in order.
  std::vector<std::string> Window(const std::string& w) {
    Json out =
        Ok("Query", {{"TableName", "orders"},
                     {"IndexName", "byWindow"},
                     {"KeyConditionExpression", "w = :w"},
                     {"ExpressionAttributeValues", {{":w", {{"S", w}}}}}});
    return Rows(out);
  }

  std::vector<std::string> ScanAll(bool consistent) {
    Json out =
        Ok("Scan", {{"TableName", "orders"}, {"ConsistentRead", consistent}});
    std::vector<std::string> rows = Rows(out);
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  static std::vector<std::string> Rows(const Json& out) {
    std::vector<std::string> rows;
    for (const Json& item : out["Items"]) {
      rows.push_back(item["pk"]["S"].get<std::string>() + "=" +
                     item["v"]["S"].get<std::string>());
    }
    return rows;
  }

  // v of the item, or "-" when GetItem finds none.
  std::string Get(const std::string& pk, bool consistent) {
    Json out = Ok("GetItem", {{"TableName", "orders"},
                              {"Key", {{"pk", {{"S", pk}}}}},
                              {"ConsistentRead", consistent}});
    if (!out.contains("Item")) return "-";
    return out["Item"]["v"]["S"].get<std::string>();
  }

  void Advance(Duration d) { clock_->Advance(d); }

  using Rowset = std::vector<std::string>;
};

TEST_F(ConsistencyTest, AGsiQueryMissesANewItemUntilTheLagPasses) {
  OpenWith("2s", "0");
  Put("a", "w1", "1");
  EXPECT_EQ(Window("w1"), Rowset{});
  Advance(milliseconds(1999));
  EXPECT_EQ(Window("w1"), Rowset{});
  Advance(milliseconds(1));
  EXPECT_EQ(Window("w1"), Rowset{"a=1"});
  // The table itself is current.
  EXPECT_EQ(Get("a", false), "1");
}

TEST_F(ConsistencyTest, ADeletedItemIsStillReturnedByTheIndex) {
  OpenWith("2s", "0");
  Put("a", "w1", "1");
  Advance(seconds(2));
  Ok("DeleteItem", {{"TableName", "orders"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  EXPECT_EQ(Get("a", true), "-");
  EXPECT_EQ(Window("w1"), Rowset{"a=1"});
  Advance(seconds(2));
  EXPECT_EQ(Window("w1"), Rowset{});
}

TEST_F(ConsistencyTest, AMovedItemIsSeenUnderItsOldKeyWithOldAttributes) {
  OpenWith("2s", "0");
  Put("a", "w1", "1");
  Advance(seconds(2));
  Put("a", "w2", "2");  // moves a from w1 to w2, v 1 -> 2
  EXPECT_EQ(Window("w1"), Rowset{"a=1"});
  EXPECT_EQ(Window("w2"), Rowset{});
  Advance(seconds(2));
  EXPECT_EQ(Window("w1"), Rowset{});
  EXPECT_EQ(Window("w2"), Rowset{"a=2"});
}

TEST_F(ConsistencyTest, StaleProjectedAttributesUntilTheChangeArrives) {
  OpenWith("2s", "0");
  Put("a", "w1", "1");
  Advance(seconds(2));
  Ok("UpdateItem", {{"TableName", "orders"},
                    {"Key", {{"pk", {{"S", "a"}}}}},
                    {"UpdateExpression", "SET v = :v"},
                    {"ExpressionAttributeValues", {{":v", {{"S", "2"}}}}}});
  EXPECT_EQ(Window("w1"), Rowset{"a=1"});
  Advance(seconds(2));
  EXPECT_EQ(Window("w1"), Rowset{"a=2"});
}

TEST_F(ConsistencyTest, ChangesToOneIndexArriveInWriteOrder) {
  OpenWith("0..3s", "0");
  // Whatever lags are drawn, a later write is never seen before an
  // earlier one: once b is visible, a is too.
  Put("a", "w1", "1");
  Advance(milliseconds(10));
  Put("b", "w1", "1");
  for (int step = 0; step < 40; ++step) {
    Rowset seen = Window("w1");
    if (seen.size() == 1) {
      EXPECT_EQ(seen, Rowset{"a=1"});
    }
    Advance(milliseconds(100));
  }
  EXPECT_EQ(Window("w1"), (Rowset{"a=1", "b=1"}));
}

TEST_F(ConsistencyTest, AWriteWithoutLagWaitsBehindAnEarlierLaggingOne) {
  OpenWith("0", "0");
  // Only a's write lags (3 s); b's, made a second later, has none of its
  // own but must not reach the index before a's.
  ASSERT_TRUE(
      emu_->SetFaultPlan(
              {{"rules", Json::array({Json{{"table", "orders"},
                                           {"index", "byWindow"},
                                           {"key", {{"pk", {{"S", "a"}}}}},
                                           {"effect", "index_lag"},
                                           {"duration", "3s"}}})}})
          .ok());
  Put("a", "w1", "1");
  Advance(seconds(1));
  Put("b", "w1", "1");
  EXPECT_EQ(Window("w1"), Rowset{});
  Advance(milliseconds(1999));
  EXPECT_EQ(Window("w1"), Rowset{});
  Advance(milliseconds(1));
  EXPECT_EQ(Window("w1"), (Rowset{"a=1", "b=1"}));
}

TEST_F(ConsistencyTest, TheSameSeedDrawsTheSameLags) {
  auto trace = [&] {
    OpenWith("0..2s", "0");
    std::vector<size_t> seen;
    for (int i = 0; i < 5; ++i) Put("k" + std::to_string(i), "w1", "1");
    for (int step = 0; step < 21; ++step) {
      seen.push_back(Window("w1").size());
      Advance(milliseconds(100));
    }
    return seen;
  };
  std::vector<size_t> first = trace();
  clock_ = nullptr;  // a fresh clock at the same start
  std::vector<size_t> second = trace();
  EXPECT_EQ(first, second);
  EXPECT_EQ(first.back(), 5u);
  EXPECT_LT(first.front(), 5u);
}

TEST_F(ConsistencyTest, AnEventuallyConsistentGetItemSeesThePreviousVersion) {
  OpenWith("0", "1s");
  Put("a", "w1", "1");
  Advance(seconds(5));
  Put("a", "w1", "2");
  EXPECT_EQ(Get("a", false), "1");
  EXPECT_EQ(Get("a", true), "2");
  Advance(seconds(1));
  EXPECT_EQ(Get("a", false), "2");
  // An item written within the lag is not there yet for a stale read.
  Put("b", "w1", "1");
  EXPECT_EQ(Get("b", false), "-");
  EXPECT_EQ(Get("b", true), "1");
}

TEST_F(ConsistencyTest, StaleScansAndBatchGetsSeeTheOldTable) {
  OpenWith("0", "1s");
  Put("a", "w1", "1");
  Put("b", "w1", "1");
  Advance(seconds(5));
  Ok("DeleteItem", {{"TableName", "orders"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  Put("b", "w1", "2");
  Put("c", "w1", "1");
  EXPECT_EQ(ScanAll(false), (Rowset{"a=1", "b=1"}));
  EXPECT_EQ(ScanAll(true), (Rowset{"b=2", "c=1"}));
  Json batch =
      Ok("BatchGetItem",
         {{"RequestItems",
           {{"orders",
             {{"Keys", Json::array({Json{{"pk", {{"S", "a"}}}},
                                    Json{{"pk", {{"S", "c"}}}}})}}}}}});
  ASSERT_EQ(batch["Responses"]["orders"].size(), 1u) << batch.dump();
  EXPECT_EQ(batch["Responses"]["orders"][0]["pk"]["S"], "a");
  Advance(seconds(1));
  EXPECT_EQ(ScanAll(false), (Rowset{"b=2", "c=1"}));
}

TEST_F(ConsistencyTest, AnLsiReadFollowsTheTablesReadLag) {
  Options options;
  options.consistency.read_lag = *ParseLagRange("1s");
  Open(std::move(options));
  auto attr = [](const char* name) {
    return Json{{"AttributeName", name}, {"AttributeType", "S"}};
  };
  auto key = [](const char* name, const char* type) {
    return Json{{"AttributeName", name}, {"KeyType", type}};
  };
  Ok("CreateTable",
     {{"TableName", "events"},
      {"BillingMode", "PAY_PER_REQUEST"},
      {"AttributeDefinitions",
       Json::array({attr("pk"), attr("sk"), attr("at")})},
      {"KeySchema", Json::array({key("pk", "HASH"), key("sk", "RANGE")})},
      {"LocalSecondaryIndexes",
       Json::array({Json{
           {"IndexName", "byAt"},
           {"KeySchema", Json::array({key("pk", "HASH"), key("at", "RANGE")})},
           {"Projection", {{"ProjectionType", "ALL"}}}}})}});
  auto put = [&](const char* sk, const char* at) {
    Ok("PutItem",
       {{"TableName", "events"},
        {"Item",
         {{"pk", {{"S", "p"}}}, {"sk", {{"S", sk}}}, {"at", {{"S", at}}}}}});
  };
  auto query = [&](bool consistent) {
    Json out =
        Ok("Query", {{"TableName", "events"},
                     {"IndexName", "byAt"},
                     {"KeyConditionExpression", "pk = :p"},
                     {"ExpressionAttributeValues", {{":p", {{"S", "p"}}}}},
                     {"ConsistentRead", consistent}});
    Rowset rows;
    for (const Json& item : out["Items"]) {
      rows.push_back(item["sk"]["S"].get<std::string>() + "@" +
                     item["at"]["S"].get<std::string>());
    }
    return rows;
  };
  put("e1", "t5");
  Advance(seconds(5));
  put("e1", "t1");  // moves e1 to the front of the LSI
  put("e2", "t3");
  EXPECT_EQ(query(false), Rowset{"e1@t5"});
  EXPECT_EQ(query(true), (Rowset{"e1@t1", "e2@t3"}));
  Advance(seconds(1));
  EXPECT_EQ(query(false), (Rowset{"e1@t1", "e2@t3"}));
}

TEST_F(ConsistencyTest, PartiqlSelectsReadLikeGetItem) {
  OpenWith("0", "1s");
  Put("a", "w1", "1");
  Advance(seconds(5));
  Put("a", "w1", "2");
  auto select = [&](bool consistent) {
    Json out = Ok("ExecuteStatement",
                  {{"Statement", "SELECT v FROM orders WHERE pk = 'a'"},
                   {"ConsistentRead", consistent}});
    return out["Items"][0]["v"]["S"].get<std::string>();
  };
  EXPECT_EQ(select(false), "1");
  EXPECT_EQ(select(true), "2");
}

TEST_F(ConsistencyTest, ConditionsAndWritesSeeTheCurrentState) {
  OpenWith("0", "1s");
  Put("a", "w1", "1");
  Advance(seconds(5));
  Put("a", "w1", "2");
  ASSERT_EQ(Get("a", false), "1");
  // The condition reads v = "2", the current value, not the stale "1".
  Ok("PutItem",
     {{"TableName", "orders"},
      {"Item",
       {{"pk", {{"S", "a"}}}, {"w", {{"S", "w1"}}}, {"v", {{"S", "3"}}}}},
      {"ConditionExpression", "v = :v"},
      {"ExpressionAttributeValues", {{":v", {{"S", "2"}}}}}});
  Json tx = Ok("TransactGetItems",
               {{"TransactItems",
                 Json::array({Json{{"Get",
                                    {{"TableName", "orders"},
                                     {"Key", {{"pk", {{"S", "a"}}}}}}}}})}});
  EXPECT_EQ(tx["Responses"][0]["Item"]["v"]["S"], "3");
}

TEST_F(ConsistencyTest, TtlDeletionsReachTheIndexLate) {
  OpenWith("2s", "0");
  Ok("UpdateTimeToLive", {{"TableName", "orders"},
                          {"TimeToLiveSpecification",
                           {{"Enabled", true}, {"AttributeName", "ttl"}}}});
  const int64_t now_s =
      std::chrono::duration_cast<seconds>(clock_->Now().time_since_epoch())
          .count();
  Ok("PutItem", {{"TableName", "orders"},
                 {"Item",
                  {{"pk", {{"S", "a"}}},
                   {"w", {{"S", "w1"}}},
                   {"v", {{"S", "1"}}},
                   {"ttl", {{"N", std::to_string(now_s + 10)}}}}}});
  Advance(seconds(12));
  Result<int64_t> swept = emu_->SweepTtl();
  ASSERT_TRUE(swept.ok());
  ASSERT_EQ(*swept, 1);
  EXPECT_EQ(Get("a", true), "-");
  EXPECT_EQ(Window("w1"), Rowset{"a=1"});
  Advance(seconds(2));
  EXPECT_EQ(Window("w1"), Rowset{});
}

TEST_F(ConsistencyTest, FaultsPinOneStaleReadAndOneLaggingIndex) {
  OpenWith("0", "0");
  ASSERT_TRUE(
      emu_->SetFaultPlan(
              {{"rules", Json::array({Json{{"operation", "GetItem"},
                                           {"key", {{"pk", {{"S", "a"}}}}},
                                           {"effect", "stale_read"},
                                           {"duration", "1s"}},
                                      Json{{"table", "orders"},
                                           {"index", "byWindow"},
                                           {"effect", "index_lag"},
                                           {"duration", "5s"}}})}})
          .ok());
  Put("a", "w1", "1");
  Advance(seconds(2));
  Put("a", "w1", "2");
  EXPECT_EQ(Get("a", false), "1");  // the fault: the state of 1 s ago
  EXPECT_EQ(Get("a", true), "2");   // ConsistentRead is unaffected
  // The rule is keyed on a: another item's read is current.
  Put("b", "w1", "1");
  EXPECT_EQ(Get("b", false), "1");
  // index_lag: each write reaches byWindow 5 s after it was made (at 0 s,
  // then at 2 s twice).
  EXPECT_EQ(Window("w1"), Rowset{});
  Advance(seconds(3));
  EXPECT_EQ(Window("w1"), Rowset{"a=1"});
  Advance(seconds(2));
  EXPECT_EQ(Window("w1"), (Rowset{"a=2", "b=1"}));
}

TEST_F(ConsistencyTest, AnIndexLagFaultAloneLagsTheIndex) {
  OpenWith("0", "0");
  ASSERT_TRUE(
      emu_->SetFaultPlan({{"rules", Json::array({Json{{"table", "orders"},
                                                      {"index", "byWindow"},
                                                      {"effect", "index_lag"},
                                                      {"duration", "5s"}}})}})
          .ok());
  Put("a", "w1", "1");
  EXPECT_EQ(Window("w1"), Rowset{});
  Advance(seconds(5));
  EXPECT_EQ(Window("w1"), Rowset{"a=1"});
}

TEST_F(ConsistencyTest, SettleMakesPendingChangesVisible) {
  OpenWith("10s", "0");
  Put("a", "w1", "1");
  Put("b", "w1", "1");
  Json status = emu_->ConsistencyStatus();
  EXPECT_EQ(status["index_lag"], "10s");
  EXPECT_EQ(status["read_lag"], "0s");
  EXPECT_EQ(status["pending"], (Json{{"orders", {{"byWindow", 2}}}}));
  EXPECT_EQ(emu_->SettleConsistency(), 2);
  EXPECT_EQ(Window("w1"), (Rowset{"a=1", "b=1"}));
  EXPECT_EQ(emu_->ConsistencyStatus()["pending"], Json::object());
}

TEST_F(ConsistencyTest, SettingsChangePerTableAndIndexAndRefuseBadInput) {
  OpenWith("0", "0");
  ASSERT_TRUE(
      emu_->SetConsistency(
              {{"tables", {{"orders", {{"indexes", {{"byWindow", "3s"}}}}}}}})
          .ok());
  EXPECT_EQ(emu_->ConsistencyStatus()["tables"],
            (Json{{"orders", {{"indexes", {{"byWindow", "3s"}}}}}}));
  Put("a", "w1", "1");
  EXPECT_EQ(Window("w1"), Rowset{});
  Advance(seconds(3));
  EXPECT_EQ(Window("w1"), Rowset{"a=1"});

  Status bad = emu_->SetConsistency({{"read_lag", "2s..1s"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(ToString(bad.error()),
            "ValidationException: read_lag: invalid lag '2s..1s': the lower "
            "end is above the upper end");
  Status unknown =
      emu_->SetConsistency({{"tables", {{"orders", {{"lag", "1s"}}}}}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "tables.orders.lag: unknown member (expected read_lag, index_lag, "
            "indexes)");
  // Nothing changed.
  EXPECT_EQ(emu_->ConsistencyStatus()["read_lag"], "0s");
  ASSERT_TRUE(emu_->SetConsistency({{"tables", {{"orders", nullptr}}}}).ok());
  EXPECT_EQ(emu_->ConsistencyStatus()["tables"], Json::object());
}

TEST_F(ConsistencyTest, TheStatusAppliedAgainChangesNothing) {
  OpenWith("0..2s", "1.5");
  ASSERT_TRUE(emu_->SetConsistency({{"tables",
                                     {{"orders",
                                       {{"read_lag", "0"},
                                        {"index_lag", "1s..3s"},
                                        {"indexes", {{"byWindow", "5s"}}}}}}}})
                  .ok());
  Json status = emu_->ConsistencyStatus();
  EXPECT_EQ(status["index_lag"], "0s..2s");
  EXPECT_EQ(status["read_lag"], "1500ms");
  status.erase("pending");
  ASSERT_TRUE(emu_->SetConsistency(status).ok());
  Json again = emu_->ConsistencyStatus();
  again.erase("pending");
  EXPECT_EQ(again, status);
}

TEST_F(ConsistencyTest, WithLagsOffEveryReadIsCurrent) {
  OpenWith("0", "0");
  Put("a", "w1", "1");
  Put("a", "w1", "2");
  EXPECT_EQ(Window("w1"), Rowset{"a=2"});
  EXPECT_EQ(Get("a", false), "2");
  EXPECT_TRUE(impl().Lock().consistency().history().empty());
}

}  // namespace
}  // namespace ddblab::engine::testing
