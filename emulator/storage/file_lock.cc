#include "emulator/storage/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <utility>

namespace ddblab::storage {
namespace {

// The inodes this process holds a FileLock on.
struct Registry {
  std::mutex mu;
  std::set<std::pair<dev_t, ino_t>> locked;  // guarded by mu
};

Registry& TheRegistry() {
  static Registry* registry = new Registry();  // never destroyed
  return *registry;
}

std::string Errno(int error) { return std::strerror(error); }

// The pid /proc/locks shows for a FLOCK WRITE lock on (dev, ino); 0 if
// none is shown (no procfs, another pid namespace, a filesystem whose
// device numbers differ from stat's). Lines look like
//   "3: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"
// (device major and minor in hex); waiters ("3: -> FLOCK ...") are skipped.
pid_t HolderPid(dev_t dev, ino_t ino) {
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream in(line);
    std::string ordinal, kind, advisory, mode, where;
    long pid = 0;
    if (!(in >> ordinal >> kind >> advisory >> mode >> pid >> where)) continue;
    if (kind != "FLOCK" || mode != "WRITE" || pid <= 0) continue;
    unsigned major_number = 0, minor_number = 0;
    unsigned long long inode = 0;
    if (std::sscanf(where.c_str(), "%x:%x:%llu", &major_number, &minor_number,
                    &inode) != 3) {
      continue;
    }
    if (major_number == major(dev) && minor_number == minor(dev) &&
        inode == static_cast<unsigned long long>(ino)) {
      return static_cast<pid_t>(pid);
    }
  }
  return 0;
}

}  // namespace

std::string InUseByProcessMessage(const std::string& shown, pid_t pid) {
  std::string msg =
      "database " + shown + " is in use by another ddblab process";
  if (pid > 0) msg += " (pid " + std::to_string(pid) + ")";
  msg += ": one server per database file; stop it or use another database file";
  return msg;
}

std::string InUseInProcessMessage(const std::string& shown) {
  return "database " + shown +
         " is already open in this process: one emulator per database file; "
         "close it or use another database file";
}

Result<FileLock> FileLock::Acquire(const std::string& file,
                                   const std::string& shown) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> guard(registry.mu);
  // Refuse a file this process holds before opening a descriptor on it.
  struct stat before {};
  if (stat(file.c_str(), &before) == 0 &&
      registry.locked.count({before.st_dev, before.st_ino}) != 0) {
    return Error::ResourceInUse(InUseInProcessMessage(shown));
  }
  int fd = open(file.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
  if (fd < 0) {
    return Error::Internal("cannot open database '" + shown +
                           "' to lock it: " + Errno(errno));
  }
  struct stat opened {};
  if (fstat(fd, &opened) != 0) {
    int error = errno;
    close(fd);
    return Error::Internal("cannot lock database '" + shown +
                           "': " + Errno(error));
  }
  if (registry.locked.count({opened.st_dev, opened.st_ino}) != 0) {
    // Replaced by a file this process holds between stat and open.
    close(fd);
    return Error::ResourceInUse(InUseInProcessMessage(shown));
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int error = errno;
    close(fd);
    if (error == EWOULDBLOCK) {
      return Error::ResourceInUse(InUseByProcessMessage(
          shown, HolderPid(opened.st_dev, opened.st_ino)));
    }
    return Error::Internal("cannot lock database '" + shown +
                           "': " + Errno(error));
  }
  registry.locked.insert({opened.st_dev, opened.st_ino});
  FileLock lock;
  lock.fd_ = fd;
  lock.dev_ = opened.st_dev;
  lock.ino_ = opened.st_ino;
  return lock;
}

FileLock::~FileLock() { Release(); }

FileLock::FileLock(FileLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), dev_(other.dev_), ino_(other.ino_) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    Release();
    fd_ = std::exchange(other.fd_, -1);
    dev_ = other.dev_;
    ino_ = other.ino_;
  }
  return *this;
}

void FileLock::Release() {
  if (fd_ < 0) return;
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> guard(registry.mu);
  close(fd_);  // drops the flock
  fd_ = -1;
  registry.locked.erase({dev_, ino_});
}

}  // namespace ddblab::storage
