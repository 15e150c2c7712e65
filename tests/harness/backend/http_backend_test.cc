// HttpBackend without a DynamoDB: a scripted transport checks the signed
// request and answers throttles, errors and bad checksums (the same over a
// real socket: http_retry_test.cc).
#include "harness/backend/http_backend.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <deque>

#include "common/sigv4/sigv4.h"

namespace ddblab::harness {
namespace {

using std::chrono::seconds;

std::string Crc(const std::string& body) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(body.data()),
              static_cast<uInt>(body.size()));
  return std::to_string(crc);
}

HttpResponse Answer(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.headers = {{"x-amz-crc32", Crc(body)},
                      {"Content-Type", "application/x-amz-json-1.0"}};
  response.body = std::move(body);
  return response;
}

const std::string kThrottle =
    R"({"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."})";

// Answers from a script and records every request it was sent.
class ScriptedTransport final : public Transport {
 public:
  explicit ScriptedTransport(std::deque<Result<HttpResponse>> script)
      : script_(std::move(script)) {}
  const std::string& base_url() const override { return url_; }
  const std::string& host_header() const override { return host_; }
  Result<HttpResponse> Send(const HttpRequest& request) override {
    sent.push_back(request);
    if (script_.empty()) return Answer(200, "{}");
    Result<HttpResponse> next = std::move(script_.front());
    script_.pop_front();
    return next;
  }
  std::vector<HttpRequest> sent;

 private:
  std::string url_ = "http://localhost:9";
  std::string host_ = "localhost:9";
  std::deque<Result<HttpResponse>> script_;
};

struct Fixture {
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>();
  ScriptedTransport* transport = nullptr;
  std::unique_ptr<HttpBackend> backend;
};

Fixture Make(std::deque<Result<HttpResponse>> script, RetryPolicy retry,
             std::string session_token = "") {
  Fixture f;
  auto transport = std::make_unique<ScriptedTransport>(std::move(script));
  f.transport = transport.get();
  HttpBackendConfig config;
  config.name = "http://localhost:9";
  config.dynamodb = std::move(transport);
  config.credentials = {"AKID", "secret", std::move(session_token), "test"};
  config.region = "eu-west-1";
  config.retry = retry;
  config.clock = f.clock;
  config.signing_clock = std::make_shared<ManualClock>();  // 2024-01-01
  f.backend = std::make_unique<HttpBackend>(std::move(config));
  return f;
}

std::string HeaderOf(const HttpRequest& request, std::string_view name) {
  for (const auto& [key, value] : request.headers) {
    if (key == name) return value;
  }
  return "";
}

TEST(HttpBackendTest, SignsEveryRequestWithSigV4) {
  Fixture f = Make({}, RetryPolicy::Off(), "session");
  ASSERT_TRUE(f.backend->Call("ListTables", nlohmann::json::object()).ok());
  ASSERT_EQ(f.transport->sent.size(), 1u);
  const HttpRequest& sent = f.transport->sent[0];
  EXPECT_EQ(sent.body, "{}");
  EXPECT_EQ(HeaderOf(sent, "X-Amz-Target"), "DynamoDB_20120810.ListTables");
  EXPECT_EQ(HeaderOf(sent, "X-Amz-Date"), "20240101T000000Z");
  EXPECT_EQ(HeaderOf(sent, "X-Amz-Security-Token"), "session");
  // Recompute the signature from the signed headers with the shared
  // implementation, as the server's verifier does.
  sigv4::HeaderList signed_headers;
  for (const auto& [key, value] : sent.headers) {
    if (key != "Authorization" && key != "Accept-Encoding") {
      signed_headers.emplace_back(key, value);
    }
  }
  EXPECT_EQ(HeaderOf(sent, "Authorization"),
            sigv4::AuthorizationHeader("POST", "/", "", signed_headers, "{}",
                                       "AKID", "secret", "eu-west-1",
                                       "dynamodb", "20240101T000000Z"));
  EXPECT_TRUE(HeaderOf(sent, "Authorization")
                  .starts_with("AWS4-HMAC-SHA256 Credential=AKID/20240101/"
                               "eu-west-1/dynamodb/aws4_request, "
                               "SignedHeaders=content-type;host;x-amz-date;"
                               "x-amz-security-token;x-amz-target, "));
  ASSERT_TRUE(f.backend->CallStreams("ListStreams", {{"Limit", 1}}).ok());
  EXPECT_EQ(HeaderOf(f.transport->sent[1], "X-Amz-Target"),
            "DynamoDBStreams_20120810.ListStreams");
}

TEST(HttpBackendTest, ThrottledTwiceSucceedsOnTheThirdAttempt) {
  Fixture f = Make({Answer(400, kThrottle), Answer(400, kThrottle),
                    Answer(200, R"({"TableNames":[]})")},
                   RetryPolicy::Standard(42));
  TimePoint start = f.clock->Now();
  auto out = f.backend->Call("ListTables", nlohmann::json::object());
  ASSERT_TRUE(out.ok()) << ToString(out.error());
  EXPECT_EQ(*out, nlohmann::json::parse(R"({"TableNames":[]})"));
  EXPECT_EQ(f.transport->sent.size(), 3u);
  EXPECT_EQ(f.backend->last_attempts(), 3);
  std::vector<Duration> waits = f.backend->waits();
  ASSERT_EQ(waits.size(), 2u);
  EXPECT_LT(waits[0], seconds(1));
  EXPECT_LT(waits[1], seconds(2));
  // The waits moved the manual clock instead of sleeping.
  EXPECT_EQ(f.clock->Now() - start, waits[0] + waits[1]);
  // Two retries took 5 each; the success gave the last 5 back.
  EXPECT_EQ(f.backend->retry_state().quota(), 495);

  // The same seed gives the same waits; another seed other waits.
  Fixture again = Make({Answer(400, kThrottle), Answer(400, kThrottle)},
                       RetryPolicy::Standard(42));
  ASSERT_TRUE(again.backend->Call("ListTables", {}).ok());
  EXPECT_EQ(again.backend->waits(), waits);
  Fixture other = Make({Answer(400, kThrottle), Answer(400, kThrottle)},
                       RetryPolicy::Standard(43));
  ASSERT_TRUE(other.backend->Call("ListTables", {}).ok());
  EXPECT_NE(other.backend->waits(), waits);
}

