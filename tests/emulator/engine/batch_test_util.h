// tests/emulator/engine/batch_test_util.h: helpers shared by the batch
// tests (batch_get_test.cc, batch_write_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "tests/emulator/engine/items_test_util.h"

namespace ddblab::engine::testing {

class BatchTest : public ItemsTest {
 protected:
  // A table keyed by pk (S), or pk (S) + sk (S).
  void MakeTable(const std::string& name, bool range = false) {
    CreateTable(name, "pk", range ? "sk" : "");
  }
  // A table keyed by n (N).
  void MakeNumberTable(const std::string& name) {
    Ok("CreateTable",
       {{"TableName", name},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         Json::array({{{"AttributeName", "n"}, {"AttributeType", "N"}}})},
        {"KeySchema",
         Json::array({{{"AttributeName", "n"}, {"KeyType", "HASH"}}})}});
  }
  std::string Arn(const std::string& table) {
    return Describe(table)["TableArn"].get<std::string>();
  }
  int64_t ItemCount(const std::string& table) {
    return Describe(table)["ItemCount"].get<int64_t>();
  }
  // {"pk": S(pk)} (+ {"sk": S(sk)}).
  static Json Key(const std::string& pk, const std::string& sk = "") {
    Json key = {{"pk", S(pk)}};
    if (!sk.empty()) key["sk"] = S(sk);
    return key;
  }
  static Json PutReq(const Json& item) {
    return {{"PutRequest", {{"Item", item}}}};
  }
  static Json DeleteReq(const Json& key) {
    return {{"DeleteRequest", {{"Key", key}}}};
  }
  // An item of exactly `size` bytes (DynamoDB's data model): pk + attribute
  // "v".
  static Json SizedItem(const std::string& pk, size_t size) {
    const size_t overhead = 2 + pk.size() + 1;  // "pk" + value + "v"
    return {{"pk", S(pk)}, {"v", S(std::string(size - overhead, 'x'))}};
  }
  // A fault plan that leaves unprocessed every batch item (write request
  // or key) whose pk is S(pk); null: no plan.
  void LeaveUnprocessed(const std::optional<std::string>& pk) {
    Json plan = nullptr;
    if (pk) {
      plan = {
          {"rules", {{{"key", {{"pk", S(*pk)}}}, {"effect", "unprocessed"}}}}};
    }
    ASSERT_TRUE(emu_->SetFaultPlan(plan).ok());
  }
};

}  // namespace ddblab::engine::testing
