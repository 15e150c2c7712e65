// bench/engine_bench_partiql.cc: in-process PartiQL ExecuteStatement, next to
// the plain operation doing the same work:
//
//   SELECT * FROM "bench" WHERE pk = ?   <->  GetItem of the same key
//   INSERT INTO "bench" VALUE {...}      <->  PutItem with
//                                             attribute_not_exists(pk)
//
// The difference is what the PartiQL layer costs on top of the operation it
// runs (parse, translate, run). Each benchmark takes one argument: 0 =
// ":memory:", 1 = a WAL file database under /tmp. Part of the engine_bench
// program:
//
//   build/bench/engine_bench --benchmark_filter='Partiql'
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "bench/bench_items.h"
#include "emulator/api/emulator.h"

namespace ddblab::bench {
namespace {

using Json = nlohmann::json;

constexpr int kPreloaded = 1000;

std::unique_ptr<Emulator> OpenBenchTable(const std::string& path) {
  Options options;
  options.db_path = path;
  auto emu = Emulator::Open(options);
  if (!emu.ok()) std::abort();
  Json create{{"TableName", "bench"},
              {"BillingMode", "PAY_PER_REQUEST"},
              {"AttributeDefinitions",
               {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
              {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
  if (!(*emu)->Call("CreateTable", create).ok()) std::abort();
  for (int i = 0; i < kPreloaded; ++i) {
    if (!(*emu)
             ->Call("PutItem",
                    {{"TableName", "bench"}, {"Item", MakeItem(Key(i))}})
             .ok()) {
      std::abort();
    }
  }
  return std::move(emu).value();
}

void BM_Emulator_PartiqlSelectByKey(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_partiql_select");
  {
    auto emu = OpenBenchTable(path);
    Json request{{"Statement", "SELECT * FROM \"bench\" WHERE pk = ?"},
                 {"Parameters", Json::array({{{"S", Key(0)}}})}};
    Json& key = request["Parameters"][0]["S"];
    int64_t i = 0;
    for (auto _ : state) {
      key = Key(i++ % kPreloaded);
      auto r = emu->Call("ExecuteStatement", request);
      if (!r.ok() || (*r)["Items"].size() != 1) {
        state.SkipWithError("ExecuteStatement SELECT failed");
      }
      benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_PartiqlSelectByKey)->Arg(0)->Arg(1);

void BM_Emulator_PartiqlInsert(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_partiql_insert");
  {
    auto emu = OpenBenchTable(path);
    Json item = MakeItem(Key(0));
    item.erase("pk");
    item["pk"] = {{"S", ""}};
    Json request{
        {"Statement",
         "INSERT INTO \"bench\" VALUE {'pk': ?, 'name': ?, 'email': ?, "
         "'age': ?, 'score': ?, 'active': ?, 'tags': ?, 'bio': ?}"},
        {"Parameters", Json::array({item["pk"], item["name"], item["email"],
                                    item["age"], item["score"], item["active"],
                                    item["tags"], item["bio"]})}};
    Json& key = request["Parameters"][0]["S"];
    int64_t i = kPreloaded;
    for (auto _ : state) {
      key = Key(i++);
      auto r = emu->Call("ExecuteStatement", request);
      if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_PartiqlInsert)->Arg(0)->Arg(1);

}  // namespace
}  // namespace ddblab::bench
