#include "common/control_token/control_token.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace ddblab::control_token {
namespace {

namespace fs = std::filesystem;

class ControlTokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ddblab_token_test_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  static mode_t ModeOf(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(lstat(path.c_str(), &st), 0) << path;
    return st.st_mode & 0777;
  }

  std::string dir_;
};

TEST_F(ControlTokenTest, NewTokensAre64HexDigitsAndDiffer) {
  std::set<std::string> seen;
  for (int i = 0; i < 20; ++i) {
    std::string token = NewToken();
    EXPECT_EQ(token.size(), 64u);
    EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
    seen.insert(token);
  }
  EXPECT_EQ(seen.size(), 20u);
}

TEST_F(ControlTokenTest, WrittenForThisUserOnly) {
  const std::string path = dir_ + "/ddblab/control-8000.token";
  EXPECT_EQ(WriteTokenFile(path, "abc"), "");
  EXPECT_EQ(ModeOf(dir_ + "/ddblab"), 0700u);
  EXPECT_EQ(ModeOf(path), 0600u);
  EXPECT_EQ(ReadTokenFile(path), "abc");
  // A second server on the port replaces it.
  EXPECT_EQ(WriteTokenFile(path, "def"), "");
  EXPECT_EQ(ReadTokenFile(path), "def");
  EXPECT_FALSE(fs::exists(path + ".tmp" + std::to_string(getpid())));
}

TEST_F(ControlTokenTest, RefusesAFolderOthersCanWrite) {
  const std::string folder = dir_ + "/shared";
  ASSERT_EQ(mkdir(folder.c_str(), 0777), 0);
  ASSERT_EQ(chmod(folder.c_str(), 0777), 0);
  EXPECT_EQ(WriteTokenFile(folder + "/t.token", "abc"),
            folder + " is writable by other users");
  EXPECT_FALSE(fs::exists(folder + "/t.token"));
  fs::create_symlink(dir_, dir_ + "/link");
  EXPECT_EQ(WriteTokenFile(dir_ + "/link/t.token", "abc"),
            dir_ + "/link is not a folder");
}

TEST_F(ControlTokenTest, RemovedOnlyWhileItHoldsOurToken) {
  const std::string path = dir_ + "/t.token";
  ASSERT_EQ(WriteTokenFile(path, "newer"), "");
  RemoveTokenFile(path, "older");
  EXPECT_EQ(ReadTokenFile(path), "newer");
  RemoveTokenFile(path, "newer");
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(ReadTokenFile(path), std::nullopt);
}

TEST_F(ControlTokenTest, ReadTrimsAndRefusesEmpty) {
  const std::string path = dir_ + "/t.token";
  std::ofstream(path) << "  abc \n";
  EXPECT_EQ(ReadTokenFile(path), "abc");
  std::ofstream(path) << "\n";
  EXPECT_EQ(ReadTokenFile(path), std::nullopt);
}

TEST_F(ControlTokenTest, DefaultPathAndSearchOrder) {
  const char* old_runtime = getenv("XDG_RUNTIME_DIR");
  const char* old_home = getenv("HOME");
  std::string saved_runtime = old_runtime ? old_runtime : "";
  std::string saved_home = old_home ? old_home : "";
  setenv("XDG_RUNTIME_DIR", dir_.c_str(), 1);
  EXPECT_EQ(DefaultTokenPath(8123), dir_ + "/ddblab/control-8123.token");
  unsetenv("XDG_RUNTIME_DIR");
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(DefaultTokenPath(8123), "/home/u/.ddblab/control-8123.token");

  setenv("XDG_RUNTIME_DIR", dir_.c_str(), 1);
  unsetenv("DDBLAB_CONTROL_TOKEN");
  EXPECT_EQ(FindToken(8123), std::nullopt);
  ASSERT_EQ(WriteTokenFile(*DefaultTokenPath(8123), "fromfile"), "");
  EXPECT_EQ(FindToken(8123), "fromfile");
  EXPECT_EQ(FindToken(8124), std::nullopt);
  setenv("DDBLAB_CONTROL_TOKEN", "fromenv", 1);
  EXPECT_EQ(FindToken(8123), "fromenv");
  unsetenv("DDBLAB_CONTROL_TOKEN");

  if (old_runtime) {
    setenv("XDG_RUNTIME_DIR", saved_runtime.c_str(), 1);
  } else {
    unsetenv("XDG_RUNTIME_DIR");
  }
  if (old_home) setenv("HOME", saved_home.c_str(), 1);
}

TEST(LoopbackPortTest, OnlyLoopbackHosts) {
  EXPECT_EQ(LoopbackPort("http://127.0.0.1:8000"), 8000);
  EXPECT_EQ(LoopbackPort("http://localhost:9/x"), 9);
  EXPECT_EQ(LoopbackPort("https://[::1]:8443"), 8443);
  EXPECT_EQ(LoopbackPort("127.0.0.1:8000"), 8000);
  EXPECT_EQ(LoopbackPort("http://localhost"), 80);
  EXPECT_EQ(LoopbackPort("https://127.0.0.1"), 443);
  EXPECT_EQ(LoopbackPort("127.0.0.1"), std::nullopt);
  EXPECT_EQ(LoopbackPort("http://10.0.0.1:8000"), std::nullopt);
  EXPECT_EQ(LoopbackPort("http://127.0.0.1.evil.com:8000"), std::nullopt);
  EXPECT_EQ(LoopbackPort("http://127.0.0.1:80a"), std::nullopt);
  EXPECT_EQ(LoopbackPort("http://127.0.0.1:0"), std::nullopt);
  EXPECT_EQ(LoopbackPort("http://127.0.0.1:99999"), std::nullopt);
  EXPECT_EQ(LoopbackPort("[::1]x"), std::nullopt);
}

TEST(TokensEqualTest, ComparesWholeTokens) {
  EXPECT_TRUE(TokensEqual("abc", "abc"));
  EXPECT_FALSE(TokensEqual("abc", "abd"));
  EXPECT_FALSE(TokensEqual("abc", "ab"));
  EXPECT_FALSE(TokensEqual("", "a"));
}

}  // namespace
}  // namespace ddblab::control_token
