#include "emulator/engine/ttl/ttl_delay.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>

#include "emulator/api/random.h"

namespace ddblab::engine {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

std::string DelayError(std::string_view text) {
  Result<TtlDelay> d = TtlDelay::Parse(text);
  return d.ok() ? "ok" : ToString(d.error());
}

TEST(TtlDelayTest, ParsesEveryModel) {
  TtlDelay zero = *TtlDelay::Parse("0");
  EXPECT_EQ(zero.kind(), TtlDelay::Kind::kNone);
  EXPECT_EQ(zero.ToString(), "0");
  EXPECT_EQ(zero.SecondsFor(1, "x"), 0);

  TtlDelay fixed = *TtlDelay::Parse("90s");
  EXPECT_EQ(fixed.kind(), TtlDelay::Kind::kFixed);
  EXPECT_EQ(fixed.SecondsFor(1, "x"), 90);
  EXPECT_EQ(fixed.SecondsFor(2, "y"), 90);
  EXPECT_EQ(TtlDelay::Parse("15m")->SecondsFor(0, ""), 900);
  EXPECT_EQ(fixed.ToString(), "90s");

  TtlDelay range = *TtlDelay::Parse("1m..48h");
  EXPECT_EQ(range.kind(), TtlDelay::Kind::kUniform);
  EXPECT_EQ(range.low_seconds(), 60);
  EXPECT_EQ(range.high_seconds(), 48 * 3600);
  EXPECT_EQ(range.ToString(), "60s..172800s");
  // A degenerate range is a fixed delay.
  EXPECT_EQ(TtlDelay::Parse("2m..120s")->kind(), TtlDelay::Kind::kFixed);

  TtlDelay aws = *TtlDelay::Parse("aws");
  EXPECT_EQ(aws.kind(), TtlDelay::Kind::kAws);
  EXPECT_EQ(aws.ToString(), "aws");
}

TEST(TtlDelayTest, Errors) {
  const std::string tail =
      " (expected 0, a duration like 90s or 15m, a range like 1m..48h, or "
      "aws)";
  EXPECT_EQ(DelayError("fast"),
            "ValidationException: invalid TTL delay 'fast': invalid duration "
            "'fast': no number (expected a number with an optional unit us, "
            "ms, s, m, h or d, e.g. 90s, 1.5m, 250ms)" +
                tail);
  EXPECT_EQ(DelayError("2h..1h"),
            "ValidationException: invalid TTL delay '2h..1h': the range ends "
            "before it starts" +
                tail);
  EXPECT_EQ(DelayError("500ms"),
            "ValidationException: invalid TTL delay '500ms': delays are whole "
            "seconds" +
                tail);
  EXPECT_NE(DelayError("1m.."), "ok");
  EXPECT_NE(DelayError("..1m"), "ok");
  EXPECT_NE(DelayError(""), "ok");
  EXPECT_NE(DelayError("AWS"), "ok");
}

TEST(TtlDelayTest, UniformIsAFunctionOfSeedAndItem) {
  TtlDelay range = *TtlDelay::Parse("1m..48h");
  std::set<int64_t> seen;
  int differs_by_seed = 0;
  for (int i = 0; i < 1000; ++i) {
    std::string id = "item-" + std::to_string(i);
    int64_t d = range.SecondsFor(42, id);
    EXPECT_GE(d, 60);
    EXPECT_LE(d, 48 * 3600);
    seen.insert(d);
    if (range.SecondsFor(43, id) != d) ++differs_by_seed;
  }
  EXPECT_GT(seen.size(), 990u);
  EXPECT_GT(differs_by_seed, 990);

  // Both ends of a small range are reached.
  TtlDelay small = *TtlDelay::Parse("1s..3s");
  std::set<int64_t> values;
  for (int i = 0; i < 200; ++i) {
    values.insert(small.SecondsFor(7, "k" + std::to_string(i)));
  }
  EXPECT_EQ(values, (std::set<int64_t>{1, 2, 3}));
}

TEST(TtlDelayTest, AwsIsMostlyMinutesWithALongTail) {
  TtlDelay aws = TtlDelay::Aws();
  const int n = 100000;
  int minutes_bucket = 0, middle = 0, tail = 0;
  int64_t max = 0, min = INT64_MAX;
  for (int i = 0; i < n; ++i) {
    int64_t d = aws.SecondsFor(5, "item-" + std::to_string(i));
    max = std::max(max, d);
    min = std::min(min, d);
    if (d <= 15 * 60) {
      ++minutes_bucket;
    } else if (d <= 6 * 3600) {
      ++middle;
    } else {
      ++tail;
    }
  }
  EXPECT_GE(min, 60);
  EXPECT_LE(max, 48 * 3600);
  EXPECT_GT(max, 40 * 3600);  // the tail reaches towards 48 h
  EXPECT_NEAR(minutes_bucket / double(n), 0.90, 0.01);
  EXPECT_NEAR(middle / double(n), 0.08, 0.01);
  EXPECT_NEAR(tail / double(n), 0.02, 0.005);
}

TEST(TtlDelayTest, PinnedValues) {
  // Guards the algorithm: changing it changes every seeded run's deletion
  // times, on every machine.
  EXPECT_EQ(TtlDelay::Parse("1m..48h")->SecondsFor(42, "item-1"), 64061);
  EXPECT_EQ(TtlDelay::Aws().SecondsFor(42, "item-1"), 377);
  EXPECT_EQ(TtlDelay::Aws().SecondsFor(42, "item-2"), 877);
  EXPECT_EQ(TtlDelay::Aws().SecondsFor(7, "x"), 148);
  EXPECT_EQ(TtlDelay::Uniform(0, 999).SecondsFor(1, "a"),
            static_cast<int64_t>(Rng::Hash(1, "a") % 1000));
}

}  // namespace
}  // namespace ddblab::engine
