// tests/emulator/engine/streams_test_util.h: EngineTest plus helpers for the
// DynamoDB Streams API (tables with streams, iterators, reading a whole
// stream in lineage order).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {

class StreamsTest : public EngineTest {
 protected:
  Json StreamsOk(std::string_view op, const Json& request) {
    Result<Json> r = emu_->CallStreams(op, request);
    EXPECT_TRUE(r.ok()) << op << " " << request.dump() << " -> "
                        << ToString(r.error());
    return r.ok() ? *r : Json();
  }
  std::string StreamsFail(std::string_view op, const Json& request) {
    Result<Json> r = emu_->CallStreams(op, request);
    EXPECT_FALSE(r.ok()) << op << " " << request.dump() << " -> " << r->dump();
    return r.ok() ? std::string() : ToString(r.error());
  }

  // A PAY_PER_REQUEST table with a stream; returns the stream ARN.
  std::string CreateStreamTable(const std::string& name,
                                const std::string& view,
                                const std::string& hash = "pk",
                                const std::string& hash_type = "S",
                                const std::string& range = "") {
    Json req{{"TableName", name},
             {"BillingMode", "PAY_PER_REQUEST"},
             {"AttributeDefinitions",
              Json::array(
                  {{{"AttributeName", hash}, {"AttributeType", hash_type}}})},
             {"KeySchema",
              Json::array({{{"AttributeName", hash}, {"KeyType", "HASH"}}})},
             {"StreamSpecification",
              {{"StreamEnabled", true}, {"StreamViewType", view}}}};
    if (!range.empty()) {
      req["AttributeDefinitions"].push_back(
          {{"AttributeName", range}, {"AttributeType", "S"}});
      req["KeySchema"].push_back(
          {{"AttributeName", range}, {"KeyType", "RANGE"}});
    }
    Json out = Ok("CreateTable", req);
    return out["TableDescription"].value("LatestStreamArn", "");
  }

  void Put(const std::string& table, const Json& item) {
    Ok("PutItem", {{"TableName", table}, {"Item", item}});
  }
  void Delete(const std::string& table, const Json& key) {
    Ok("DeleteItem", {{"TableName", table}, {"Key", key}});
  }

  // Every shard of the stream (DescribeStream pages of `limit`).
  std::vector<Json> Shards(const std::string& arn, int limit = 100) {
    std::vector<Json> out;
    Json req{{"StreamArn", arn}, {"Limit", limit}};
    while (true) {
      Json d = StreamsOk("DescribeStream", req)["StreamDescription"];
      for (const Json& s : d["Shards"]) out.push_back(s);
      if (!d.contains("LastEvaluatedShardId")) break;
      req["ExclusiveStartShardId"] = d["LastEvaluatedShardId"];
    }
    return out;
  }

  std::string Iterator(const std::string& arn, const std::string& shard,
                       const std::string& type = "TRIM_HORIZON",
                       const std::string& seq = "") {
    Json req{
        {"StreamArn", arn}, {"ShardId", shard}, {"ShardIteratorType", type}};
    if (!seq.empty()) req["SequenceNumber"] = seq;
    return StreamsOk("GetShardIterator", req).value("ShardIterator", "");
  }

  Json Records(const std::string& iterator, int limit = 1000) {
    return StreamsOk("GetRecords",
                     {{"ShardIterator", iterator}, {"Limit", limit}});
  }

  // Reads one shard from TRIM_HORIZON until it is exhausted (closed shard:
  // until NextShardIterator disappears; open shard: until a read is empty).
  std::vector<Json> ReadShard(const std::string& arn, const std::string& shard,
                              int limit = 1000) {
    std::vector<Json> out;
    std::string it = Iterator(arn, shard);
    for (int guard = 0; guard < 10000; ++guard) {
      Json r = Records(it, limit);
      for (const Json& rec : r["Records"]) out.push_back(rec);
      if (!r.contains("NextShardIterator")) break;
      if (r["Records"].empty()) break;
      it = r["NextShardIterator"];
    }
    return out;
  }

  // Every record of the stream: shards in lineage order (a shard only after
  // its parent, when the parent is still listed), each from TRIM_HORIZON.
  std::vector<Json> ReadAll(const std::string& arn) {
    std::vector<Json> shards = Shards(arn);
    std::set<std::string> listed, done;
    for (const Json& s : shards) listed.insert(s["ShardId"]);
    std::vector<Json> out;
    while (done.size() < shards.size()) {
      bool progress = false;
      for (const Json& s : shards) {
        std::string id = s["ShardId"];
        if (done.count(id)) continue;
        std::string parent = s.value("ParentShardId", "");
        if (!parent.empty() && listed.count(parent) && !done.count(parent)) {
          continue;
        }
        for (Json& r : ReadShard(arn, id)) out.push_back(std::move(r));
        done.insert(id);
        progress = true;
      }
      if (!progress) {
        ADD_FAILURE() << "shard lineage has a cycle";
        break;
      }
    }
    return out;
  }

  static Json S(const std::string& s) { return {{"S", s}}; }
  static Json N(const std::string& n) { return {{"N", n}}; }
};

}  // namespace ddblab::engine::testing
