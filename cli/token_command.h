// cli/token_command.h: `ddblab token [ENDPOINT]`, the control token of a
// `ddblab serve` on this machine, for scripts:
//
//   curl -H "X-Ddblab-Token: $(ddblab token localhost:8000)" ...
//
// ENDPOINT is http[s]://HOST:PORT or HOST:PORT (default 127.0.0.1:8000) and
// must be a loopback address. Prints $DDBLAB_CONTROL_TOKEN if set, else the
// token in the file that `ddblab serve --port PORT` wrote
// (common/control_token). Exit status 0, or 2 with a message on stderr (bad
// endpoint, no token file: the server is not running, runs as another user,
// was given --control-token-file, or has --control open|off).
//
// Thread-safety: call from one thread.
#pragma once

#include <ostream>
#include <span>
#include <string>

namespace ddblab::cli {

// `args` excludes "token".
int RunTokenCommand(std::span<const std::string> args, std::ostream& out,
                    std::ostream& err);

}  // namespace ddblab::cli
