// tests/cli/control_ui_test.cc: the web console's route (cli/control_ui.h)
// driven through ServeUiFile and a Protocol without a socket: the embedded
// files with their Content-Types, 404 for an unknown file, 405 for another
// method, HEAD without a body, and --no-ui leaving the route (and the
// startup line naming the console) out.
#include "cli/control_ui.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "cli/emulator_handler.h"
#include "cli/ui_assets.h"
#include "emulator/server/protocol.h"
#include "tests/cli/control_call.h"

namespace ddblab::cli {
namespace {

server::WireRequest Get(std::string path, std::string method = "GET") {
  server::WireRequest request;
  request.method = std::move(method);
  request.path = std::move(path);
  return request;
}

TEST(UiContentTypeTest, ByExtension) {
  EXPECT_EQ(UiContentType("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(UiContentType("console.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(UiContentType("console.css"), "text/css; charset=utf-8");
  EXPECT_EQ(UiContentType("logo.svg"), "image/svg+xml");
  EXPECT_EQ(UiContentType("data.bin"), "application/octet-stream");
}

TEST(ServeUiFileTest, EveryEmbeddedFileIsServedWithItsType) {
  ASSERT_EQ(EmbeddedUiFiles().size(), 6u);
  for (const UiFile& file : EmbeddedUiFiles()) {
    server::WireResponse response =
        ServeUiFile(Get("/_ddblab/ui/" + std::string(file.path)));
    EXPECT_EQ(response.status, 200) << file.path;
    EXPECT_EQ(response.content_type, UiContentType(file.path));
    EXPECT_EQ(response.body, file.body);
    EXPECT_FALSE(response.body.empty()) << file.path;
    EXPECT_EQ(response.Header("Cache-Control").value_or(""), "no-cache");
  }
}

TEST(ServeUiFileTest, TheFolderAnswersIndexHtml) {
  for (const char* path : {"/_ddblab/ui", "/_ddblab/ui/"}) {
    server::WireResponse response = ServeUiFile(Get(path));
    EXPECT_EQ(response.status, 200) << path;
    EXPECT_EQ(response.content_type, "text/html; charset=utf-8");
    EXPECT_NE(response.body.find("<title>ddblab console</title>"),
              std::string::npos);
  }
}

TEST(ServeUiFileTest, UnknownFileIs404) {
  server::WireResponse response = ServeUiFile(Get("/_ddblab/ui/nope.js"));
  EXPECT_EQ(response.status, 404);
  EXPECT_EQ(response.content_type, "application/json");
  EXPECT_EQ(
      response.body,
      R"({"message":"no such file in the web console: /_ddblab/ui/nope.js"})");
  // No escape from the folder: the path is matched whole, never opened.
  EXPECT_EQ(ServeUiFile(Get("/_ddblab/ui/../ui/index.html")).status, 404);
}

TEST(ServeUiFileTest, OtherMethodsAre405AndHeadHasNoBody) {
  server::WireResponse post = ServeUiFile(Get("/_ddblab/ui/", "POST"));
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.Header("Allow").value_or(""), "GET, HEAD");
  server::WireResponse head =
      ServeUiFile(Get("/_ddblab/ui/console.js", "HEAD"));
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.content_type, "text/javascript; charset=utf-8");
  EXPECT_TRUE(head.body.empty());
}

// The route through the hooks, as cli/main.cc composes it: present by
// default, absent with --no-ui.
server::WireResponse ThroughServer(bool ui, const std::string& path) {
  ServeConfig config;
  config.ui = ui;
  server::ServeHooks hooks;
  EXPECT_TRUE(AddUiControl(config, hooks).ok());
  auto handler = EmulatorHandler::Open(Options{});
  EXPECT_TRUE(handler.ok());
  control_test::ProtocolOver server(**handler);
  if (hooks.add_routes) {
    EXPECT_TRUE(hooks.add_routes(**handler, server.protocol).ok());
  }
  return server.protocol.Handle(Get(path));
}

TEST(AddUiControlTest, OnByDefaultOffWithNoUi) {
  EXPECT_EQ(ThroughServer(true, "/_ddblab/ui").status, 200);
  EXPECT_EQ(ThroughServer(true, "/_ddblab/ui/sigv4.js").status, 200);
  EXPECT_EQ(ThroughServer(false, "/_ddblab/ui").status, 404);
  EXPECT_EQ(ThroughServer(false, "/_ddblab/ui/sigv4.js").status, 404);
}

// The startup line under the control token's: the console's URL with the
// token in its fragment; none with --no-ui.
TEST(AddUiControlTest, StartupLineNamesTheConsole) {
  ServeConfig config;
  server::ServeHooks hooks;
  ASSERT_TRUE(AddUiControl(config, hooks).ok());
  ASSERT_TRUE(hooks.token_lines);
  EXPECT_EQ(hooks.token_lines("http://127.0.0.1:8000", "abc123"),
            "Web console: http://127.0.0.1:8000/_ddblab/ui#token=abc123\n");
  config.ui = false;
  server::ServeHooks off;
  ASSERT_TRUE(AddUiControl(config, off).ok());
  EXPECT_FALSE(off.token_lines);
}

}  // namespace
}  // namespace ddblab::cli
