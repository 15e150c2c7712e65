// fuzz/engine_fuzz.cc: libFuzzer target for whole requests to the engine.
//
// One in-memory Emulator on a ManualClock holds three tables created once:
//   fz_hash   hash-only (pk S)
//   fz_range  hash+range (pk S, sk N) with a GSI (g S) and an LSI (l S)
//   fz_stream hash-only (pk S), stream NEW_AND_OLD_IMAGES, TTL on "ttl"
// For each input the first byte picks an operation (its top bit also moves
// the clock forward an hour, so TTL deletions and shard rollover happen) and
// the rest is parsed as JSON ('H' + i picks operation i); objects are passed to
// Call/CallStreams. Every outcome must be a response or a clean Error: no
// crash, hang, abort, leak or sanitizer report (ENGINE_FUZZ_VERBOSE=1 prints
// each outcome). For the streams operations, "StreamArn": "stream" is replaced
// by the real ARN and "ShardIterator": "iter" by a fresh TRIM_HORIZON iterator
// on the stream's first shard. The emulator is reopened every kReopenEvery
// inputs and CreateTable is refused at kMaxTables tables, so memory stays flat.
//
//   CC=clang CXX=clang++ cmake -S . -B build-fuzz-engine -DDDBLAB_FUZZ=ON
//   cmake --build build-fuzz-engine --target engine_fuzz
//   ./build-fuzz-engine/fuzz/engine_fuzz -dict=fuzz/engine.dict \
//       -max_total_time=600 fuzz-corpus/engine fuzz/corpus/engine
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/emulator.h"

namespace {

using Json = nlohmann::json;

constexpr int kMaxTables = 20;
constexpr int kReopenEvery = 5000;

struct Op {
  std::string_view name;
  bool streams;
};

constexpr std::array<Op, 21> kOps = {{
    {"PutItem", false},
    {"GetItem", false},
    {"UpdateItem", false},
    {"DeleteItem", false},
    {"Query", false},
    {"Scan", false},
    {"BatchWriteItem", false},
    {"BatchGetItem", false},
    {"TransactWriteItems", false},
    {"TransactGetItems", false},
    {"ExecuteStatement", false},
    {"CreateTable", false},
    {"UpdateTable", false},
    {"DescribeTable", false},
    {"UpdateTimeToLive", false},
    {"DescribeStream", true},
    {"GetShardIterator", true},
    {"GetRecords", true},
    {"ExecuteTransaction", false},
    {"BatchExecuteStatement", false},
    {"ListStreams", true},
}};

void Require(const ddblab::Result<Json>& r) {
  if (!r.ok()) std::abort();
}

Json KeyAttr(const char* name, const char* type) {
  return {{"AttributeName", name}, {"AttributeType", type}};
}
Json KeyElem(const char* name, const char* type) {
  return {{"AttributeName", name}, {"KeyType", type}};
}

class Harness {
 public:
  Harness() { Reopen(); }

  void Run(const Op& op, Json request) {
    if (++calls_ % kReopenEvery == 0) Reopen();
    if (op.name == "CreateTable" && TableCount() >= kMaxTables) return;
    if (op.streams) SubstituteStream(request);
    const ddblab::Result<Json> r = op.streams
                                       ? emu_->CallStreams(op.name, request)
                                       : emu_->Call(op.name, request);
    if (verbose_) {
      std::fprintf(stderr, "%s -> %s\n", std::string(op.name).c_str(),
                   r.ok() ? r->dump().substr(0, 300).c_str()
                          : ddblab::ToString(r.error()).c_str());
    }
  }

  void Advance() { clock_->Advance(std::chrono::hours(1)); }

 private:
  void Reopen() {
    emu_.reset();
    clock_ = std::make_shared<ddblab::ManualClock>();
    ddblab::Options options;
    options.clock = clock_;
    options.seed = 7;
    auto emu = ddblab::Emulator::Open(std::move(options));
    if (!emu.ok()) std::abort();
    emu_ = std::move(emu).value();
    CreateTables();
  }

