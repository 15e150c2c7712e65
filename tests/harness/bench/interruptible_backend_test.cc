// InterruptibleBackend: calls go through and are counted until Interrupt();
// then everything fails with the interruption message except DeleteTable
// and DescribeTable, so a benchmark's cleanup still works.
#include "harness/bench/interruptible_backend.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace ddblab::harness::bench {
namespace {

json CreateTableRequest() {
  return {{"TableName", "bench"},
          {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
          {"AttributeDefinitions",
           {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
          {"BillingMode", "PAY_PER_REQUEST"}};
}

json Item(const std::string& pk) {
  return {{"TableName", "bench"}, {"Item", {{"pk", {{"S", pk}}}}}};
}

TEST(InterruptibleBackendTest, PassesAndCountsCallsUntilInterrupted) {
  auto inner = OpenBackend("emulator?clock=manual");
  ASSERT_TRUE(inner.ok());
  InterruptibleBackend backend(**inner);
  EXPECT_EQ(backend.calls(), 0);
  EXPECT_EQ(backend.name(), "emulator");
  EXPECT_TRUE(backend.Has(Capability::kClock));
  ASSERT_TRUE(backend.Call("CreateTable", CreateTableRequest()).ok());
  ASSERT_TRUE(backend.Call("PutItem", Item("a")).ok());
  ASSERT_TRUE(backend.SweepTtl().ok());
  EXPECT_EQ(backend.calls(), 3);
  EXPECT_FALSE(backend.interrupted());

  backend.Interrupt();
  EXPECT_TRUE(backend.interrupted());
  Result<json> put = backend.Call("PutItem", Item("b"));
  ASSERT_FALSE(put.ok());
  EXPECT_EQ(put.error().type, ErrorType::kValidation);
  EXPECT_EQ(put.error().message, kInterruptedMessage);
  EXPECT_FALSE(backend.Call("Scan", {{"TableName", "bench"}}).ok());
  EXPECT_FALSE(backend.CallStreams("ListStreams", json::object()).ok());
  EXPECT_FALSE(backend.SweepTtl().ok());
  EXPECT_FALSE(backend.AdvanceClock(std::chrono::seconds(1)).ok());
  EXPECT_FALSE(backend.SplitStreamShards("bench").ok());
  EXPECT_EQ(backend.calls(), 9);

  // Nothing refused reached the emulator: only "a" was written.
  Result<json> scan = (*inner)->Call("Scan", {{"TableName", "bench"}});
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ((*scan)["Count"], 1);

  // The cleanup calls still go through.
  Result<json> described =
      backend.Call("DescribeTable", {{"TableName", "bench"}});
  ASSERT_TRUE(described.ok());
  EXPECT_EQ((*described)["Table"]["TableName"], "bench");
  ASSERT_TRUE(backend.Call("DeleteTable", {{"TableName", "bench"}}).ok());
  Result<json> tables = (*inner)->Call("ListTables", json::object());
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ((*tables)["TableNames"], json::array());
}

}  // namespace
}  // namespace ddblab::harness::bench
