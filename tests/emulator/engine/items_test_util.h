// tests/emulator/engine/items_test_util.h: helpers shared by the item,
// update and transaction tests (item_ops_test.cc, update_item_test.cc,
// transact_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {

inline Json S(const std::string& s) { return {{"S", s}}; }
inline Json N(const std::string& n) { return {{"N", n}}; }
inline Json L(Json elements) { return {{"L", std::move(elements)}}; }
// L({x}) is a list of one element with every compiler (a Json parameter
// initialized from {x} is a copy of x with Clang, a list with GCC).
inline Json L(std::initializer_list<Json> elements) {
  return L(Json(std::vector<Json>(elements)));
}
inline Json M(Json members) { return {{"M", std::move(members)}}; }

class ItemsTest : public EngineTest {
 protected:
  // The stored item (strongly consistent), or null if absent.
  Json Get(const std::string& table, const Json& key) {
    Json out =
        Ok("GetItem",
           {{"TableName", table}, {"Key", key}, {"ConsistentRead", true}});
    return out.contains("Item") ? out["Item"] : Json();
  }
  void Put(const std::string& table, const Json& item) {
    Ok("PutItem", {{"TableName", table}, {"Item", item}});
  }
  Json Update(const Json& request) { return Ok("UpdateItem", request); }

  // t: pk (S) + sk (N); GSI "by_g" on g (S); LSI "by_l" on l (S).
  void MakeIndexedTable(const std::string& name = "idx") {
    Json req = Json::parse(R"({
         "BillingMode": "PAY_PER_REQUEST",
         "AttributeDefinitions": [
           {"AttributeName": "pk", "AttributeType": "S"},
           {"AttributeName": "sk", "AttributeType": "N"},
           {"AttributeName": "g", "AttributeType": "S"},
           {"AttributeName": "l", "AttributeType": "S"}],
         "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
         "GlobalSecondaryIndexes": [{"IndexName": "by_g",
           "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
           "Projection": {"ProjectionType": "ALL"}}],
         "LocalSecondaryIndexes": [{"IndexName": "by_l",
           "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                         {"AttributeName": "l", "KeyType": "RANGE"}],
           "Projection": {"ProjectionType": "ALL"}}]})");
    req["TableName"] = name;
    Ok("CreateTable", req);
  }
};

}  // namespace ddblab::engine::testing
