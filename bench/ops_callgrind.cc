// bench/ops_callgrind.cc: `ops_callgrind OP N` runs N calls of one operation
// through Emulator::Call against an in-memory emulator, for counting
// instructions under valgrind's callgrind (bench/ops_callgrind.sh runs it at
// two N and prints the instructions per call; bench/README.md has figures).
//   get put cput del add  GetItem / PutItem / conditional PutItem /
//                         DeleteItem / UpdateItem ADD on a hash-key table
//                         of 1,000 items (200-byte items)
//   query                 Query with KeyConditionExpression `#p = :pk` and
//                         FilterExpression `#n >= :min` (a different :pk each
//                         call, names for both), on the same table
//   pget                  GetItem with ProjectionExpression `pk, #n`
//   psel pins             ExecuteStatement SELECT * ... WHERE pk = ? (a
//                         GetItem) / INSERT INTO ... VALUE {...} (a
//                         conditional PutItem of a new key), same table
//   bdel                  BatchWriteItem of 25 DeleteRequests on a table
//                         with a GSI (ALL projection), as the TTL-window
//                         sweeper (harness/patterns) deletes; 6,000 items,
//                         so N <= 240
// `ops_callgrind OP N LAG` turns the consistency model on (index and read
// lag both LAG, e.g. 1h: every change is kept for the whole run), for the
// cost per call of recording what each write replaced.
// Not a Google Benchmark: a fixed amount of work, so that the difference of
// two runs is the cost of the calls alone. Single-threaded.
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "emulator/api/emulator.h"

