#include "emulator/server/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "common/sigv4/sigv4.h"
#include "emulator/server/crc32.h"
#include "fake_handler.h"
#include "raw_connection.h"

namespace ddblab::server {
namespace {

using nlohmann::json;

HttpServerOptions Options(size_t threads, int port = 0) {
  HttpServerOptions options;
  options.host = "127.0.0.1";
  options.port = port;
  options.threads = threads;
  return options;
}

// Lets this process hold `n` more descriptors (server and client sides).
void RaiseDescriptorLimit(rlim_t n) {
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  if (limit.rlim_cur < n) {
    limit.rlim_cur = std::min(n, limit.rlim_max);
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &limit), 0);
  }
}

class HttpServerTest : public ::testing::Test {
 protected:
  explicit HttpServerTest(HttpServerOptions options = Options(4))
      : logger_(LogLevel::kError, log_),
        auth_(AuthConfig{}, clock_),
        protocol_(handler_, auth_, clock_, logger_, ProtocolConfig{}),
        server_(protocol_, logger_, std::move(options)) {}

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

  static void ExpectStamped(const RawResponse& r) {
    EXPECT_EQ(r.Single("x-amzn-requestid").size(), 52u);
    EXPECT_EQ(r.Single("x-amz-crc32"), std::to_string(Crc32(r.body)));
    EXPECT_EQ(r.headers.count("date"), 1u);
  }

  ManualClock clock_;
  std::ostringstream log_;
  Logger logger_;
  FakeHandler handler_;
  Authenticator auth_;
  Protocol protocol_;
  HttpServer server_;
  int port_ = 0;
  std::thread serving_;
};

TEST_F(HttpServerTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  RawConnection conn(port_);
  ASSERT_TRUE(conn.connected());
  for (int i = 0; i < 3; ++i) {
    std::string body = R"({"TableName":"t)" + std::to_string(i) + R"("})";
    ASSERT_TRUE(conn.Send(SignedPost("DescribeTable", body)));
    auto r = conn.Read();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->Single("content-type"), "application/x-amz-json-1.0");
    EXPECT_EQ(r->body,
              R"({"Operation":"DescribeTable","Request":)" + body + "}");
    ExpectStamped(*r);
  }
  EXPECT_EQ(handler_.calls().size(), 3u);
}

TEST_F(HttpServerTest, HttplibClientRoundTrip) {
  httplib::Client client("127.0.0.1", port_);
  auto health = client.Get("/");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(health->body, "healthy: dynamodb.us-east-1.amazonaws.com ");
  EXPECT_EQ(health->get_header_value("x-amz-crc32"), "3128867991");
  auto not_found = client.Delete("/");
  ASSERT_TRUE(not_found);
  EXPECT_EQ(not_found->status, 404);
  EXPECT_EQ(not_found->body, "<UnknownOperationException/>\n");
  auto missing_auth = client.Post("/", "{}", "application/x-amz-json-1.0");
  ASSERT_TRUE(missing_auth);
  EXPECT_EQ(missing_auth->status, 400);
}

TEST_F(HttpServerTest, OversizedContentLengthIs413) {
  RawConnection conn(port_);
  std::string request = SignedPost("PutItem", "");
  request.replace(request.find("Content-Length: 0"), 17,
                  "Content-Length: " + std::to_string(kMaxRequestBytes + 1));
  ASSERT_TRUE(conn.Send(request));
  ASSERT_TRUE(conn.Send(std::string(kMaxRequestBytes + 1, ' ')));
  auto r = conn.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(r->body, "");
  ExpectStamped(*r);
  EXPECT_TRUE(handler_.calls().empty());
}

// Room for one request of up to 1,000 body bytes at a time.
class BudgetServerTest : public HttpServerTest {
 protected:
  static HttpServerOptions Budgeted() {
    HttpServerOptions options = Options(2);
    options.request_memory_budget = 1000 * kRequestMemoryFactor;
    return options;
  }
  BudgetServerTest() : HttpServerTest(Budgeted()) {}
};

