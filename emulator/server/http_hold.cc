// The HTTP server's hold for responses due later (http_hold.h).
#include "emulator/server/http_hold.h"

#include <algorithm>
#include <utility>

namespace ddblab::server::http_internal {

ResponseHold::ResponseHold() : thread_([this] { Run(); }) {}

ResponseHold::~ResponseHold() {
  ReleaseAll();
  thread_.join();
}

void ResponseHold::Add(DueTime due, Release release) {
  {
    std::lock_guard lock(mu_);
    if (!released_ && !due.Reached()) {
      const uint64_t seq = next_seq_++;
      heap_.push_back(Entry{std::move(due), seq, std::move(release)});
      std::push_heap(heap_.begin(), heap_.end(), Later{});
      // A new earliest entry: the thread waits for a later one (or none).
      if (heap_.front().seq == seq) {
        wake_.request_stop();
        cv_.notify_all();
      }
      return;
    }
  }
  release();
}

void ResponseHold::ReleaseAll() {
  std::vector<Entry> all;
  {
    std::lock_guard lock(mu_);
    released_ = true;
    all.swap(heap_);
    wake_.request_stop();
    cv_.notify_all();
  }
  // Earliest first, as they would have come.
  std::sort_heap(all.begin(), all.end(), Later{});
  std::reverse(all.begin(), all.end());
  for (Entry& entry : all) entry.release();
}

size_t ResponseHold::size() const {
  std::lock_guard lock(mu_);
  return heap_.size();
}

void ResponseHold::Run() {
  std::unique_lock lock(mu_);
  while (!released_) {
    if (heap_.empty()) {
      cv_.wait(lock, [this] { return released_ || !heap_.empty(); });
      continue;
    }
    std::vector<Release> due;
    while (!heap_.empty() && heap_.front().due.Reached()) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      due.push_back(std::move(heap_.back().release));
      heap_.pop_back();
    }
    if (!due.empty()) {
      lock.unlock();
      for (Release& release : due) release();
      lock.lock();
      continue;
    }
    const DueTime next = heap_.front().due;
    wake_ = std::stop_source();
    std::stop_token token = wake_.get_token();
    lock.unlock();
    next.clock->SleepUntil(next.at, token);
    lock.lock();
  }
}

}  // namespace ddblab::server::http_internal
