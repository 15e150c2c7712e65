// HttpBackend's retries over a real loopback connection (ScriptedServer):
// throttles, lost responses and resets, the SDK standard-mode attempts,
// full-jitter waits drawn from the seeded generator and asserted on a
// ManualClock (nothing sleeps), and the retry quota.
#include <gtest/gtest.h>

#include <memory>

#include "emulator/api/random.h"
#include "harness/backend/backend.h"
#include "harness/backend/http_backend.h"
#include "tests/harness/backend/scripted_server.h"

namespace ddblab::harness {
namespace {

using testing::Action;
using testing::ScriptedServer;

BackendOptions Options(RetryPolicy retry, std::shared_ptr<Clock> clock) {
  BackendOptions options;
  options.environment = AwsEnvironment::FromMap({});
  options.retry = retry;
  options.clock = std::move(clock);
  return options;
}

struct Client {
  std::unique_ptr<Backend> backend;
  HttpBackend* http = nullptr;
};

Client Open(const ScriptedServer& server, RetryPolicy retry,
            std::shared_ptr<Clock> clock) {
  Client client;
  auto backend = OpenBackend(server.url(), Options(retry, std::move(clock)));
  EXPECT_TRUE(backend.ok()) << ToString(backend.error());
  if (!backend.ok()) return client;
  client.backend = std::move(*backend);
  client.http = dynamic_cast<HttpBackend*>(client.backend.get());
  return client;
}

// The documented standard-mode waits for `seed`: before retry n, a draw in
// [0, 1) times min(2^(n-1) s, 20 s), in nanoseconds.
std::vector<Duration> ExpectedWaits(uint64_t seed, int retries) {
  Rng rng(seed);
  std::vector<Duration> waits;
  double ceiling = 1e9;
  for (int n = 1; n <= retries; ++n) {
    double capped = std::min(ceiling, 20e9);
    waits.push_back(
        Duration(static_cast<Duration::rep>(rng.UniformDouble() * capped)));
    ceiling *= 2;
  }
  return waits;
}

TEST(HttpRetryTest, ThrottledTwiceSucceedsOnTheThirdAttempt) {
  ScriptedServer server({Action::kThrottle, Action::kThrottle});
  auto clock = std::make_shared<ManualClock>();
  const TimePoint start = clock->Now();
  Client c = Open(server, RetryPolicy::Standard(42), clock);
  ASSERT_NE(c.http, nullptr);
  auto out = c.backend->Call("ListTables", nlohmann::json::object());
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  EXPECT_EQ(*out, nlohmann::json::parse(R"({"TableNames":[]})"));
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(c.http->last_attempts(), 3);
  // Throttles keep the connection: one connection for all three attempts
  // (and one for the health probe made when the backend opened).
  EXPECT_EQ(server.connections(), 2);
  const std::vector<Duration> waits = ExpectedWaits(42, 2);
  EXPECT_EQ(c.http->waits(), waits);
  EXPECT_LT(waits[0], std::chrono::seconds(1));
  EXPECT_LT(waits[1], std::chrono::seconds(2));
  // The waits advanced the manual clock, exactly, instead of sleeping.
  EXPECT_EQ(clock->Now() - start, waits[0] + waits[1]);
  // Two retries took 5 tokens each; the success gave the last 5 back.
  EXPECT_EQ(c.http->retry_state().quota(), 495);
}

TEST(HttpRetryTest, SameSeedSameWaitsOtherSeedOtherWaits) {
  std::vector<std::vector<Duration>> runs;
  for (uint64_t seed : {7u, 7u, 8u}) {
    ScriptedServer server({Action::kThrottle, Action::kThrottle});
    Client c = Open(server, RetryPolicy::Standard(seed),
                    std::make_shared<ManualClock>());
    ASSERT_NE(c.http, nullptr);
    ASSERT_TRUE(c.backend->Call("ListTables", nlohmann::json::object()).ok());
    runs.push_back(c.http->waits());
  }
  EXPECT_EQ(runs[0], runs[1]);
  EXPECT_NE(runs[0], runs[2]);
  EXPECT_EQ(runs[2], ExpectedWaits(8, 2));
}

TEST(HttpRetryTest, ThreeThrottlesSurfaceTheThrottle) {
  ScriptedServer server(
      {Action::kThrottle, Action::kThrottle, Action::kThrottle});
  Client c =
      Open(server, RetryPolicy::Standard(1), std::make_shared<ManualClock>());
  ASSERT_NE(c.http, nullptr);
  auto out = c.backend->Call("PutItem", nlohmann::json::object());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kProvisionedThroughputExceeded);
  EXPECT_EQ(out.error().message,
            "The level of configured provisioned throughput for the table was "
            "exceeded. Consider increasing your provisioning level with the "
            "UpdateTable API.");
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(c.http->waits(), ExpectedWaits(1, 2));
  // Nothing given back: 500 - 2 * 5.
  EXPECT_EQ(c.http->retry_state().quota(), 490);
}

TEST(HttpRetryTest, LostResponseIsOutcomeUnknownWithRetriesOff) {
  for (Action lost : {Action::kDrop, Action::kReset}) {
    ScriptedServer server({lost});
    Client c =
        Open(server, RetryPolicy::Off(), std::make_shared<ManualClock>());
    ASSERT_NE(c.http, nullptr);
    EXPECT_FALSE(c.backend->Has(Capability::kClock));
    auto out = c.backend->Call("PutItem", nlohmann::json::object());
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.error().type, ErrorType::kOutcomeUnknown);
    EXPECT_EQ(out.error().Name(), "OutcomeUnknown");
    EXPECT_EQ(out.error().extra[kTransportMember], "closed");
    EXPECT_NE(out.error().message.find("the request may have been applied"),
              std::string::npos)
        << out.error().message;
    EXPECT_EQ(server.requests(), 1);
    EXPECT_TRUE(c.http->waits().empty());
    // The next call opens a new connection and succeeds (the first one
    // was the health probe's).
    EXPECT_TRUE(c.backend->Call("PutItem", nlohmann::json::object()).ok());
    EXPECT_EQ(server.connections(), 3);
  }
}