TEST_F(BudgetServerTest, RequestsOverTheMemoryBudgetAreRefusedUnread) {
  const std::string body = "{\"TableName\":\"" + std::string(580, 'a') + "\"}";
  const std::string request = SignedPost("DescribeTable", body);
  const size_t header_end = request.find("\r\n\r\n") + 4;
  // The first request's header arrives: its 600 bytes are charged.
  RawConnection first(port_);
  ASSERT_TRUE(first.Send(request.substr(0, header_end)));
  // A second one does not fit beside it: refused without reading its body.
  std::optional<RawResponse> refused;
  // The server reads the first header on its own time: retry until then
  // (bounded; a loaded machine may serve many before it).
  size_t served = 0;  // before the server read the first's header
  for (int attempt = 0; attempt < 20000 && !refused; ++attempt) {
    RawConnection second(port_);
    ASSERT_TRUE(second.Send(request));
    auto r = second.Read();
    ASSERT_TRUE(r.has_value());
    if (r->status == 400) {
      refused = r;
    } else {
      ++served;
    }
  }
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->body,
            "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
            "RequestLimitExceeded\",\"message\":\"ddblab: the requests being "
            "read take more than the server's request memory budget (20000 "
            "bytes); retry later\"}");
  ExpectStamped(*refused);
  // The first completes, and gives its share back.
  ASSERT_TRUE(first.Send(request.substr(header_end)));
  auto done = first.Read();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->status, 200);
  RawConnection third(port_);
  ASSERT_TRUE(third.Send(request));
  auto again = third.Read();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->status, 200);
  // A body larger than the whole budget never fits.
  RawConnection big(port_);
  ASSERT_TRUE(big.Send(SignedPost("DescribeTable", std::string(1001, ' '))));
  auto never = big.Read();
  ASSERT_TRUE(never.has_value());
  EXPECT_EQ(never->status, 400);
  EXPECT_EQ(handler_.calls().size(), served + 2);
}

TEST_F(HttpServerTest, MalformedRequestLineStillGetsRequestId) {
  RawConnection conn(port_);
  ASSERT_TRUE(conn.Send("BLAH\r\n\r\n"));
  auto r = conn.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 400);
  ExpectStamped(*r);
}

// DynamoDB refuses header fields of more than 16 KB in all with a 400; one
// 8 KB header is fine.
TEST_F(HttpServerTest, HeaderFieldsOver16KBAre400) {
  std::string request = SignedPost("DescribeTable", "{}");
  const size_t end_of_line = request.find("\r\n") + 2;
  std::string one = request;
  one.insert(end_of_line, "X-A: " + std::string(8192, 'a') + "\r\n");
  RawConnection ok(port_);
  ASSERT_TRUE(ok.Send(one));
  auto accepted = ok.Read();
  ASSERT_TRUE(accepted.has_value());
  EXPECT_EQ(accepted->status, 200);

  std::string two = one;
  two.insert(end_of_line, "X-B: " + std::string(8192, 'b') + "\r\n");
  RawConnection conn(port_);
  ASSERT_TRUE(conn.Send(two));
  auto r = conn.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(r->body, "");
  ExpectStamped(*r);
  EXPECT_EQ(handler_.calls().size(), 1u);
}

// A request line of more than 16 KB is a 400, not a 404 for its path.
TEST_F(HttpServerTest, RequestLineOver16KBIs400) {
  const std::string head = "GET /";
  const std::string tail = " HTTP/1.1\r\n";
  const std::string line =
      head + std::string(17000 - head.size() - tail.size(), 'a') + tail;
  ASSERT_EQ(line.size(), 17000u);
  RawConnection conn(port_);
  ASSERT_TRUE(conn.Send(line + "Host: 127.0.0.1\r\n\r\n"));
  auto r = conn.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 400);
  ExpectStamped(*r);

  // Under the limit, the path is looked at (and not found).
  RawConnection under(port_);
  ASSERT_TRUE(under.Send("GET /" + std::string(16000, 'a') +
                         " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  auto found = under.Read();
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->status, 404);
}

