// tests/harness/patterns/pattern_backends.cc: pattern test rows and the
// failure-injecting TestBackend.
#include "tests/harness/patterns/pattern_backends.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "emulator/api/random.h"
#include "tests/harness/backend/test_servers.h"

namespace ddblab::harness::testing {
namespace {

const char kAwsHowTo[] =
    "Amazon DynamoDB row skipped. To run it: DDBLAB_TEST_AWS=1 with AWS "
    "credentials and a region (as for the backend contract suite), then "
    "`DDBLAB_TEST_AWS=1 ctest --test-dir build -R patterns.aws "
    "--output-on-failure`. It creates on-demand tables named "
    "ddblab_patterns_<random>_* and deletes them after each test; the tests "
    "that move the clock or sweep TTL skip themselves there.";

// The HTTP row's server and the local clock kept in step with it.
struct HttpRow {
  std::unique_ptr<ChildServer> server;
  std::shared_ptr<ManualClock> clock;
  std::string skip;
};

HttpRow& SharedHttpRow() {
  static HttpRow row = [] {
    HttpRow out;
    out.server = std::make_unique<ChildServer>();
    std::string error = out.server->Start(
        {DDBLAB_BIN, "serve", "--port", "0", "--log-level", "warn", "--clock",
         "manual=" + std::to_string(ManualClock::kDefaultStartEpochSeconds),
         "--ttl-delay", "48h"},
        0);
    if (!error.empty()) {
      out.skip = "could not start ddblab serve: " + error;
      out.server.reset();
    }
    out.clock = std::make_shared<ManualClock>();
    return out;
  }();
  return row;
}

}  // namespace

std::unique_ptr<Backend> OpenPatternRow(const std::string& row,
                                        std::string* skip) {
  if (row == "emulator") {
    auto backend = OpenBackend("emulator?clock=manual&ttl_delay=48h");
    if (!backend.ok()) {
      *skip = ToString(backend.error());
      return nullptr;
    }
    return std::make_unique<TestBackend>(std::move(*backend), nullptr);
  }
  if (row == "ddblab_http") {
    HttpRow& http = SharedHttpRow();
    if (!http.server) {
      *skip = http.skip;
      return nullptr;
    }
    BackendOptions options;
    options.environment = AwsEnvironment::FromMap({});
    options.credentials = AwsCredentials{"AKIDPATTERNS", "secret", "", ""};
    options.retry = RetryPolicy::Off();
    options.clock = http.clock;
    auto backend = OpenBackend(http.server->endpoint(), options);
    if (!backend.ok()) {
      *skip = ToString(backend.error());
      return nullptr;
    }
    return std::make_unique<TestBackend>(std::move(*backend), http.clock);
  }
  if (row == "ddblocal") {
    auto endpoint = DynamoDbLocalEndpoint(skip);
    if (!endpoint) return nullptr;
    BackendOptions options;
    options.environment = AwsEnvironment::FromMap({});
    options.credentials = AwsCredentials{"AKIDPATTERNS", "secret", "", ""};
    options.retry = RetryPolicy::Off();
    auto backend = OpenBackend(*endpoint, options);
    if (!backend.ok()) {
      *skip = ToString(backend.error());
      return nullptr;
    }
    return std::make_unique<TestBackend>(std::move(*backend), nullptr);
  }
  if (row == "aws") {
    const char* flag = std::getenv("DDBLAB_TEST_AWS");
    if (flag == nullptr || std::string(flag) != "1") {
      *skip = kAwsHowTo;
      return nullptr;
    }
    BackendOptions options;
    options.environment = AwsEnvironment::Process();
    std::string spec = "aws";
    auto region = ResolveRegion(options.environment);
    if (region.ok() && !region->has_value()) spec = "aws:us-east-1";
    auto backend = OpenBackend(spec, options);
    if (!backend.ok()) {
      *skip = "cannot open " + spec + ": " + ToString(backend.error()) + "\n" +
              kAwsHowTo;
      return nullptr;
    }
    return std::make_unique<TestBackend>(std::move(*backend), nullptr);
  }
  *skip = "unknown row " + row;
  return nullptr;
}

TestBackend::TestBackend(std::unique_ptr<Backend> inner,
                         std::shared_ptr<ManualClock> local_clock)
    : inner_(std::move(inner)), local_clock_(std::move(local_clock)) {}

Result<json> TestBackend::Call(std::string_view operation,
                               const json& request) {
  ++calls_[std::string(operation)];
  if (operation == "BatchWriteItem" && unprocessed_times_ > 0 &&
      --unprocessed_countdown_ <= 0) {
    --unprocessed_times_;
    json sent = request;
    json unprocessed = json::object();
    int left = unprocessed_count_;
    for (auto& [table, writes] : sent["RequestItems"].items()) {
      json kept = json::array();
      for (json& write : writes) {
        if (left > 0) {
          unprocessed[table].push_back(write);
          --left;
        } else {
          kept.push_back(write);
        }
      }
      writes = kept;
    }
    json remaining = json::object();
    for (auto& [table, writes] : sent["RequestItems"].items()) {
      if (!writes.empty()) remaining[table] = writes;
    }
    json out = {{"UnprocessedItems", json::object()}};
    if (!remaining.empty()) {
      sent["RequestItems"] = remaining;
      auto applied = inner_->Call(operation, sent);
      if (!applied.ok()) return applied;
      out = *applied;
    }
    for (auto& [table, writes] : unprocessed.items()) {
      for (json& write : writes) {
        out["UnprocessedItems"][table].push_back(write);
      }
    }
    return out;
  }
  auto out = inner_->Call(operation, request);
  if (operation == "CreateTable" && out.ok()) {
    created_.push_back(request.value("TableName", ""));
  }
  if (operation == lose_operation_ && lose_countdown_ > 0 &&
      --lose_countdown_ == 0 && out.ok()) {
    return Error::Of(ErrorType::kOutcomeUnknown,
                     "connection closed before the response (test: lost "
                     "response of " +
                         lose_operation_ + ")");
  }
  return out;
}

Status TestBackend::AdvanceClock(Duration d) {
  Status status = inner_->AdvanceClock(d);
  if (status.ok() && local_clock_) local_clock_->Advance(d);
  return status;
}

Status TestBackend::SetClock(TimePoint t) {
  Status status = inner_->SetClock(t);
  if (status.ok() && local_clock_) local_clock_->Set(t);
  return status;
}

void TestBackend::LoseResponse(std::string operation, int nth) {
  lose_operation_ = std::move(operation);
  lose_countdown_ = nth;
}

void TestBackend::LeaveUnprocessed(int nth, int count, int times) {
  unprocessed_countdown_ = nth;
  unprocessed_count_ = count;
  unprocessed_times_ = times;
}

void TestBackend::DeleteCreatedTables() {
  for (const std::string& table : created_) {
    (void)inner_->Call("DeleteTable", {{"TableName", table}});
  }
  created_.clear();
}

const std::string& TablePrefix() {
  static const std::string prefix = [] {
    Rng rng(static_cast<uint64_t>(
        std::chrono::system_clock::now().time_since_epoch().count()));
    char buf[40];
    std::snprintf(buf, sizeof(buf), "ddblab_patterns_%08llx_",
                  static_cast<unsigned long long>(rng.Next() & 0xffffffffULL));
    return std::string(buf);
  }();
  return prefix;
}

int TestBackend::calls(std::string_view operation) const {
  auto it = calls_.find(operation);
  return it == calls_.end() ? 0 : it->second;
}

}  // namespace ddblab::harness::testing
