#include "emulator/server/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <sstream>
#include <thread>

#include "emulator/server/crc32.h"
#include "emulator/server/sigv4.h"
#include "fake_handler.h"

namespace ddblab::server {
namespace {

using nlohmann::json;

struct RawResponse {
  int status = 0;
  std::multimap<std::string, std::string> headers;  // lowercase names

  // The value of a header that must appear exactly once ("" otherwise).
  std::string Single(const std::string& name) const {
    if (headers.count(name) != 1) return "";
    return headers.find(name)->second;
  }
  std::string body;
};

// A plain TCP connection speaking HTTP/1.1 by hand, to see the bytes.
class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ =
        ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  ~RawConnection() { ::close(fd_); }

  bool connected() const { return connected_; }

  bool Send(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // Reads one response (Content-Length framed).
  std::optional<RawResponse> Read() {
    size_t header_end;
    while ((header_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill()) return std::nullopt;
    }
    RawResponse response;
    std::istringstream head(buffer_.substr(0, header_end));
    std::string line;
    std::getline(head, line);
    response.status = std::stoi(line.substr(9, 3));
    while (std::getline(head, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string name = line.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(c));
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      response.headers.emplace(name, value);
    }
    size_t length = std::stoul(response.Single("content-length"));
    while (buffer_.size() < header_end + 4 + length) {
      if (!Fill()) return std::nullopt;
    }
    response.body = buffer_.substr(header_end + 4, length);
    buffer_.erase(0, header_end + 4 + length);
    return response;
  }

 private:
  bool Fill() {
    char chunk[65536];
    ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  std::string buffer_;
};

std::string SignedPost(std::string_view op, std::string_view body) {
  HeaderList headers = {
      {"Host", "127.0.0.1"},
      {"Content-Type", "application/x-amz-json-1.0"},
      {"X-Amz-Date", "20240101T000000Z"},
      {"X-Amz-Target", "DynamoDB_20120810." + std::string(op)}};
  std::string auth =
      sigv4::AuthorizationHeader("POST", "/", "", headers, body, "AK", "SK",
                                 "us-east-1", "dynamodb", "20240101T000000Z");
  std::string request = "POST / HTTP/1.1\r\n";
  for (const auto& [name, value] : headers) {
    request += name + ": " + value + "\r\n";
  }
  request += "Authorization: " + auth + "\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  request += body;
  return request;
}

class HttpServerTest : public ::testing::Test {
 protected:
  HttpServerTest()
      : logger_(LogLevel::kError, log_),
        auth_(AuthConfig{}, clock_),
        protocol_(handler_, auth_, clock_, logger_, ProtocolConfig{}),
        server_(protocol_, logger_, HttpServerOptions{"127.0.0.1", 0, 4, 5}) {}

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

TEST_F(HttpServerTest, CrcCoversCompressedBytes) {
  RawConnection conn(port_);
  ASSERT_TRUE(
      conn.Send("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"));
  auto r = conn.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 200);
  // cpp-httplib (built with zlib) gzips text/plain; the CRC must cover the
  // compressed bytes on the wire, not the text.
  EXPECT_EQ(r->Single("content-encoding"), "gzip");
  EXPECT_NE(r->body, "healthy: dynamodb.us-east-1.amazonaws.com ");
  ExpectStamped(*r);
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

TEST_F(HttpServerTest, MalformedRequestLineStillGetsRequestId) {
  RawConnection conn(port_);
  ASSERT_TRUE(conn.Send("BLAH\r\n\r\n"));
  auto r = conn.Read();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, 400);
  ExpectStamped(*r);
}

TEST_F(HttpServerTest, ShutdownWaitsForInFlightRequests) {
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> sequence{0};
  std::atomic<int> handler_done{0};
  handler_.answer = [&](std::string_view, const json&) -> Result<json> {
    entered.set_value();
    released.wait();
    handler_done = ++sequence;
    return json::object();
  };
  std::thread client([this] {
    RawConnection conn(port_);
    conn.Send(SignedPost("PutItem", "{}"));
    auto r = conn.Read();
    EXPECT_TRUE(r.has_value());
    if (r) {
      EXPECT_EQ(r->status, 200);
    }
  });
  entered.get_future().wait();
  std::atomic<int> shutdown_done{0};
  std::thread stopper([&] {
    server_.Shutdown();
    shutdown_done = ++sequence;
  });
  release.set_value();
  stopper.join();
  client.join();
  EXPECT_EQ(handler_done.load(), 1);
  EXPECT_EQ(shutdown_done.load(), 2);
  serving_.join();
  // No longer accepting.
  RawConnection late(port_);
  EXPECT_FALSE(late.connected() && late.Send(SignedPost("PutItem", "{}")) &&
               late.Read().has_value());
}

TEST(HttpServerBindTest, PortInUse) {
  ManualClock clock;
  std::ostringstream log;
  Logger logger(LogLevel::kError, log);
  FakeHandler handler;
  Authenticator auth(AuthConfig{}, clock);
  Protocol protocol(handler, auth, clock, logger, ProtocolConfig{});
  HttpServer first(protocol, logger, HttpServerOptions{"127.0.0.1", 0, 1, 5});
  auto port = first.Bind();
  ASSERT_TRUE(port.ok());
  HttpServer second(protocol, logger,
                    HttpServerOptions{"127.0.0.1", *port, 1, 5});
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
