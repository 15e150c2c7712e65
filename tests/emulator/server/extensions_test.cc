// tests/emulator/server/extensions_test.cc: the server's extension seam
// (extensions.h): prefix routes through the Protocol, clock and stop hooks.
#include "emulator/server/extensions.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "emulator/server/protocol.h"
#include "fake_handler.h"

namespace ddblab::server {
namespace {

// Answers "<name> <method> <path>".
RouteHandler Echo(std::string name) {
  return [name](const WireRequest& r) {
    WireResponse response;
    response.content_type = "text/plain";
    response.body = name + " " + r.method + " " + r.path;
    return response;
  };
}

// A control request as clients send them (JSON).
WireRequest Request(std::string method, std::string path) {
  WireRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.headers = {{"Content-Type", "application/json"}};
  return r;
}

TEST(ControlExtensionsTest, PrefixMustBeAControlPathWithoutTrailingSlash) {
  ControlExtensions ext;
  auto message = [&](std::string prefix) {
    Status s = ext.AddPrefixRoute(std::move(prefix), Echo("x"));
    return s.ok() ? std::string("ok") : s.error().message;
  };
  EXPECT_EQ(message("/elsewhere"),
            "control routes live under /_ddblab/: /elsewhere");
  EXPECT_EQ(message("/_ddblab/"),
            "control routes live under /_ddblab/: /_ddblab/");
  EXPECT_EQ(message("/_ddblab/esm/"),
            "a route prefix must not end with '/': /_ddblab/esm/");
  EXPECT_EQ(message("/_ddblab/health"),
            "route prefix /_ddblab/health covers /_ddblab/health");
  Status no_handler = ext.AddPrefixRoute("/_ddblab/esm", nullptr);
  ASSERT_FALSE(no_handler.ok());
  EXPECT_EQ(no_handler.error().message,
            "no handler for route prefix /_ddblab/esm");
  EXPECT_EQ(message("/_ddblab/esm"), "ok");
}

TEST(ControlExtensionsTest, OverlappingPrefixesAreRefusedSegmentWise) {
  ControlExtensions ext;
  ASSERT_TRUE(ext.AddPrefixRoute("/_ddblab/esm", Echo("a")).ok());
  Status same = ext.AddPrefixRoute("/_ddblab/esm", Echo("b"));
  ASSERT_FALSE(same.ok());
  EXPECT_EQ(same.error().message,
            "route prefix /_ddblab/esm overlaps /_ddblab/esm");
  Status under = ext.AddPrefixRoute("/_ddblab/esm/x", Echo("b"));
  ASSERT_FALSE(under.ok());
  EXPECT_EQ(under.error().message,
            "route prefix /_ddblab/esm/x overlaps /_ddblab/esm");
  Status above = ext.AddPrefixRoute("/_ddblab", Echo("b"));
  ASSERT_FALSE(above.ok());  // not under /_ddblab/ at all
  // A longer name is another segment, not an overlap.
  EXPECT_TRUE(ext.AddPrefixRoute("/_ddblab/esm2", Echo("c")).ok());
}

TEST(ControlExtensionsTest, FindPrefixRouteMatchesWholeSegments) {
  ControlExtensions ext;
  ASSERT_TRUE(ext.AddPrefixRoute("/_ddblab/esm", Echo("a")).ok());
  ASSERT_TRUE(ext.AddPrefixRoute("/_ddblab/esm2", Echo("b")).ok());
  auto who = [&](std::string path) -> std::string {
    const RouteHandler* h = ext.FindPrefixRoute(path);
    if (h == nullptr) return "none";
    return (*h)(Request("GET", path)).body;
  };
  EXPECT_EQ(who("/_ddblab/esm"), "a GET /_ddblab/esm");
  EXPECT_EQ(who("/_ddblab/esm/"), "a GET /_ddblab/esm/");
  EXPECT_EQ(who("/_ddblab/esm/u-1/failures"),
            "a GET /_ddblab/esm/u-1/failures");
  EXPECT_EQ(who("/_ddblab/esm2/x"), "b GET /_ddblab/esm2/x");
  EXPECT_EQ(who("/_ddblab/esmx"), "none");
  EXPECT_EQ(who("/_ddblab/es"), "none");
  EXPECT_TRUE(PathUnder("/a/b", "/a"));
  EXPECT_FALSE(PathUnder("/ab", "/a"));
}

TEST(ControlExtensionsTest, ClockHooksRunInOrderEveryTime) {
  ControlExtensions ext;
  std::vector<std::string> ran;
  ext.AfterClockMove();  // none yet: nothing happens
  ext.AddAfterClockMove([&] { ran.push_back("first"); });
  ext.AddAfterClockMove([&] { ran.push_back("second"); });
  ext.AfterClockMove();
  ext.AfterClockMove();
  EXPECT_EQ(ran,
            (std::vector<std::string>{"first", "second", "first", "second"}));
}

TEST(ControlExtensionsTest, StopHooksRunNewestFirstOnce) {
  ControlExtensions ext;
  std::vector<std::string> ran;
  ext.AddOnStop([&] { ran.push_back("older"); });
  ext.AddOnStop([&] { ran.push_back("newer"); });
  ext.Stop();
  ext.Stop();
  EXPECT_EQ(ran, (std::vector<std::string>{"newer", "older"}));
}

class ProtocolExtensionsTest : public ::testing::Test {
 protected:
  ProtocolExtensionsTest()
      : logger_(LogLevel::kError, log_),
        auth_(AuthConfig{}, clock_),
        protocol_(handler_, auth_, clock_, logger_, ProtocolConfig{}) {}

