// bench/consumer_bench.cc: the stream consumer's throughput and the cost of
// one invocation per kind of function.
//
//   BM_NoopCallable/B   records/s from an in-process stream through a no-op
//                       C++ function, BatchSize B (10,000 records per run;
//                       reading, batching and invoking are timed, writing
//                       the items is not)
//   BM_CommandInvoke    one invocation of `sh -c 'cat >/dev/null'`
//                       (fork + exec + pipes), a one-record event
//   BM_NodeInvoke       one invocation of a no-op Node handler through
//                       tests/clients/consumer/run_handler.mjs
//   BM_UrlInvoke        one invocation of an invoke URL served in process
#include <benchmark/benchmark.h>
#include <httplib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "harness/backend/backend.h"
#include "harness/consumer/esm.h"

namespace {

using namespace ddblab;
using namespace ddblab::harness;
using json = nlohmann::json;

constexpr int kRecords = 10000;

json OneRecordEvent() {
  return json::parse(R"({"Records": [{"eventID": "1", "eventName": "INSERT",
    "eventSource": "aws:dynamodb", "awsRegion": "us-east-1",
    "dynamodb": {"Keys": {"pk": {"S": "a"}}, "SequenceNumber": "100",
                 "SizeBytes": 5, "StreamViewType": "KEYS_ONLY"}}]})");
}

void BM_NoopCallable(benchmark::State& state) {
  int64_t delivered = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto backend = OpenBackend("emulator?clock=manual");
    Backend& b = **backend;
    (void)b.Call("CreateTable", json::parse(R"({"TableName": "bench",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST",
      "StreamSpecification": {"StreamEnabled": true,
                              "StreamViewType": "NEW_AND_OLD_IMAGES"}})"));
    for (int i = 0; i < kRecords; ++i) {
      (void)b.Call("PutItem", {{"TableName", "bench"},
                               {"Item",
                                {{"pk", {{"S", "k" + std::to_string(i)}}},
                                 {"v", {{"N", std::to_string(i)}}}}}});
    }
    auto config =
        consumer::ParseEsmConfig({{"TableName", "bench"},
                                  {"FunctionName", "noop"},
                                  {"StartingPosition", "TRIM_HORIZON"},
                                  {"BatchSize", state.range(0)}});
    int64_t seen = 0;
    consumer::EventSourceMapping esm(
        b, *config,
        std::make_unique<consumer::CallableFunction>(
            [&seen](const json& e) -> Result<json> {
              seen += static_cast<int64_t>(e["Records"].size());
              return json(nullptr);
            }));
    state.ResumeTiming();
    auto n = esm.RunUntilIdle();
    benchmark::DoNotOptimize(n);
    delivered += seen;
  }
  state.SetItemsProcessed(delivered);
}
BENCHMARK(BM_NoopCallable)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_CommandInvoke(benchmark::State& state) {
  consumer::CommandFunction f({"sh", "-c", "cat >/dev/null"});
  json event = OneRecordEvent();
  for (auto _ : state) {
    auto out = f.Invoke(event);
    if (out.kind != consumer::Invocation::Kind::kOk) {
      state.SkipWithError(out.error_message.c_str());
      break;
    }
  }
}
BENCHMARK(BM_CommandInvoke)->Unit(benchmark::kMillisecond);

void BM_NodeInvoke(benchmark::State& state) {
  namespace fs = std::filesystem;
  fs::path runner =
      fs::path(DDBLAB_SOURCE_DIR) / "tests/clients/consumer/run_handler.mjs";
  fs::path module = fs::temp_directory_path() /
                    ("ddblab_noop_" + std::to_string(getpid()) + ".mjs");
  std::ofstream(module) << "export const handler = async () => null;\n";
  consumer::CommandFunction f({"node", runner.string(), module.string()},
                              std::chrono::seconds(30));
  json event = OneRecordEvent();
  for (auto _ : state) {
    auto out = f.Invoke(event);
    if (out.kind != consumer::Invocation::Kind::kOk) {
      state.SkipWithError(out.error_message.c_str());
      break;
    }
  }
  fs::remove(module);
}
BENCHMARK(BM_NodeInvoke)->Unit(benchmark::kMillisecond);

void BM_UrlInvoke(benchmark::State& state) {
  httplib::Server server;
  server.Post("/2015-03-31/functions/function/invocations",
              [](const httplib::Request&, httplib::Response& res) {
                res.set_content("null", "application/json");
              });
  int port = server.bind_to_any_port("127.0.0.1");
  std::thread t([&server] { server.listen_after_bind(); });
  consumer::UrlFunction f("http://127.0.0.1:" + std::to_string(port) +
                          "/2015-03-31/functions/function/invocations");
  json event = OneRecordEvent();
  for (auto _ : state) {
    auto out = f.Invoke(event);
    if (out.kind != consumer::Invocation::Kind::kOk) {
      state.SkipWithError(out.error_message.c_str());
      break;
    }
  }
  server.stop();
  t.join();
}
BENCHMARK(BM_UrlInvoke)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
