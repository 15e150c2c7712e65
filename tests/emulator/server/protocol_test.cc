#include "emulator/server/protocol.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <stdexcept>

#include "common/sigv4/sigv4.h"
#include "emulator/server/crc32.h"
#include "fake_handler.h"

namespace ddblab::server {
namespace {

using nlohmann::json;

constexpr std::string_view kMissingAuthBody =
    "{\"__type\":\"com.amazon.coral.service#"
    "MissingAuthenticationTokenException\",\"message\":\"Request is missing "
    "Authentication Token\"}";

class ProtocolTest : public ::testing::Test {
 protected:
  ProtocolTest()
      : logger_(LogLevel::kError, log_),
        auth_(AuthConfig{}, clock_),
        protocol_(handler_, auth_, clock_, logger_, ProtocolConfig{}) {}

  // A signed (accept-mode) DynamoDB request.
  WireRequest Post(std::string target, std::string_view body) {
    WireRequest r;
    r.method = "POST";
    r.path = "/";
    r.body = body;
    r.headers = {{"Host", "localhost:8000"},
                 {"Content-Type", "application/x-amz-json-1.0"},
                 {"X-Amz-Date", "20240101T000000Z"}};
    if (!target.empty()) r.headers.emplace_back("X-Amz-Target", target);
    r.headers.emplace_back("Authorization",
                           sigv4::AuthorizationHeader(
                               "POST", "/", "", r.headers, body, "AK", "SK",
                               "us-east-1", "dynamodb", "20240101T000000Z"));
    return r;
  }

  static WireRequest Get(std::string path) {
    WireRequest r;
    r.method = "GET";
    r.path = std::move(path);
    return r;
  }

  static void ExpectStamped(const WireResponse& r) {
    EXPECT_EQ(r.Header("Server").value_or(""), "Server");
    auto id = r.Header("x-amzn-RequestId");
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->size(), 52u);
    auto crc = r.Header("x-amz-crc32");
    ASSERT_TRUE(crc.has_value());
    EXPECT_EQ(*crc, std::to_string(Crc32(r.body)));
    EXPECT_EQ(r.Header("Date").value_or(""), "Mon, 01 Jan 2024 00:00:00 GMT");
  }

  static void ExpectError(const WireResponse& r, int status,
                          std::string_view body) {
    EXPECT_EQ(r.status, status);
    EXPECT_EQ(r.content_type, "application/x-amz-json-1.0");
    EXPECT_EQ(r.body, body);
    ExpectStamped(r);
  }

  ManualClock clock_;
  std::ostringstream log_;
  Logger logger_;
  FakeHandler handler_;
  Authenticator auth_;
  Protocol protocol_;
};

TEST_F(ProtocolTest, HealthCheck) {
  for (std::string path : {"/", "/_ddblab/health"}) {
    WireResponse r = protocol_.Handle(Get(path));
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_EQ(r.body, "healthy: dynamodb.us-east-1.amazonaws.com ");
    EXPECT_EQ(r.Header("x-amz-crc32").value_or(""), "3128867991");
    ExpectStamped(r);
  }
  EXPECT_TRUE(handler_.calls().empty());
}

TEST_F(ProtocolTest, OtherPathsAre404) {
  for (std::string path : {"/abc", "/-", "/index.htm", "/health", "//"}) {
    WireResponse r = protocol_.Handle(Get(path));
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.body, "<UnknownOperationException/>\n");
    ExpectStamped(r);
    WireRequest post = Post("DynamoDB_20120810.ListTables", "{}");
    post.path = path;
    WireResponse p = protocol_.Handle(post);
    EXPECT_EQ(p.status, 404) << path;
    EXPECT_EQ(p.body, "<UnknownOperationException/>\n");
  }
  EXPECT_TRUE(handler_.calls().empty());
}

