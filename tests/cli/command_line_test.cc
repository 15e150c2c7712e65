// tests/cli/command_line_test.cc: `ddblab serve`'s flags and the help
// (cli/command_line.h): defaults, every flag, and each usage error's exact
// message.
#include "cli/command_line.h"

#include <gtest/gtest.h>

namespace ddblab::cli {
namespace {

Result<Command> Parse(std::vector<std::string> args) {
  return ParseCommandLine(args);
}

void ExpectUsageError(std::vector<std::string> args, std::string_view message) {
  auto command = Parse(args);
  ASSERT_FALSE(command.ok());
  EXPECT_EQ(command.error().message,
            std::string(message) + " (run 'ddblab --help' for usage)");
}

TEST(CliTest, ServeDefaults) {
  auto command = Parse({"serve"});
  ASSERT_TRUE(command.ok());
  EXPECT_EQ(command->kind, CommandKind::kServe);
  const ServeConfig& c = command->serve;
  EXPECT_EQ(c.host, "127.0.0.1");
  EXPECT_EQ(c.port, 8000);
  EXPECT_EQ(c.db, ":memory:");
  EXPECT_EQ(c.region, "us-east-1");
  EXPECT_EQ(c.account_id, "000000000000");
  EXPECT_EQ(c.auth, server::AuthMode::kAccept);
  EXPECT_EQ(c.log_level, server::LogLevel::kInfo);
  EXPECT_EQ(c.seed, 0u);
  EXPECT_TRUE(c.ui);
  EXPECT_EQ(c.control, server::ControlMode::kLocalToken);
  EXPECT_EQ(c.control_token_file, "");
  EXPECT_FALSE(c.allow_functions);
}

TEST(CliTest, ControlFlags) {
  for (auto [text, mode] :
       {std::pair{"off", server::ControlMode::kOff},
        std::pair{"local-token", server::ControlMode::kLocalToken},
        std::pair{"open", server::ControlMode::kOpen}}) {
    auto command = Parse({"serve", "--control", text});
    ASSERT_TRUE(command.ok()) << text;
    EXPECT_EQ(command->serve.control, mode);
  }
  auto file =
      Parse({"serve", "--control-token-file=/run/t", "--allow-functions"});
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->serve.control_token_file, "/run/t");
  EXPECT_TRUE(file->serve.allow_functions);
  ExpectUsageError({"serve", "--control", "token"},
                   "invalid value 'token' for --control: expected off, "
                   "local-token or open");
  ExpectUsageError({"serve", "--control", "open", "--control-token-file", "t"},
                   "--control-token-file needs --control local-token");
  ExpectUsageError({"serve", "--allow-functions", "--control", "open"},
                   "--allow-functions needs --control local-token: with "
                   "--control open anyone who reaches the port could run "
                   "commands as this user");
  ExpectUsageError({"serve", "--allow-functions", "--control", "off"},
                   "--allow-functions does nothing with --control off (no "
                   "control endpoint can create a mapping)");
  ExpectUsageError({"serve", "--allow-functions=yes"},
                   "flag --allow-functions takes no value");
}

TEST(CliTest, NoUiTakesNoValue) {
  auto command = Parse({"serve", "--no-ui", "--port", "0"});
  ASSERT_TRUE(command.ok());
  EXPECT_FALSE(command->serve.ui);
  EXPECT_EQ(command->serve.port, 0);
  ExpectUsageError({"serve", "--no-ui=true"}, "flag --no-ui takes no value");
}

TEST(CliTest, EveryFlag) {
  auto command = Parse({"serve",
                        "--host",
                        "0.0.0.0",
                        "--port=0",
                        "--db",
                        "/tmp/x.db",
                        "--region",
                        "eu-west-1",
                        "--account-id",
                        "123456789012",
                        "--auth",
                        "verify",
                        "--access-key-id",
                        "AK",
                        "--secret-access-key=SK",
                        "--credentials-file",
                        "/tmp/creds",
                        "--log-level",
                        "debug",
                        "--seed",
                        "99"});
  ASSERT_TRUE(command.ok()) << command.error().message;
  const ServeConfig& c = command->serve;
  EXPECT_EQ(c.host, "0.0.0.0");
  EXPECT_EQ(c.port, 0);
  EXPECT_EQ(c.db, "/tmp/x.db");
  EXPECT_EQ(c.region, "eu-west-1");
  EXPECT_EQ(c.account_id, "123456789012");
  EXPECT_EQ(c.auth, server::AuthMode::kVerify);
  EXPECT_EQ(c.access_key_id, "AK");
  EXPECT_EQ(c.secret_access_key, "SK");
  EXPECT_EQ(c.credentials_file, "/tmp/creds");
  EXPECT_EQ(c.log_level, server::LogLevel::kDebug);
  EXPECT_EQ(c.seed, 99u);
}

TEST(CliTest, StreamFlags) {
  auto defaults = Parse({"serve"});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->serve.stream_shards, 1);
  EXPECT_EQ(defaults->serve.shard_rollover, "4h");
  auto command =
      Parse({"serve", "--stream-shards", "4", "--shard-rollover=off"});
  ASSERT_TRUE(command.ok()) << command.error().message;
  EXPECT_EQ(command->serve.stream_shards, 4);
  EXPECT_EQ(command->serve.shard_rollover, "off");
  for (const char* bad : {"0", "1025", "two", "-1"}) {
    ExpectUsageError({"serve", "--stream-shards", bad},
                     std::string("invalid value '") + bad +
                         "' for --stream-shards: expected a number of shards "
                         "from 1 to 1024");
  }
  ExpectUsageError({"serve", "--shard-rollover="},
                   "invalid value '' for --shard-rollover: expected a "
                   "duration (4h, 90m) or off");
  EXPECT_NE(HelpText().find("--stream-shards N"), std::string::npos);
  EXPECT_NE(HelpText().find("--shard-rollover D|off"), std::string::npos);
}

