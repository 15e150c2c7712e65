// cli/command_line.cc: parsing `ddblab serve`'s flags, and the help text
// (command_line.h).
#include "cli/command_line.h"

#include <charconv>
#include <chrono>
#include <optional>
#include <string_view>

#include "emulator/api/duration.h"
#include "emulator/api/lag.h"

#ifndef DDBLAB_VERSION
#define DDBLAB_VERSION "0.0.0"
#endif

namespace ddblab::cli {
namespace {

using server::AuthMode;
using server::ControlMode;

Error Usage(std::string message) {
  return Error::Validation(std::move(message) +
                           " (run 'ddblab --help' for usage)");
}

template <class T>
std::optional<T> ParseNumber(std::string_view text) {
  T value{};
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

bool IsRegionName(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
      return false;
    }
  }
  return true;
}

// Open shards per stream: enough to exercise any fan-out, small enough that
// a table's shards stay readable.
constexpr int kMaxStreamShards = 1024;
// Open connections: far beyond any test suite, below any descriptor limit
// a user could raise.
constexpr size_t kMaxConnections = 1000000;

bool IsKnownFlag(std::string_view flag) {
  for (std::string_view known : {"--host",
                                 "--port",
                                 "--db",
                                 "--region",
                                 "--account-id",
                                 "--auth",
                                 "--auth-skew",
                                 "--access-key-id",
                                 "--secret-access-key",
                                 "--credentials-file",
                                 "--log-level",
                                 "--seed",
                                 "--clock",
                                 "--ttl-delay",
                                 "--ttl-sweep-interval",
                                 "--ttl-change-cooldown",
                                 "--stream-shards",
                                 "--shard-rollover",
                                 "--max-connections",
                                 "--idle-timeout",
                                 "--https-cert",
                                 "--https-key",
                                 "--faults",
                                 "--event-source-mappings",
                                 "--control",
                                 "--control-token-file",
                                 "--capacity",
                                 "--index-lag",
                                 "--read-lag",
                                 "--schedule",
                                 "--namespace"}) {
    if (flag == known) return true;
  }
  return false;
}

Status SetFlag(ServeConfig& config, std::string_view flag,
               const std::string& value) {
  auto bad = [&](std::string_view expected) {
    return Usage("invalid value '" + value + "' for " + std::string(flag) +
                 ": expected " + std::string(expected));
  };
  if (flag == "--host") {
    if (value.empty()) return bad("a host name or address");
    config.host = value;
  } else if (flag == "--port") {
    auto port = ParseNumber<int>(value);
    if (!port || *port < 0 || *port > 65535) return bad("a port 0..65535");
    config.port = *port;
  } else if (flag == "--db") {
    if (value.empty()) return bad("a file path or :memory:");
    config.db = value;
  } else if (flag == "--region") {
    if (!IsRegionName(value)) return bad("a region name like us-east-1");
    config.region = value;
  } else if (flag == "--account-id") {
    if (value.size() != 12 || !ParseNumber<uint64_t>(value)) {
      return bad("12 digits");
    }
    config.account_id = value;
  } else if (flag == "--auth") {
    if (value == "accept") {
      config.auth = AuthMode::kAccept;
    } else if (value == "verify") {
      config.auth = AuthMode::kVerify;
    } else {
      return bad("accept or verify");
    }
  } else if (flag == "--auth-skew") {
    if (value == "off") {
      config.auth_max_skew = std::nullopt;
    } else {
      Result<Duration> skew = ParseDuration(value);
      if (!skew.ok()) {
        return Usage("--auth-skew: " + skew.error().message);
      }
      if (*skew <= Duration::zero()) {
        return Usage("--auth-skew: must be more than 0 (or off)");
      }
      config.auth_max_skew = *skew;
    }
  } else if (flag == "--access-key-id") {
    if (value.empty()) return bad("an access key id");
    config.access_key_id = value;
  } else if (flag == "--secret-access-key") {
    if (value.empty()) return bad("a secret access key");
    config.secret_access_key = value;
  } else if (flag == "--credentials-file") {
    if (value.empty()) return bad("a file path");
    config.credentials_file = value;
  } else if (flag == "--log-level") {
    auto level = server::ParseLogLevel(value);
    if (!level) return bad("error, warn, info or debug");
    config.log_level = *level;
  } else if (flag == "--seed") {
    auto seed = ParseNumber<uint64_t>(value);
    if (!seed) return bad("an unsigned integer");
    config.seed = *seed;
  } else if (flag == "--clock") {  // checked by cli/control_ttl.cc
    if (value.empty()) return bad("system, manual or manual=EPOCH_SECONDS");
    config.clock = value;
  } else if (flag == "--ttl-delay") {
    if (value.empty()) return bad("0, a duration, a range or aws");
    config.ttl_delay = value;
  } else if (flag == "--ttl-sweep-interval") {
    if (value.empty()) return bad("a duration like 1s or 500ms");
    config.ttl_sweep_interval = value;
  } else if (flag == "--ttl-change-cooldown") {
    if (value.empty()) return bad("a duration like 1h, or aws");
    config.ttl_change_cooldown = value;
  } else if (flag == "--stream-shards") {
    auto n = ParseNumber<int>(value);
    if (!n || *n < 1 || *n > kMaxStreamShards) {
      return bad("a number of shards from 1 to " +
                 std::to_string(kMaxStreamShards));
    }
    config.stream_shards = *n;
  } else if (flag == "--capacity") {
    if (value != "off" && value != "enforce") return bad("off or enforce");
    config.capacity = value == "enforce" ? Capacity::kEnforce : Capacity::kOff;
  } else if (flag == "--index-lag" || flag == "--read-lag") {
    Result<LagRange> lag = ParseLagRange(value);
    if (!lag.ok()) return Usage(std::string(flag) + ": " + lag.error().message);
    (flag == "--index-lag" ? config.consistency.index_lag
                           : config.consistency.read_lag) = *lag;
  } else if (flag == "--namespace") {  // applied by control_namespaces.cc
    auto mode = ParseNamespaceMode(value);
    if (!mode) return bad("shared, access-key or access-key+region");
    config.namespaces = *mode;
    // The startup line names a mode other than the default.
    config.startup_detail =
        *mode == NamespaceMode::kShared
            ? ""
            : ", namespace " + std::string(NamespaceModeName(*mode));
  } else if (flag == "--faults") {  // read by cli/control_faults.cc
    if (value.empty()) return bad("a fault plan file (JSON)");
    config.faults_file = value;
  } else if (flag == "--schedule") {  // read by cli/control_schedule.cc
    if (value.empty()) return bad("a schedule file (JSON)");
    config.schedule_file = value;
  } else if (flag == "--event-source-mappings") {  // read by cli/control_esm.cc
    if (value.empty()) return bad("a file of event source mappings (JSON)");
    config.event_source_mappings_file = value;
  } else if (flag == "--control") {
    auto mode = server::ParseControlMode(value);
    if (!mode) return bad("off, local-token or open");
    config.control = *mode;
  } else if (flag == "--control-token-file") {
    if (value.empty()) return bad("a file path");
    config.control_token_file = value;
  } else if (flag == "--shard-rollover") {  // checked by cli/control_streams.cc
    if (value.empty()) return bad("a duration (4h, 90m) or off");
    config.shard_rollover = value;
  } else if (flag == "--max-connections") {
    auto n = ParseNumber<size_t>(value);
    if (!n || *n < 1 || *n > kMaxConnections) {
      return bad("a number of connections from 1 to " +
                 std::to_string(kMaxConnections));
    }
    config.max_connections = *n;
  } else if (flag == "--idle-timeout") {  // whole seconds
    Result<Duration> d = ParseDuration(value);
    if (!d.ok() || *d < std::chrono::seconds(1) ||
        *d > std::chrono::seconds(86400) ||
        *d % std::chrono::seconds(1) != Duration::zero()) {
      return bad("seconds from 1s to 86400s");
    }
    config.idle_timeout_seconds = static_cast<int>(
        std::chrono::duration_cast<std::chrono::seconds>(*d).count());
  } else if (flag == "--https-cert") {
    if (value.empty()) return bad("a PEM certificate file");
    config.https_cert = value;
  } else if (flag == "--https-key") {
    if (value.empty()) return bad("a PEM private key file");
    config.https_key = value;
  } else {
    return Usage("unknown flag '" + std::string(flag) + "' for ddblab serve");
  }
  return OkStatus();
}

Result<Command> ParseServe(const std::vector<std::string>& args) {
  Command command;
  command.kind = CommandKind::kServe;
  ServeConfig& config = command.serve;
  config.name = VersionText();
  bool auth_skew_given = false;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      command.kind = CommandKind::kHelp;
      return command;
    }
    if (!arg.starts_with("--")) {
      return Usage("unexpected argument '" + args[i] + "' for ddblab serve");
    }
    if (arg == "--no-ui") {  // the flags without a value
      config.ui = false;
      continue;
    }
    if (arg == "--allow-functions") {
      config.allow_functions = true;
      continue;
    }
    for (std::string_view bare : {"--no-ui=", "--allow-functions="}) {
      if (arg.starts_with(bare)) {
        return Usage("flag " + std::string(bare.substr(0, bare.size() - 1)) +
                     " takes no value");
      }
    }
    size_t eq = arg.find('=');
    std::string flag(arg.substr(0, eq));
    std::string value;
    if (!IsKnownFlag(flag)) {
      return Usage("unknown flag '" + flag + "' for ddblab serve");
    }
    if (eq != std::string_view::npos) {
      value = std::string(arg.substr(eq + 1));
    } else {
      if (i + 1 >= args.size()) return Usage("flag " + flag + " needs a value");
      value = args[++i];
    }
    DDBLAB_RETURN_IF_ERROR(SetFlag(config, flag, value));
    auth_skew_given = auth_skew_given || flag == "--auth-skew";
  }
  if (config.access_key_id.empty() != config.secret_access_key.empty()) {
    return Usage(
        "--access-key-id and --secret-access-key must be given together");
  }
  if (config.auth == AuthMode::kVerify && config.access_key_id.empty() &&
      config.credentials_file.empty()) {
    return Usage(
        "--auth verify needs --access-key-id/--secret-access-key or "
        "--credentials-file");
  }
  if (auth_skew_given && config.auth != AuthMode::kVerify) {
    return Usage(
        "--auth-skew needs --auth verify (--auth accept checks no signature "
        "dates)");
  }
  if (config.allow_functions && config.control == ControlMode::kOpen) {
    return Usage(
        "--allow-functions needs --control local-token: with --control open "
        "anyone who reaches the port could run commands as this user");
  }
  if (config.allow_functions && config.control == ControlMode::kOff) {
    return Usage(
        "--allow-functions does nothing with --control off (no control "
        "endpoint can create a mapping)");
  }
  if (!config.control_token_file.empty() &&
      config.control != ControlMode::kLocalToken) {
    return Usage("--control-token-file needs --control local-token");
  }
  if (config.https_cert.empty() != config.https_key.empty()) {
    return Usage("--https-cert and --https-key must be given together");
  }
  return command;
}

}  // namespace

