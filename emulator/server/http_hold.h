// emulator/server/http_hold.h: internal to the HTTP server (http_server.cc):
// responses held until their due time (latency faults), all on one thread.
//
// A response whose WireResponse::due is set was computed at once but must
// not be written before that time on the engine's clock. The session hands
// the hold a release action (post the response to its strand) and returns
// to its event loop: no thread waits for it. One thread keeps a min-heap of
// (due time, release) and waits with Clock::SleepUntil for the earliest —
// a ManualClock wakes it when advanced, a SystemClock when the time comes;
// an entry earlier than the one it waits for wakes it through a fresh
// stop_source. So the thread count does not grow with held responses.
// Entries are expected on one clock (the engine's): the thread waits on the
// earliest entry's clock, and releases an entry once it is due on its own.
//
// ReleaseAll() (shutdown) runs every held release at once, stops the
// thread, and runs any later Add() at once on the caller.
//
// Ownership: owns the release actions until it runs them (a held session
// stays alive through its action). Thread-safety: all methods from any
// thread; release actions run on the hold thread or in ReleaseAll()/Add()
// on the caller, never under the hold's lock.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "emulator/api/deferred_answer.h"

namespace ddblab::server::http_internal {

class ResponseHold {
 public:
  using Release = std::function<void()>;

  ResponseHold();
  // ReleaseAll(), then joins the thread.
  ~ResponseHold();

  ResponseHold(const ResponseHold&) = delete;
  ResponseHold& operator=(const ResponseHold&) = delete;

  // Runs `release` once `due` is reached (at once if it already is, or
  // after ReleaseAll()).
  void Add(DueTime due, Release release);

  // Runs every held release now; later Add()s run at once. Idempotent.
  void ReleaseAll();

  // Responses held now.
  size_t size() const;

 private:
  struct Entry {
    DueTime due;
    uint64_t seq;  // FIFO among equal due times
    Release release;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      if (a.due.at != b.due.at) return a.due.at > b.due.at;
      return a.seq > b.seq;
    }
  };

  void Run();

  mutable std::mutex mu_;
  std::condition_variable_any cv_;
  std::vector<Entry> heap_;  // a min-heap by Later (guarded by mu_)
  uint64_t next_seq_ = 0;    // guarded by mu_
  bool released_ = false;    // guarded by mu_: ReleaseAll() ran
  // Requested to wake the thread from its SleepUntil (guarded by mu_).
  std::stop_source wake_;
  std::thread thread_;  // last: started after the members above exist
};

}  // namespace ddblab::server::http_internal
