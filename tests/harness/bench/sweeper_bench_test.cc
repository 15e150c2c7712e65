// The sweeper benchmark on the in-process emulator with a virtual clock:
// the report's numbers agree with each other (deleted = expired in the
// swept windows, nothing left behind for the correct variant, the capacity
// and cost figures match the deletes), the naive variants' checks fail,
// workers change nothing but the speed, and bad flags are named.
#include "harness/bench/sweeper_bench.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "harness/bench/bench_report.h"

namespace ddblab::harness::bench {
namespace {

class SweeperBenchTest : public ::testing::Test {
 protected:
  Result<BenchOutcome> Run(std::vector<std::string> flags,
                           const std::string& ttl_delay = "aws") {
    auto backend = OpenBackend("emulator?clock=manual&ttl_delay=" + ttl_delay);
    EXPECT_TRUE(backend.ok());
    backend_ = std::move(*backend);
    last_fraction_ = 0;
    BenchTarget target{backend_.get(), "emulator", "emulator", true};
    return RunSweeperBench(target, flags, [&](double f, std::string_view) {
      EXPECT_GE(f, last_fraction_);
      EXPECT_LE(f, 1.0);
      last_fraction_ = f;
    });
  }

  static json Check(const BenchOutcome& out, const std::string& name) {
    for (const json& c : out.checks) {
      if (c["name"] == name) return c;
    }
    ADD_FAILURE() << "no check " << name;
    return json::object();
  }

