// harness/bench/bench_tables.cc: table chores of the pattern benchmarks.
#include "harness/bench/bench_tables.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>

#include "emulator/api/mutex.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::bench {

std::string UniqueTableName(const std::string& prefix) {
  static std::atomic<uint64_t> counter{0};
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%llx%llx",
                static_cast<unsigned long long>(ns),
                static_cast<unsigned long long>(counter++));
  return prefix + "_" + buf;
}

TableCleanup::~TableCleanup() {
  for (const std::string& table : tables_) {
    // A table still CREATING (a run that failed while waiting for it) cannot
    // be deleted yet: retry for up to a minute of the backend's time.
    for (int attempt = 0; attempt < 30; ++attempt) {
      auto deleted = backend_->Call("DeleteTable", {{"TableName", table}});
      if (deleted.ok() || deleted.error().type != ErrorType::kResourceInUse) {
        break;
      }
      patterns::WaitFor(*backend_, std::chrono::seconds(2));
    }
  }
}

Status BatchPut(Backend& backend, const std::string& table,
                const std::vector<json>& items, int threads,
                const std::function<void(size_t)>& done) {
  const size_t batches = (items.size() + 24) / 25;
  std::atomic<size_t> next{0};
  std::atomic<size_t> written{0};
  Mutex mu;
  Status failed;
  auto work = [&] {
    for (size_t b = next++; b < batches; b = next++) {
      json puts = json::array();
      for (size_t i = b * 25; i < std::min(items.size(), b * 25 + 25); ++i) {
        puts.push_back({{"PutRequest", {{"Item", items[i]}}}});
      }
      const size_t count = puts.size();
      json request_items = {{table, std::move(puts)}};
      for (int attempt = 0;; ++attempt) {
        auto out =
            backend.Call("BatchWriteItem", {{"RequestItems", request_items}});
        // A throttle (DynamoDB throws when it can process none of the
        // batch, e.g. under the capacity model) is retried like
        // UnprocessedItems, as an SDK would retry it.
        const bool retry_all = !out.ok() && patterns::SdkRetries(out.error());
        if (!out.ok() && !retry_all) {
          MutexLock lock(mu);
          if (failed.ok()) failed = out.error();
          next = batches;
          return;
        }
        json left = retry_all ? request_items
                              : out->value("UnprocessedItems", json::object());
        if (left.empty()) break;
        if (attempt >= 50) {
          MutexLock lock(mu);
          if (failed.ok()) {
            failed = Error::Internal("BatchWriteItem left items of " + table +
                                     " unprocessed after 50 retries");
          }
          next = batches;
          return;
        }
        patterns::WaitFor(backend, std::chrono::milliseconds(50));
        request_items = std::move(left);
      }
      const size_t so_far = written += count;
      if (done) {
        MutexLock lock(mu);
        done(so_far);
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();  // the calling thread works too
  for (std::thread& t : pool) t.join();
  return failed;
}

Result<std::vector<json>> ScanProjected(Backend& backend,
                                        const std::string& table,
                                        const std::vector<std::string>& names) {
  std::vector<json> items;
  std::string projection;
  json attribute_names = json::object();
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string alias = "#a" + std::to_string(i);
    projection += (i == 0 ? "" : ", ") + alias;
    attribute_names[alias] = names[i];
  }
  json request = {{"TableName", table},
                  {"ConsistentRead", true},
                  {"ProjectionExpression", projection},
                  {"ExpressionAttributeNames", attribute_names}};
  while (true) {
    auto page = backend.Call("Scan", request);
    if (!page.ok()) return page.error();
    for (json& item : (*page)["Items"]) items.push_back(std::move(item));
    if (!page->contains("LastEvaluatedKey")) break;
    request["ExclusiveStartKey"] = (*page)["LastEvaluatedKey"];
  }
  return items;
}

Result<int64_t> CountItems(Backend& backend, const std::string& table) {
  int64_t count = 0;
  json request = {
      {"TableName", table}, {"ConsistentRead", true}, {"Select", "COUNT"}};
  while (true) {
    auto page = backend.Call("Scan", request);
    if (!page.ok()) return page.error();
    count += page->value("Count", int64_t{0});
    if (!page->contains("LastEvaluatedKey")) break;
    request["ExclusiveStartKey"] = (*page)["LastEvaluatedKey"];
  }
  return count;
}

Result<std::vector<json>> StreamTail::Poll() {
  if (arn_.empty()) {
    auto described = backend_->Call("DescribeTable", {{"TableName", table_}});
    if (!described.ok()) return described.error();
    arn_ = (*described)["Table"].value("LatestStreamArn", std::string());
    if (arn_.empty()) {
      return Error::Validation("table " + table_ + " has no stream");
    }
  }
  std::vector<std::pair<std::string, bool>> listed;  // id, closed
  json request = {{"StreamArn", arn_}};
  while (true) {
    auto page = backend_->CallStreams("DescribeStream", request);
    if (!page.ok()) return page.error();
    const json& description = (*page)["StreamDescription"];
    for (const json& shard : description.value("Shards", json::array())) {
      const bool closed = shard.value("SequenceNumberRange", json::object())
                              .contains("EndingSequenceNumber");
      listed.emplace_back(shard["ShardId"].get<std::string>(), closed);
    }
    if (!description.contains("LastEvaluatedShardId")) break;
    request["ExclusiveStartShardId"] = description["LastEvaluatedShardId"];
  }
  std::vector<json> records;
  for (const auto& [id, closed] : listed) {
    Shard& shard = shards_[id];
    if (shard.done) continue;
    json position = {{"StreamArn", arn_}, {"ShardId", id}};
    if (shard.last_sequence.empty()) {
      position["ShardIteratorType"] = "TRIM_HORIZON";
    } else {
      position["ShardIteratorType"] = "AFTER_SEQUENCE_NUMBER";
      position["SequenceNumber"] = shard.last_sequence;
    }
    auto iterator = backend_->CallStreams("GetShardIterator", position);
    if (!iterator.ok()) return iterator.error();
    json next = iterator->value("ShardIterator", json());
    while (next.is_string()) {
      auto got = backend_->CallStreams(
          "GetRecords", {{"ShardIterator", next}, {"Limit", 1000}});
      if (!got.ok()) return got.error();
      const json& batch = (*got)["Records"];
      for (const json& record : batch) {
        shard.last_sequence =
            record["dynamodb"].value("SequenceNumber", shard.last_sequence);
        records.push_back(record);
      }
      next = got->value("NextShardIterator", json());
      if (batch.empty()) break;
    }
    // A closed shard ends with no next iterator.
    if (closed && !next.is_string()) shard.done = true;
  }
  return records;
}

}  // namespace ddblab::harness::bench