TEST(CliTest, CapacityFlag) {
  auto defaults = Parse({"serve"});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->serve.capacity, Capacity::kOff);
  auto command = Parse({"serve", "--capacity", "enforce"});
  ASSERT_TRUE(command.ok()) << command.error().message;
  EXPECT_EQ(command->serve.capacity, Capacity::kEnforce);
  command = Parse({"serve", "--capacity=off"});
  ASSERT_TRUE(command.ok()) << command.error().message;
  EXPECT_EQ(command->serve.capacity, Capacity::kOff);
  ExpectUsageError({"serve", "--capacity", "on"},
                   "invalid value 'on' for --capacity: expected off or "
                   "enforce");
  EXPECT_NE(HelpText().find("--capacity off|enforce"), std::string::npos);
}

TEST(CliTest, NamespaceFlag) {
  auto defaults = Parse({"serve"});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->serve.namespaces, NamespaceMode::kShared);
  EXPECT_EQ(defaults->serve.startup_detail, "");
  auto command = Parse({"serve", "--namespace", "access-key"});
  ASSERT_TRUE(command.ok());
  EXPECT_EQ(command->serve.namespaces, NamespaceMode::kAccessKey);
  // The startup line names the mode when it is not the default.
  EXPECT_EQ(command->serve.startup_detail, ", namespace access-key");
  command = Parse({"serve", "--namespace=access-key+region"});
  ASSERT_TRUE(command.ok());
  EXPECT_EQ(command->serve.namespaces, NamespaceMode::kAccessKeyRegion);
  EXPECT_EQ(command->serve.startup_detail, ", namespace access-key+region");
  command = Parse({"serve", "--namespace", "shared"});
  ASSERT_TRUE(command.ok());
  EXPECT_EQ(command->serve.startup_detail, "");
  ExpectUsageError({"serve", "--namespace", "bogus"},
                   "invalid value 'bogus' for --namespace: expected shared, "
                   "access-key or access-key+region");
  EXPECT_NE(HelpText().find("--namespace shared|access-key|access-key+region"),
            std::string::npos);
}