  std::unique_ptr<Backend> backend_;
  double last_fraction_ = 0;
};

TEST_F(SweeperBenchTest, CorrectVariantDeletesEveryExpiredItem) {
  auto out = Run({"--items", "600", "--span", "10m", "--native-sample", "100"});
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  const json& r = out->results;
  EXPECT_EQ(r["items_written"], 600);
  EXPECT_EQ(r["items_expired"], 600);
  EXPECT_EQ(r["items_expired_in_swept_windows"], 600);
  EXPECT_EQ(r["items_found"], 600);
  EXPECT_EQ(r["items_deleted"], 600);
  EXPECT_EQ(r["items_left_behind"], 0);
  EXPECT_EQ(r["items_in_table_at_end"], 0);
  EXPECT_EQ(r["unprocessed_given_up"], 0);
  // Ten 1-minute windows, a trigger at the end of each.
  EXPECT_EQ(r["triggers"], 10);
  // One conditional DeleteItem per item, no BatchWriteItem.
  EXPECT_EQ(r["delete_item_calls"], 600);
  EXPECT_EQ(r["batch_write_calls"], 0);
  EXPECT_EQ(r["items_kept"], 0);
  // Deleted at the first trigger after expiry: within one window.
  EXPECT_GE(r["delay_seconds"]["p50"].get<double>(), 0);
  EXPECT_LE(r["delay_seconds"]["max"].get<double>(), 60);
  EXPECT_GT(r["delay_seconds"]["max"].get<double>(), 50);
  const json& q = r["delay_seconds_quantiles"];
  ASSERT_EQ(q.size(), 21u);
  // ttl < now is expired: an item whose ttl is a trigger's second waits a
  // whole window; one a second earlier is deleted a second after expiry.
  EXPECT_EQ(q.front(), 1);
  EXPECT_EQ(q.back(), r["delay_seconds"]["max"]);
  for (size_t i = 1; i < q.size(); ++i) EXPECT_LE(q[i - 1], q[i]);
  EXPECT_EQ(r["native_ttl_delay_seconds_quantiles"].back(),
            r["native_ttl_delay_seconds"]["max"]);
  // A delete of a small item writes 1 unit on the table and 1 on the GSI.
  EXPECT_EQ(r["write_units"].get<double>(), 1200);
  EXPECT_GT(r["read_units"].get<double>(), 0);
  const double cost = (r["read_units"].get<double>() * 0.125 +
                       r["write_units"].get<double>() * 0.625) /
                      1e6;
  EXPECT_DOUBLE_EQ(r["cost_usd"].get<double>(), cost);
  EXPECT_DOUBLE_EQ(r["cost_per_million_items_usd"].get<double>(),
                   cost / 600 * 1e6);
  // Native TTL under the "aws" model: every sampled item deleted within 48
  // hours (+ one step), most of them within 15 minutes.
  EXPECT_EQ(r["native_ttl_sampled"], 100);
  EXPECT_EQ(r["native_ttl_deleted"], 100);
  EXPECT_EQ(r["native_ttl_pending"], 0);
  EXPECT_GE(r["native_ttl_delay_seconds"]["p50"].get<double>(), 60);
  EXPECT_LE(r["native_ttl_delay_seconds"]["p50"].get<double>(), 15 * 60 + 60);
  EXPECT_LE(r["native_ttl_delay_seconds"]["max"].get<double>(),
            48 * 3600 + 130);
  EXPECT_TRUE(out->not_available.empty()) << out->not_available.dump();
  for (const json& c : out->checks) EXPECT_TRUE(c["ok"]) << c.dump();
  EXPECT_EQ(out->parameters["items"], 600);
  EXPECT_EQ(out->parameters["window"], "1m");
  EXPECT_EQ(out->parameters["frequency"], "1m");
  EXPECT_EQ(out->parameters["variant"], "correct");
  EXPECT_EQ(out->parameters["price_date"], "2024-11");
  EXPECT_EQ(MakeReport("sweeper", json::object(), "t", 1, *out)["ok"], true);
}

TEST_F(SweeperBenchTest, NativeDelayFollowsTheFixedModel) {
  auto out =
      Run({"--items", "200", "--span", "4m", "--native-sample", "50"}, "90s");
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  const json& native = out->results["native_ttl_delay_seconds"];
  // Due 90 s after expiry, deleted at the next 1-minute step.
  EXPECT_GE(native["p50"].get<double>(), 90);
  EXPECT_LE(native["max"].get<double>(), 150);
  EXPECT_EQ(out->results["native_ttl_resolution_seconds"], 60);
  EXPECT_EQ(out->results["native_ttl_deleted"], 50);
}

TEST_F(SweeperBenchTest, NativeDeletionsPastTheHorizonAreNotAvailable) {
  // Due 4 days after expiry: past the 72 hours the run drives the clock.
  auto none =
      Run({"--items", "100", "--span", "2m", "--native-sample", "20"}, "4d");
  ASSERT_TRUE(none.ok()) << ToString(none.error());
  EXPECT_EQ(none->results["native_ttl_deleted"], 0);
  EXPECT_EQ(none->results["native_ttl_pending"], 20);
  EXPECT_FALSE(none->results.contains("native_ttl_delay_seconds"));
  ASSERT_EQ(none->not_available.size(), 1u);
  EXPECT_EQ(none->not_available[0]["what"], "native_ttl_deletion");
  EXPECT_TRUE(none->not_available[0]["why"].get<std::string>().starts_with(
      "none of the 20 sampled items was deleted by DynamoDB's TTL by epoch "
      "second "));
  for (const json& c : none->checks) EXPECT_TRUE(c["ok"]) << c.dump();

  // Uniform over 1 minute..100 hours: some within 72 hours, some not.
  auto tail = Run({"--items", "100", "--span", "2m", "--native-sample", "40"},
                  "1m..100h");
  ASSERT_TRUE(tail.ok()) << ToString(tail.error());
  const int64_t deleted = tail->results["native_ttl_deleted"];
  const int64_t pending = tail->results["native_ttl_pending"];
  EXPECT_GT(deleted, 0);
  EXPECT_GT(pending, 0);
  EXPECT_EQ(deleted + pending, 40);
  EXPECT_LE(tail->results["native_ttl_delay_seconds"]["max"].get<double>(),
            72 * 3600 + 180);
  ASSERT_EQ(tail->not_available.size(), 1u);
  EXPECT_EQ(tail->not_available[0]["what"], "native_ttl_tail");
}

TEST_F(SweeperBenchTest, WorkersShareTheDeletesWithTheSameOutcome) {
  auto one = Run({"--items", "900", "--span", "5m", "--native-sample", "0"});
  auto four = Run({"--items", "900", "--span", "5m", "--native-sample", "0",
                   "--workers", "4", "--chunk", "10"});
  ASSERT_TRUE(one.ok() && four.ok());
  for (const char* key : {"items_deleted", "items_left_behind", "write_units",
                          "delay_seconds", "triggers"}) {
    EXPECT_EQ(one->results[key], four->results[key]) << key;
  }
  EXPECT_EQ(four->results["delete_item_calls"], 900);
  EXPECT_EQ(four->parameters["workers"], 4);
  EXPECT_EQ(one->not_available[0]["what"], "native_ttl_deletion");
  EXPECT_EQ(one->not_available[0]["why"], "turned off with --native-sample 0");
}

TEST_F(SweeperBenchTest, WindowNotMultipleOfFrequencyLeavesItemsAndSaysSo) {
  auto out = Run({"--items", "600", "--span", "10m", "--window", "60s",
                  "--frequency", "45s", "--variant",
                  "window_not_multiple_of_frequency", "--native-sample", "0"});
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  const json& r = out->results;
  const int64_t left = r["items_left_behind"];
  EXPECT_GT(left, 0);
  // What it did sweep it deleted; the rest stays.
  EXPECT_EQ(r["items_deleted"], r["items_expired_in_swept_windows"]);
  EXPECT_EQ(r["items_deleted"].get<int64_t>() + left, 600);
  EXPECT_TRUE(Check(*out, "deleted_equals_expired_in_swept_windows")["ok"]);
  const json broken = Check(*out, "nothing_left_behind");
  EXPECT_FALSE(broken["ok"]);
  EXPECT_EQ(broken["detail"],
            std::to_string(left) +
                " of 600 expired items still in the table after the last "
                "trigger");
  EXPECT_EQ(MakeReport("sweeper", json::object(), "t", 1, *out)["ok"], false);
}

TEST_F(SweeperBenchTest, NoPaginationMissesWhatIsPastTheFirstPage) {
  // 1,500 items of ~1 KB in one window: about 1.5 MB, two Query pages.
  auto out = Run({"--items", "1500", "--span", "30s", "--item-bytes", "1000",
                  "--variant", "no_pagination", "--native-sample", "0"});
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  const json& r = out->results;
  EXPECT_LT(r["items_deleted"].get<int64_t>(), 1500);
  EXPECT_GT(r["items_left_behind"].get<int64_t>(), 0);
  EXPECT_FALSE(Check(*out, "deleted_equals_expired_in_swept_windows")["ok"]);
  EXPECT_FALSE(Check(*out, "nothing_left_behind")["ok"]);
  EXPECT_TRUE(Check(*out, "table_count_consistent")["ok"]);
}

TEST_F(SweeperBenchTest, BadFlagsNameTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--items", "x"},
       "--items expects a whole number from 1 to 10000000, got \"x\""},
      {{"--items", "0"},
       "--items expects a whole number from 1 to 10000000, got \"0\""},
      {{"--chunk", "26"},
       "--chunk expects a whole number from 1 to 25, got "
       "\"26\""},
      {{"--window", "1500ms"},
       "--window expects a duration of at least 1s in whole seconds (e.g. "
       "90s, 15m, 1h), got \"1500ms\""},
      {{"--window", "7s", "--frequency", "3s"},
       "--window (7s) must be a multiple of --frequency (3s) for this "
       "variant; --variant window_not_multiple_of_frequency benchmarks the "
       "published mistake"},
      {{"--variant", "fast"},
       "--variant expects one of correct, window_not_multiple_of_frequency, "
       "no_pagination, no_unprocessed_retry, unconditional_delete, got "
       "\"fast\""},
      {{"--bogus", "1"}, "unknown flag --bogus"},
      {{"--items"}, "--items needs a value"},
      {{"--items", "5", "--items=6"}, "--items is given twice"},
      {{"--wru-price", "-1"},
       "--wru-price expects a number from 0 to 1000, got \"-1\""},
  };
  for (const auto& [flags, message] : cases) {
    auto out = Run(flags);
    ASSERT_FALSE(out.ok()) << flags[0];
    EXPECT_EQ(out.error().type, ErrorType::kValidation);
    EXPECT_EQ(out.error().message, message);
  }
}

}  // namespace
}  // namespace ddblab::harness::bench