namespace {

using Json = nlohmann::json;

std::string Key(long i) {
  char b[32];
  std::snprintf(b, sizeof b, "key%08ld", i);
  return b;
}

Json Item(const std::string& k) {
  return {{"pk", {{"S", k}}},
          {"payload", {{"S", std::string(180, 'x')}}},
          {"n", {{"N", "1"}}}};
}

Json SweepItem(long i) {
  return {{"pk", {{"S", Key(i)}}},
          {"ttl", {{"N", std::to_string(1700000000 + i)}}},
          {"expirationWindow", {{"S", "w" + std::to_string(i / 1000)}}},
          {"payload", {{"S", std::string(64, 'x')}}}};
}

ddblab::Result<Json> One(ddblab::Emulator& e, const std::string& op, long i) {
  if (op == "get") {
    return e.Call("GetItem", {{"TableName", "bench"},
                              {"Key", {{"pk", {{"S", Key(i % 1000)}}}}}});
  }
  if (op == "pget") {
    return e.Call("GetItem", {{"TableName", "bench"},
                              {"Key", {{"pk", {{"S", Key(i % 1000)}}}}},
                              {"ProjectionExpression", "pk, #n"},
                              {"ExpressionAttributeNames", {{"#n", "n"}}}});
  }
  if (op == "query") {
    return e.Call(
        "Query", {{"TableName", "bench"},
                  {"KeyConditionExpression", "#p = :pk"},
                  {"FilterExpression", "#n >= :min"},
                  {"ExpressionAttributeNames", {{"#p", "pk"}, {"#n", "n"}}},
                  {"ExpressionAttributeValues",
                   {{":pk", {{"S", Key(i % 1000)}}}, {":min", {{"N", "0"}}}}}});
  }
  if (op == "put") {
    return e.Call("PutItem",
                  {{"TableName", "bench"}, {"Item", Item(Key(1000 + i))}});
  }
  if (op == "cput") {
    return e.Call("PutItem",
                  {{"TableName", "bench"},
                   {"Item", Item(Key(100000 + i))},
                   {"ConditionExpression", "attribute_not_exists(pk)"}});
  }
  if (op == "del") {
    return e.Call("DeleteItem",
                  {{"TableName", "bench"}, {"Key", {{"pk", {{"S", Key(i)}}}}}});
  }
  if (op == "psel") {
    return e.Call("ExecuteStatement",
                  {{"Statement", "SELECT * FROM bench WHERE pk = ?"},
                   {"Parameters", {{{"S", Key(i % 1000)}}}}});
  }
  if (op == "pins") {
    return e.Call(
        "ExecuteStatement",
        {{"Statement",
          "INSERT INTO bench VALUE {'pk': ?, 'payload': ?, 'n': 1}"},
         {"Parameters",
          {{{"S", Key(100000 + i)}}, {{"S", std::string(180, 'x')}}}}});
  }
  if (op == "bdel") {
    Json reqs = Json::array();
    for (long k = i * 25; k < i * 25 + 25; ++k) {
      reqs.push_back({{"DeleteRequest", {{"Key", {{"pk", {{"S", Key(k)}}}}}}}});
    }
    return e.Call("BatchWriteItem", {{"RequestItems", {{"sweep", reqs}}}});
  }
  return e.Call("UpdateItem",
                {{"TableName", "bench"},
                 {"Key", {{"pk", {{"S", Key(i % 10)}}}}},
                 {"UpdateExpression", "ADD n :one"},
                 {"ExpressionAttributeValues", {{":one", {{"N", "1"}}}}}});
}

bool Load(ddblab::Emulator& e, const std::string& op) {
  Json table = {{"TableName", "bench"},
                {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
                {"AttributeDefinitions",
                 {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
                {"BillingMode", "PAY_PER_REQUEST"}};
  if (!e.Call("CreateTable", table).ok()) return false;
  if (op != "bdel") {
    for (long i = 0; i < 1000; ++i) {
      if (!e.Call("PutItem", {{"TableName", "bench"}, {"Item", Item(Key(i))}})
               .ok()) {
        return false;
      }
    }
    return true;
  }
  Json sweep = {
      {"TableName", "sweep"},
      {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
      {"AttributeDefinitions",
       {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
        {{"AttributeName", "expirationWindow"}, {"AttributeType", "S"}},
        {{"AttributeName", "ttl"}, {"AttributeType", "N"}}}},
      {"GlobalSecondaryIndexes",
       {{{"IndexName", "byWindow"},
         {"KeySchema",
          {{{"AttributeName", "expirationWindow"}, {"KeyType", "HASH"}},
           {{"AttributeName", "ttl"}, {"KeyType", "RANGE"}}}},
         {"Projection", {{"ProjectionType", "ALL"}}}}}},
      {"BillingMode", "PAY_PER_REQUEST"}};
  if (!e.Call("CreateTable", sweep).ok()) return false;
  for (long b = 0; b < 240; ++b) {  // 6,000 items whatever N
    Json reqs = Json::array();
    for (long i = b * 25; i < b * 25 + 25; ++i) {
      reqs.push_back({{"PutRequest", {{"Item", SweepItem(i)}}}});
    }
    if (!e.Call("BatchWriteItem", {{"RequestItems", {{"sweep", reqs}}}}).ok()) {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr,
                 "usage: ops_callgrind get|pget|put|cput|del|add|query|bdel|"
                 "psel|pins N [LAG]\n");
    return 2;
  }
  const std::string op = argv[1];
  const long n = std::atol(argv[2]);
  if (op == "bdel" && n > 240) {
    std::fprintf(stderr, "bdel: N <= 240\n");
    return 2;
  }
  ddblab::Options options;
  options.db_path = ":memory:";
  if (argc == 4) {
    ddblab::Result<ddblab::LagRange> lag = ddblab::ParseLagRange(argv[3]);
    if (!lag.ok()) {
      std::fprintf(stderr, "%s\n", lag.error().message.c_str());
      return 2;
    }
    options.consistency.index_lag = *lag;
    options.consistency.read_lag = *lag;
  }
  auto emu = ddblab::Emulator::Open(options);
  if (!emu.ok() || !Load(**emu, op)) {
    std::fprintf(stderr, "setup failed\n");
    return 1;
  }
  for (long i = 0; i < n; ++i) {
    ddblab::Result<Json> r = One(**emu, op, i);
    if (!r.ok() || (op == "bdel" && !(*r)["UnprocessedItems"].empty()) ||
        (op == "query" && (*r)["Count"] != 1)) {
      std::fprintf(stderr, "call %ld failed\n", i);
      return 1;
    }
  }
  return 0;
}
