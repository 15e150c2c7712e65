// tests/emulator/engine/engine_test_util.h: a fixture that opens an
// in-memory Emulator on a ManualClock and calls it.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "emulator/api/emulator.h"
#include "emulator/engine/emulator_impl.h"

namespace ddblab::engine::testing {

using Json = nlohmann::json;

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(Options{}); }

  // Opens (or reopens) the emulator with `options` plus the fixture clock.
  void Open(Options options) {
    emu_.reset();
    if (!clock_) clock_ = std::make_shared<ManualClock>();
    options.clock = clock_;
    if (options.seed == 0) options.seed = 7;
    auto emu = Emulator::Open(std::move(options));
    ASSERT_TRUE(emu.ok()) << ToString(emu.error());
    emu_ = std::move(emu).value();
  }

  // A call that must succeed.
  Json Ok(std::string_view op, const Json& request) {
    Result<Json> r = emu_->Call(op, request);
    EXPECT_TRUE(r.ok()) << op << " " << request.dump() << " -> "
                        << ToString(r.error());
    return r.ok() ? *r : Json();
  }
  // A call that must fail; returns the error.
  Error Fail(std::string_view op, const Json& request) {
    Result<Json> r = emu_->Call(op, request);
    EXPECT_FALSE(r.ok()) << op << " " << request.dump() << " -> " << r->dump();
    return r.ok() ? Error{} : r.error();
  }
  // "ValidationException: <message>" etc., for compact assertions.
  std::string FailText(std::string_view op, const Json& request) {
    return ToString(Fail(op, request));
  }

  // A hash(+range) table of S keys, PAY_PER_REQUEST.
  Json CreateTable(const std::string& name, const std::string& hash = "pk",
                   const std::string& range = "") {
    Json req{{"TableName", name},
             {"BillingMode", "PAY_PER_REQUEST"},
             {"AttributeDefinitions",
              Json::array({{{"AttributeName", hash}, {"AttributeType", "S"}}})},
             {"KeySchema",
              Json::array({{{"AttributeName", hash}, {"KeyType", "HASH"}}})}};
    if (!range.empty()) {
      req["AttributeDefinitions"].push_back(
          {{"AttributeName", range}, {"AttributeType", "S"}});
      req["KeySchema"].push_back(
          {{"AttributeName", range}, {"KeyType", "RANGE"}});
    }
    return Ok("CreateTable", req);
  }

  Json Describe(const std::string& name) {
    return Ok("DescribeTable", {{"TableName", name}})["Table"];
  }

  EmulatorImpl& impl() { return ImplOf(*emu_); }

  std::shared_ptr<ManualClock> clock_;
  std::unique_ptr<Emulator> emu_;
};

}  // namespace ddblab::engine::testing
