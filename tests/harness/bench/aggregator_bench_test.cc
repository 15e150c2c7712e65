// tests/harness/bench/aggregator_bench_test.cc: the aggregator benchmark run
// in process on a ManualClock (virtual clock): every record delivered, the
// correct variant's totals exact, consumed WCU equal to what the writes
// imply, the published variant overcounting when its function fails part
// way (and the check saying so), the handler-cost model, stream shards,
// what a limited backend reports as not available, the tables deleted, and
// the flag errors.
#include "harness/bench/aggregator_bench.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ddblab::harness::bench {
namespace {

// An emulator without stream shard control whose answers carry no
// ConsumedCapacity (as an endpoint that does not report it).
class LimitedBackend final : public Backend {
 public:
  explicit LimitedBackend(std::unique_ptr<Backend> inner)
      : inner_(std::move(inner)) {}
  const std::string& name() const override { return name_; }
  Result<json> Call(std::string_view operation, const json& request) override {
    auto out = inner_->Call(operation, request);
    if (out.ok()) out->erase("ConsumedCapacity");
    return out;
  }
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override {
    return inner_->CallStreams(operation, request);
  }
  Clock& clock() override { return inner_->clock(); }
  bool Has(Capability c) const override {
    return c != Capability::kStreamShards && inner_->Has(c);
  }
  Status AdvanceClock(Duration d) override { return inner_->AdvanceClock(d); }

 private:
  std::unique_ptr<Backend> inner_;
  std::string name_ = "limited";
};

class AggregatorBenchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto backend = OpenBackend("emulator?clock=manual");
    ASSERT_TRUE(backend.ok()) << ToString(backend.error());
    backend_ = std::move(*backend);
  }

  BenchOutcome Run(std::vector<std::string> flags, Backend* backend = nullptr) {
    BenchTarget target{backend ? backend : backend_.get(), "emulator",
                       "emulator", true};
    auto out = RunAggregatorBench(target, flags, progress_);
    EXPECT_TRUE(out.ok()) << ToString(out.error());
    if (out.ok()) ExpectFlat(out->results);
    return out.ok() ? *out : BenchOutcome{};
  }

  // The report schema's rule for results: a scalar, or {p50, p99, max}.
  static void ExpectFlat(const json& results) {
    for (const auto& [name, v] : results.items()) {
      if (v.is_object()) {
        EXPECT_EQ(v.size(), 3u) << name;
        for (const char* k : {"p50", "p99", "max"}) {
          EXPECT_TRUE(v.contains(k) && v[k].is_number()) << name << v;
        }
      } else {
        EXPECT_TRUE(v.is_primitive()) << name << v;
      }
    }
  }

  static json Check(const BenchOutcome& o, const std::string& name) {
    for (const json& c : o.checks) {
      if (c.value("name", "") == name) return c;
    }
    ADD_FAILURE() << "no check " << name << " in " << o.checks.dump();
    return json::object();
  }

  std::string Error(std::vector<std::string> flags) {
    BenchTarget target{backend_.get(), "emulator", "emulator", true};
    auto out = RunAggregatorBench(target, flags, nullptr);
    EXPECT_FALSE(out.ok());
    return out.ok() ? "" : out.error().message;
  }

  std::unique_ptr<Backend> backend_;
  std::vector<double> fractions_;
  ProgressFn progress_ = [this](double f, std::string_view) {
    fractions_.push_back(f);
  };
};