Result<Command> ParseCommandLine(const std::vector<std::string>& args) {
  if (args.empty()) return Usage("missing command");
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    return Command{CommandKind::kHelp, {}};
  }
  if (first == "--version" || first == "version") {
    return Command{CommandKind::kVersion, {}};
  }
  if (first == "serve") return ParseServe(args);
  return Usage("unknown command '" + first + "'");
}

std::string VersionText() { return std::string("ddblab ") + DDBLAB_VERSION; }

std::string HelpText() {
  return VersionText() + R"( - a DynamoDB emulator

Usage:
  ddblab serve [flags]   serve DynamoDB and DynamoDB Streams over HTTP
  ddblab run FILE... [flags]
                         run scenario files (flags: ddblab run --help)
  ddblab bench sweeper|aggregator [flags]
                         benchmark a pattern on a backend (flags: ddblab
                         bench --help)
  ddblab token [ENDPOINT] the control token of a ddblab serve on this
                         machine (default 127.0.0.1:8000)
  ddblab --help          this text
  ddblab --version       the version

Flags of ddblab serve:
  --host HOST              address to listen on (default 127.0.0.1)
  --port N                 port (default 8000; 0 picks a free one)
  --db PATH|:memory:       database file, or :memory: (default); one server
                           per file: a file in use by another ddblab process
                           exits with status 3
  --region REGION          region in ARNs and the health check (default us-east-1)
  --account-id ID          12-digit account id in ARNs (default 000000000000)
  --auth accept|verify     accept: any well-formed SigV4 signature, whatever
                           its date (default); verify: check signatures
                           against the credentials
  --auth-skew D|off        --auth verify only: how far X-Amz-Date may be from
                           the emulator's clock (default 15m, as DynamoDB);
                           off: no date check (nor a presigned URL's
                           X-Amz-Expires). With --clock manual the window is
                           around the manual time: clients signing with the
                           real time need off
  --access-key-id ID       credentials for --auth verify (with
  --secret-access-key KEY  --secret-access-key), or
  --credentials-file PATH  an AWS credentials file (every profile)
  --log-level LEVEL        error, warn, info (default) or debug
  --seed N                 seed of the emulator's random choices (default 0)
  --clock system|manual[=EPOCH_SECONDS]
                           manual: time moves only through POST /_ddblab/clock
                           (starts at EPOCH_SECONDS, default the real time)
  --ttl-delay SPEC         TTL deletion delay after expiry: 0 (default), a
                           duration (90s, 15m), a range (1m..48h) or aws
  --ttl-sweep-interval D   how often TTL sweeps on the system clock (default 1s)
  --ttl-change-cooldown D  minimum time between two UpdateTimeToLive changes
                           of a table: 0 (default), a duration, or aws (1h)
  --stream-shards N        open shards of each new stream, items spread by
                           partition-key hash (default 1)
  --shard-rollover D|off   how long a stream shard stays open before a child
                           replaces it (default 4h); split on demand with
                           POST /_ddblab/streams/split {"TableName": "..."}
  --max-connections N      open connections served at once; more are
                           answered 503 and closed (default 10000)
  --idle-timeout Ns        close keep-alive connections idle this long
                           (default 60s)
  --https-cert FILE        serve HTTPS (instead of HTTP) with this PEM
  --https-key FILE         certificate (chain) and private key
  --faults FILE            fault plan (JSON) in force from the start; replace
                           it with POST /_ddblab/faults, read it with GET
  --capacity off|enforce   enforce provisioned / on-demand throughput, burst
                           and per-partition limits (default off); usage and
                           throttles at GET /_ddblab/capacity
  --index-lag SPEC         how long after a write each global secondary index
                           shows it: 0 (default: at once), a duration (2s) or
                           a range (0..2s, drawn per write and index)
  --read-lag SPEC          how old the state an eventually consistent read
                           (no ConsistentRead) sees may be: 0 (default), a
                           duration or a range (drawn per read); change both
                           at POST /_ddblab/consistency
  --schedule FILE          start controlled scheduling at startup: FILE is
                           the body of POST /_ddblab/schedule, e.g.
                           {"actors": ["a", "b"], "seed": 7, "tick": "1s"}:
                           requests signed with access key a or b are held
                           and let through one at a time in an order the
                           seed picks (tick needs --clock manual)
  --event-source-mappings FILE
                           host these event source mappings (a JSON list of
                           CreateEventSourceMapping bodies, each with
                           "Function": {"Command": [...]} or {"Url": "..."})
                           from the start; manage them at
                           /_ddblab/event-source-mappings. Delivery runs on
                           the server's clock: with --clock manual, each
                           POST /_ddblab/clock delivers what is due before
                           it answers
  --allow-functions        let mappings created through the control API run
                           commands and call URLs (without it only those of
                           --event-source-mappings FILE may)
  --control off|local-token|open
                           who may call the /_ddblab/ control endpoints:
                           local-token (default): requests carry the token
                           printed at start in the X-Ddblab-Token header;
                           open: anyone who reaches the port (a warning is
                           printed); off: none but /_ddblab/health
  --control-token-file PATH
                           where local-token writes the token, readable only
                           by this user (default
                           $XDG_RUNTIME_DIR/ddblab/control-PORT.token, else
                           ~/.ddblab/control-PORT.token)
  --namespace shared|access-key|access-key+region
                           shared (default): one database for every caller;
                           access-key: a database per access key of the
                           SigV4 signature (access-key+region: per key and
                           region), as DynamoDB Local without -sharedDb, all
                           on one clock; with --db FILE each lies next to it
                           as STEM.KEY.EXT (STEM.KEY_REGION.EXT) and is
                           reopened on restart. Control endpoints then take
                           ?namespace=KEY (KEY:REGION); GET
                           /_ddblab/namespaces lists them
  --no-ui                  do not serve the web console (by default at
                           http://HOST:PORT/_ddblab/ui)

Exit status of ddblab serve: 0 after SIGINT or SIGTERM, 1 when the port
cannot be bound or the database cannot be opened, 2 for bad flags, 3 when
the --db file is in use by another ddblab process.

Once started, point any AWS SDK or the AWS CLI at the printed endpoint, e.g.
  aws dynamodb list-tables --endpoint-url http://127.0.0.1:8000
)";
}

}  // namespace ddblab::cli