// Lags of the consistency model (emulator/api/lag.h): off by default; a
// bad SPEC is a usage error with ParseLagRange's message after the flag.
TEST(CliTest, LagFlags) {
  auto defaults = Parse({"serve"});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->serve.consistency, ConsistencyOptions{});
  auto command = Parse({"serve", "--index-lag", "0..2s", "--read-lag=1s"});
  ASSERT_TRUE(command.ok()) << command.error().message;
  EXPECT_EQ(command->serve.consistency.index_lag,
            (LagRange{Duration::zero(), std::chrono::seconds(2)}));
  EXPECT_EQ(command->serve.consistency.read_lag,
            (LagRange{std::chrono::seconds(1), std::chrono::seconds(1)}));
  ExpectUsageError({"serve", "--read-lag", "2s..1s"},
                   "--read-lag: invalid lag '2s..1s': the lower end is above "
                   "the upper end");
  ExpectUsageError({"serve", "--index-lag=soon"},
                   "--index-lag: invalid lag 'soon': invalid duration 'soon': "
                   "no number (expected a number with an optional unit us, "
                   "ms, s, m, h or d, e.g. 90s, 1.5m, 250ms)");
  ExpectUsageError({"serve", "--index-lag"}, "flag --index-lag needs a value");
  EXPECT_NE(HelpText().find("--index-lag SPEC"), std::string::npos);
  EXPECT_NE(HelpText().find("--read-lag SPEC"), std::string::npos);
}

