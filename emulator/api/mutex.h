// emulator/api/mutex.h: a mutex and its guard that Clang's thread-safety
// analysis understands (std::mutex carries no annotations in libstdc++).
//
//   Mutex mu_;
//   int count_ DDBLAB_GUARDED_BY(mu_);
//   void Add() { MutexLock lock(mu_); ++count_; }
//
// Mutex is a std::mutex with annotated lock()/unlock() (so it also works
// with std::condition_variable_any: cv.wait(lock) on a MutexLock).
// MutexLock holds it for its scope; unlock()/lock() on the guard release and
// re-take it (the analysis follows both).
//
// Thread-safety: Mutex is the lock; a MutexLock belongs to one thread.
#pragma once

#include <mutex>

#include "emulator/api/thread_annotations.h"

namespace ddblab {

class DDBLAB_CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() DDBLAB_ACQUIRE() { mu_.lock(); }
  void unlock() DDBLAB_RELEASE() { mu_.unlock(); }

 private:
  std::mutex mu_;
};

class DDBLAB_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) DDBLAB_ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~MutexLock() DDBLAB_RELEASE() {
    if (held_) mu_.unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  // For std::condition_variable_any::wait, or to drop the lock early.
  void lock() DDBLAB_ACQUIRE() {
    mu_.lock();
    held_ = true;
  }
  void unlock() DDBLAB_RELEASE() {
    mu_.unlock();
    held_ = false;
  }

 private:
  Mutex& mu_;
  bool held_ = true;
};

}  // namespace ddblab
