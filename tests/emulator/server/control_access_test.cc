// Who may call the control endpoints (emulator/server/control_access.h),
// through the Protocol that enforces it.
#include "emulator/server/control_access.h"

#include <gtest/gtest.h>

#include <sstream>

#include "common/sigv4/sigv4.h"
#include "emulator/server/protocol.h"
#include "fake_handler.h"

namespace ddblab::server {
namespace {

constexpr std::string_view kToken =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
constexpr std::string_view kMissingToken =
    R"({"message":"missing control token: send the token ddblab serve printed at start (also in its token file) in the X-Ddblab-Token header","type":"AccessDeniedException"})";
constexpr std::string_view kWrongToken =
    R"({"message":"wrong control token in the X-Ddblab-Token header","type":"AccessDeniedException"})";
constexpr std::string_view kNotJson =
    R"({"message":"control requests must be sent with Content-Type: application/json","type":"ValidationException"})";

AuthConfig VerifyConfig() {
  AuthConfig config;
  config.mode = AuthMode::kVerify;
  config.credentials.Add(Credential{"AKID", "SECRET", ""});
  return config;
}

class ControlAccessTest : public ::testing::Test {
 protected:
  ControlAccessTest() : logger_(LogLevel::kError, log_) {}

  // A Protocol in `mode` (the token kToken) with a POST route that echoes
  // its body, a GET route, and a public prefix route.
  Protocol& Make(ControlMode mode, AuthConfig auth = AuthConfig{}) {
    auth_ = std::make_unique<Authenticator>(std::move(auth), clock_);
    ProtocolConfig config;
    config.control.mode = mode;
    config.control.token = std::string(kToken);
    protocol_ = std::make_unique<Protocol>(handler_, *auth_, clock_, logger_,
                                           std::move(config));
    auto echo = [](const WireRequest& r) {
      WireResponse response;
      response.content_type = "application/json";
      response.body = std::string(r.body);
      return response;
    };
    EXPECT_TRUE(protocol_->AddRoute("POST", "/_ddblab/clock", echo).ok());
    EXPECT_TRUE(protocol_->AddRoute("GET", "/_ddblab/clock", echo).ok());
    EXPECT_TRUE(protocol_->extensions()
                    .AddPrefixRoute("/_ddblab/ui", echo,
                                    ControlExtensions::Access::kPublic)
                    .ok());
    return *protocol_;
  }

  static WireRequest Request(std::string method, std::string path,
                             HeaderList headers, std::string_view body = "") {
    WireRequest r;
    r.method = std::move(method);
    r.path = std::move(path);
    r.headers = std::move(headers);
    r.body = body;
    return r;
  }

  static HeaderList TokenJson() {
    return {{"Content-Type", "application/json"},
            {"X-Ddblab-Token", std::string(kToken)}};
  }

  ManualClock clock_;
  std::ostringstream log_;
  Logger logger_;
  FakeHandler handler_;
  std::unique_ptr<Authenticator> auth_;
  std::unique_ptr<Protocol> protocol_;
};

TEST_F(ControlAccessTest, LocalTokenWantsTheToken) {
  Protocol& p = Make(ControlMode::kLocalToken);
  const std::string body = R"({"advance":"3650d"})";
  WireResponse missing = p.Handle(Request(
      "POST", "/_ddblab/clock", {{"Content-Type", "application/json"}}, body));
  EXPECT_EQ(missing.status, 403);
  EXPECT_EQ(missing.content_type, "application/json");
  EXPECT_EQ(missing.body, kMissingToken);
  WireResponse wrong = p.Handle(
      Request("POST", "/_ddblab/clock",
              {{"Content-Type", "application/json"},
               {"X-Ddblab-Token", std::string(kToken.substr(1)) + "0"}},
              body));
  EXPECT_EQ(wrong.status, 403);
  EXPECT_EQ(wrong.body, kWrongToken);
  // A prefix of the token is wrong too (no early match on length).
  EXPECT_EQ(p.Handle(Request("GET", "/_ddblab/clock",
                             {{"X-Ddblab-Token", std::string(kToken, 0, 10)}}))
                .body,
            kWrongToken);
  WireResponse right =
      p.Handle(Request("POST", "/_ddblab/clock", TokenJson(), body));
  EXPECT_EQ(right.status, 200);
  EXPECT_EQ(right.body, body);
  // A path no route serves is a 404 (the routes are documented).
  EXPECT_EQ(p.Handle(Request("GET", "/_ddblab/nothing", {})).status, 404);
}

TEST_F(ControlAccessTest, BodiesMustBeJson) {
  for (ControlMode mode : {ControlMode::kLocalToken, ControlMode::kOpen}) {
    Protocol& p = Make(mode);
    for (std::string type : {"text/plain", "application/x-www-form-urlencoded",
                             "multipart/form-data; boundary=x", ""}) {
      HeaderList headers = TokenJson();
      headers[0].second = type;
      WireResponse r = p.Handle(
          Request("POST", "/_ddblab/clock", headers, R"({"advance":"1d"})"));
      EXPECT_EQ(r.status, 415) << type;
      EXPECT_EQ(r.body, kNotJson) << type;
    }
    HeaderList charset = TokenJson();
    charset[0].second = "application/json; charset=utf-8";
    EXPECT_EQ(p.Handle(Request("POST", "/_ddblab/clock", charset, "{}")).status,
              200);
    // GET needs no Content-Type.
    EXPECT_EQ(p.Handle(Request("GET", "/_ddblab/clock",
                               {{"X-Ddblab-Token", std::string(kToken)}}))
                  .status,
              200);
  }
}

TEST_F(ControlAccessTest, OpenNeedsNoToken) {
  Protocol& p = Make(ControlMode::kOpen);
  EXPECT_EQ(p.Handle(Request("POST", "/_ddblab/clock",
                             {{"Content-Type", "application/json"}}, "{}"))
                .status,
            200);
}

TEST_F(ControlAccessTest, OffServesOnlyTheHealthCheck) {
  Protocol& p = Make(ControlMode::kOff);
  for (std::string path : {"/_ddblab/clock", "/_ddblab/ui/index.html"}) {
    WireResponse r = p.Handle(Request("GET", path, TokenJson()));
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(
        r.body,
        R"({"message":"the control endpoints are off (ddblab serve --control off): )" +
            path + R"( is not served","type":"UnknownOperationException"})");
  }
  EXPECT_EQ(p.Handle(Request("GET", "/_ddblab/health", {})).status, 200);
}