// Shutdown returns only after the request in flight was answered. The
// handler blocks until released; while it does, Shutdown must not return:
// it is given 200 ms to (wrongly) return — a correct server never does, so
// the bound only decides how surely a broken one is caught, never whether a
// correct one passes.
TEST_F(HttpServerTest, ShutdownWaitsForInFlightRequests) {
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  handler_.answer = [&](std::string_view, const json&) -> Result<json> {
    entered.set_value();
    released.wait();
    return json::object();
  };
  std::optional<RawResponse> response;
  std::thread client([&] {
    RawConnection conn(port_);
    conn.Send(SignedPost("PutItem", "{}"));
    response = conn.Read();
  });
  entered.get_future().wait();
  std::future<void> stopped =
      std::async(std::launch::async, [&] { server_.Shutdown(); });
  EXPECT_EQ(stopped.wait_for(std::chrono::milliseconds(200)),
            std::future_status::timeout)
      << "Shutdown returned while a request was in flight";
  release.set_value();
  client.join();
  stopped.get();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 200);
  serving_.join();
  // No longer accepting.
  RawConnection late(port_);
  EXPECT_FALSE(late.connected() && late.Send(SignedPost("PutItem", "{}")) &&
               late.Read().has_value());
}

// One event-loop thread: a thousand open keep-alive connections are each
// answered, twice, while all of them stay open.
class OneThreadServerTest : public HttpServerTest {
 protected:
  OneThreadServerTest() : HttpServerTest(Options(1)) {}
};

// Two event loops: connections are spread over both, each served on its
// own loop.
class TwoLoopServerTest : public HttpServerTest {
 protected:
  TwoLoopServerTest() : HttpServerTest(Options(2)) {}
};

void ExpectThousandKeepAliveConnectionsAnswered(int port_,
                                                FakeHandler& handler_) {
  constexpr int kConnections = 1000;
  RaiseDescriptorLimit(2 * kConnections + 100);
  std::vector<std::unique_ptr<RawConnection>> connections;
  for (int i = 0; i < kConnections; ++i) {
    connections.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(connections.back()->connected()) << i;
  }
  for (int round = 0; round < 2; ++round) {
    // Every connection sends before any reads: all are pending at once.
    for (int i = 0; i < kConnections; ++i) {
      std::string body = R"({"TableName":"t)" + std::to_string(i) + R"("})";
      ASSERT_TRUE(connections[i]->Send(SignedPost("DescribeTable", body)));
    }
    for (int i = 0; i < kConnections; ++i) {
      connections[i]->SetReadTimeout(30);
      auto r = connections[i]->Read();
      ASSERT_TRUE(r.has_value()) << "connection " << i << " round " << round;
      EXPECT_EQ(r->status, 200);
      EXPECT_EQ(r->body,
                R"({"Operation":"DescribeTable","Request":{"TableName":"t)" +
                    std::to_string(i) + R"("}})");
      EXPECT_EQ(r->headers.count("connection"), 0u);  // stays open
    }
  }
  EXPECT_EQ(handler_.calls().size(), 2u * kConnections);
}

TEST_F(OneThreadServerTest, ThousandKeepAliveConnectionsEachAnswered) {
  ExpectThousandKeepAliveConnectionsAnswered(port_, handler_);
}

TEST_F(TwoLoopServerTest, ThousandKeepAliveConnectionsEachAnswered) {
  ExpectThousandKeepAliveConnectionsAnswered(port_, handler_);
}

TEST_F(OneThreadServerTest, IdlePooledConnectionsDoNotDelayANewClient) {
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (int i = 0; i < 32; ++i) {
    idle.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(idle.back()->Send(SignedPost("ListTables", "{}")));
    ASSERT_TRUE(idle.back()->Read().has_value());
  }
  // The 32 stay open and idle; a new client is answered at once (the old
  // server answered it only after a 5 s keep-alive timeout).
  RawConnection fresh(port_);
  fresh.SetReadTimeout(2);
  ASSERT_TRUE(fresh.Send(SignedPost("ListTables", "{}")));
  auto r = fresh.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 200);
  // And the idle ones still work.
  ASSERT_TRUE(idle[0]->Send(SignedPost("ListTables", "{}")));
  ASSERT_TRUE(idle[0]->Read().has_value());
}