  FakeHandler handler_;
  ManualClock clock_;
  std::ostringstream log_;
  Logger logger_;
  Authenticator auth_;
  Protocol protocol_;
};

TEST_F(ProtocolExtensionsTest, PrefixRoutesServeEveryMethodUnderThePrefix) {
  ASSERT_TRUE(
      protocol_.extensions().AddPrefixRoute("/_ddblab/esm", Echo("esm")).ok());
  for (std::string method : {"GET", "POST", "PUT", "DELETE"}) {
    WireResponse r = protocol_.Handle(Request(method, "/_ddblab/esm/u-1"));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "esm " + method + " /_ddblab/esm/u-1");
    // Stamped like every control response.
    EXPECT_TRUE(r.Header("x-amzn-RequestId").has_value());
    EXPECT_EQ(r.Header("Server").value_or(""), "Server");
  }
  EXPECT_EQ(protocol_.Handle(Request("GET", "/_ddblab/esm")).body,
            "esm GET /_ddblab/esm");
  WireResponse other = protocol_.Handle(Request("GET", "/_ddblab/esmx"));
  EXPECT_EQ(other.status, 404);
  EXPECT_EQ(other.body, "<UnknownOperationException/>\n");
  EXPECT_TRUE(handler_.calls().empty());  // DynamoDB's handler never called
}

TEST_F(ProtocolExtensionsTest, ExactRoutesWinOverPrefixRoutes) {
  ASSERT_TRUE(protocol_.extensions()
                  .AddPrefixRoute("/_ddblab/esm", Echo("prefix"))
                  .ok());
  ASSERT_TRUE(
      protocol_.AddRoute("POST", "/_ddblab/esm/run", Echo("exact")).ok());
  EXPECT_EQ(protocol_.Handle(Request("POST", "/_ddblab/esm/run")).body,
            "exact POST /_ddblab/esm/run");
  EXPECT_EQ(protocol_.Handle(Request("GET", "/_ddblab/esm/run")).body,
            "prefix GET /_ddblab/esm/run");
  EXPECT_EQ(protocol_.Handle(Request("GET", "/_ddblab/health")).body,
            "healthy: dynamodb.us-east-1.amazonaws.com ");
}

TEST_F(ProtocolExtensionsTest, PrefixRouteExceptionIsInternalServerError) {
  ASSERT_TRUE(protocol_.extensions()
                  .AddPrefixRoute("/_ddblab/boom",
                                  [](const WireRequest&) -> WireResponse {
                                    throw std::runtime_error("bang");
                                  })
                  .ok());
  WireResponse r = protocol_.Handle(Request("GET", "/_ddblab/boom/1"));
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(log_.str().find("control endpoint /_ddblab/boom/1 threw: bang"),
            std::string::npos);
}

}  // namespace
}  // namespace ddblab::server
