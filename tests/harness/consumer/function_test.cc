// tests/harness/consumer/function_test.cc: command and callable functions
// (stdin/stdout, exit status, crashes, timeouts).
#include "harness/consumer/function.h"

#include <gtest/gtest.h>

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