TEST_F(ProtocolTest, EveryResponseNamesTheServer) {
  EXPECT_EQ(protocol_.Handle(Get("/")).Header("Server").value_or(""), "Server");
  EXPECT_EQ(protocol_.Handle(Post("DynamoDB_20120810.ListTables", "{}"))
                .Header("Server")
                .value_or(""),
            "Server");
  EXPECT_EQ(protocol_.Handle(Post("", "{}")).Header("Server").value_or(""),
            "Server");
}

TEST_F(ProtocolTest, HealthCheckNamesTheRegion) {
  Protocol eu(handler_, auth_, clock_, logger_,
              ProtocolConfig{"eu-west-1", 0, {}});
  EXPECT_EQ(eu.Handle(Get("/")).body,
            "healthy: dynamodb.eu-west-1.amazonaws.com ");
}

TEST_F(ProtocolTest, NotPostOrWrongContentTypeIs404Xml) {
  WireRequest put = Post("DynamoDB_20120810.ListTables", "{}");
  put.method = "PUT";
  WireRequest text = Post("DynamoDB_20120810.ListTables", "{}");
  text.headers[1].second = "text/plain";
  WireRequest none = Post("DynamoDB_20120810.ListTables", "{}");
  none.headers.erase(none.headers.begin() + 1);
  for (const WireRequest& r : {put, text, none}) {
    WireResponse response = protocol_.Handle(r);
    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.body, "<UnknownOperationException/>\n");
    EXPECT_EQ(response.Header("x-amz-crc32").value_or(""), "3552371480");
    ExpectStamped(response);
  }
  EXPECT_TRUE(handler_.calls().empty());
}

TEST_F(ProtocolTest, AcceptsJsonContentTypes) {
  for (std::string type :
       {"application/x-amz-json-1.0", "application/x-amz-json-1.1",
        "application/json", "Application/JSON; charset=utf-8"}) {
    WireRequest r = Post("DynamoDB_20120810.ListTables", "{}");
    r.headers[1].second = type;
    WireResponse response = protocol_.Handle(r);
    EXPECT_EQ(response.status, 200) << type;
    EXPECT_EQ(response.content_type, "application/x-amz-json-1.0");
  }
}

// Nothing of the body is decoded or parsed before the request is
// authenticated (an unauthenticated 16 MB body costs no JSON parse).
TEST_F(ProtocolTest, AuthComesBeforeTheBodyIsParsed) {
  WireRequest r = Post("DynamoDB_20120810.ListTables", "{\"TableName\":");
  ExpectError(protocol_.Handle(r), 400,
              "{\"__type\":\"com.amazon.coral.service#"
              "SerializationException\"}");
  r.headers.pop_back();  // no Authorization
  ExpectError(protocol_.Handle(r), 400, kMissingAuthBody);
  r.headers.emplace_back("Content-Encoding", "gzip");  // not gzip data
  ExpectError(protocol_.Handle(r), 400, kMissingAuthBody);
  EXPECT_TRUE(handler_.calls().empty());
}

TEST_F(ProtocolTest, UnknownTargetComesBeforeAuth) {
  for (std::string target : {"", "DynamoDB_20120810.Nope", "Foo.PutItem",
                             "DynamoDB_20120810.GetRecords"}) {
    WireRequest r = Post(target, "{}");
    r.headers.pop_back();
    ExpectError(protocol_.Handle(r), 400,
                "{\"__type\":\"com.amazon.coral.service#"
                "UnknownOperationException\"}");
  }
}

TEST_F(ProtocolTest, MissingAuthentication) {
  WireRequest r = Post("DynamoDB_20120810.ListTables", "{}");
  r.headers.pop_back();
  WireResponse response = protocol_.Handle(r);
  ExpectError(response, 400, kMissingAuthBody);
  EXPECT_EQ(response.Header("x-amz-crc32").value_or(""), "2088342776");
}

TEST_F(ProtocolTest, AuthComesBeforeEmptyBody) {
  WireRequest r = Post("DynamoDB_20120810.ListTables", "");
  r.headers.pop_back();
  ExpectError(protocol_.Handle(r), 400, kMissingAuthBody);
}

