// cli/control_ui.h: `ddblab serve` serves the web console (ui/ at the
// repository root, compiled into the binary) at /_ddblab/ui.
//
//   GET /_ddblab/ui, /_ddblab/ui/     -> ui/index.html
//   GET /_ddblab/ui/<file>            -> that file of ui/, with its
//                                        Content-Type (by extension)
//   anything else under /_ddblab/ui   -> 404 (unknown file) or 405 (a method
//                                        other than GET/HEAD), JSON
//                                        {"message": ...}
// The page itself talks only to DynamoDB's API (POST /, signed with SigV4
// in the browser) and the other /_ddblab/ control endpoints.
//
// Flag (command_line.h): --no-ui leaves the route out (every path under
// /_ddblab/ui is then a 404 like any unknown control path).
//
// Thread-safety: the route reads static data only.
#pragma once

#include <string_view>

#include "cli/command_line.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/serve.h"
#include "emulator/server/wire_message.h"

namespace ddblab::cli {

inline constexpr std::string_view kUiRoutePrefix = "/_ddblab/ui";

// Wraps `hooks` so that the route above is added and the startup lines
// name the console's URL (unless config.ui is off).
Status AddUiControl(const ServeConfig& config, server::ServeHooks& hooks);

// The route's answer to `request` (its path under kUiRoutePrefix).
server::WireResponse ServeUiFile(const server::WireRequest& request);

// "text/html; charset=utf-8", "text/javascript; charset=utf-8", ... for a
// file name; "application/octet-stream" for an unknown extension.
std::string_view UiContentType(std::string_view path);

}  // namespace ddblab::cli
