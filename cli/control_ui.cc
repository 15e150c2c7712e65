// cli/control_ui.cc: the web console's static files (see control_ui.h).
#include "cli/control_ui.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "cli/ui_assets.h"

namespace ddblab::cli {
namespace {

server::WireResponse JsonMessage(int status, std::string message) {
  server::WireResponse response;
  response.status = status;
  response.content_type = "application/json";
  nlohmann::json body = {{"message", std::move(message)}};
  response.body = body.dump();
  return response;
}

}  // namespace

std::string_view UiContentType(std::string_view path) {
  struct Kind {
    std::string_view extension;
    std::string_view type;
  };
  static constexpr Kind kKinds[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".json", "application/json"},
  };
  for (const Kind& kind : kKinds) {
    if (path.ends_with(kind.extension)) return kind.type;
  }
  return "application/octet-stream";
}

server::WireResponse ServeUiFile(const server::WireRequest& request) {
  if (request.method != "GET" && request.method != "HEAD") {
    server::WireResponse response = JsonMessage(
        405, "method " + request.method + " not allowed on " + request.path);
    response.SetHeader("Allow", "GET, HEAD");
    return response;
  }
  std::string_view rest = request.path;
  rest.remove_prefix(kUiRoutePrefix.size());
  if (rest.starts_with('/')) rest.remove_prefix(1);
  if (rest.empty()) rest = "index.html";
  for (const UiFile& file : EmbeddedUiFiles()) {
    if (file.path != rest) continue;
    server::WireResponse response;
    response.content_type = std::string(UiContentType(file.path));
    // The files change only with the binary; always revalidate so a new
    // build is picked up on reload.
    response.SetHeader("Cache-Control", "no-cache");
    if (request.method == "GET") response.body = std::string(file.body);
    return response;
  }
  return JsonMessage(404, "no such file in the web console: " + request.path);
}

Status AddUiControl(const ServeConfig& config, server::ServeHooks& hooks) {
  if (!config.ui) return OkStatus();
  // Under the control token's line at startup: the console's address with
  // the token in its fragment (where the page reads it).
  hooks.token_lines = [](const std::string& endpoint,
                         const std::string& token) {
    return "Web console: " + endpoint + std::string(kUiRoutePrefix) +
           "#token=" + token + "\n";
  };
  hooks.add_routes = [before = std::move(hooks.add_routes)](
                         server::RequestHandler& handler,
                         server::Protocol& protocol) -> Status {
    if (before) DDBLAB_RETURN_IF_ERROR(before(handler, protocol));
    // The static files reveal and change nothing: public, so that the page
    // loads before it knows the token (it reads it from the URL fragment).
    return protocol.extensions().AddPrefixRoute(
        std::string(kUiRoutePrefix), &ServeUiFile,
        server::ControlExtensions::Access::kPublic);
  };
  return OkStatus();
}

}  // namespace ddblab::cli
