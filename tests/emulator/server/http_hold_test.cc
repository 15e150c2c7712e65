// Responses due later (latency faults) in the HTTP server: the hold itself
// (emulator/server/http_hold.h) on a ManualClock, and the server holding
// many requests without a thread each, releasing exactly the due ones when
// the clock moves, and answering every held one at Shutdown.
#include "emulator/server/http_hold.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/sigv4/sigv4.h"
#include "emulator/server/http_server.h"
#include "fake_handler.h"
#include "raw_connection.h"

namespace ddblab::server {
namespace {

using http_internal::ResponseHold;
using nlohmann::json;
using std::chrono::seconds;

// Release actions run on the hold's thread: they record here, and the test
// waits (on a condition, never a sleep) for the count it expects.
class Released {
 public:
  ResponseHold::Release Add(int id) {
    return [this, id] {
      std::lock_guard lock(mu_);
      ids_.push_back(id);
      cv_.notify_all();
    };
  }
  // The ids released so far, once there are `n` (or after a minute: the
  // failure signal, not a duration under test).
  std::vector<int> WaitFor(size_t n) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::minutes(1),
                 [&] { return ids_.size() >= n; });
    return ids_;
  }
  std::vector<int> Now() {
    std::lock_guard lock(mu_);
    return ids_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<int> ids_;
};

TEST(ResponseHold, ReleasesExactlyTheDueOnesInDueOrder) {
  auto clock = std::make_shared<ManualClock>();
  const TimePoint t0 = clock->Now();
  Released released;
  ResponseHold hold;
  hold.Add({t0 + seconds(20), clock}, released.Add(20));
  hold.Add({t0 + seconds(10), clock}, released.Add(10));
  hold.Add({t0 + seconds(30), clock}, released.Add(30));
  hold.Add({t0 + seconds(10), clock}, released.Add(11));  // same time: FIFO
  EXPECT_EQ(hold.size(), 4u);
  // Already due: runs at once, on the caller.
  hold.Add({t0, clock}, released.Add(0));
  EXPECT_EQ(released.Now(), std::vector<int>{0});

  clock->Advance(seconds(10));
  EXPECT_EQ(released.WaitFor(3), (std::vector<int>{0, 10, 11}));
  // An entry earlier than the one the thread waits for (20s) wakes it.
  hold.Add({t0 + seconds(15), clock}, released.Add(15));
  clock->Advance(seconds(5));
  EXPECT_EQ(released.WaitFor(4), (std::vector<int>{0, 10, 11, 15}));
  clock->Advance(seconds(5));
  EXPECT_EQ(released.WaitFor(5), (std::vector<int>{0, 10, 11, 15, 20}));
  EXPECT_EQ(hold.size(), 1u);
}

TEST(ResponseHold, ReleaseAllRunsEveryHeldOneAndLaterOnesAtOnce) {
  auto clock = std::make_shared<ManualClock>();
  const TimePoint t0 = clock->Now();
  Released released;
  ResponseHold hold;
  hold.Add({t0 + seconds(50), clock}, released.Add(50));
  hold.Add({t0 + seconds(40), clock}, released.Add(40));
  hold.ReleaseAll();  // on this thread: done when it returns
  EXPECT_EQ(released.Now(), (std::vector<int>{40, 50}));
  EXPECT_EQ(hold.size(), 0u);
  hold.Add({t0 + seconds(60), clock}, released.Add(60));
  EXPECT_EQ(released.Now(), (std::vector<int>{40, 50, 60}));
  hold.ReleaseAll();  // again: nothing more
  EXPECT_EQ(released.Now(), (std::vector<int>{40, 50, 60}));
}

// ---- The server.

// This process's thread count (/proc/self/status "Threads:").
int ThreadCount() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("Threads:")) return std::stoi(line.substr(8));
  }
  return -1;
}

void RaiseDescriptorLimit(rlim_t n) {
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  if (limit.rlim_cur < n) {
    limit.rlim_cur = std::min(n, limit.rlim_max);
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &limit), 0);
  }
}

// Answers like FakeHandler (echo), due {"Delay": seconds} later on a
// ManualClock; {"Lost": true} answers a lost response (drop the
// connection).
class HoldingHandler : public FakeHandler {
 public:
  explicit HoldingHandler(std::shared_ptr<ManualClock> clock)
      : clock_(std::move(clock)) {}

  DeferredAnswer CallDeferred(std::string_view operation,
                              const json& request) override {
    // The due time is read before the call is recorded: a test that waits
    // for the call and then moves the clock must find it counted already.
    const TimePoint start = clock_->Now();
    DeferredAnswer out{Call(operation, request), std::nullopt};
    if (request.contains("Lost")) {
      out.result = Error::Of(ErrorType::kOutcomeUnknown, "lost");
    }
    if (request.contains("Delay")) {
      out.due = DueTime{start + seconds(request["Delay"].get<int>()), clock_};
    }
    return out;
  }
  // The Protocol calls CallAs (FakeHandler records it without a delay).
  DeferredAnswer CallAs(const Caller& caller, std::string_view operation,
                        const json& request) override {
    (void)caller;
    return CallDeferred(operation, request);
  }

 private:
  std::shared_ptr<ManualClock> clock_;
};

class HttpHoldTest : public ::testing::Test {
 protected:
  HttpHoldTest()
      : clock_(std::make_shared<ManualClock>()),
        handler_(clock_),
        logger_(LogLevel::kError, log_),
        auth_(AuthConfig{}, *clock_),
        protocol_(handler_, auth_, *clock_, logger_, ProtocolConfig{}),
        server_(protocol_, logger_, ServerOptions()) {}

