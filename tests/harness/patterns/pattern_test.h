// tests/harness/patterns/pattern_test.h: the fixture every pattern test
// runs on: one row (see pattern_backends.h) per parameter, a table name per
// test, and the test's tables deleted afterwards.
//
// Thread-safety: test thread only.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/harness/patterns/pattern_backends.h"

namespace ddblab::harness::testing {

class PatternTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string skip;
    auto backend = OpenPatternRow(GetParam(), &skip);
    if (!backend) {
      // Only the AWS row may be absent; the local rows must run.
      if (GetParam() == "aws") GTEST_SKIP() << skip;
      FAIL() << skip;
    }
    backend_.reset(static_cast<TestBackend*>(backend.release()));
  }
  void TearDown() override {
    if (backend_) backend_->DeleteCreatedTables();
  }

  // "<prefix><kind>_<test name>" with the row's "/" made "_".
  static std::string TableName(const std::string& kind) {
    std::string name =
        TablePrefix() + kind + "_" +
        ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    return name;
  }

  // Tests that move the clock or sweep TTL run only where they can.
  bool HasClock() const {
    return backend_->Has(Capability::kClock) &&
           backend_->Has(Capability::kTtlSweep);
  }

  std::unique_ptr<TestBackend> backend_;
};

// A PatternTest on the rows whose backend takes a fault plan (others skip);
// the plan is cleared after each test.
class FaultPlanTest : public PatternTest {
 protected:
  void SetUp() override {
    PatternTest::SetUp();
    if (HasFailure() || IsSkipped()) return;
    if (!backend_->Has(Capability::kFaultPlan)) {
      GTEST_SKIP() << "backend " << backend_->name() << " takes no fault plan";
    }
  }
  void TearDown() override {
    if (backend_ && backend_->Has(Capability::kFaultPlan)) {
      Status cleared = backend_->SetFaultPlan(nullptr);
      EXPECT_TRUE(cleared.ok()) << ToString(cleared.error());
    }
    PatternTest::TearDown();
  }
  // Sets {"rules": rules}.
  void Plan(const nlohmann::json& rules) {
    Status status = backend_->SetFaultPlan({{"rules", rules}});
    ASSERT_TRUE(status.ok()) << ToString(status.error());
  }
};

// The rows every pattern suite is instantiated on.
inline auto PatternRows() {
  return ::testing::Values("emulator", "ddblab_http", "ddblocal", "aws");
}

}  // namespace ddblab::harness::testing