TEST_F(ProtocolTest, EmptyOrNonObjectBody) {
  for (std::string_view body : {"", "[]", "7", "\"x\"", "null", "true"}) {
    ExpectError(protocol_.Handle(Post("DynamoDB_20120810.ListTables", body)),
                400,
                "{\"__type\":\"com.amazon.coral.service#"
                "SerializationException\"}");
  }
  EXPECT_TRUE(handler_.calls().empty());
}

TEST_F(ProtocolTest, TooDeepJsonIsRefused) {
  std::string deep = "{\"a\":" + std::string(kMaxJsonDepth, '[') +
                     std::string(kMaxJsonDepth, ']') + "}";
  ExpectError(protocol_.Handle(Post("DynamoDB_20120810.PutItem", deep)), 400,
              "{\"__type\":\"com.amazon.coral.service#"
              "SerializationException\"}");
  std::string ok = "{\"a\":" + std::string(kMaxJsonDepth - 1, '[') +
                   std::string(kMaxJsonDepth - 1, ']') + "}";
  EXPECT_EQ(protocol_.Handle(Post("DynamoDB_20120810.PutItem", ok)).status,
            200);
}

TEST_F(ProtocolTest, JsonDepthScanSkipsStrings) {
  EXPECT_FALSE(JsonDeeperThan(R"({"a":"[[[[{{{{\"[["})", 1));
  EXPECT_TRUE(JsonDeeperThan(R"({"a":[1]})", 1));
  EXPECT_FALSE(JsonDeeperThan(R"({"a":[1]})", 2));
}

TEST_F(ProtocolTest, DispatchesDynamoDbOperation) {
  WireResponse r = protocol_.Handle(
      Post("DynamoDB_20120810.PutItem", R"({"TableName": "t", "Item": {}})"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/x-amz-json-1.0");
  EXPECT_EQ(r.body,
            R"({"Operation":"PutItem","Request":{"Item":{},"TableName":"t"}})");
  ExpectStamped(r);
  auto calls = handler_.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].service, "dynamodb");
  EXPECT_EQ(calls[0].operation, "PutItem");
  EXPECT_EQ(calls[0].request, json::parse(R"({"TableName":"t","Item":{}})"));
  EXPECT_EQ(calls[0].caller.access_key, "AK");
  EXPECT_EQ(calls[0].caller.region, "us-east-1");
}

TEST_F(ProtocolTest, DispatchesStreamsOperation) {
  WireResponse r = protocol_.Handle(
      Post("DynamoDBStreams_20120810.GetRecords", R"({"ShardIterator":"x"})"));
  EXPECT_EQ(r.status, 200);
  auto calls = handler_.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].service, "streams");
  EXPECT_EQ(calls[0].operation, "GetRecords");
  EXPECT_EQ(calls[0].caller.access_key, "AK");
}

TEST_F(ProtocolTest, TagResourceAnswersWithEmptyBody) {
  handler_.answer = [](std::string_view, const json&) -> Result<json> {
    return json::object();
  };
  for (std::string op : {"TagResource", "UntagResource"}) {
    WireResponse r = protocol_.Handle(Post("DynamoDB_20120810." + op, "{}"));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "");
    EXPECT_EQ(r.Header("x-amz-crc32").value_or(""), "0");
  }
  EXPECT_EQ(protocol_.Handle(Post("DynamoDB_20120810.DeleteItem", "{}")).body,
            "{}");
}

TEST_F(ProtocolTest, HandlerErrorsUseTheEnvelope) {
  handler_.answer = [](std::string_view, const json&) -> Result<json> {
    Error e = Error::Of(ErrorType::kTransactionCanceled,
                        "Transaction cancelled, please refer cancellation "
                        "reasons for specific reasons [None]");
    e.extra = json{{"CancellationReasons", json::array({{{"Code", "None"}}})}};
    return e;
  };
  ExpectError(
      protocol_.Handle(Post("DynamoDB_20120810.TransactWriteItems", "{}")), 400,
      "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
      "TransactionCanceledException\",\"CancellationReasons\":[{\"Code\":"
      "\"None\"}],\"Message\":\"Transaction cancelled, please refer "
      "cancellation reasons for specific reasons [None]\"}");
}

TEST_F(ProtocolTest, HandlerExceptionIsInternalServerError) {
  handler_.answer = [](std::string_view, const json&) -> Result<json> {
    throw std::runtime_error("boom");
  };
  ExpectError(protocol_.Handle(Post("DynamoDB_20120810.GetItem", "{}")), 500,
              "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
              "InternalServerError\",\"message\":\"The server encountered an "
              "internal error trying to fulfill the request.\"}");
  EXPECT_NE(log_.str().find("GetItem threw: boom"), std::string::npos);
}

TEST_F(ProtocolTest, OversizedBodyIs413) {
  std::string big(kMaxRequestBytes + 1, ' ');
  WireResponse r = protocol_.Handle(Post("DynamoDB_20120810.PutItem", big));
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(r.body, "");
  ExpectStamped(r);
}

TEST_F(ProtocolTest, ControlRoutes) {
  ASSERT_TRUE(protocol_
                  .AddRoute("POST", "/_ddblab/time",
                            [](const WireRequest& r) {
                              WireResponse response;
                              response.content_type = "application/json";
                              response.body = std::string(r.body);
                              return response;
                            })
                  .ok());
  EXPECT_FALSE(protocol_.AddRoute("POST", "/_ddblab/time", nullptr).ok());
  EXPECT_FALSE(protocol_.AddRoute("GET", "/_ddblab/health", nullptr).ok());
  EXPECT_FALSE(protocol_.AddRoute("GET", "/elsewhere", nullptr).ok());

  WireRequest r;
  r.method = "POST";
  r.path = "/_ddblab/time";
  r.headers = {{"Content-Type", "application/json"}};
  r.body = R"({"advance":1})";
  WireResponse response = protocol_.Handle(r);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body, R"({"advance":1})");
  ExpectStamped(response);

  r.path = "/_ddblab/nothing";
  EXPECT_EQ(protocol_.Handle(r).status, 404);
  r.method = "GET";
  r.path = "/_ddblab/time";
  EXPECT_EQ(protocol_.Handle(r).status, 404);
}

TEST_F(ProtocolTest, CorsPreflightAndHeaders) {
  WireRequest preflight;
  preflight.method = "OPTIONS";
  preflight.path = "/";
  preflight.headers = {{"Origin", "http://example.com"},
                       {"Access-Control-Request-Method", "POST"},
                       {"Access-Control-Request-Headers", "x-amz-target"}};
  WireResponse r = protocol_.Handle(preflight);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.Header("Access-Control-Allow-Origin").value_or(""), "*");
  EXPECT_EQ(r.Header("Access-Control-Allow-Methods").value_or(""), "POST");
  EXPECT_EQ(r.Header("Access-Control-Allow-Headers").value_or(""),
            "x-amz-target");
  EXPECT_EQ(r.Header("Access-Control-Max-Age").value_or(""), "172800");

  WireRequest post = Post("DynamoDB_20120810.ListTables", "{}");
  post.headers.emplace_back("Origin", "http://example.com");
  EXPECT_EQ(protocol_.Handle(post).Header("Access-Control-Allow-Origin"),
            std::optional<std::string_view>("*"));
  EXPECT_FALSE(protocol_.Handle(Post("DynamoDB_20120810.ListTables", "{}"))
                   .Header("Access-Control-Allow-Origin"));
}

// --log-level debug: one line per DynamoDB request with the operation, the
// table ("-" when the body names none, or none that is safe to print), the
// status, the error type if any, and the milliseconds it took.
TEST_F(ProtocolTest, DebugLogsOneLinePerRequest) {
  std::ostringstream debug_log;
  Logger debug(LogLevel::kDebug, debug_log);
  Protocol protocol(handler_, auth_, clock_, debug, ProtocolConfig{});
  handler_.answer = [](std::string_view op, const json&) -> Result<json> {
    if (op == "GetItem") return Error::ResourceNotFound("no table");
    return json::object();
  };
  auto lines = [&debug_log] {
    std::string text = debug_log.str();
    debug_log.str("");
    return text;
  };
  auto matches = [](const std::string& text, const std::string& pattern) {
    return std::regex_match(text, std::regex(pattern));
  };
  const std::string ms = R"( [0-9]+\.[0-9]ms\n)";

  EXPECT_EQ(protocol
                .Handle(Post("DynamoDB_20120810.PutItem",
                             R"({"TableName":"orders","Item":{}})"))
                .status,
            200);
  std::string text = lines();
  EXPECT_TRUE(matches(text, "ddblab: debug: PutItem orders 200" + ms)) << text;

  EXPECT_EQ(protocol
                .Handle(Post("DynamoDB_20120810.GetItem",
                             R"({"TableName":"orders","Key":{}})"))
                .status,
            400);
  text = lines();
  EXPECT_TRUE(matches(
      text, "ddblab: debug: GetItem orders 400 ResourceNotFoundException" + ms))
      << text;

  protocol.Handle(Post("DynamoDB_20120810.ListTables", "{}"));
  text = lines();
  EXPECT_TRUE(matches(text, "ddblab: debug: ListTables - 200" + ms)) << text;

  // Nothing of the request is printed raw: a name with a line break is "-".
  protocol.Handle(
      Post("DynamoDB_20120810.PutItem", R"({"TableName":"a\nb","Item":{}})"));
  text = lines();
  EXPECT_TRUE(matches(text, "ddblab: debug: PutItem - 200" + ms)) << text;

  // Refused before the body is read: no table, the error type.
  WireRequest unsigned_request = Post("DynamoDB_20120810.PutItem", "{}");
  std::erase_if(unsigned_request.headers, [](const auto& h) {
    return HeaderNameEquals(h.first, "Authorization");
  });
  EXPECT_EQ(protocol.Handle(unsigned_request).status, 400);
  text = lines();
  EXPECT_TRUE(matches(
      text,
      "ddblab: debug: PutItem - 400 MissingAuthenticationTokenException" + ms))
      << text;
  protocol.Handle(Post("DynamoDB_20120810.Bogus", "{}"));
  text = lines();
  EXPECT_TRUE(
      matches(text, "ddblab: debug: - - 400 UnknownOperationException" + ms))
      << text;

  // Below debug, nothing.
  protocol_.Handle(Post("DynamoDB_20120810.ListTables", "{}"));
  EXPECT_EQ(log_.str(), "");
}

TEST_F(ProtocolTest, RequestIdsFollowTheSeed) {
  FakeHandler other_handler;
  Protocol a(handler_, auth_, clock_, logger_,
             ProtocolConfig{"us-east-1", 5, {}});
  Protocol b(other_handler, auth_, clock_, logger_,
             ProtocolConfig{"us-east-1", 5, {}});
  auto id = [](Protocol& p) {
    return std::string(*p.Handle(Get("/")).Header("x-amzn-RequestId"));
  };
  std::string a1 = id(a);
  EXPECT_EQ(a1, id(b));
  EXPECT_NE(a1, id(a));
}

TEST_F(ProtocolTest, HttpDate) {
  EXPECT_EQ(FormatHttpDate(FromEpochSeconds(0)),
            "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(FormatHttpDate(FromEpochSeconds(1709251199)),
            "Thu, 29 Feb 2024 23:59:59 GMT");
}

TEST_F(ProtocolTest, MediaType) {
  EXPECT_EQ(MediaType("Application/X-Amz-Json-1.0 ; charset=UTF-8"),
            "application/x-amz-json-1.0");
  EXPECT_EQ(MediaType(""), "");
}

}  // namespace
}  // namespace ddblab::server
