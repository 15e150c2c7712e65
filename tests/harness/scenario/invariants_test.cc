// Evaluate (harness/scenario/invariants.h): the generic `sum` check over
// the items the actors wrote (World::writes, and World::unsure_writes whose
// outcome is unknown), against a table of an in-process backend.
#include "harness/scenario/invariants.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::scenario {
namespace {

using patterns::N;
using patterns::S;
using Problems = std::vector<std::string>;

class SumOverWritesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = OpenBackend("emulator?clock=manual");
    ASSERT_TRUE(opened.ok());
    backend_ = std::move(*opened);
    ASSERT_TRUE(
        patterns::EnsureTable(
            *backend_,
            {{"TableName", "totals"},
             {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
             {"AttributeDefinitions",
              {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
             {"BillingMode", "PAY_PER_REQUEST"}})
            .ok());
    Put("a", 30);
    Put("b", 12);
    // What the actors wrote elsewhere: 10 + 20 + 12 = 42 bytes, 3 items.
    world_.writes["source"]["t1"] = {{"pk", S("t1")}, {"Bytes", N(10)}};
    world_.writes["source"]["t2"] = {{"pk", S("t2")}, {"Bytes", N(20)}};
    world_.writes["source"]["t3"] = {{"pk", S("t3")}, {"Bytes", N(12)}};
  }

  void Put(const std::string& pk, int64_t total) {
    ASSERT_TRUE(
        backend_
            ->Call("PutItem", {{"TableName", "totals"},
                               {"Item", {{"pk", S(pk)}, {"Total", N(total)}}}})
            .ok());
  }

  Result<Problems> Check(const std::string& attribute) {
    InvariantSpec inv;
    inv.id = "invariants[0]";
    inv.check = "sum";
    inv.table = "totals";
    inv.attribute = "Total";
    inv.over_writes = true;
    inv.writes_table = "source";
    inv.writes_attribute = attribute;
    return Evaluate(inv, scenario_, *backend_, world_);
  }

  std::unique_ptr<Backend> backend_;
  Scenario scenario_;
  World world_;
};

TEST_F(SumOverWritesTest, HoldsWhenTheTableSumsToTheWrites) {
  auto problems = Check("Bytes");
  ASSERT_TRUE(problems.ok());
  EXPECT_EQ(*problems, Problems());
}

TEST_F(SumOverWritesTest, NamesTheDifferenceWhenOver) {
  Put("c", 5);
  EXPECT_EQ(*Check("Bytes"),
            Problems{"the sum of Total over totals is 47, expected 42 (the "
                     "sum of Bytes over the items the actors wrote to "
                     "source; over by 5)"});
}

TEST_F(SumOverWritesTest, NamesTheDifferenceWhenUnder) {
  Put("b", 2);
  EXPECT_EQ(*Check("Bytes"),
            Problems{"the sum of Total over totals is 32, expected 42 (the "
                     "sum of Bytes over the items the actors wrote to "
                     "source; under by 10)"});
}

TEST_F(SumOverWritesTest, WithoutAnAttributeEachWriteCountsOne) {
  EXPECT_EQ(*Check(""),
            Problems{"the sum of Total over totals is 42, expected 3 (the "
                     "number of items the actors wrote to source; over by "
                     "39)"});
}

TEST_F(SumOverWritesTest, AWriteWhoseAttributeIsNoIntegerIsAProblem) {
  world_.writes["source"]["t4"] = {{"pk", S("t4")}, {"Bytes", S("ten")}};
  EXPECT_EQ(*Check("Bytes"),
            Problems{"item t4 written to source has Bytes {\"S\":\"ten\"}, "
                     "not an integer N"});
}

TEST_F(SumOverWritesTest, NoWritesSumToZero) {
  world_.writes.clear();
  EXPECT_EQ(*Check("Bytes"),
            Problems{"the sum of Total over totals is 42, expected 0 (the "
                     "sum of Bytes over the items the actors wrote to "
                     "source; over by 42)"});
}

// Elle's rule: a write (or a removal) whose every answer was lost may or
// may not count, so the expected sum is a range.
TEST_F(SumOverWritesTest, AWriteOfUnknownOutcomeMayOrMayNotCount) {
  world_.unsure_writes["source"]["t4"] = {{"pk", S("t4")}, {"Bytes", N(8)}};
  EXPECT_EQ(*Check("Bytes"), Problems());  // 42: t4 not applied
  Put("c", 8);
  EXPECT_EQ(*Check("Bytes"), Problems());  // 50: t4 applied
  Put("c", 9);
  EXPECT_EQ(*Check("Bytes"),
            Problems{"the sum of Total over totals is 51, expected 42 to 50 "
                     "(the sum of Bytes over the items the actors wrote to "
                     "source, 1 write of unknown outcome; over by 1)"});
}

TEST_F(SumOverWritesTest, AnUnknownRewriteOfAKnownItemCountsOneOrTheOther) {
  // t2 (20 bytes) rewritten with 5, answer lost: 42 or 27, never 47.
  world_.unsure_writes["source"]["t2"] = {{"pk", S("t2")}, {"Bytes", N(5)}};
  EXPECT_EQ(*Check("Bytes"), Problems());
  Put("b", -3);
  EXPECT_EQ(*Check("Bytes"), Problems());  // 27
  Put("b", -4);
  EXPECT_EQ(*Check("Bytes"),
            Problems{"the sum of Total over totals is 26, expected 27 to 42 "
                     "(the sum of Bytes over the items the actors wrote to "
                     "source, 1 write of unknown outcome; under by 1)"});
}

}  // namespace
}  // namespace ddblab::harness::scenario
