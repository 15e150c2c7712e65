#include "emulator/api/clock.h"

namespace ddblab {

int64_t ToEpochSeconds(TimePoint t) {
  return std::chrono::floor<std::chrono::seconds>(t).time_since_epoch().count();
}

double ToEpochSecondsDouble(TimePoint t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

TimePoint FromEpochSeconds(int64_t seconds) {
  return TimePoint(std::chrono::seconds(seconds));
}

TimePoint SystemClock::Now() const {
  return std::chrono::time_point_cast<Duration>(
      std::chrono::system_clock::now());
}

bool SystemClock::SleepUntil(TimePoint t, std::stop_token stop) {
  std::unique_lock lock(mu_);
  // wait_until with a stop_token returns early when stop is requested.
  cv_.wait_until(lock, stop, t, [] { return false; });
  return !stop.stop_requested();
}

ManualClock::ManualClock()
    : ManualClock(FromEpochSeconds(kDefaultStartEpochSeconds)) {}

ManualClock::ManualClock(TimePoint start) : now_(start) {}

TimePoint ManualClock::Now() const {
  std::lock_guard lock(mu_);
  return now_;
}

bool ManualClock::SleepUntil(TimePoint t, std::stop_token stop) {
  std::unique_lock lock(mu_);
  return cv_.wait(lock, stop, [&] { return now_ >= t; });
}

void ManualClock::Advance(Duration d) {
  if (d <= Duration::zero()) return;
  {
    std::lock_guard lock(mu_);
    now_ += d;
  }
  cv_.notify_all();
}

bool ManualClock::Set(TimePoint t) {
  {
    std::lock_guard lock(mu_);
    if (t < now_) return false;
    now_ = t;
  }
  cv_.notify_all();
  return true;
}

void ManualClock::Reset(TimePoint t) {
  {
    std::lock_guard lock(mu_);
    now_ = t;
  }
  cv_.notify_all();
}

}  // namespace ddblab