TEST_F(AggregatorBenchTest, CorrectVariantIsExactAndCostsFourWcuPerRecord) {
  BenchOutcome o =
      Run({"--records", "2000", "--rate", "1000", "--customers", "7",
           "--batch-size", "50", "--parallelization=2", "--write", "batch"});
  const json& r = o.results;
  EXPECT_EQ(r["records_produced"], 2000);
  EXPECT_EQ(r["records_delivered"], 2000);
  EXPECT_EQ(r["totals_exact"], true);
  EXPECT_EQ(r["aggregator_applied"], 2000);
  EXPECT_EQ(r["aggregator_duplicates"], 0);
  // A transfer is under 1 KB: 1 WCU per put; each record is one
  // TransactWriteItems of two items under 1 KB, 2 WCU each.
  EXPECT_DOUBLE_EQ(r["wcu_source"].get<double>(), 2000);
  EXPECT_DOUBLE_EQ(r["wcu_rollup"].get<double>(), 4000);
  EXPECT_DOUBLE_EQ(r["wcu_dedupe"].get<double>(), 4000);
  EXPECT_DOUBLE_EQ(r["rollup_wcu_per_source_wcu"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(r["aggregate_wcu_per_source_wcu"].get<double>(), 4.0);
  // 80 BatchWriteItem calls of 25.
  EXPECT_EQ(r["calls_BatchWriteItem"], 80);
  EXPECT_EQ(r["calls_TransactWriteItems"], 2000);
  EXPECT_EQ(r["stream_shards"], 1);
  EXPECT_EQ(r["throttles_rollup"], 0);
  // 2000 records at 1000/s on the virtual clock: the last is written at
  // 1.999 s.
  EXPECT_GE(r["clock_seconds"].get<double>(), 1.999);
  EXPECT_LT(r["clock_seconds"].get<double>(), 3.0);
  EXPECT_EQ(Check(o, "all_records_delivered")["ok"], true);
  EXPECT_EQ(Check(o, "totals_exact")["ok"], true);
  EXPECT_EQ(Check(o, "tables_deleted")["ok"], true);
  EXPECT_EQ(o.parameters["batch_size"], 50);
  EXPECT_EQ(o.parameters["parallelization_factor"], 2);
  EXPECT_EQ(o.parameters["variant"], "correct");
  EXPECT_EQ(o.parameters["handler_cost_ms"], 0.0);
  EXPECT_TRUE(o.not_available.empty()) << o.not_available.dump();
  ASSERT_FALSE(fractions_.empty());
  EXPECT_EQ(fractions_.back(), 1.0);
  // The tables are gone.
  auto tables = backend_->Call("ListTables", json::object());
  ASSERT_TRUE(tables.ok());
  EXPECT_TRUE((*tables)["TableNames"].empty()) << tables->dump();
}

TEST_F(AggregatorBenchTest, PublishedSinglePutsCostOneWcuPerRecord) {
  BenchOutcome o = Run({"--records", "300", "--write", "single", "--variant",
                        "published", "--batch-size", "100"});
  const json& r = o.results;
  EXPECT_EQ(r["totals_exact"], true);
  EXPECT_EQ(r["calls_PutItem"], 300);
  EXPECT_EQ(r["calls_UpdateItem"], 300);
  EXPECT_EQ(r.count("calls_TransactWriteItems"), 0u);
  EXPECT_DOUBLE_EQ(r["wcu_source"].get<double>(), 300);
  EXPECT_DOUBLE_EQ(r["wcu_rollup"].get<double>(), 300);
  EXPECT_FALSE(r.contains("wcu_dedupe"));
  EXPECT_DOUBLE_EQ(r["aggregate_wcu_per_source_wcu"].get<double>(), 1.0);
}

TEST_F(AggregatorBenchTest, PublishedVariantOvercountsWhenTheFunctionFails) {
  BenchOutcome o = Run({"--records", "400", "--variant", "published",
                        "--batch-size", "10", "--fail-every", "4"});
  const json& r = o.results;
  // Every 4th invocation failed after 5 of its 10 records; the batch was
  // delivered again, so those 5 were added twice.
  EXPECT_GT(r["injected_function_errors"].get<int64_t>(), 0);
  EXPECT_EQ(r["records_delivered"], 400);
  EXPECT_EQ(r["totals_exact"], false);
  EXPECT_EQ(r["aggregator_applied"].get<int64_t>(),
            400 + 5 * r["injected_function_errors"].get<int64_t>());
  json totals = Check(o, "totals_exact");
  EXPECT_EQ(totals["ok"], false);
  EXPECT_NE(totals["detail"].get<std::string>().find("overcounted by"),
            std::string::npos)
      << totals.dump();
  EXPECT_EQ(Check(o, "all_records_delivered")["ok"], true);
}

TEST_F(AggregatorBenchTest, CorrectVariantStaysExactWhenTheFunctionFails) {
  BenchOutcome o = Run({"--records", "400", "--batch-size", "10",
                        "--fail-every", "4", "--write", "single"});
  const json& r = o.results;
  const int64_t failures = r["injected_function_errors"].get<int64_t>();
  EXPECT_GT(failures, 0);
  EXPECT_EQ(r["totals_exact"], true);
  EXPECT_EQ(r["aggregator_duplicates"].get<int64_t>(), 5 * failures);
  EXPECT_EQ(Check(o, "totals_exact")["ok"], true);
}

// Three aggregate writes in a row throttled. The published function's
// UpdateItem is retried as an SDK retries (3 attempts), which gives up on
// one record and drops it; the correct one reports the record and gets it
// again. The producer's first batch has 5
// items left unprocessed, and its retry of those 5 is throttled whole (all
// of a batch unprocessed is DynamoDB's throttling exception).
constexpr const char* kThrottlePlan = R"({"rules": [
    {"operation": ["UpdateItem", "TransactWriteItems"], "effect": "throttle",
     "times": 3},
    {"operation": ["BatchWriteItem"], "effect": "unprocessed", "count": 5,
     "times": 2}]})";