  static HttpServerOptions ServerOptions() {
    HttpServerOptions options;
    options.port = 0;
    options.threads = 2;
    return options;
  }

  void SetUp() override {
    auto port = server_.Bind();
    ASSERT_TRUE(port.ok()) << port.error().message;
    port_ = *port;
    serving_ = std::thread([this] { server_.Serve(); });
  }

  void TearDown() override {
    server_.Shutdown();
    if (serving_.joinable()) serving_.join();
  }

  static std::string Echo(const std::string& op, const std::string& body) {
    return R"({"Operation":")" + op + R"(","Request":)" + body + "}";
  }

  std::shared_ptr<ManualClock> clock_;
  HoldingHandler handler_;
  std::ostringstream log_;
  Logger logger_;
  Authenticator auth_;
  Protocol protocol_;
  HttpServer server_;
  int port_ = 0;
  std::thread serving_;
};

TEST_F(HttpHoldTest, ManyHeldRequestsTakeNoThreadEachAndLeaveWhenDue) {
  constexpr int kRequests = 200;
  RaiseDescriptorLimit(2 * kRequests + 100);
  std::vector<std::unique_ptr<RawConnection>> conns;
  for (int i = 0; i < kRequests; ++i) {
    conns.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(conns.back()->connected()) << i;
  }
  // One answer at once, so every loop and the watchdog have started.
  ASSERT_TRUE(conns[0]->Send(SignedPost("GetItem", R"({"Delay":0})")));
  ASSERT_TRUE(conns[0]->Read().has_value());
  const int threads_before = ThreadCount();

  // Even requests are due in 10 s, odd ones in 20 s.
  auto body = [](int i) {
    return R"({"Delay":)" + std::to_string(i % 2 == 0 ? 10 : 20) + R"(,"N":)" +
           std::to_string(i) + "}";
  };
  for (int i = 0; i < kRequests; ++i) {
    ASSERT_TRUE(conns[i]->Send(SignedPost("GetItem", body(i)))) << i;
  }
  // Every request was executed (the hold is what waits).
  for (int spin = 0; spin < 10000000 && handler_.calls().size() < kRequests + 1;
       ++spin) {
    std::this_thread::yield();
  }
  ASSERT_EQ(handler_.calls().size(), kRequests + 1u);
  EXPECT_LE(ThreadCount(), threads_before + 2);
  for (int i = 0; i < kRequests; ++i) {
    EXPECT_TRUE(conns[i]->NothingYet()) << i;
  }

  clock_->Advance(seconds(10));
  for (int i = 0; i < kRequests; i += 2) {
    auto r = conns[i]->Read();
    ASSERT_TRUE(r.has_value()) << i;
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, Echo("GetItem", body(i)));
  }
  for (int i = 1; i < kRequests; i += 2) {
    EXPECT_TRUE(conns[i]->NothingYet()) << i;  // not due: cannot have come
  }
  EXPECT_LE(ThreadCount(), threads_before + 2);

  // Shutdown answers the odd ones, still held, at once, and returns.
  server_.Shutdown();
  serving_.join();
  for (int i = 1; i < kRequests; i += 2) {
    auto r = conns[i]->Read();
    ASSERT_TRUE(r.has_value()) << i;
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, Echo("GetItem", body(i)));
  }
}

TEST_F(HttpHoldTest, KeepAliveConnectionServesTheNextRequestAfterTheHeldOne) {
  RawConnection conn(port_);
  ASSERT_TRUE(conn.Send(SignedPost("PutItem", R"({"Delay":5})")));
  for (int spin = 0; spin < 10000000 && handler_.calls().empty(); ++spin) {
    std::this_thread::yield();
  }
  ASSERT_EQ(handler_.calls().size(), 1u);
  clock_->Advance(seconds(5));
  auto first = conn.Read();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->body, Echo("PutItem", R"({"Delay":5})"));
  ASSERT_TRUE(conn.Send(SignedPost("GetItem", R"({"N":2})")));
  auto second = conn.Read();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->status, 200);
  EXPECT_EQ(second->body, Echo("GetItem", R"({"N":2})"));
}

TEST_F(HttpHoldTest, LostResponseWithLatencyIsHeldThenDropped) {
  RawConnection conn(port_);
  ASSERT_TRUE(conn.Send(SignedPost("PutItem", R"({"Delay":3,"Lost":true})")));
  for (int spin = 0; spin < 10000000 && handler_.calls().empty(); ++spin) {
    std::this_thread::yield();
  }
  ASSERT_EQ(handler_.calls().size(), 1u);
  EXPECT_TRUE(conn.NothingYet());  // held: still open
  clock_->Advance(seconds(3));
  EXPECT_TRUE(conn.ClosedWithoutBytes());
}

TEST_F(HttpHoldTest, ClientGoneWhileHeldIsDroppedCleanly) {
  {
    RawConnection gone(port_);
    ASSERT_TRUE(gone.Send(SignedPost("PutItem", R"({"Delay":3})")));
    for (int spin = 0; spin < 10000000 && handler_.calls().empty(); ++spin) {
      std::this_thread::yield();
    }
    ASSERT_EQ(handler_.calls().size(), 1u);
  }  // closed while held
  clock_->Advance(seconds(3));
  // The server goes on serving.
  RawConnection next(port_);
  ASSERT_TRUE(next.Send(SignedPost("GetItem", R"({"N":1})")));
  auto r = next.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->body, Echo("GetItem", R"({"N":1})"));
}

}  // namespace
}  // namespace ddblab::server