TEST_F(OneThreadServerTest, BodylessPostIsAZeroLengthBodyAnsweredAtOnce) {
  // RFC 9112 §6.3: no Content-Length and no Transfer-Encoding is an empty
  // body; the answer is the same as for "Content-Length: 0".
  std::string with_length = SignedPost("ListTables", "");
  std::string without_length = with_length;
  without_length.erase(without_length.find("Content-Length: 0\r\n"), 19);
  RawConnection a(port_);
  a.SetReadTimeout(2);
  ASSERT_TRUE(a.Send(without_length));
  auto bodyless = a.Read();
  ASSERT_TRUE(bodyless.has_value());
  RawConnection b(port_);
  ASSERT_TRUE(b.Send(with_length));
  auto empty = b.Read();
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(bodyless->status, empty->status);
  EXPECT_EQ(bodyless->body, empty->body);
  EXPECT_EQ(bodyless->Single("content-type"), empty->Single("content-type"));
  ExpectStamped(*bodyless);
}

TEST_F(OneThreadServerTest, HalfSentRequestsDoNotDelayOthers) {
  RawConnection half_body(port_);
  std::string request = SignedPost("PutItem", R"({"TableName":"t"})");
  ASSERT_TRUE(half_body.Send(request.substr(0, request.size() - 5)));
  RawConnection half_header(port_);
  ASSERT_TRUE(half_header.Send("POST / HTTP/1.1\r\nHost: x\r\nContent-Le"));
  RawConnection silent(port_);  // connected, never sends
  RawConnection other(port_);
  other.SetReadTimeout(2);
  ASSERT_TRUE(other.Send(SignedPost("ListTables", "{}")));
  auto r = other.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 200);
  // The half-sent body completes later and is answered too.
  ASSERT_TRUE(half_body.Send(request.substr(request.size() - 5)));
  auto late = half_body.Read();
  ASSERT_TRUE(late.has_value());
  EXPECT_EQ(late->status, 200);
}

// `blocked` requests wait inside the handler (as a latency fault waiting on
// a manual clock would), so every loop's thread is blocked; one more is
// still answered, and releases them; the others are answered after.
void ExpectBlockedHandlersDoNotBlockOthers(int port_, FakeHandler& handler_,
                                           int blocked_count) {
  std::mutex mu;
  std::condition_variable cv;
  bool released = false;
  int blocked = 0;
  handler_.answer = [&](std::string_view op, const json&) -> Result<json> {
    std::unique_lock<std::mutex> lock(mu);
    if (op == "PutItem") {
      ++blocked;
      cv.notify_all();
      cv.wait(lock, [&] { return released; });
    } else {
      released = true;
      cv.notify_all();
    }
    return json::object();
  };
  std::vector<std::unique_ptr<RawConnection>> waiting;
  for (int i = 0; i < blocked_count; ++i) {
    waiting.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(waiting.back()->Send(SignedPost("PutItem", "{}")));
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return blocked == blocked_count; });
  }
  RawConnection releaser(port_);
  releaser.SetReadTimeout(5);
  ASSERT_TRUE(releaser.Send(SignedPost("DeleteItem", "{}")));
  auto r = releaser.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 200);
  for (auto& connection : waiting) {
    auto answered = connection->Read();
    ASSERT_TRUE(answered.has_value());
    EXPECT_EQ(answered->status, 200);
  }
  handler_.answer = nullptr;  // it refers to this frame
}

TEST_F(OneThreadServerTest, BlockedHandlersDoNotBlockOtherRequests) {
  ExpectBlockedHandlersDoNotBlockOthers(port_, handler_, 3);
}

TEST_F(TwoLoopServerTest, BlockedHandlersDoNotBlockOtherRequests) {
  // Two blocked on each loop; the releaser lands on a blocked loop.
  ExpectBlockedHandlersDoNotBlockOthers(port_, handler_, 4);
  // Then both loops serve again, several requests on one connection.
  RawConnection again(port_);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(again.Send(SignedPost("ListTables", "{}")));
    auto r = again.Read();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 200);
  }
}

TEST_F(HttpServerTest, DropConnectionClosesWithoutAByte) {
  ASSERT_TRUE(protocol_
                  .AddRoute("POST", "/_ddblab/test/drop",
                            [](const WireRequest&) {
                              WireResponse response;
                              response.body = "never sent";
                              response.drop_connection = true;
                              return response;
                            })
                  .ok());
  RawConnection conn(port_);
  conn.SetReadTimeout(5);
  ASSERT_TRUE(conn.Send(
      "POST /_ddblab/test/drop HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
      "Content-Type: application/json\r\n"
      "\r\n{}"));
  EXPECT_TRUE(conn.ClosedWithoutBytes());
  // The server goes on serving.
  RawConnection next(port_);
  ASSERT_TRUE(next.Send(SignedPost("ListTables", "{}")));
  auto r = next.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 200);
}