TEST_F(AggregatorBenchTest, ThrottledPublishedWriteIsDroppedAndCounted) {
  ASSERT_TRUE(backend_->SetFaultPlan(json::parse(kThrottlePlan)).ok());
  BenchOutcome o = Run({"--records", "500", "--variant", "published"});
  const json& r = o.results;
  EXPECT_EQ(r["throttles_rollup"], 3);
  EXPECT_EQ(r["aggregator_sdk_retries"], 2);
  EXPECT_EQ(r["aggregator_swallowed_errors"], 1);
  EXPECT_EQ(r["throttles_source"], 1);
  EXPECT_EQ(r["unprocessed_items"], 5);
  EXPECT_EQ(r["producer_retries"], 2);
  EXPECT_EQ(r["records_delivered"], 500);
  EXPECT_EQ(r["totals_exact"], false);
  json totals = Check(o, "totals_exact");
  EXPECT_NE(totals["detail"].get<std::string>().find("undercounted by 1"),
            std::string::npos)
      << totals.dump();
}

TEST_F(AggregatorBenchTest, ThrottledCorrectWriteIsDeliveredAgain) {
  ASSERT_TRUE(backend_->SetFaultPlan(json::parse(kThrottlePlan)).ok());
  BenchOutcome o = Run({"--records", "500"});
  const json& r = o.results;
  EXPECT_EQ(r["throttles_rollup"], 3);
  EXPECT_EQ(r["throttles_dedupe"], 3);  // one transaction names both tables
  // A throttle inside a transaction is a TransactionCanceledException
  // (ThrottlingError reason), which SDKs do not retry: each one is reported
  // as a failed record and delivered again.
  EXPECT_EQ(r["aggregator_sdk_retries"], 0);
  EXPECT_EQ(r["aggregator_failed_records"], 3);
  EXPECT_EQ(r["mapping_partial_failures"], 3);
  EXPECT_EQ(r["totals_exact"], true);
  EXPECT_EQ(Check(o, "totals_exact")["ok"], true);
}

TEST_F(AggregatorBenchTest, HandlerCostSetsTheModelledRateAndLag) {
  // 100 ms per invocation of 10 records: one lane folds 100 records/s of
  // the 200/s written, so it falls behind; ten lanes keep up.
  BenchOutcome one =
      Run({"--records", "1000", "--rate", "200", "--batch-size", "10",
           "--handler-cost", "100ms", "--customers", "50"});
  BenchOutcome ten = Run({"--records", "1000", "--rate", "200", "--batch-size",
                          "10", "--handler-cost", "100ms", "--customers", "50",
                          "--parallelization", "10"});
  EXPECT_EQ(one.results["totals_exact"], true);
  EXPECT_EQ(ten.results["totals_exact"], true);
  // 100 invocations of 100 ms in a row.
  EXPECT_GE(one.results["clock_seconds"].get<double>(), 10.0);
  EXPECT_LT(one.results["clock_seconds"].get<double>(), 11.0);
  EXPECT_LT(ten.results["clock_seconds"].get<double>(), 6.0);
  EXPECT_GT(one.results["iterator_age_ms"]["p99"].get<double>(), 4000);
  EXPECT_LT(ten.results["iterator_age_ms"]["p99"].get<double>(),
            one.results["iterator_age_ms"]["p99"].get<double>() / 4);
  EXPECT_EQ(one.parameters["handler_cost_ms"], 100.0);
}

TEST_F(AggregatorBenchTest, SplitsTheStreamIntoTheShardsAsked) {
  BenchOutcome o = Run({"--records", "600", "--shards", "3"});
  EXPECT_EQ(o.results["stream_shards"], 3);
  EXPECT_EQ(o.results["totals_exact"], true);
  EXPECT_EQ(o.results["records_delivered"], 600);
}

TEST_F(AggregatorBenchTest, ALimitedBackendSaysWhatIsNotAvailable) {
  LimitedBackend limited(std::move(backend_));
  BenchOutcome o = Run({"--records", "100", "--shards", "2"}, &limited);
  std::vector<std::string> what;
  for (const json& n : o.not_available) what.push_back(n["what"]);
  EXPECT_EQ(what, (std::vector<std::string>{
                      "stream_shards", "consumed_capacity_source",
                      "consumed_capacity_rollup", "consumed_capacity_dedupe"}));
  EXPECT_EQ(o.not_available[0]["why"],
            "backend limited has no stream shard control; its stream has 1 "
            "open shard(s), not 2");
  EXPECT_TRUE(o.results["wcu_source"].is_null());
  EXPECT_FALSE(o.results.contains("aggregate_wcu_per_source_wcu"));
  EXPECT_EQ(o.results["totals_exact"], true);
}

