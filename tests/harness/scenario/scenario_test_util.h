// tests/harness/scenario/scenario_test_util.h: running `ddblab run` in
// process from the scenario tests, and temporary files.
//
// Thread-safety: test-thread only.
#pragma once

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/scenario/run_command.h"

namespace ddblab::harness::scenario::testing {

struct Ran {
  int code = 0;
  std::string out;
  std::string err;
};

inline Ran Command(std::vector<std::string> args) {
  std::ostringstream out;
  std::ostringstream err;
  Ran ran;
  ran.code = RunScenarioCommand(args, out, err);
  ran.out = out.str();
  ran.err = err.str();
  return ran;
}

// A fresh directory for one test's files.
inline std::filesystem::path TempDirFor(const std::string& test) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ddblab_scenario_" + test);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string WriteFile(const std::filesystem::path& path,
                             const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path.string();
}

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// `ddblab run --explore` output with its seeds/s (wall time) replaced by
// "N", so that two runs' outputs compare.
inline std::string WithoutRate(const std::string& out) {
  return std::regex_replace(out, std::regex("; [0-9,.]+ seeds/s"),
                            "; N seeds/s");
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The shipped scenario files, by name.
// Runs `file` once per seed, each writing its trace into `dir`; the set
// of distinct traces.
inline std::set<std::string> TracesOfSeeds(
    const std::string& file, const std::filesystem::path& dir,
    const std::vector<std::string>& seeds) {
  std::set<std::string> traces;
  for (const std::string& seed : seeds) {
    const std::string path = (dir / (seed + ".jsonl")).string();
    Command({file, "--seed", seed, "--trace", path});
    traces.insert(ReadFile(path));
  }
  return traces;
}

inline std::string Shipped(const std::string& name) {
  return std::string(DDBLAB_SOURCE_DIR) + "/scenarios/" + name;
}

}  // namespace ddblab::harness::scenario::testing
