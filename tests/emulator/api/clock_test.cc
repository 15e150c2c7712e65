#include "emulator/api/clock.h"

#include <gtest/gtest.h>

#include <thread>

namespace ddblab {
namespace {

using std::chrono::seconds;

TEST(ManualClockTest, StartsAtFixedEpochAndOnlyMovesWhenTold) {
  ManualClock clock;
  EXPECT_EQ(ToEpochSeconds(clock.Now()),
            ManualClock::kDefaultStartEpochSeconds);
  clock.Advance(seconds(90));
  EXPECT_EQ(ToEpochSeconds(clock.Now()),
            ManualClock::kDefaultStartEpochSeconds + 90);
  clock.Advance(seconds(-5));  // ignored
  EXPECT_EQ(ToEpochSeconds(clock.Now()),
            ManualClock::kDefaultStartEpochSeconds + 90);
}

TEST(ManualClockTest, SetRefusesToMoveBackwards) {
  ManualClock clock(FromEpochSeconds(1000));
  EXPECT_FALSE(clock.Set(FromEpochSeconds(999)));
  EXPECT_EQ(ToEpochSeconds(clock.Now()), 1000);
  EXPECT_TRUE(clock.Set(FromEpochSeconds(2000)));
  EXPECT_EQ(ToEpochSeconds(clock.Now()), 2000);
}

TEST(ManualClockTest, ResetMovesBackwardsToo) {
  ManualClock clock(FromEpochSeconds(1000));
  clock.Reset(FromEpochSeconds(10));
  EXPECT_EQ(ToEpochSeconds(clock.Now()), 10);
  clock.Reset(FromEpochSeconds(5000));
  EXPECT_EQ(ToEpochSeconds(clock.Now()), 5000);
}

TEST(ManualClockTest, SleepUntilPastTimeReturnsAtOnce) {
  ManualClock clock(FromEpochSeconds(1000));
  std::stop_source stop;
  EXPECT_TRUE(clock.SleepUntil(FromEpochSeconds(1000), stop.get_token()));
}

TEST(ManualClockTest, AdvanceWakesSleeperWhoseTimeHasCome) {
  ManualClock clock(FromEpochSeconds(1000));
  std::stop_source stop;
  bool woke = false;
  std::thread sleeper([&] {
    woke = clock.SleepUntil(FromEpochSeconds(1060), stop.get_token());
  });
  clock.Advance(seconds(30));  // not yet due: the sleeper keeps waiting
  clock.Advance(seconds(30));  // due: the sleeper wakes
  sleeper.join();
  EXPECT_TRUE(woke);
}

TEST(ManualClockTest, StopRequestWakesSleeperWithFalse) {
  ManualClock clock(FromEpochSeconds(1000));
  std::stop_source stop;
  bool woke = true;
  std::thread sleeper([&] {
    woke = clock.SleepUntil(FromEpochSeconds(5000), stop.get_token());
  });
  stop.request_stop();
  sleeper.join();
  EXPECT_FALSE(woke);
}

TEST(ClockTest, EpochConversionsRoundTrip) {
  EXPECT_EQ(ToEpochSeconds(FromEpochSeconds(1700000000)), 1700000000);
  EXPECT_DOUBLE_EQ(ToEpochSecondsDouble(FromEpochSeconds(12) +
                                        std::chrono::milliseconds(500)),
                   12.5);
  // Floor, not truncation, before the epoch.
  EXPECT_EQ(ToEpochSeconds(FromEpochSeconds(0) - std::chrono::milliseconds(1)),
            -1);
}

}  // namespace
}  // namespace ddblab