// --auth verify's date window around the emulator's clock: 15 minutes by
// default, any positive duration, or off (no time check).
TEST(CliTest, AuthSkewFlag) {
  const std::vector<std::string> verify = {"serve",  "--auth",
                                           "verify", "--access-key-id",
                                           "AK",     "--secret-access-key",
                                           "SK"};
  auto with = [&verify](std::vector<std::string> more) {
    std::vector<std::string> args = verify;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  auto defaults = Parse(verify);
  ASSERT_TRUE(defaults.ok()) << defaults.error().message;
  EXPECT_EQ(defaults->serve.auth_max_skew,
            std::optional<Duration>(std::chrono::minutes(15)));
  auto days = Parse(with({"--auth-skew", "2d"}));
  ASSERT_TRUE(days.ok()) << days.error().message;
  EXPECT_EQ(days->serve.auth_max_skew,
            std::optional<Duration>(std::chrono::hours(48)));
  auto seconds = Parse(with({"--auth-skew=90"}));
  ASSERT_TRUE(seconds.ok()) << seconds.error().message;
  EXPECT_EQ(seconds->serve.auth_max_skew,
            std::optional<Duration>(std::chrono::seconds(90)));
  auto off = Parse(with({"--auth-skew", "off"}));
  ASSERT_TRUE(off.ok()) << off.error().message;
  EXPECT_EQ(off->serve.auth_max_skew, std::nullopt);

  ExpectUsageError(with({"--auth-skew", "soon"}),
                   "--auth-skew: invalid duration 'soon': no number (expected "
                   "a number with an optional unit us, ms, s, m, h or d, e.g. "
                   "90s, 1.5m, 250ms)");
  ExpectUsageError(with({"--auth-skew", "0"}),
                   "--auth-skew: must be more than 0 (or off)");
  ExpectUsageError(with({"--auth-skew"}), "flag --auth-skew needs a value");
  // --auth accept checks no date: the flag would do nothing.
  ExpectUsageError({"serve", "--auth-skew", "1h"},
                   "--auth-skew needs --auth verify (--auth accept checks no "
                   "signature dates)");
  EXPECT_NE(HelpText().find("--auth-skew D|off"), std::string::npos);
}

// A duration (emulator/api/duration.h) of whole seconds, 1s to 1 day.
TEST(CliTest, IdleTimeoutTakesWholeSeconds) {
  EXPECT_EQ(Parse({"serve"})->serve.idle_timeout_seconds, 60);
  EXPECT_EQ(
      Parse({"serve", "--idle-timeout", "90"})->serve.idle_timeout_seconds, 90);
  EXPECT_EQ(Parse({"serve", "--idle-timeout=2m"})->serve.idle_timeout_seconds,
            120);
  for (const char* bad : {"1.5s", "0", "86401s", "soon", "500ms"}) {
    ExpectUsageError({"serve", "--idle-timeout", bad},
                     std::string("invalid value '") + bad +
                         "' for --idle-timeout: expected seconds from 1s to "
                         "86400s");
  }
}

TEST(CliTest, HelpAndVersion) {
  EXPECT_EQ(Parse({"--help"})->kind, CommandKind::kHelp);
  EXPECT_EQ(Parse({"-h"})->kind, CommandKind::kHelp);
  EXPECT_EQ(Parse({"serve", "--port", "1", "--help"})->kind,
            CommandKind::kHelp);
  EXPECT_EQ(Parse({"--version"})->kind, CommandKind::kVersion);
  EXPECT_TRUE(VersionText().starts_with("ddblab "));
  EXPECT_NE(HelpText().find("--auth accept|verify"), std::string::npos);
}

TEST(CliTest, Errors) {
  ExpectUsageError({}, "missing command");
  ExpectUsageError({"run"}, "unknown command 'run'");
  ExpectUsageError({"serve", "--bogus", "1"},
                   "unknown flag '--bogus' for ddblab serve");
  ExpectUsageError({"serve", "--bogus"},
                   "unknown flag '--bogus' for ddblab serve");
  ExpectUsageError({"serve", "--bogus=1"},
                   "unknown flag '--bogus' for ddblab serve");
  ExpectUsageError({"serve", "extra"},
                   "unexpected argument 'extra' for ddblab serve");
  ExpectUsageError({"serve", "--port"}, "flag --port needs a value");
  ExpectUsageError({"serve", "--port", "http"},
                   "invalid value 'http' for --port: expected a port 0..65535");
  ExpectUsageError({"serve", "--port", "65536"},
                   "invalid value '65536' for --port: expected a port "
                   "0..65535");
  ExpectUsageError({"serve", "--port", "-1"},
                   "invalid value '-1' for --port: expected a port 0..65535");
  ExpectUsageError(
      {"serve", "--auth", "none"},
      "invalid value 'none' for --auth: expected accept or verify");
  ExpectUsageError({"serve", "--log-level", "trace"},
                   "invalid value 'trace' for --log-level: expected error, "
                   "warn, info or debug");
  ExpectUsageError({"serve", "--account-id", "12345"},
                   "invalid value '12345' for --account-id: expected 12 "
                   "digits");
  ExpectUsageError({"serve", "--region", "US East"},
                   "invalid value 'US East' for --region: expected a region "
                   "name like us-east-1");
  ExpectUsageError({"serve", "--db="},
                   "invalid value '' for --db: expected a file path or "
                   ":memory:");
  ExpectUsageError(
      {"serve", "--seed", "x"},
      "invalid value 'x' for --seed: expected an unsigned integer");
  ExpectUsageError({"serve", "--auth", "verify"},
                   "--auth verify needs --access-key-id/--secret-access-key "
                   "or --credentials-file");
  ExpectUsageError({"serve", "--access-key-id", "AK"},
                   "--access-key-id and --secret-access-key must be given "
                   "together");
}

TEST(CliTest, EventSourceMappingsFile) {
  auto defaults = Parse({"serve"});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->serve.event_source_mappings_file, "");
  auto given = Parse({"serve", "--event-source-mappings", "esm.json"});
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(given->serve.event_source_mappings_file, "esm.json");
  auto joined = Parse({"serve", "--event-source-mappings=a/b.json"});
  ASSERT_TRUE(joined.ok());
  EXPECT_EQ(joined->serve.event_source_mappings_file, "a/b.json");
  ExpectUsageError({"serve", "--event-source-mappings="},
                   "invalid value '' for --event-source-mappings: expected a "
                   "file of event source mappings (JSON)");
  ExpectUsageError({"serve", "--event-source-mappings"},
                   "flag --event-source-mappings needs a value");
  EXPECT_NE(HelpText().find("--event-source-mappings FILE"), std::string::npos);
}

}  // namespace
}  // namespace ddblab::cli