TEST_F(HttpServerTest, PipelinedRequestsAnsweredInOrder) {
  RawConnection conn(port_);
  ASSERT_TRUE(conn.Send(SignedPost("DescribeTable", R"({"TableName":"a"})") +
                        SignedPost("DescribeTable", R"({"TableName":"b"})")));
  auto first = conn.Read();
  auto second = conn.Read();
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(first->body,
            R"({"Operation":"DescribeTable","Request":{"TableName":"a"}})");
  EXPECT_EQ(second->body,
            R"({"Operation":"DescribeTable","Request":{"TableName":"b"}})");
}

TEST_F(HttpServerTest, ExpectContinueGetsA100ThenTheAnswer) {
  RawConnection conn(port_);
  std::string request = SignedPost("DescribeTable", R"({"TableName":"a"})");
  size_t end = request.find("\r\n\r\n");
  std::string head =
      request.substr(0, end) + "\r\nExpect: 100-continue\r\n\r\n";
  ASSERT_TRUE(conn.Send(head));
  auto interim = conn.ReadHead();
  ASSERT_TRUE(interim.has_value());
  EXPECT_EQ(*interim, "HTTP/1.1 100 Continue");
  ASSERT_TRUE(conn.Send(request.substr(end + 4)));
  auto r = conn.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->body,
            R"({"Operation":"DescribeTable","Request":{"TableName":"a"}})");
}

TEST_F(HttpServerTest, ConnectionCloseIsHonoured) {
  RawConnection conn(port_);
  std::string request = SignedPost("ListTables", "{}");
  request.insert(request.find("\r\n") + 2, "Connection: close\r\n");
  ASSERT_TRUE(conn.Send(request));
  auto r = conn.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->Single("connection"), "close");
  EXPECT_TRUE(conn.ClosedWithoutBytes());
}

class LimitedServerTest : public HttpServerTest {
 protected:
  static HttpServerOptions Limited() {
    HttpServerOptions options = Options(1);
    options.max_connections = 2;
    return options;
  }
  LimitedServerTest() : HttpServerTest(Limited()) {}
};

TEST_F(LimitedServerTest, ConnectionsOverTheLimitAreRefusedWith503) {
  RawConnection a(port_);
  RawConnection b(port_);
  for (RawConnection* c : {&a, &b}) {
    ASSERT_TRUE(c->Send(SignedPost("ListTables", "{}")));
    ASSERT_TRUE(c->Read().has_value());
  }
  RawConnection refused(port_);
  refused.SetReadTimeout(5);
  ASSERT_TRUE(refused.Send(SignedPost("ListTables", "{}")));
  auto r = refused.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(r->Single("connection"), "close");
  EXPECT_EQ(r->body,
            "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
            "ServiceUnavailable\",\"message\":\"ddblab: too many open "
            "connections (--max-connections 2)\"}");
  ExpectStamped(*r);
  EXPECT_TRUE(refused.ClosedWithoutBytes());
  EXPECT_EQ(handler_.calls().size(), 2u);
}

TEST(HttpServerBindTest, PortInUse) {
  ManualClock clock;
  std::ostringstream log;
  Logger logger(LogLevel::kError, log);
  FakeHandler handler;
  Authenticator auth(AuthConfig{}, clock);
  Protocol protocol(handler, auth, clock, logger, ProtocolConfig{});
  HttpServer first(protocol, logger, Options(1));
  auto port = first.Bind();
  ASSERT_TRUE(port.ok());
  HttpServer second(protocol, logger, Options(1, *port));
  auto again = second.Bind();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message,
            "cannot listen on 127.0.0.1:" + std::to_string(*port) +
                " (address in use or host not found)");
  // Shutdown before Serve makes Serve return at once.
  first.Shutdown();
  first.Serve();
}

}  // namespace
}  // namespace ddblab::server
