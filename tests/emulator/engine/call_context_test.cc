// CallContext (emulator/engine/call_context.h): the batch items a fault
// leaves unprocessed are found by table and position, in any order and as
// often as asked, and BatchWriteItem leaves exactly those positions.
#include "emulator/engine/call_context.h"

#include <gtest/gtest.h>

#include "emulator/engine/ops/ops_batch.h"
#include "tests/emulator/engine/batch_test_util.h"

namespace ddblab::engine::testing {
namespace {

constexpr char kArn[] = "arn:aws:dynamodb:us-east-1:000000000000:table/T";

TEST(CallFaults, PositionsByTableInAnyOrder) {
  CallFaults faults;
  EXPECT_FALSE(faults.any_unprocessed());
  EXPECT_FALSE(faults.Unprocessed("T", 0));
  faults.LeaveUnprocessed("T", 2);
  faults.LeaveUnprocessed(kArn, 0);
  faults.LeaveUnprocessed("T", 2);  // the same position again
  EXPECT_TRUE(faults.any_unprocessed());
  // Asked out of order and twice: a counter of calls per table would answer
  // position 2 for its first question only.
  EXPECT_TRUE(faults.Unprocessed("T", 2));
  EXPECT_FALSE(faults.Unprocessed("T", 1));
  EXPECT_TRUE(faults.Unprocessed("T", 2));
  // The table as the request named it: position 0 is the ARN's, not T's.
  EXPECT_FALSE(faults.Unprocessed("T", 0));
  EXPECT_TRUE(faults.Unprocessed(kArn, 0));
  EXPECT_FALSE(faults.Unprocessed(kArn, 2));
  EXPECT_FALSE(faults.Unprocessed("U", 2));
}

TEST(CallContext, DefaultIsUnmeteredWithoutFaults) {
  CallContext call(Operation::kExecuteTransaction);
  EXPECT_EQ(call.info().name, "ExecuteTransaction");
  EXPECT_FALSE(call.capacity.enforced());
  EXPECT_FALSE(call.faults.any_unprocessed());
  EXPECT_EQ(call.faults.visibility_delay, Duration::zero());
}

using CallContextBatchTest = BatchTest;

// The same context executed twice (as a retry would): the planned positions
// are left unprocessed both times, the others written.
TEST_F(CallContextBatchTest, BatchWriteLeavesExactlyThePlannedPositions) {
  MakeTable("tbl");
  CallContext call(Operation::kBatchWriteItem);
  call.faults.LeaveUnprocessed("tbl", 2);
  call.faults.LeaveUnprocessed("tbl", 0);
  Result<BatchWriteRequest> request = ParseBatchWrite(
      {{"RequestItems",
        {{"tbl", {PutReq(Key("a")), PutReq(Key("b")), PutReq(Key("c"))}}}}});
  ASSERT_TRUE(request.ok()) << ToString(request.error());
  for (int round = 0; round < 2; ++round) {
    Result<BatchWriteResult> done = ExecuteBatchWrite(impl(), call, *request);
    ASSERT_TRUE(done.ok()) << ToString(done.error());
    ASSERT_EQ(done->planned.size(), 1u);
    ASSERT_EQ(done->planned[0].size(), 3u);
    EXPECT_TRUE(done->planned[0][0].unprocessed);
    EXPECT_FALSE(done->planned[0][1].unprocessed);
    EXPECT_TRUE(done->planned[0][2].unprocessed);
  }
  EXPECT_TRUE(Get("tbl", Key("a")).is_null());
  EXPECT_EQ(Get("tbl", Key("b")), Key("b"));
  EXPECT_TRUE(Get("tbl", Key("c")).is_null());
}

}  // namespace
}  // namespace ddblab::engine::testing
