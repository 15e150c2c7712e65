// emulator/storage/file_lock.h: the exclusive lock that makes a database
// file one server's (one Database's) alone.
//
// Two ddblab processes on one SQLite file would each keep their own catalog
// in memory and lose or refuse each other's writes, so a file Database holds
// a FileLock for its whole life: a non-blocking exclusive flock(2) on a
// descriptor of its own (O_CLOEXEC, so hosted child commands do not inherit
// it) on the database file itself. flock locks are independent of SQLite's
// fcntl byte-range locks, follow the inode (a symlink or hard link to a
// locked file is refused too) and are dropped by the kernel when the
// process dies, even by kill -9. Locking the main file is enough: the -wal
// and -shm files belong to it.
//
// Within one process a second Database on the same file is refused before
// any descriptor is opened (a process-wide registry of locked inodes): a
// descriptor opened and closed on a file SQLite holds fcntl locks on would
// drop those locks (POSIX releases them on any close by the process).
//
// The refusal is ResourceInUseException naming the path; across processes
// it names the holder's pid when /proc/locks shows it (best effort: the
// lock itself never depends on it).
//
// Ownership: move-only; destroying it (after the SQLite connection is
// closed) releases the lock. Thread-safety: Acquire and the destructor may
// run on any threads at once (the registry has its own mutex).
#pragma once

#include <sys/types.h>

#include <string>

#include "emulator/api/result.h"

namespace ddblab::storage {

class FileLock {
 public:
  FileLock() = default;
  ~FileLock();
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  // Locks the file at `file` (created if missing). `shown` is the path the
  // user gave, used in messages. Fails with ResourceInUseException if
  // another process or another FileLock of this process holds it, with
  // InternalServerError if the file cannot be opened or locked.
  static Result<FileLock> Acquire(const std::string& file,
                                  const std::string& shown);

  bool held() const { return fd_ >= 0; }

 private:
  void Release();

  int fd_ = -1;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
};

// The message of the refusal for a file locked by another process (pid 0:
// unknown) or by this one.
std::string InUseByProcessMessage(const std::string& shown, pid_t pid);
std::string InUseInProcessMessage(const std::string& shown);

}  // namespace ddblab::storage
