// engine/ops/partiql_operations.h: PartiQL plans become the typed requests
// of the operations they run, with the checks those operations' Parse makes
// (same texts, same order) and the ClientRequestToken replay of
// TransactWriteItems.
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

using PartiqlOperationsTest = EngineTest;

Json Statement(const std::string& text) { return {{"Statement", text}}; }

Json S(const std::string& s) { return {{"S", s}}; }

TEST_F(PartiqlOperationsTest, InsertedItemIsCheckedAsPutItemChecksIt) {
  CreateTable("Tbl");
  // An empty top-level attribute name: PutItem's text for the same item.
  const std::string empty_name =
      "ValidationException: 1 validation error detected: Empty attribute name";
  EXPECT_EQ(FailText("ExecuteStatement",
                     Statement("INSERT INTO Tbl VALUE {'pk': 'a', '': 1}")),
            empty_name);
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "Tbl"},
                           {"Item", {{"pk", S("a")}, {"", {{"N", "1"}}}}}}),
      empty_name);
  // An item over 400 KB.
  Json big = {{"Statement", "INSERT INTO Tbl VALUE {'pk': 'b', 'v': ?}"},
              {"Parameters", Json::array({S(std::string(400 * 1024, 'x'))})}};
  EXPECT_EQ(FailText("ExecuteStatement", big),
            "ValidationException: Item size has exceeded the maximum allowed "
            "size");
  // Nothing was written.
  EXPECT_EQ(Ok("Scan", {{"TableName", "Tbl"}})["Count"], 0);
}

TEST_F(PartiqlOperationsTest, TransactionTokenReplaysTheSameStatements) {
  CreateTable("Tbl");
  Json first = {
      {"ClientRequestToken", "token-1"},
      {"TransactStatements",
       Json::array({Statement("INSERT INTO Tbl VALUE {'pk': 'a'}")})}};
  EXPECT_EQ(Ok("ExecuteTransaction", first)["Responses"], Json::array());
  // The same statements again: the remembered answer, not a second INSERT
  // (which would be a DuplicateItem cancellation).
  EXPECT_EQ(Ok("ExecuteTransaction", first)["Responses"], Json::array());
  Json other = first;
  other["TransactStatements"][0] =
      Statement("INSERT INTO Tbl VALUE {'pk': 'b'}");
  EXPECT_EQ(FailText("ExecuteTransaction", other),
            "IdempotentParameterMismatchException: Request with the same "
            "client token was already used with different parameters");
  const Json scan = Ok("Scan", {{"TableName", "Tbl"}});
  EXPECT_EQ(scan["Count"], 1);
  EXPECT_EQ(scan["Items"][0]["pk"], S("a"));
}

TEST_F(PartiqlOperationsTest, QueryPagesWithTheTypedStartKey) {
  CreateTable("Tbl", "pk", "sk");
  for (const char* sk : {"1", "2", "3"}) {
    Ok("PutItem",
       {{"TableName", "Tbl"}, {"Item", {{"pk", S("p")}, {"sk", S(sk)}}}});
  }
  Json request = {{"Statement", "SELECT sk FROM Tbl WHERE pk = 'p'"},
                  {"Limit", 2}};
  Json page = Ok("ExecuteStatement", request);
  EXPECT_EQ(page["Items"], Json::array({{{"sk", S("1")}}, {{"sk", S("2")}}}));
  ASSERT_TRUE(page.contains("NextToken"));
  request["NextToken"] = page["NextToken"];
  page = Ok("ExecuteStatement", request);
  EXPECT_EQ(page["Items"], Json::array({{{"sk", S("3")}}}));
  EXPECT_FALSE(page.contains("NextToken"));
}

}  // namespace
}  // namespace ddblab::engine::testing
