// cli/command_line.h: the `ddblab` command line (cli/main.cc dispatches on
// it).
//
//   ddblab serve [--host 127.0.0.1] [--port 8000] [--db PATH|:memory:]
//                [--region us-east-1] [--account-id 000000000000]
//                [--auth accept|verify] [--auth-skew 15m|off]
//                [--access-key-id ID
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
//                [--capacity off|enforce] [--no-ui]
//                [--index-lag SPEC] [--read-lag SPEC] [--schedule FILE]
//                [--namespace shared|access-key|access-key+region]
//   ddblab run ... | bench ... | token ...   (cli/main.cc)
//   ddblab --help | --version
//
// Flags take "--flag value" or "--flag=value"; --no-ui and --allow-functions
// take none. Durations are written as emulator/api/duration.h says, lags
// (SPEC: "0", "2s", "0..2s") as emulator/api/lag.h says. A bad
// command line is an Error whose message is the one line to print on stderr
// (exit status 2).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/namespace_files.h"
#include "emulator/api/options.h"
#include "emulator/api/result.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// `ddblab serve`'s flags: what the server reads (server::ServeOptions) and
// what only the executable's control layers (cli/control_*.h) read.
struct ServeConfig : server::ServeOptions {
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
  // The web console at /_ddblab/ui (cli/control_ui.h); --no-ui: off.
  bool ui = true;
  // --capacity off|enforce: DynamoDB's throughput limits (Options.capacity).
  // Applied by cli/control_capacity.h.
  Capacity capacity = Capacity::kOff;
  // --index-lag / --read-lag: the eventual-consistency model's lags
  // (Options.consistency), parsed here; applied by
  // cli/control_consistency.h.
  ConsistencyOptions consistency;
  // --schedule FILE: a schedule (the POST /_ddblab/schedule body) started
  // at startup, read by cli/control_schedule.h ("": none).
  std::string schedule_file;
  // --namespace shared|access-key|access-key+region: one engine for every
  // caller, or one per access key (and region). Applied by
  // cli/control_namespaces.h.
  NamespaceMode namespaces = NamespaceMode::kShared;
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

}  // namespace ddblab::cli
