// Percentiles of the benchmark reports (harness/bench/stats.h): nearest
// rank, durations as seconds, zeros for no samples.
#include "harness/bench/stats.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace ddblab::harness::bench {
namespace {

TEST(PercentilesTest, NearestRankOfOneToHundred) {
  std::vector<double> samples;
  for (int i = 100; i >= 1; --i) samples.push_back(i);  // order does not matter
  Percentiles p = Percentiles::Of(samples);
  EXPECT_EQ(p.count, 100u);
  EXPECT_EQ(p.p50, 50);
  EXPECT_EQ(p.p99, 99);
  EXPECT_EQ(p.max, 100);
  EXPECT_EQ(p.ToJson(),
            (nlohmann::json{{"p50", 50.0}, {"p99", 99.0}, {"max", 100.0}}));
}

TEST(PercentilesTest, FewSamplesAndNone) {
  Percentiles one = Percentiles::Of(std::vector<double>{7});
  EXPECT_EQ(one.p50, 7);
  EXPECT_EQ(one.p99, 7);
  EXPECT_EQ(one.max, 7);
  Percentiles three = Percentiles::Of(std::vector<double>{3, 1, 2});
  EXPECT_EQ(three.p50, 2);
  EXPECT_EQ(three.p99, 3);
  Percentiles none = Percentiles::Of(std::vector<double>{});
  EXPECT_EQ(none.count, 0u);
  EXPECT_EQ(none.ToJson(),
            (nlohmann::json{{"p50", 0.0}, {"p99", 0.0}, {"max", 0.0}}));
}

TEST(PercentilesTest, QuantilesFromMinimumToMaximum) {
  std::vector<double> samples;
  for (int i = 1; i <= 10; ++i) samples.push_back(11 - i);
  EXPECT_EQ(Percentiles::Quantiles(samples, 4),
            (std::vector<double>{1, 3, 5, 8, 10}));
  EXPECT_EQ(Percentiles::Quantiles(samples, 1), (std::vector<double>{1, 10}));
  EXPECT_TRUE(Percentiles::Quantiles({}, 20).empty());
}

TEST(PercentilesTest, DurationsAreSeconds) {
  using namespace std::chrono_literals;
  std::vector<std::chrono::milliseconds> d = {1500ms, 500ms, 250ms};
  Percentiles p = Percentiles::Of(d);
  EXPECT_DOUBLE_EQ(p.p50, 0.5);
  EXPECT_DOUBLE_EQ(p.max, 1.5);
}

}  // namespace
}  // namespace ddblab::harness::bench