TEST(HttpBackendTest, ThreeThrottlesSurfaceTheError) {
  Fixture f = Make({Answer(400, kThrottle), Answer(400, kThrottle),
                    Answer(400, kThrottle), Answer(200, "{}")},
                   RetryPolicy::Standard(1));
  auto out = f.backend->Call("PutItem", nlohmann::json::object());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kProvisionedThroughputExceeded);
  EXPECT_EQ(out.error().message,
            "The level of configured provisioned throughput for the table was "
            "exceeded. Consider increasing your provisioning level with the "
            "UpdateTable API.");
  EXPECT_EQ(f.transport->sent.size(), 3u);
  EXPECT_EQ(f.backend->waits().size(), 2u);
}

TEST(HttpBackendTest, CustomAttemptsAndOff) {
  Fixture five = Make({Answer(400, kThrottle), Answer(400, kThrottle),
                       Answer(400, kThrottle), Answer(400, kThrottle)},
                      RetryPolicy::Attempts(5, 3));
  ASSERT_TRUE(five.backend->Call("GetItem", {}).ok());
  EXPECT_EQ(five.transport->sent.size(), 5u);
  Fixture off = Make({Answer(400, kThrottle)}, RetryPolicy::Off());
  auto out = off.backend->Call("GetItem", {});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kProvisionedThroughputExceeded);
  EXPECT_EQ(off.transport->sent.size(), 1u);
  EXPECT_TRUE(off.backend->waits().empty());
}

TEST(HttpBackendTest, ConditionalCheckFailedIsNotRetried) {
  const std::string body =
      R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed","Item":{"pk":{"S":"a"}}})";
  Fixture f = Make({Answer(400, body)}, RetryPolicy::Standard());
  auto out = f.backend->Call("PutItem", {});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kConditionalCheckFailed);
  EXPECT_EQ(out.error().message, "The conditional request failed");
  EXPECT_EQ(out.error().extra,
            nlohmann::json::parse(R"({"Item":{"pk":{"S":"a"}}})"));
  EXPECT_EQ(f.transport->sent.size(), 1u);
}

TEST(HttpBackendTest, BadChecksumIsRetriedThenOutcomeUnknown) {
  HttpResponse corrupt = Answer(200, R"({"Item":{}})");
  corrupt.headers[0].second = "12345";
  Fixture f = Make({corrupt, corrupt, corrupt}, RetryPolicy::Standard());
  auto out = f.backend->Call("GetItem", {});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kOutcomeUnknown);
  EXPECT_EQ(out.error().message, "x-amz-crc32 mismatch: header 12345, body " +
                                     Crc(R"({"Item":{}})"));
  EXPECT_EQ(f.transport->sent.size(), 3u);
  Fixture fixed = Make({corrupt}, RetryPolicy::Standard());
  EXPECT_TRUE(fixed.backend->Call("GetItem", {}).ok());
}

TEST(HttpBackendTest, DecodesErrorShapes) {
  // "Message" with a capital M, an unknown name, a non-JSON 503.
  auto tce = DecodeResponse(Answer(
      400,
      R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","Message":"Transaction cancelled","CancellationReasons":[{"Code":"None"}]})"));
  ASSERT_FALSE(tce.ok());
  EXPECT_EQ(tce.error().type, ErrorType::kTransactionCanceled);
  EXPECT_EQ(tce.error().message, "Transaction cancelled");
  EXPECT_EQ(tce.error().extra["CancellationReasons"][0]["Code"], "None");
  auto unavailable = DecodeResponse(
      Answer(503, R"({"__type":"x#ServiceUnavailable","message":"down"})"));
  ASSERT_FALSE(unavailable.ok());
  EXPECT_EQ(unavailable.error().type, ErrorType::kServiceUnavailable);
  EXPECT_EQ(unavailable.error().message, "down");
  auto unknown = DecodeResponse(
      Answer(500, R"({"__type":"x#SomethingNewException","message":"new"})"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().type, ErrorType::kInternalServerError);
  EXPECT_EQ(unknown.error().extra["__type"], "SomethingNewException");
  HttpResponse html;
  html.status = 503;
  html.body = "<html>busy</html>";
  auto raw = DecodeResponse(html);
  ASSERT_FALSE(raw.ok());
  EXPECT_EQ(raw.error().message, "HTTP 503: <html>busy</html>");
  EXPECT_EQ(Classify(raw.error(), 503), FailureKind::kTransient);
  HttpResponse empty;
  empty.status = 200;
  EXPECT_EQ(*DecodeResponse(empty), nlohmann::json::object());
}

}  // namespace
}  // namespace ddblab::harness
