// emulator/api/clock.h: the only source of time.
//
// Everything that needs "now" (TTL, stream timestamps, shard rollover,
// iterator expiry, table status changes) reads an injected Clock. SystemClock
// is the only code that reads real time or sleeps; tests and scenarios use
// ManualClock and move it with Advance/Set.
//
// Thread-safety: all methods of both clocks are safe to call concurrently.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stop_token>

namespace ddblab {

using Duration = std::chrono::nanoseconds;
using TimePoint = std::chrono::sys_time<Duration>;

// Whole seconds since the Unix epoch (floor).
int64_t ToEpochSeconds(TimePoint t);
// Seconds since the epoch with a fractional part (DynamoDB's timestamps).
double ToEpochSecondsDouble(TimePoint t);
TimePoint FromEpochSeconds(int64_t seconds);

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint Now() const = 0;
  // Blocks until Now() >= t (returns true) or until stop is requested
  // (returns false).
  virtual bool SleepUntil(TimePoint t, std::stop_token stop) = 0;
};

class SystemClock final : public Clock {
 public:
  TimePoint Now() const override;
  bool SleepUntil(TimePoint t, std::stop_token stop) override;

 private:
  std::mutex mu_;
  std::condition_variable_any cv_;
};

// A clock that only moves when told. Starts at kDefaultStart
// (2024-01-01T00:00:00Z) unless given another time.
class ManualClock final : public Clock {
 public:
  static constexpr int64_t kDefaultStartEpochSeconds = 1704067200;

  ManualClock();
  explicit ManualClock(TimePoint start);

  TimePoint Now() const override;
  bool SleepUntil(TimePoint t, std::stop_token stop) override;

  // Moves time forward by d (d < 0 is ignored) and wakes every sleeper whose
  // time has come.
  void Advance(Duration d);
  // Moves time to t if t is not before Now(); returns false otherwise.
  bool Set(TimePoint t);
  // Moves time to t, backwards too (a reset starts a new run: Emulator::
  // Reset); wakes every sleeper whose time has come.
  void Reset(TimePoint t);

 private:
  mutable std::mutex mu_;
  std::condition_variable_any cv_;
  TimePoint now_;
};

}  // namespace ddblab
