// Steps' footprints (harness/scenario/footprint.h): what a call touches,
// worked out from its request and the table's key schema and stream, and
// when two steps depend on each other.
#include "harness/scenario/footprint.h"

#include <gtest/gtest.h>

namespace ddblab::harness::scenario {
namespace {

TableShapes Shapes() {
  TableShapes shapes;
  shapes.Note(json::parse(R"({"TableName": "t",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})"));
  shapes.Note(json::parse(R"({"TableName": "s",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "StreamSpecification": {"StreamEnabled": true,
                              "StreamViewType": "NEW_IMAGE"}})"));
  return shapes;
}

Footprint Of(const std::string& op, const std::string& request) {
  return Shapes().OfCall(op, json::parse(request));
}

TEST(Footprint, ItemsOfOneTableDependOnlyOnTheSameKey) {
  const Footprint put_a =
      Of("PutItem", R"({"TableName": "t", "Item": {"pk": {"S": "a"},
                        "n": {"N": "1"}}})");
  EXPECT_EQ(put_a.accesses,
            (std::vector<Access>{
                {Access::Kind::kItem, "t", R"({"pk":{"S":"a"}})", true}}));
  const Footprint update_a =
      Of("UpdateItem", R"({"TableName": "t", "Key": {"pk": {"S": "a"}}})");
  const Footprint get_b =
      Of("GetItem", R"({"TableName": "t", "Key": {"pk": {"S": "b"}}})");
  const Footprint get_a =
      Of("GetItem", R"({"TableName": "t", "Key": {"pk": {"S": "a"}}})");
  const Footprint query = Of("Query", R"({"TableName": "t"})");
  EXPECT_TRUE(Dependent(put_a, update_a));
  EXPECT_FALSE(Dependent(put_a, get_b));
  EXPECT_FALSE(Dependent(get_a, get_a));  // two reads
  EXPECT_TRUE(Dependent(query, put_a));   // a Query reads the whole table
  EXPECT_FALSE(Dependent(query, get_b));
}

TEST(Footprint, StreamWritesUnknownTablesFaultsAndOtherOperations) {
  // Writes to a stream table depend through the stream, whatever the key.
  EXPECT_TRUE(Dependent(
      Of("PutItem", R"({"TableName": "s", "Item": {"pk": {"S": "a"}}})"),
      Of("DeleteItem", R"({"TableName": "s", "Key": {"pk": {"S": "b"}}})")));
  // A table never created here: its key (and stream) unknown.
  const Footprint unknown =
      Of("PutItem", R"({"TableName": "u", "Item": {"pk": {"S": "a"}}})");
  EXPECT_TRUE(Dependent(
      unknown,
      Of("GetItem", R"({"TableName": "u", "Key": {"pk": {"S": "b"}}})")));
  EXPECT_TRUE(Of("CreateTable", R"({"TableName": "x"})").everything);
  EXPECT_FALSE(Dependent(Of("ListTables", "{}"), Of("ListTables", "{}")));
  Footprint x =
      Of("GetItem", R"({"TableName": "t", "Key": {"pk": {"S": "a"}}})");
  Footprint y =
      Of("GetItem", R"({"TableName": "t", "Key": {"pk": {"S": "b"}}})");
  x.fault = true;
  EXPECT_FALSE(Dependent(x, y));
  y.fault = true;
  EXPECT_TRUE(Dependent(x, y));  // both drew from the fault plan
}

}  // namespace
}  // namespace ddblab::harness::scenario
