#include "emulator/storage/file_lock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace ddblab::storage {
namespace {

class FileLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/ddblab-file-lock-test-" + std::to_string(getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A child process that flocks `path` the way another ddblab would, tells
  // the parent through a pipe, then waits until the parent closes `release_`
  // (or kills it).
  pid_t LockInChild(const std::string& path) {
    int ready[2];
    EXPECT_EQ(pipe(ready), 0);
    EXPECT_EQ(pipe(release_), 0);
    pid_t child = fork();
    if (child == 0) {
      close(ready[0]);
      close(release_[1]);
      int fd = open(path.c_str(), O_RDONLY | O_CREAT, 0644);
      char ok = (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) ? '1' : '0';
      if (write(ready[1], &ok, 1) != 1) _exit(2);
      char ignored;
      while (read(release_[0], &ignored, 1) > 0) {
      }
      _exit(0);
    }
    close(ready[1]);
    close(release_[0]);
    char ok = '0';
    EXPECT_EQ(read(ready[0], &ok, 1), 1);
    close(ready[0]);
    EXPECT_EQ(ok, '1');
    return child;
  }

  std::string dir_;
  int release_[2] = {-1, -1};
};

TEST_F(FileLockTest, SecondLockInOneProcessIsRefusedUntilTheFirstIsReleased) {
  std::string path = dir_ + "/a.db";
  auto first = FileLock::Acquire(path, path);
  ASSERT_TRUE(first.ok()) << ToString(first.error());
  EXPECT_TRUE(first->held());
  EXPECT_TRUE(std::filesystem::exists(path));  // created

  auto second = FileLock::Acquire(path, "shown.db");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().type, ErrorType::kResourceInUse);
  EXPECT_EQ(second.error().message,
            "database shown.db is already open in this process: one emulator "
            "per database file; close it or use another database file");

  *first = FileLock();  // releases
  auto third = FileLock::Acquire(path, path);
  ASSERT_TRUE(third.ok()) << ToString(third.error());
  EXPECT_TRUE(third->held());
}

TEST_F(FileLockTest, SymlinkAndHardLinkToALockedFileAreRefused) {
  std::string path = dir_ + "/a.db";
  auto first = FileLock::Acquire(path, path);
  ASSERT_TRUE(first.ok()) << ToString(first.error());
  std::filesystem::create_symlink(path, dir_ + "/sym.db");
  std::filesystem::create_hard_link(path, dir_ + "/hard.db");
  for (const char* name : {"/sym.db", "/hard.db"}) {
    auto other = FileLock::Acquire(dir_ + name, name);
    ASSERT_FALSE(other.ok()) << name;
    EXPECT_EQ(other.error().type, ErrorType::kResourceInUse) << name;
  }
  auto unrelated = FileLock::Acquire(dir_ + "/b.db", "b.db");
  EXPECT_TRUE(unrelated.ok());
}

TEST_F(FileLockTest, FileLockedByAnotherProcessIsRefusedWithItsPid) {
  std::string path = dir_ + "/a.db";
  pid_t child = LockInChild(path);
  auto refused = FileLock::Acquire(path, path);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().type, ErrorType::kResourceInUse);
  EXPECT_EQ(refused.error().message,
            "database " + path + " is in use by another ddblab process (pid " +
                std::to_string(child) +
                "): one server per database file; stop it or use another "
                "database file");

  close(release_[1]);  // the child exits
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_EQ(status, 0);
  auto after = FileLock::Acquire(path, path);
  EXPECT_TRUE(after.ok()) << ToString(after.error());
}

TEST_F(FileLockTest, KernelReleasesTheLockOfAKilledProcess) {
  std::string path = dir_ + "/a.db";
  pid_t child = LockInChild(path);
  ASSERT_FALSE(FileLock::Acquire(path, path).ok());
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status));
  close(release_[1]);
  auto after = FileLock::Acquire(path, path);
  EXPECT_TRUE(after.ok()) << ToString(after.error());
}

TEST_F(FileLockTest, UnopenableFileIsAnInternalError) {
  auto lock = FileLock::Acquire(dir_ + "/missing/a.db", "missing/a.db");
  ASSERT_FALSE(lock.ok());
  EXPECT_EQ(lock.error().type, ErrorType::kInternalServerError);
  EXPECT_EQ(lock.error().message,
            "cannot open database 'missing/a.db' to lock it: No such file or "
            "directory");
}

TEST(InUseMessageTest, PidIsLeftOutWhenUnknown) {
  EXPECT_EQ(InUseByProcessMessage("/x/y.db", 0),
            "database /x/y.db is in use by another ddblab process: one server "
            "per database file; stop it or use another database file");
}

}  // namespace
}  // namespace ddblab::storage
