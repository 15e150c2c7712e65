// bench/expr_bench.cc: expression parsing and evaluation costs.
//
//   cmake --build build --target expr_bench && ./build/bench/expr_bench
//
// Goal: parse + evaluate a typical ConditionExpression in under 2 us.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <string>

#include "emulator/expr/expr.h"
#include "emulator/value/codec.h"

namespace ddblab::expr {
namespace {

constexpr char kCondition[] = "attribute_not_exists(#ts) OR :ts >= #ts";
constexpr char kUpdate[] =
    "SET #c = if_not_exists(#c, :zero) + :one, history = "
    "list_append(history, :k) REMOVE tmp";

Placeholders ConditionPlaceholders() {
  nlohmann::json names = {{"#ts", "updated_at"}};
  nlohmann::json values = {{":ts", {{"N", "1700000000"}}}};
  return std::move(Placeholders::Create(&names, &values)).value();
}

Placeholders UpdatePlaceholders() {
  nlohmann::json names = {{"#c", "counter"}};
  nlohmann::json values = {{":zero", {{"N", "0"}}},
                           {":one", {{"N", "1"}}},
                           {":k", {{"L", {{{"S", "event-42"}}}}}}};
  return std::move(Placeholders::Create(&names, &values)).value();
}

// An item with 20 attributes of mixed types.
value::Item TwentyAttributeItem() {
  nlohmann::json j = nlohmann::json::object();
  j["pk"] = {{"S", "user#1234"}};
  j["sk"] = {{"S", "profile"}};
  j["updated_at"] = {{"N", "1699999999"}};
  j["counter"] = {{"N", "41"}};
  j["history"] = {{"L", {{{"S", "e1"}}, {{"S", "e2"}}}}};
  j["tmp"] = {{"BOOL", true}};
  for (int i = 0; i < 14; ++i) {
    j["attr" + std::to_string(i)] = {
        {"S", "value number " + std::to_string(i)}};
  }
  return std::move(value::DecodeItem(j)).value();
}

void BM_ParseCondition(benchmark::State& state) {
  Placeholders ph = ConditionPlaceholders();
  for (auto _ : state) {
    auto c = ParseCondition(kCondition, ExpressionKind::kCondition, ph);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_ParseCondition);

void BM_ParseUpdate(benchmark::State& state) {
  Placeholders ph = UpdatePlaceholders();
  for (auto _ : state) {
    auto u = ParseUpdate(kUpdate, ph);
    benchmark::DoNotOptimize(u);
  }
}
BENCHMARK(BM_ParseUpdate);

void BM_EvaluateCondition(benchmark::State& state) {
  Placeholders ph = ConditionPlaceholders();
  auto c = std::move(ParseCondition(kCondition, ExpressionKind::kCondition, ph))
               .value();
  value::Item item = TwentyAttributeItem();
  for (auto _ : state) {
    benchmark::DoNotOptimize(EvaluateCondition(c, item));
  }
}
BENCHMARK(BM_EvaluateCondition);

void BM_ParseAndEvaluateCondition(benchmark::State& state) {
  Placeholders ph = ConditionPlaceholders();
  value::Item item = TwentyAttributeItem();
  for (auto _ : state) {
    auto c = ParseCondition(kCondition, ExpressionKind::kCondition, ph);
    benchmark::DoNotOptimize(EvaluateCondition(*c, item));
  }
}
BENCHMARK(BM_ParseAndEvaluateCondition);

// Per-request cost including building the placeholders from JSON.
void BM_PlaceholdersParseAndEvaluate(benchmark::State& state) {
  nlohmann::json names = {{"#ts", "updated_at"}};
  nlohmann::json values = {{":ts", {{"N", "1700000000"}}}};
  value::Item item = TwentyAttributeItem();
  for (auto _ : state) {
    auto ph = Placeholders::Create(&names, &values);
    auto c = ParseCondition(kCondition, ExpressionKind::kCondition, *ph);
    benchmark::DoNotOptimize(EvaluateCondition(*c, item));
    benchmark::DoNotOptimize(ph->CheckAllUsed());
  }
}
BENCHMARK(BM_PlaceholdersParseAndEvaluate);

void BM_ApplyUpdate(benchmark::State& state) {
  Placeholders ph = UpdatePlaceholders();
  auto u = std::move(ParseUpdate(kUpdate, ph)).value();
  value::Item item = TwentyAttributeItem();
  for (auto _ : state) {
    auto r = ApplyUpdate(u, item);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_ApplyUpdate);

}  // namespace
}  // namespace ddblab::expr

BENCHMARK_MAIN();
