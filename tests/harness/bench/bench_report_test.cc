// The report envelope every pattern benchmark shares and its summary table
// (harness/bench/bench_report.h): "ok" is every check's, the table prints
// numbers, percentiles and long lists readably, results in name order.
#include "harness/bench/bench_report.h"

#include <gtest/gtest.h>

#include <sstream>

namespace ddblab::harness::bench {
namespace {

BenchOutcome Outcome(bool second_ok) {
  BenchOutcome out;
  out.parameters = {{"items", 3}};
  out.results = {{"deleted_per_second", 12345.678},
                 {"items_deleted", 3},
                 {"cost_usd", 0.0000125},
                 {"delay_seconds", {{"p50", 1.5}, {"p99", 2}, {"max", 2}}},
                 {"few", json::array({1, 2.5})},
                 {"quantiles", json::array({0, 1, 2, 3, 4, 5, 6, 7, 8, 9})}};
  out.not_available = {{{"what", "native_ttl_deletion"}, {"why", "because"}}};
  out.checks = {{{"name", "a"}, {"ok", true}, {"detail", "fine"}},
                {{"name", "b"}, {"ok", second_ok}, {"detail", "2 left"}}};
  return out;
}

TEST(BenchReportTest, EnvelopeCarriesEverythingAndOkIsEveryCheck) {
  const json backend = {
      {"spec", "emulator"}, {"kind", "emulator"}, {"clock", "virtual"}};
  json report = MakeReport("sweeper", backend, "2026-11-25T01:00:00Z", 1.25,
                           Outcome(true));
  EXPECT_EQ(report["schema"], "ddblab-pattern-bench/1");
  EXPECT_EQ(report["benchmark"], "sweeper");
  EXPECT_EQ(report["backend"], backend);
  EXPECT_EQ(report["started_at"], "2026-11-25T01:00:00Z");
  EXPECT_EQ(report["elapsed_seconds"], 1.25);
  EXPECT_EQ(report["parameters"], Outcome(true).parameters);
  EXPECT_EQ(report["results"], Outcome(true).results);
  EXPECT_EQ(report["not_available"], Outcome(true).not_available);
  EXPECT_EQ(report["checks"], Outcome(true).checks);
  EXPECT_EQ(report["ok"], true);
  EXPECT_EQ(MakeReport("sweeper", backend, "t", 1, Outcome(false))["ok"],
            false);
  EXPECT_EQ(MakeReport("sweeper", backend, "t", 1, BenchOutcome())["ok"], true);
}

TEST(BenchReportTest, SummaryTable) {
  json report = MakeReport("sweeper",
                           {{"spec", "emulator"},
                            {"kind", "emulator"},
                            {"clock", "virtual"},
                            {"ttl_delay", "aws"}},
                           "t", 1.25, Outcome(false));
  std::ostringstream out;
  PrintSummary(report, out);
  EXPECT_EQ(out.str(),
            "sweeper on emulator (emulator, virtual clock, TTL delay aws), "
            "1.25 s\n"
            "  cost_usd            1.25e-05\n"
            "  delay_seconds       p50 1.5  p99 2  max 2\n"
            "  deleted_per_second  1.235e+04\n"
            "  few                 1 2.5\n"
            "  items_deleted       3\n"
            "  quantiles           10 values from 0 to 9 (all in the JSON "
            "report)\n"
            "  not available: native_ttl_deletion: because\n"
            "  check a: ok (fine)\n"
            "  check b: FAILED (2 left)\n"
            "a check FAILED\n");
}

}  // namespace
}  // namespace ddblab::harness::bench
