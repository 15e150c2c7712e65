// emulator/server/cli.h: the `ddblab` command line.
//
//   ddblab serve [--host 127.0.0.1] [--port 8000] [--db PATH|:memory:]
//                [--region us-east-1] [--account-id 000000000000]
//                [--auth accept|verify] [--access-key-id ID
//                --secret-access-key SECRET | --credentials-file PATH]
//                [--log-level error|warn|info|debug] [--seed N]
//                [--clock system|manual[=EPOCH_SECONDS]]
//                [--ttl-delay 0|90s|1m..48h|aws] [--ttl-sweep-interval 1s]
//                [--ttl-change-cooldown 0|1h|aws]
//                [--stream-shards 1] [--shard-rollover 4h|off]
//                [--max-connections 10000] [--idle-timeout 60s]
//                [--https-cert FILE --https-key FILE] [--faults FILE]
//                [--event-source-mappings FILE] [--allow-functions]
//                [--control off|local-token|open] [--control-token-file PATH]
//                [--no-ui]
//   ddblab --help | --version
//
// Flags take "--flag value" or "--flag=value"; --no-ui and --allow-functions
// take none. A bad
// command line is an Error whose message is the one line to print on stderr
// (exit status 2).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emulator/api/options.h"
#include "emulator/api/result.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/control_access.h"
#include "emulator/server/logger.h"

namespace ddblab::server {

struct ServeConfig {
  std::string host = "127.0.0.1";
  int port = 8000;  // 0: any free port (printed at startup)
  std::string db = ":memory:";
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
  AuthMode auth = AuthMode::kAccept;
  std::string access_key_id;
  std::string secret_access_key;
  std::string credentials_file;
  LogLevel log_level = LogLevel::kInfo;
  uint64_t seed = 0;  // the emulator's and the request ids' seed
  // Clock and TTL, as given; checked and applied by cli/control_ttl.h.
  std::string clock = "system";  // system | manual | manual=EPOCH_SECONDS
  std::string ttl_delay = "0";
  std::string ttl_sweep_interval = "1s";
  std::string ttl_change_cooldown = "0";  // a duration, or aws (1 h)
  // Streams, as given; checked and applied by cli/control_streams.h.
  int stream_shards = 1;              // open shards of each new stream
  std::string shard_rollover = "4h";  // a duration, or off (also 0)
  // A fault plan file, read by cli/control_faults.h ("" : none).
  std::string faults_file;
  // Event source mappings to host from the start, read by cli/control_esm.h
  // ("" : none).
  std::string event_source_mappings_file;
  // --allow-functions: mappings created through the control API may run
  // commands and call URLs (those of the file above always may).
  bool allow_functions = false;
  // Who may call the /_ddblab/ control endpoints (control_access.h), and
  // where the local-token mode writes its token ("": the default path,
  // common/control_token).
  ControlMode control = ControlMode::kLocalToken;
  std::string control_token_file;
  // The web console at /_ddblab/ui (cli/control_ui.h); --no-ui: off.
  bool ui = true;
  // --capacity off|enforce: DynamoDB's throughput limits (Options.capacity).
  Capacity capacity = Capacity::kOff;
  // HTTP front end.
  size_t max_connections = 10000;  // open connections; more get a 503
  int idle_timeout_seconds = 60;   // idle keep-alive connections closed
  std::string https_cert;          // both set: serve HTTPS
  std::string https_key;
};

enum class CommandKind { kServe, kHelp, kVersion };

struct Command {
  CommandKind kind = CommandKind::kHelp;
  ServeConfig serve;
};

// `args` excludes the program name.
Result<Command> ParseCommandLine(const std::vector<std::string>& args);

std::string HelpText();
// "ddblab <version>".
std::string VersionText();

}  // namespace ddblab::server
