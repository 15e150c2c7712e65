// cli/token_command.cc: `ddblab token` (see token_command.h).
#include "cli/token_command.h"

#include <cstdlib>
#include <optional>
#include <string_view>

#include "common/control_token/control_token.h"

namespace ddblab::cli {

int RunTokenCommand(std::span<const std::string> args, std::ostream& out,
                    std::ostream& err) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << "usage: ddblab token [http://127.0.0.1:PORT | localhost:PORT]\n"
           "prints the control token of the ddblab serve on that port "
           "(default 8000)\n";
    return 0;
  }
  if (args.size() > 1) {
    err << "ddblab token: expected at most one endpoint, got " << args.size()
        << "\n";
    return 2;
  }
  const std::string endpoint = args.empty() ? "127.0.0.1:8000" : args[0];
  std::optional<int> port = control_token::LoopbackPort(endpoint);
  if (!port) {
    err << "ddblab token: '" << endpoint
        << "' is not a loopback endpoint (127.0.0.1:PORT, localhost:PORT or "
           "[::1]:PORT): tokens are kept for servers on this machine only\n";
    return 2;
  }
  std::optional<std::string> token = control_token::FindToken(*port);
  if (!token) {
    std::optional<std::string> path = control_token::DefaultTokenPath(*port);
    err << "ddblab token: no token for port " << *port << " (no file "
        << path.value_or("$HOME/.ddblab/control-PORT.token")
        << "): is ddblab serve running there as this user, with --control "
           "local-token and its default token file?\n";
    return 2;
  }
  out << *token << "\n";
  return 0;
}

}  // namespace ddblab::cli