TEST_F(ControlAccessTest, PublicRoutesNeedNoToken) {
  Protocol& p = Make(ControlMode::kLocalToken, VerifyConfig());
  WireResponse r = p.Handle(Request("GET", "/_ddblab/ui/console.js", {}));
  EXPECT_EQ(r.status, 200);
}

TEST_F(ControlAccessTest, VerifySignsControlRequestsToo) {
  Protocol& p = Make(ControlMode::kLocalToken, VerifyConfig());
  const std::string body = R"({"advance":"1s"})";
  WireResponse unsigned_request =
      p.Handle(Request("POST", "/_ddblab/clock", TokenJson(), body));
  EXPECT_EQ(unsigned_request.status, 403);
  EXPECT_EQ(
      unsigned_request.body,
      R"({"message":"Request is missing Authentication Token","type":"MissingAuthenticationTokenException"})");

  const std::string date = sigv4::FormatAmzDate(clock_.Now());
  HeaderList headers = TokenJson();
  headers.emplace_back("Host", "127.0.0.1:8000");
  headers.emplace_back("X-Amz-Date", date);
  auto sign = [&](std::string_view secret) {
    HeaderList signed_headers = headers;
    signed_headers.emplace_back(
        "Authorization", sigv4::AuthorizationHeader(
                             "POST", "/_ddblab/clock", "", headers, body,
                             "AKID", secret, "us-east-1", "dynamodb", date));
    return signed_headers;
  };
  WireResponse good =
      p.Handle(Request("POST", "/_ddblab/clock", sign("SECRET"), body));
  EXPECT_EQ(good.status, 200);
  EXPECT_EQ(good.body, body);
  WireResponse bad =
      p.Handle(Request("POST", "/_ddblab/clock", sign("OTHER"), body));
  EXPECT_EQ(bad.status, 403);
  EXPECT_NE(bad.body.find("\"type\":\"InvalidSignatureException\""),
            std::string::npos)
      << bad.body;
}

TEST_F(ControlAccessTest, NoCorsOnControlPaths) {
  Protocol& p = Make(ControlMode::kOpen);
  HeaderList headers = TokenJson();
  headers.emplace_back("Origin", "http://127.0.0.1:9999");
  WireResponse r = p.Handle(Request("POST", "/_ddblab/clock", headers, "{}"));
  EXPECT_EQ(r.status, 200);
  EXPECT_FALSE(r.Header("Access-Control-Allow-Origin"));
  WireResponse preflight = p.Handle(Request(
      "OPTIONS", "/_ddblab/clock",
      {{"Origin", "http://127.0.0.1:9999"},
       {"Access-Control-Request-Method", "POST"},
       {"Access-Control-Request-Headers", "content-type,x-ddblab-token"}}));
  EXPECT_NE(preflight.status, 200);
  EXPECT_FALSE(preflight.Header("Access-Control-Allow-Origin"));
  EXPECT_FALSE(preflight.Header("Access-Control-Allow-Headers"));
}

TEST(ControlModeTest, NamesRoundTrip) {
  for (ControlMode mode :
       {ControlMode::kOff, ControlMode::kLocalToken, ControlMode::kOpen}) {
    EXPECT_EQ(ParseControlMode(ControlModeName(mode)), mode);
  }
  EXPECT_EQ(ParseControlMode("token"), std::nullopt);
}

}  // namespace
}  // namespace ddblab::server