TEST_F(AggregatorBenchTest, RealClockRunUnpaced) {
  auto system = OpenBackend("emulator");
  ASSERT_TRUE(system.ok());
  BenchTarget target{system->get(), "emulator", "emulator", false};
  // The producer on its own thread; an idle consumer polls every 1 ms.
  std::vector<std::string> flags = {"--rate",          "0",  "--records", "300",
                                    "--poll-interval", "1ms"};
  auto out = RunAggregatorBench(target, flags, nullptr);
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  EXPECT_EQ(out->results["records_delivered"], 300);
  EXPECT_EQ(out->results["totals_exact"], true);
  EXPECT_GT(out->results["records_per_second"].get<double>(), 0);
  EXPECT_EQ(out->parameters["drain_timeout_s"], 30.0);
}

TEST_F(AggregatorBenchTest, VirtualClockNeedsClockControl) {
  auto system = OpenBackend("emulator");
  ASSERT_TRUE(system.ok());
  BenchTarget target{system->get(), "emulator", "emulator", true};
  auto out = RunAggregatorBench(target, {}, nullptr);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message,
            "backend emulator has no clock control, so the run "
            "cannot use a virtual clock");
}

TEST_F(AggregatorBenchTest, BadFlagsNameTheFlag) {
  EXPECT_EQ(Error({"--batch-size", "0"}),
            "--batch-size: expected a whole number 1..10000, got "
            "\"0\"");
  EXPECT_EQ(Error({"--parallelization=11"}),
            "--parallelization: expected a whole number 1..10, "
            "got \"11\"");
  EXPECT_EQ(Error({"--write", "bulk"}),
            "--write: expected single or batch, got \"bulk\"");
  EXPECT_EQ(Error({"--variant", "naive"}),
            "--variant: expected correct or published, got "
            "\"naive\"");
  EXPECT_EQ(Error({"--rate", "-5"}),
            "--rate: expected records per second, 0..10000000, "
            "got \"-5\"");
  EXPECT_EQ(Error({"--handler-cost", "fast"}),
            "--handler-cost: invalid duration 'fast': no number (expected a "
            "number with an optional unit us, ms, s, m, h or d, e.g. 90s, "
            "1.5m, 250ms)");
  EXPECT_EQ(Error({"--fail-every", "1"}),
            "--fail-every: expected 0 (never) or 2 or more (every "
            "invocation failing would never deliver a batch), got \"1\"");
  EXPECT_EQ(Error({"--records"}), "--records: expected a value after it");
  EXPECT_EQ(Error({"--keep-tables=yes"}),
            "--keep-tables: expected no value, got \"yes\"");
  EXPECT_EQ(Error({"records", "5"}),
            "unexpected argument \"records\" (flags start with "
            "--; see the usage)");
  EXPECT_EQ(Error({"--bogus", "1"}),
            "unknown flag --bogus (rate, seconds, records, "
            "customers, write, shards, batch-size, parallelization, variant, "
            "handler-cost, record-cost, poll-interval, fail-every, "
            "drain-timeout, seed, keep-tables)");
}

TEST_F(AggregatorBenchTest, DefaultsDependOnTheClock) {
  auto v = ParseAggregatorFlags({}, true);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->records, 50000);
  EXPECT_EQ(v->rate, 5000);
  auto r = ParseAggregatorFlags({}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->records, 1000);
  EXPECT_EQ(r->drain_timeout, std::chrono::seconds(30));
  std::vector<std::string> flags = {"--rate", "100", "--records", "250"};
  auto given = ParseAggregatorFlags(flags, true);
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(given->duration, std::chrono::milliseconds(2500));
  std::vector<std::string> costs = {"--record-cost=200us", "--handler-cost",
                                    "2", "--poll-interval", "1m"};
  auto timed = ParseAggregatorFlags(costs, true);
  ASSERT_TRUE(timed.ok());
  EXPECT_EQ(timed->record_cost, std::chrono::microseconds(200));
  EXPECT_EQ(timed->handler_cost, std::chrono::seconds(2));
  EXPECT_EQ(timed->poll_interval, std::chrono::minutes(1));
}

}  // namespace
}  // namespace ddblab::harness::bench
