// harness/bench/bench_tables.h: table chores of the pattern benchmarks:
// unique names, deleting what a run created (always, even on error),
// loading items fast, counting and reading a table's stream.
//
// Thread-safety: free functions as thread-safe as the Backend; a
// TableCleanup belongs to one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "harness/backend/backend.h"

namespace ddblab::harness::bench {

// "<prefix>_<wall-clock hex>": a table name no earlier run used (AWS
// tables of a crashed run are easy to spot and remove by the prefix).
std::string UniqueTableName(const std::string& prefix);

// Deletes every table added, when destroyed (errors ignored: the run's own
// error is the one to report).
class TableCleanup {
 public:
  explicit TableCleanup(Backend& backend) : backend_(&backend) {}
  ~TableCleanup();
  TableCleanup(const TableCleanup&) = delete;
  TableCleanup& operator=(const TableCleanup&) = delete;
  void Add(const std::string& table) { tables_.push_back(table); }

 private:
  Backend* backend_;
  std::vector<std::string> tables_;
};

// Writes `items` (AttributeValue maps) with BatchWriteItem, 25 a call, on
// `threads` threads, retrying UnprocessedItems (up to 50 times a batch,
// waiting on the backend's time). `done` (may be null) is called after each
// batch with the number written so far, one call at a time.
Status BatchPut(Backend& backend, const std::string& table,
                const std::vector<json>& items, int threads,
                const std::function<void(size_t)>& done);

// Every item of `table` with only the attributes `names` (reserved words
// such as ttl are fine), all pages, consistent reads.
Result<std::vector<json>> ScanProjected(Backend& backend,
                                        const std::string& table,
                                        const std::vector<std::string>& names);

// The number of items in `table` (Scan, Select COUNT, all pages).
Result<int64_t> CountItems(Backend& backend, const std::string& table);

// Reads the latest stream of a table from TRIM_HORIZON, a little at a time:
// each Poll returns the records written since the last one, every shard
// (new shards included; a shard is read until a GetRecords returns none).
// Poll at least every few hours of the stream's time: records older than
// 24 hours are trimmed. Positions are kept as sequence numbers, so iterator
// expiry between polls does not matter.
class StreamTail {
 public:
  StreamTail(Backend& backend, std::string table)
      : backend_(&backend), table_(std::move(table)) {}
  Result<std::vector<json>> Poll();

 private:
  struct Shard {
    std::string last_sequence;  // "" : nothing read yet
    bool done = false;          // closed and read to its end
  };
  Backend* backend_;
  std::string table_;
  std::string arn_;
  std::map<std::string, Shard> shards_;
};

}  // namespace ddblab::harness::bench
