// bench/vector_bench.cc: vector search in process.
//
//   * SearchVectors over 100,000 items of 128 dimensions (COSINE, TopK 10,
//     and TopK 100; EUCLIDEAN and DOT_PRODUCT TopK 10) through
//     Emulator::Call — JSON request, exact scan of the float32 copies, the
//     results read back and projected. Goal: under 20 ms a query on one core.
//   * The same scan on VectorIndexData alone (no request, no items read).
//   * PutItem of an item with a 128-dimension vector on a table without a
//     vector index and on one with one (arg 0 / 1): the write cost of the
//     index (checks, float32 copies, the in-memory row).
//
//   build/bench/vector_bench --benchmark_min_time=1
//
// Figures and the exact command: bench/README.md.
#include <benchmark/benchmark.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_items.h"
#include "emulator/api/emulator.h"
#include "emulator/engine/vector/vector_store.h"

namespace {

using Json = nlohmann::json;
using ddblab::bench::Key;
using ddblab::bench::Must;

constexpr int kItems = 100000;
constexpr int kDims = 128;

// A random vector of kDims numbers in [-1, 1] (6 decimals, as embeddings
// usually travel).
std::vector<float> RandomVector(std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(kDims);
  for (float& x : v) x = dist(rng);
  return v;
}

Json NumberList(const std::vector<float>& v) {
  Json list = Json::array();
  char buf[32];
  for (float x : v) {
    std::snprintf(buf, sizeof(buf), "%.6f", static_cast<double>(x));
    list.push_back({{"N", buf}});
  }
  return list;
}

Json TableRequest(const std::string& name, bool with_index,
                  const std::string& distance = "COSINE") {
  Json req{{"TableName", name},
           {"BillingMode", "PAY_PER_REQUEST"},
           {"AttributeDefinitions",
            {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
           {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
  if (with_index) {
    req["VectorIndexes"] = {
        {{"IndexName", "vix"},
         {"VectorAttribute", {{"AttributeName", "embedding"}}},
         {"Dimensions", kDims},
         {"DistanceFunction", distance},
         {"Projection", {{"ProjectionType", "ALL"}}}}};
  }
  return req;
}

// One emulator with three 100,000-item tables (one per distance function),
// built once for every search benchmark.
struct SearchFixture {
  std::unique_ptr<ddblab::Emulator> emu;
  std::mt19937 rng{42};

  SearchFixture() {
    ddblab::Options options;
    options.seed = 7;
    emu = Must(ddblab::Emulator::Open(options));
    for (const char* distance : {"COSINE", "EUCLIDEAN", "DOT_PRODUCT"}) {
      const std::string table = std::string("v_") + distance;
      Must(emu->Call("CreateTable", TableRequest(table, true, distance)));
      std::mt19937 items_rng(1);  // the same items in every table
      for (int i = 0; i < kItems; i += 25) {
        Json writes = Json::array();
        for (int j = i; j < i + 25; ++j) {
          Json item{
              {"pk", {{"S", Key(j)}}},
              {"label", {{"S", "item " + std::to_string(j)}}},
              {"embedding", {{"L", NumberList(RandomVector(items_rng))}}}};
          writes.push_back({{"PutRequest", {{"Item", item}}}});
        }
        Must(
            emu->Call("BatchWriteItem", {{"RequestItems", {{table, writes}}}}));
      }
    }
  }
};

SearchFixture& Fixture() {
  static SearchFixture* fixture = new SearchFixture();
  return *fixture;
}

void SearchVectors(benchmark::State& state, const char* distance) {
  SearchFixture& f = Fixture();
  const int64_t top_k = state.range(0);
  std::vector<Json> queries;
  for (int i = 0; i < 16; ++i) {
    queries.push_back({{"TableName", std::string("v_") + distance},
                       {"IndexName", "vix"},
                       {"SearchVector", NumberList(RandomVector(f.rng))},
                       {"TopK", top_k}});
  }
  size_t n = 0;
  for (auto _ : state) {
    auto r = f.emu->Call("SearchVectors", queries[n++ % queries.size()]);
    if (!r.ok() ||
        r->at("SearchResults").size() != static_cast<size_t>(top_k)) {
      state.SkipWithError("search failed");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
  state.counters["items"] = kItems;
}

void BM_SearchVectors_Cosine(benchmark::State& state) {
  SearchVectors(state, "COSINE");
}
BENCHMARK(BM_SearchVectors_Cosine)
    ->Arg(10)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond);

void BM_SearchVectors_Euclidean(benchmark::State& state) {
  SearchVectors(state, "EUCLIDEAN");
}
BENCHMARK(BM_SearchVectors_Euclidean)->Arg(10)->Unit(benchmark::kMillisecond);

void BM_SearchVectors_DotProduct(benchmark::State& state) {
  SearchVectors(state, "DOT_PRODUCT");
}
BENCHMARK(BM_SearchVectors_DotProduct)->Arg(10)->Unit(benchmark::kMillisecond);

// The scan alone: VectorIndexData::Search over the same number of rows.
void BM_VectorIndexDataScan(benchmark::State& state) {
  std::mt19937 rng(3);
  ddblab::engine::VectorIndexData data(kDims);
  for (int i = 0; i < kItems; ++i) {
    ddblab::engine::VectorEntry e;
    e.values = RandomVector(rng);
    data.Upsert(Key(i), "", std::move(e));
  }
  std::vector<float> query = RandomVector(rng);
  for (auto _ : state) {
    auto hits =
        data.Search(query, ddblab::engine::DistanceFunction::kCosine, 10, {});
    benchmark::DoNotOptimize(hits);
  }
}
BENCHMARK(BM_VectorIndexDataScan)->Unit(benchmark::kMillisecond);

// PutItem of an item with a 128-dimension vector; arg 1: the table has a
// vector index on it.
void BM_PutItemWithVector(benchmark::State& state) {
  ddblab::Options options;
  options.seed = 7;
  auto emu = Must(ddblab::Emulator::Open(options));
  Must(emu->Call("CreateTable", TableRequest("writes", state.range(0) == 1)));
  std::mt19937 rng(5);
  std::vector<Json> vectors;
  for (int i = 0; i < 64; ++i) {
    vectors.push_back({{"L", NumberList(RandomVector(rng))}});
  }
  int64_t i = 0;
  for (auto _ : state) {
    Json req{
        {"TableName", "writes"},
        {"Item",
         {{"pk", {{"S", Key(i % 10000)}}},
          {"embedding", vectors[static_cast<size_t>(i) % vectors.size()]}}}};
    ++i;
    auto r = emu->Call("PutItem", req);
    if (!r.ok()) {
      state.SkipWithError("put failed");
      break;
    }
  }
}
BENCHMARK(BM_PutItemWithVector)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