TEST(HttpRetryTest, LostResponsesAreRetriedWithRetriesOn) {
  ScriptedServer server({Action::kDrop, Action::kReset});
  auto clock = std::make_shared<ManualClock>();
  const TimePoint start = clock->Now();
  Client c = Open(server, RetryPolicy::Standard(5), clock);
  ASSERT_NE(c.http, nullptr);
  auto out = c.backend->Call("PutItem", nlohmann::json::object());
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  EXPECT_EQ(server.requests(), 3);
  // A new connection per attempt, after the health probe's.
  EXPECT_EQ(server.connections(), 4);
  EXPECT_EQ(c.http->waits(), ExpectedWaits(5, 2));
  EXPECT_EQ(clock->Now() - start, c.http->waits()[0] + c.http->waits()[1]);
}

TEST(HttpRetryTest, LostThreeTimesIsOutcomeUnknownAfterThreeAttempts) {
  ScriptedServer server({Action::kDrop, Action::kDrop, Action::kDrop});
  Client c =
      Open(server, RetryPolicy::Standard(5), std::make_shared<ManualClock>());
  ASSERT_NE(c.http, nullptr);
  auto out = c.backend->Call("PutItem", nlohmann::json::object());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kOutcomeUnknown);
  EXPECT_EQ(server.requests(), 3);
}

TEST(HttpRetryTest, CustomAttempts) {
  ScriptedServer server({Action::kThrottle, Action::kThrottle,
                         Action::kThrottle, Action::kThrottle});
  Client c = Open(server, RetryPolicy::Attempts(5, 3),
                  std::make_shared<ManualClock>());
  ASSERT_NE(c.http, nullptr);
  ASSERT_TRUE(c.backend->Call("GetItem", nlohmann::json::object()).ok());
  EXPECT_EQ(server.requests(), 5);
  // Ceilings 1, 2, 4, 8 s.
  EXPECT_EQ(c.http->waits(), ExpectedWaits(3, 4));
}

TEST(HttpRetryTest, AnEmptyQuotaStopsRetrying) {
  RetryPolicy policy = RetryPolicy::Standard(9);
  policy.quota_capacity = 5;  // room for one retry
  ScriptedServer server(
      {Action::kThrottle, Action::kThrottle, Action::kThrottle});
  Client c = Open(server, policy, std::make_shared<ManualClock>());
  ASSERT_NE(c.http, nullptr);
  auto out = c.backend->Call("GetItem", nlohmann::json::object());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kProvisionedThroughputExceeded);
  // One retry took the 5 tokens; the second failure found none.
  EXPECT_EQ(server.requests(), 2);
  EXPECT_EQ(c.http->retry_state().quota(), 0);
  EXPECT_EQ(c.http->waits().size(), 1u);
  // The next call's throttle is not retried either; its success refills 1.
  auto again = c.backend->Call("GetItem", nlohmann::json::object());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(server.requests(), 3);
  ASSERT_TRUE(c.backend->Call("GetItem", nlohmann::json::object()).ok());
  EXPECT_EQ(c.http->retry_state().quota(), 1);
}

// A response that never comes: the read timeout (real time, the socket's
// own timer; 100 ms here) is "timeout" and its retry costs 10 tokens.
TEST(HttpRetryTest, ReadTimeoutIsOutcomeUnknownAndCostsTen) {
  ScriptedServer server({Action::kHang});
  BackendOptions options =
      Options(RetryPolicy::Standard(2), std::make_shared<ManualClock>());
  options.read_timeout = std::chrono::milliseconds(100);
  auto backend = OpenBackend(server.url(), options);
  ASSERT_TRUE(backend.ok()) << ToString(backend.error());
  auto* http = dynamic_cast<HttpBackend*>(backend->get());
  ASSERT_NE(http, nullptr);
  auto out = (*backend)->Call("PutItem", nlohmann::json::object());
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  EXPECT_EQ(server.requests(), 2);
  EXPECT_EQ(http->waits(), ExpectedWaits(2, 1));
  // The retry took 10 and the success gave them back.
  EXPECT_EQ(http->retry_state().quota(), 500);

  ScriptedServer hung({Action::kHang});
  options.retry = RetryPolicy::Off();
  auto off = OpenBackend(hung.url(), options);
  ASSERT_TRUE(off.ok());
  auto lost = (*off)->Call("PutItem", nlohmann::json::object());
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.error().type, ErrorType::kOutcomeUnknown);
  EXPECT_EQ(lost.error().extra[kTransportMember], "timeout");
  EXPECT_EQ(lost.error().message,
            "no response from " + hung.url() +
                " within 100 ms; the request may have been applied");
}

TEST(HttpRetryTest, ConnectionRefusedIsOutcomeUnknownConnect) {
  int port = 0;
  {
    ScriptedServer server({});
    port = server.port();
  }
  auto backend = OpenBackend("http://127.0.0.1:" + std::to_string(port),
                             Options(RetryPolicy::Off(), nullptr));
  ASSERT_TRUE(backend.ok());
  auto out = (*backend)->Call("ListTables", nlohmann::json::object());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kOutcomeUnknown);
  EXPECT_EQ(out.error().extra[kTransportMember], "connect");
}

}  // namespace
}  // namespace ddblab::harness
