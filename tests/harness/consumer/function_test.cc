// tests/harness/consumer/function_test.cc: command and callable functions
// (stdin/stdout, exit status, crashes, timeouts).
#include "harness/consumer/function.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

namespace ddblab::harness::consumer {
namespace {

using json = nlohmann::json;
using Kind = Invocation::Kind;

Invocation RunSh(std::string script, int timeout_ms = 3000) {
  CommandFunction f({"sh", "-c", std::move(script)},
                    std::chrono::milliseconds(timeout_ms));
  return f.Invoke({{"Records", {{{"eventID", "1"}}}}});
}

TEST(FunctionTest, CommandGetsEventOnStdinAndAnswersOnStdout) {
  Invocation echo = RunSh("cat");
  ASSERT_EQ(echo.kind, Kind::kOk) << echo.error_message;
  EXPECT_EQ(echo.response, json({{"Records", {{{"eventID", "1"}}}}}));
  Invocation empty = RunSh("cat >/dev/null");
  ASSERT_EQ(empty.kind, Kind::kOk);
  EXPECT_TRUE(empty.response.is_null());
}

TEST(FunctionTest, CommandFailures) {
  Invocation exit3 = RunSh("cat >/dev/null; echo 'it broke' >&2; exit 3");
  EXPECT_EQ(exit3.kind, Kind::kFunctionError);
  EXPECT_EQ(exit3.error_type, "Runtime.ExitError");
  EXPECT_EQ(exit3.error_message,
            "the function exited with status 3: it broke\n");
  Invocation crash = RunSh("kill -SEGV $$");
  EXPECT_EQ(crash.kind, Kind::kFunctionError);
  EXPECT_EQ(
      crash.error_message.rfind("the function was killed by signal 11", 0), 0u);
  Invocation garbage = RunSh("cat >/dev/null; echo not-json");
  EXPECT_EQ(garbage.kind, Kind::kFunctionError);
  EXPECT_EQ(garbage.error_type, "Runtime.InvalidResponse");
  Invocation slow = RunSh("sleep 5", 200);
  EXPECT_EQ(slow.kind, Kind::kFunctionError);
  EXPECT_EQ(slow.error_type, "Timeout");
  CommandFunction missing({"/nonexistent/handler"});
  EXPECT_EQ(missing.Invoke(json::object()).kind, Kind::kFunctionError);
}

TEST(FunctionTest, HandlerThatIgnoresStdinDoesNotKillTheCaller) {
  CommandFunction f({"sh", "-c", "echo '{\"ok\":true}'"});
  json big = {{"Records", json::array()}};
  for (int i = 0; i < 2000; ++i) {
    big["Records"].push_back({{"pad", std::string(1000, 'x')}});
  }
  Invocation out = f.Invoke(big);
  ASSERT_EQ(out.kind, Kind::kOk) << out.error_message;
  EXPECT_EQ(out.response, json({{"ok", true}}));
}

// An invoke URL modelled on the Lambda Runtime Interface Emulator: the event
// is POSTed; a function error is a 200 with X-Amz-Function-Error.
class InvokeServer {
 public:
  InvokeServer() {
    server_.Post(
        kPath, [this](const httplib::Request& req, httplib::Response& res) {
          last_body = req.body;
          json event = json::parse(req.body);
          std::string mode = event.value("mode", "ok");
          if (mode == "error") {
            res.set_header("X-Amz-Function-Error", "Unhandled");
            res.set_content(R"({"errorType":"TypeError","errorMessage":"bad"})",
                            "application/json");
          } else if (mode == "rie-error") {
            res.set_content(
                R"({"errorType":"Error","errorMessage":"failure","trace":[]})",
                "text/plain; charset=utf-8");
          } else if (mode == "rie-timeout") {
            res.set_content("Task timed out after 1.00 seconds",
                            "text/plain; charset=utf-8");
          } else if (mode == "rie-exit") {
            res.set_content("", "text/plain; charset=utf-8");
          } else if (mode == "500") {
            res.status = 500;
            res.set_content("oops", "text/plain");
          } else {
            res.set_content(R"({"batchItemFailures":[]})", "application/json");
          }
        });
    port_ = server_.bind_to_any_port("127.0.0.1");
    // bind_to_any_port already listens: connections queue until accepted.
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~InvokeServer() {
    server_.stop();
    thread_.join();
  }
  std::string Url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + kPath;
  }
  static constexpr const char* kPath =
      "/2015-03-31/functions/function/invocations";
  std::string last_body;

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

TEST(FunctionTest, InvokeUrl) {
  InvokeServer server;
  UrlFunction f(server.Url());
  Invocation ok = f.Invoke({{"mode", "ok"}});
  ASSERT_EQ(ok.kind, Kind::kOk) << ok.error_message;
  EXPECT_EQ(ok.response, json({{"batchItemFailures", json::array()}}));
  EXPECT_EQ(server.last_body, R"({"mode":"ok"})");
  Invocation error = f.Invoke({{"mode", "error"}});
  EXPECT_EQ(error.kind, Kind::kFunctionError);
  EXPECT_EQ(error.error_type, "TypeError");
  EXPECT_EQ(error.error_message, "bad");
  Invocation rie = f.Invoke({{"mode", "rie-error"}});
  EXPECT_EQ(rie.kind, Kind::kFunctionError);
  EXPECT_EQ(rie.error_type, "Error");
  EXPECT_EQ(rie.error_message, "failure");
  Invocation timeout = f.Invoke({{"mode", "rie-timeout"}});
  EXPECT_EQ(timeout.kind, Kind::kFunctionError);
  EXPECT_EQ(timeout.error_type, "Timeout");
  EXPECT_EQ(timeout.error_message, "Task timed out after 1.00 seconds");
  Invocation exited = f.Invoke({{"mode", "rie-exit"}});
  EXPECT_EQ(exited.kind, Kind::kFunctionError);
  EXPECT_EQ(exited.error_type, "Runtime.ExitError");
  Invocation status = f.Invoke({{"mode", "500"}});
  EXPECT_EQ(status.kind, Kind::kFunctionError);
  EXPECT_EQ(status.error_message, "the invoke URL answered HTTP 500: oops");
  UrlFunction closed("http://127.0.0.1:1/x");
  EXPECT_EQ(closed.Invoke(json::object()).kind, Kind::kNotDelivered);
}

TEST(FunctionTest, FromJson) {
  auto cmd = FunctionFromJson({{"Command", {"node", "h.mjs"}}});
  ASSERT_TRUE(cmd.ok());
  EXPECT_EQ((*cmd)->Describe(), "command node h.mjs");
  auto url =
      FunctionFromJson({{"Url",
                         "http://127.0.0.1:9000/2015-03-31/functions/function/"
                         "invocations"}});
  ASSERT_TRUE(url.ok());
  EXPECT_FALSE(FunctionFromJson({{"Command", json::array()}}).ok());
  EXPECT_FALSE(FunctionFromJson({{"Url", "ftp://x"}}).ok());
  EXPECT_EQ(FunctionFromJson(json::object()).error().message,
            "Function must be {\"Command\": [...]} or {\"Url\": \"...\"}");
}

TEST(FunctionTest, CallableErrorIsAFunctionError) {
  CallableFunction f(
      [](const json&) -> Result<json> { return Error::Internal("nope"); });
  Invocation out = f.Invoke(json::object());
  EXPECT_EQ(out.kind, Kind::kFunctionError);
  EXPECT_EQ(out.error_message, "nope");
}

}  // namespace
}  // namespace ddblab::harness::consumer
