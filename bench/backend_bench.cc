// bench/backend_bench.cc: what a Backend call costs on top of the engine.
//
// GetItem of one ~200-byte item (10,000 preloaded, in memory), four ways:
//   RawEngine      ddblab::Emulator::Call directly
//   InProcess      harness Backend "emulator" (a virtual call + the same)
//   HttpKeepAlive  harness HttpBackend over one keep-alive connection to a
//                  `ddblab serve` child (SigV4 signing, x-amz-crc32 check,
//                  JSON both ways, loopback TCP)
// and PutItem the same three ways.
//
// Wall time (UseRealTime): the HTTP rows wait on the server process.
//
//   build/bench/backend_bench --benchmark_min_time=2s
#include <benchmark/benchmark.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/bench_items.h"
#include "emulator/api/emulator.h"
#include "harness/backend/backend.h"

namespace {

using Json = nlohmann::json;
using ddblab::bench::Key;
using ddblab::bench::MakeItem;

constexpr int kPreloaded = 10000;

const Json& CreateRequest() {
  static const Json request = Json::parse(R"({"TableName":"bench",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "BillingMode":"PAY_PER_REQUEST"})");
  return request;
}

template <class CallFn>
void Preload(CallFn&& call) {
  call("CreateTable", CreateRequest());
  for (int i = 0; i < kPreloaded; ++i) {
    call("PutItem", Json{{"TableName", "bench"}, {"Item", MakeItem(Key(i))}});
  }
}

Json GetRequest(int i) {
  return Json{{"TableName", "bench"},
              {"Key", {{"pk", {{"S", Key(i % kPreloaded)}}}}}};
}

// `ddblab serve` on a free port, started once, killed at exit.
class ServeChild {
 public:
  ServeChild() {
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      close(out[0]);
      execl(DDBLAB_BIN, DDBLAB_BIN, "serve", "--port", "0", "--log-level",
            "error", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(out[1]);
    char c;
    std::string line;
    while (read(out[0], &c, 1) == 1 && c != '\n') line += c;
    size_t at = line.find("http://");
    if (at != std::string::npos) {
      endpoint_ = line.substr(at, line.find_first_of(" \t", at) - at);
    }
  }
  ~ServeChild() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  const std::string& endpoint() const { return endpoint_; }

 private:
  pid_t pid_ = -1;
  std::string endpoint_;
};

ddblab::Emulator& RawEngine() {
  static std::unique_ptr<ddblab::Emulator> emulator = [] {
    auto opened = ddblab::Emulator::Open(ddblab::Options{});
    auto e = std::move(opened).value();
    Preload([&](std::string_view op, const Json& r) { (void)e->Call(op, r); });
    return e;
  }();
  return *emulator;
}

ddblab::harness::Backend& InProcess() {
  static std::unique_ptr<ddblab::harness::Backend> backend = [] {
    auto b = std::move(ddblab::harness::OpenBackend("emulator")).value();
    Preload([&](std::string_view op, const Json& r) { (void)b->Call(op, r); });
    return b;
  }();
  return *backend;
}

ddblab::harness::Backend* Http() {
  static ServeChild child;
  static std::unique_ptr<ddblab::harness::Backend> backend = [] {
    std::unique_ptr<ddblab::harness::Backend> b;
    if (child.endpoint().empty()) return b;
    ddblab::harness::BackendOptions options;
    options.environment = ddblab::harness::AwsEnvironment::FromMap({});
    auto opened = ddblab::harness::OpenBackend(child.endpoint(), options);
    if (!opened.ok()) return b;
    b = std::move(opened).value();
    Preload([&](std::string_view op, const Json& r) { (void)b->Call(op, r); });
    return b;
  }();
  return backend.get();
}

void BM_GetItem_RawEngine(benchmark::State& state) {
  ddblab::Emulator& e = RawEngine();
  int i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(e.Call("GetItem", GetRequest(i++)));
}
BENCHMARK(BM_GetItem_RawEngine)->UseRealTime();

void BM_GetItem_InProcess(benchmark::State& state) {
  ddblab::harness::Backend& b = InProcess();
  int i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(b.Call("GetItem", GetRequest(i++)));
}
BENCHMARK(BM_GetItem_InProcess)->UseRealTime();

void BM_GetItem_HttpKeepAlive(benchmark::State& state) {
  ddblab::harness::Backend* b = Http();
  if (b == nullptr) {
    state.SkipWithError("could not start ddblab serve");
    return;
  }
  int i = 0;
  for (auto _ : state) {
    auto out = b->Call("GetItem", GetRequest(i++));
    if (!out.ok()) state.SkipWithError(out.error().message.c_str());
  }
}
BENCHMARK(BM_GetItem_HttpKeepAlive)->UseRealTime();

Json PutRequest(int i) {
  return Json{{"TableName", "bench"}, {"Item", MakeItem(Key(i % kPreloaded))}};
}

void BM_PutItem_RawEngine(benchmark::State& state) {
  ddblab::Emulator& e = RawEngine();
  int i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(e.Call("PutItem", PutRequest(i++)));
}
BENCHMARK(BM_PutItem_RawEngine)->UseRealTime();

void BM_PutItem_InProcess(benchmark::State& state) {
  ddblab::harness::Backend& b = InProcess();
  int i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(b.Call("PutItem", PutRequest(i++)));
}
BENCHMARK(BM_PutItem_InProcess)->UseRealTime();

void BM_PutItem_HttpKeepAlive(benchmark::State& state) {
  ddblab::harness::Backend* b = Http();
  if (b == nullptr) {
    state.SkipWithError("could not start ddblab serve");
    return;
  }
  int i = 0;
  for (auto _ : state) {
    auto out = b->Call("PutItem", PutRequest(i++));
    if (!out.ok()) state.SkipWithError(out.error().message.c_str());
  }
}
BENCHMARK(BM_PutItem_HttpKeepAlive)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
