// tests/cli/run_fixture.h: what the tests of `ddblab run` with programs
// share: a temporary folder for the scenario files and programs, the run
// itself (RunScenarioCommand with the in-process server of cli/run_server),
// its output, and small readers of files and traces.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_server.h"
#include "harness/scenario/run_command.h"

namespace ddblab::cli::testing {

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool HasBoto3() {
  return std::system("python3 -c 'import boto3' >/dev/null 2>&1") == 0;
}

// A fixture owning a fresh folder (removed afterwards) named after `prefix`.
class RunFixture : public ::testing::Test {
 protected:
  explicit RunFixture(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / (prefix_ + "-XXXXXX"))
            .string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // `ddblab run args...`: the exit code; out and err kept.
  int Run(std::vector<std::string> args) {
    out_.str("");
    err_.str("");
    return harness::scenario::RunScenarioCommand(args, out_, err_, false,
                                                 &start_);
  }
  // Writes `text` to `name` in the folder; its path.
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  std::string prefix_;
  harness::scenario::StartRunServer start_ = RunServerStarter();
  std::string dir_;
  std::ostringstream out_;
  std::ostringstream err_;
};

}  // namespace ddblab::cli::testing
