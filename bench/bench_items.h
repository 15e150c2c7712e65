// bench/bench_items.h: what the in-process benchmarks share: database
// paths (":memory:" or a fresh WAL file under /tmp), keys, and the ~200-byte
// item they write, and Must() for setup calls.
//
// Thread-safety: free functions; paths are per process.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "emulator/api/result.h"

namespace ddblab::bench {

// The value of a call that must succeed in a benchmark's setup; otherwise
// prints the error and aborts.
template <typename T>
T Must(Result<T> r) {
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", ToString(r.error()).c_str());
    std::abort();
  }
  return std::move(r).value();
}

// ":memory:" for 0, else a fresh WAL file database path for `tag` in this
// process's folder under /tmp.
inline std::string DbPath(int64_t file, const char* tag) {
  if (file == 0) return ":memory:";
  std::string dir = "/tmp/ddblab-bench-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::string path = dir + "/" + tag + ".db";
  for (const char* suffix : {"", "-wal", "-shm"}) {
    std::filesystem::remove(path + suffix);
  }
  return path;
}

// Removes the folder of a DbPath file database (nothing for ":memory:").
inline void RemoveDb(const std::string& path) {
  if (path == ":memory:") return;
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

// "user#000000042".
inline std::string Key(int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "user#%09lld", static_cast<long long>(i));
  return buf;
}

// A ~200-byte item (DynamoDB item size 205 with a 14-byte key).
inline nlohmann::json MakeItem(const std::string& key) {
  return nlohmann::json{
      {"pk", {{"S", key}}},
      {"name", {{"S", "Ada Lovelace"}}},
      {"email", {{"S", "ada.lovelace@example.com"}}},
      {"age", {{"N", "36"}}},
      {"score", {{"N", "1234.5"}}},
      {"active", {{"BOOL", true}}},
      {"tags", {{"SS", {"math", "engines", "poetry"}}}},
      {"bio",
       {{"S",
         "Mathematician and writer, chiefly known for her work on "
         "Charles Babbage's proposed mechanical general-purpose "
         "computer, the Analytical Engine."}}}};
}

}  // namespace ddblab::bench