  void CreateTables() {
    Require(
        emu_->Call("CreateTable",
                   {{"TableName", "fz_hash"},
                    {"BillingMode", "PAY_PER_REQUEST"},
                    {"AttributeDefinitions", Json::array({KeyAttr("pk", "S")})},
                    {"KeySchema", Json::array({KeyElem("pk", "HASH")})}}));
    const Json projection_all = {{"ProjectionType", "ALL"}};
    Require(emu_->Call(
        "CreateTable",
        {{"TableName", "fz_range"},
         {"BillingMode", "PAY_PER_REQUEST"},
         {"AttributeDefinitions",
          Json::array({KeyAttr("pk", "S"), KeyAttr("sk", "N"),
                       KeyAttr("g", "S"), KeyAttr("l", "S")})},
         {"KeySchema",
          Json::array({KeyElem("pk", "HASH"), KeyElem("sk", "RANGE")})},
         {"GlobalSecondaryIndexes",
          Json::array({{{"IndexName", "gsi"},
                        {"KeySchema", Json::array({KeyElem("g", "HASH"),
                                                   KeyElem("sk", "RANGE")})},
                        {"Projection", projection_all}}})},
         {"LocalSecondaryIndexes",
          Json::array({{{"IndexName", "lsi"},
                        {"KeySchema", Json::array({KeyElem("pk", "HASH"),
                                                   KeyElem("l", "RANGE")})},
                        {"Projection",
                         {{"ProjectionType", "INCLUDE"},
                          {"NonKeyAttributes", Json::array({"a"})}}}}})}}));
    auto stream =
        emu_->Call("CreateTable",
                   {{"TableName", "fz_stream"},
                    {"BillingMode", "PAY_PER_REQUEST"},
                    {"AttributeDefinitions", Json::array({KeyAttr("pk", "S")})},
                    {"KeySchema", Json::array({KeyElem("pk", "HASH")})},
                    {"StreamSpecification",
                     {{"StreamEnabled", true},
                      {"StreamViewType", "NEW_AND_OLD_IMAGES"}}}});
    Require(stream);
    stream_arn_ = (*stream)["TableDescription"]["LatestStreamArn"];
    Require(emu_->Call("UpdateTimeToLive",
                       {{"TableName", "fz_stream"},
                        {"TimeToLiveSpecification",
                         {{"Enabled", true}, {"AttributeName", "ttl"}}}}));
  }

  int TableCount() {
    auto r = emu_->Call("ListTables", Json::object());
    if (!r.ok()) std::abort();
    return static_cast<int>((*r)["TableNames"].size());
  }

  void SubstituteStream(Json& request) {
    auto arn = request.find("StreamArn");
    if (arn != request.end() && *arn == "stream") *arn = stream_arn_;
    auto iter = request.find("ShardIterator");
    if (iter == request.end() || *iter != "iter") return;
    auto described =
        emu_->CallStreams("DescribeStream", {{"StreamArn", stream_arn_}});
    if (!described.ok()) return;
    const Json& shards = (*described)["StreamDescription"]["Shards"];
    if (!shards.is_array() || shards.empty()) return;
    auto it = emu_->CallStreams("GetShardIterator",
                                {{"StreamArn", stream_arn_},
                                 {"ShardId", shards[0]["ShardId"]},
                                 {"ShardIteratorType", "TRIM_HORIZON"}});
    if (it.ok()) *iter = (*it)["ShardIterator"];
  }

  std::shared_ptr<ddblab::ManualClock> clock_;
  std::unique_ptr<ddblab::Emulator> emu_;
  std::string stream_arn_;
  int64_t calls_ = 0;
  // ENGINE_FUZZ_VERBOSE=1: print every outcome (to check the seed corpus).
  bool verbose_ = std::getenv("ENGINE_FUZZ_VERBOSE") != nullptr;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static Harness* harness = new Harness();
  // 'H' picks kOps[0], 'I' kOps[1], ... (the seed corpus is written so).
  constexpr int kCount = static_cast<int>(kOps.size());
  const int pick = (((data[0] & 0x7f) - 'H') % kCount + kCount) % kCount;
  const Op& op = kOps[static_cast<size_t>(pick)];
  if ((data[0] & 0x80) != 0) harness->Advance();
  const std::string_view text(reinterpret_cast<const char*>(data) + 1,
                              size - 1);
  Json request = Json::parse(text.begin(), text.end(), nullptr, false);
  if (request.is_discarded() || !request.is_object()) return 0;
  harness->Run(op, std::move(request));
  return 0;
}
