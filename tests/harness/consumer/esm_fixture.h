// tests/harness/consumer/esm_fixture.h: an in-process emulator on a manual
// clock with one streamed table, and a recording C++ function, for the
// event source mapping tests.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/consumer/esm.h"

namespace ddblab::harness::consumer {

using CallList = std::vector<std::vector<std::string>>;

class EsmTest : public ::testing::Test {
 protected:
  void SetUp() override { Open("emulator?clock=manual&ttl_delay=0"); }

  void Open(const std::string& spec) {
    auto backend = OpenBackend(spec);
    ASSERT_TRUE(backend.ok()) << ToString(backend.error());
    backend_ = std::move(*backend);
    auto created = backend_->Call("CreateTable", json::parse(R"({
      "TableName": "tbl",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST",
      "StreamSpecification": {"StreamEnabled": true,
                              "StreamViewType": "NEW_AND_OLD_IMAGES"}})"));
    ASSERT_TRUE(created.ok()) << ToString(created.error());
    stream_arn_ = (*created)["TableDescription"]["LatestStreamArn"];
  }

  Backend& backend() { return *backend_; }

  void Put(const std::string& pk, int v = 0) {
    auto out = backend_->Call(
        "PutItem",
        {{"TableName", "tbl"},
         {"Item", {{"pk", {{"S", pk}}}, {"v", {{"N", std::to_string(v)}}}}}});
    ASSERT_TRUE(out.ok()) << ToString(out.error());
  }
  void Delete(const std::string& pk) {
    auto out = backend_->Call(
        "DeleteItem", {{"TableName", "tbl"}, {"Key", {{"pk", {{"S", pk}}}}}});
    ASSERT_TRUE(out.ok()) << ToString(out.error());
  }
  void Advance(int seconds) {
    ASSERT_TRUE(backend_->AdvanceClock(std::chrono::seconds(seconds)).ok());
  }

  // Creates the mapping with `fields` over {"TableName": "tbl", "FunctionName":
  // "f", "StartingPosition": "TRIM_HORIZON"}; every event is recorded in
  // events_ and answered by handler_ (success with null by default).
  std::unique_ptr<EventSourceMapping> Make(
      const json& fields = json::object()) {
    json request = {{"TableName", "tbl"},
                    {"FunctionName", "f"},
                    {"StartingPosition", "TRIM_HORIZON"}};
    request.update(fields);
    auto config = ParseEsmConfig(request);
    EXPECT_TRUE(config.ok()) << ToString(config.error());
    if (!config.ok()) return nullptr;
    return std::make_unique<EventSourceMapping>(
        *backend_, *config,
        std::make_unique<CallableFunction>([this](const json& event) {
          events_.push_back(event);
          return handler_(event);
        }));
  }

  // The pk of every record of every invocation, e.g. {{"a","b"},{"c"}}.
  CallList Calls() const {
    CallList out;
    for (const json& e : events_) {
      std::vector<std::string> keys;
      for (const json& r : e["Records"]) {
        keys.push_back(r["dynamodb"]["Keys"]["pk"]["S"]);
      }
      out.push_back(keys);
    }
    return out;
  }

  static std::string Seq(const json& record) {
    return record["dynamodb"]["SequenceNumber"];
  }

  std::unique_ptr<Backend> backend_;
  std::string stream_arn_;
  std::vector<json> events_;
  std::function<Result<json>(const json&)> handler_ =
      [](const json&) -> Result<json> { return json(nullptr); };
};

// A function error, as a handler that throws.
inline Result<json> Throw(const std::string& message = "boom") {
  return Error::Internal(message);
}

}  // namespace ddblab::harness::consumer
