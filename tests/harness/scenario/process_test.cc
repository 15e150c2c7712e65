// tests/harness/scenario/process_test.cc: a child process of `ddblab run`:
// its environment, working directory, output files, exit code or signal,
// and Kill (of its process group) — with /bin/sh, no sleep in the test
// itself.
#include "harness/scenario/process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace ddblab::harness::scenario {
namespace {

class ProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "process-test-XXXXXX")
            .string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  ProcessSpec Shell(const std::string& script) {
    ProcessSpec spec;
    spec.argv = {"sh", "-c", script};
    spec.program = "/bin/sh";
    spec.cwd = dir_;
    spec.env = EnvironmentWith({{"GREETING", "hello"}});
    spec.stdout_path = dir_ + "/out";
    spec.stderr_path = dir_ + "/err";
    return spec;
  }
  std::string Read(const std::string& name) {
    return ReadHead(dir_ + "/" + name, 1 << 16).text;
  }

  std::string dir_;
};

TEST_F(ProcessTest, RunsInItsFolderWithTheEnvironmentAndCapturesOutput) {
  auto p = Process::Start(
      Shell("echo \"$GREETING from $(pwd)\"; echo oops >&2; echo last >&2; "
            "exit 3"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  ExitStatus status = (*p)->Wait();
  EXPECT_EQ(status.code, 3);
  EXPECT_EQ(status.signal, 0);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.Text(), "exit code 3");
  EXPECT_EQ(Read("out"),
            "hello from " + std::filesystem::canonical(dir_).string() + "\n");
  EXPECT_EQ(Read("err"), "oops\nlast\n");
  EXPECT_EQ(LastLine(dir_ + "/err"), "last");
  EXPECT_EQ(ProblemLine(dir_ + "/err"), "last");  // no error named: the last
  // Reaped once: Poll keeps the status.
  ASSERT_TRUE((*p)->Poll().has_value());
  EXPECT_EQ((*p)->Poll()->code, 3);
}

TEST_F(ProcessTest, ExitZeroIsOk) {
  auto p = Process::Start(Shell("true"));
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE((*p)->Wait().ok());
}

TEST_F(ProcessTest, KillEndsTheGroupAndTheStatusSaysSo) {
  // The shell starts a child of its own and waits on it: Kill must end
  // both (the group), or Wait would hang for the child's sleep.
  auto p = Process::Start(Shell("sleep 600 & wait"));
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE((*p)->Poll().has_value());
  (*p)->Kill();
  ExitStatus status = (*p)->Wait();
  EXPECT_EQ(status.signal, SIGKILL);
  EXPECT_EQ(status.Text(), "killed by signal 9");
}

TEST_F(ProcessTest, DestroyingARunningProcessKillsAndReapsIt) {
  pid_t pid = 0;
  {
    auto p = Process::Start(Shell("sleep 600"));
    ASSERT_TRUE(p.ok());
    pid = (*p)->pid();
  }
  // Reaped: the pid is no child of ours any more.
  EXPECT_EQ(kill(pid, 0), -1);
}

TEST_F(ProcessTest, AMissingFolderIsAnError) {
  ProcessSpec spec = Shell("true");
  spec.cwd = dir_ + "/absent";
  auto p = Process::Start(spec);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message,
            "sh: cannot enter " + dir_ + "/absent: No such file or directory");
}

TEST_F(ProcessTest, OutputPastTheLimitIsCut) {
  {
    std::ofstream f(dir_ + "/big");
    f << std::string(5000, 'x') << "\nend\n";
  }
  FileHead head = ReadHead(dir_ + "/big", 4096);
  EXPECT_EQ(head.text, std::string(4096, 'x'));
  EXPECT_TRUE(head.cut);
  EXPECT_EQ(LastLine(dir_ + "/big"), "end");
  EXPECT_EQ(ReadHead(dir_ + "/absent", 10).text, "");
}

TEST(EnvironmentWithTest, OverridesAndRemovesVariables) {
  setenv("DDBLAB_PROCESS_TEST_KEEP", "kept", 1);
  setenv("DDBLAB_PROCESS_TEST_DROP", "x", 1);
  setenv("DDBLAB_PROCESS_TEST_SET", "old", 1);
  std::vector<std::string> env = EnvironmentWith(
      {{"DDBLAB_PROCESS_TEST_SET", "new"}}, {"DDBLAB_PROCESS_TEST_DROP"});
  auto has = [&](const std::string& entry) {
    return std::find(env.begin(), env.end(), entry) != env.end();
  };
  EXPECT_TRUE(has("DDBLAB_PROCESS_TEST_KEEP=kept"));
  EXPECT_TRUE(has("DDBLAB_PROCESS_TEST_SET=new"));
  EXPECT_FALSE(has("DDBLAB_PROCESS_TEST_SET=old"));
  for (const std::string& e : env) {
    EXPECT_FALSE(e.starts_with("DDBLAB_PROCESS_TEST_DROP=")) << e;
  }
}

// Node prints the error above its stack and a version banner; Python ends
// with the error. Either way the violation names the error.
TEST_F(ProcessTest, ProblemLineNamesTheErrorAboveStackAndBanner) {
  std::ofstream(dir_ + "/node")
      << "file:///w/counter.mjs:12\n    throw err\n"
         "    ^\n\nConditionalCheckFailedException: "
         "The conditional request failed\n    at "
         "throwDefaultError (x.js:1:2)\n  "
         "'$fault': 'client'\n}\n\nNode.js v20.20.2\n";
  EXPECT_EQ(ProblemLine(dir_ + "/node"),
            "ConditionalCheckFailedException: The conditional request failed");
  EXPECT_EQ(LastLine(dir_ + "/node"), "Node.js v20.20.2");
  std::ofstream(dir_ + "/py") << "Traceback (most recent call last):\n  File "
                                 "\"w.py\", line 3, in <module>\n    "
                                 "raise ValueError(1)\nValueError: 1\n";
  EXPECT_EQ(ProblemLine(dir_ + "/py"), "ValueError: 1");
}

}  // namespace
}  // namespace ddblab::harness::scenario
