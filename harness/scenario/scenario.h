// harness/scenario/scenario.h: a scenario file, parsed and checked.
//
// A scenario (scenarios/*.json, JSON with // and /* */ comments) names
// actors that drive DynamoDB patterns or raw calls, a fault plan, a timeline
// of clock steps and events, the invariants to check and what to expect of
// them. ParseScenario checks the whole file and fails with a
// ValidationException "<path>: <what>" naming the first bad value
// (`actors[2].params.window: invalid duration '5 min': unknown unit ' min'
// (expected ...)`).
// The format is documented in docs/scenarios.md and, for editors, in
// scenarios/scenario.schema.json.
//
// Parsing expands `count` (copies of an actor, named "<name>#<n>") and
// `repeat` (the ops list repeated, "{i}" replaced by 1, 2, ... and "{n}" by
// the copy number), so an ActorSpec holds exactly the ops it will run.
// ScenarioToJson writes that expanded form back (what --shrink writes).
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"

namespace ddblab::harness::scenario {

using json = nlohmann::json;

// The patterns an actor may drive.
inline constexpr const char* kOrderedWrites = "ordered_writes";
inline constexpr const char* kIdempotentCounter = "idempotent_counter";
inline constexpr const char* kTtlWindowSweeper = "ttl_window_sweeper";
inline constexpr const char* kUniqueClaims = "unique_claims";
inline constexpr const char* kScript = "script";
// Stream consumers with their writers (harness/scenario/consumer_actors.h).
inline constexpr const char* kRollupAggregator = "rollup_aggregator";
inline constexpr const char* kTtlExpiryListener = "ttl_expiry_listener";
// A user's program (harness/scenario/command_actors.h): "command" in the
// file, in place of "pattern".
inline constexpr const char* kCommand = "command";
// A stream consumer running the user's function, in a file of command
// actors (command_actors.h): "consumer" in the file.
inline constexpr const char* kConsumer = "consumer";

struct ActorSpec {
  std::string name;     // unique; "<name>#<n>" for copies
  std::string pattern;  // one of the above
  std::string variant;  // the pattern's variant ("" for a script)
  json params = json::object();
  std::vector<json> ops;  // expanded: one entry per logical operation
  Duration start{};       // first op not before start (from the run's start)
  Duration every{};       // op k not before start + k * every (0: at once)
  std::string path;       // "actors[2]" (copies share their entry's path)
  // kCommand: the program and its arguments ("{n}" replaced), extra
  // environment, and whether any exit code is fine ("exit": "any").
  std::vector<std::string> command;
  std::map<std::string, std::string> env;
  bool exit_any = false;
  // kConsumer: the mapping (a hosted mapping's create body with its
  // "Function", as written) is in `params`; `command` is its Function's
  // Command (empty for a Url); `env` as for kCommand.
};

struct TimelineEvent {
  Duration at{};     // from the run's start
  std::string kind;  // "advance", "faults", "split_shards", "sweep_ttl"
  Duration by{};     // advance
  json value;        // faults: the plan (null clears); split_shards: table
  std::string path;  // "timeline[0]"
};

struct InvariantSpec {
  std::string id;         // "invariants[0]"
  std::string check;      // ordered_writes, idempotent_counter,
                          // ttl_window_sweeper, unique_claims, item_equals,
                          // count, sum
  std::string table;      // "" for a pattern check over all its tables
  json key;               // item_equals
  json item;              // item_equals: the item, or null for "absent"
  std::string attribute;  // sum
  int64_t equals = 0;     // count, sum
  // sum: compare with the sum of `writes_attribute` over the items the
  // actors wrote to `writes_table` ("" attribute: each item counts 1)
  // instead of `equals`.
  bool over_writes = false;
  std::string writes_table;
  std::string writes_attribute;
  bool every_step = false;
  // command: the program and its arguments; exit 0 holds.
  std::vector<std::string> run;
};

// A fault of a consumer actor's function (faults.consumer[i]); see
// consumer_faults.h for what each effect does and how records are chosen.
struct ConsumerFault {
  std::string id;      // its "id", else "consumer[<i>]"
  std::string actor;   // the consumer it applies to ("" every consumer)
  std::string effect;  // "error", "batch_item_failure", "timeout"
  std::vector<int64_t> records;   // 1-based positions among the records
                                  // the function received (empty: any)
  std::vector<std::string> keys;  // a key attribute's value (empty: any)
  std::string event_name;         // INSERT, MODIFY, REMOVE ("" any)
  double probability = 1.0;       // drawn from the seed per chosen record
  int64_t times = 0;              // fires at most this often (0: no limit)
  std::string path;               // "faults.consumer[0]"
};

// One firing of a consumer fault in a run (for --shrink).
struct ConsumerFiring {
  std::string fault;  // ConsumerFault::id
  std::string actor;
  std::string key;  // the chosen record's key (RecordKey)
};

struct Scenario {
  std::string file;  // as given on the command line (for messages)
  // The file's folder ("." for a bare name): command actors and checks run
  // there.
  std::string folder = ".";
  std::string name;
  std::string description;
  // backend defaults
  int64_t clock_start = 1704067200;  // epoch seconds (2024-01-01T00:00:00Z)
  std::string ttl_delay;             // the emulator's TTL delay model, or ""
  int stream_shards = 0;             // 0: the emulator's default
  uint64_t seed = 1;                 // the seed when --seed is not given
  Duration tick{};                   // the clock moves this much per step
  // Command actors: how long (real time) the server's schedule waits for an
  // actor that neither sends a request nor ends before it stops the run.
  Duration idle = std::chrono::seconds(10);
  int max_steps = 10000;
  // backend.consistency: the consistency model's settings (an object, as
  // POST /_ddblab/consistency takes it), set at the start of each run; null:
  // both lags off.
  json consistency;
  std::vector<json> tables;  // CreateTable requests
  std::vector<ActorSpec> actors;
  json faults;  // a fault plan ({"rules": [...]}) or null
  // faults.consumer: faults of the consumers' functions.
  std::vector<ConsumerFault> consumer_faults;
  std::vector<TimelineEvent> timeline;
  std::vector<InvariantSpec> invariants;
  bool expect_violated = false;
  // A pinned schedule: the actor of each step, in order (written by
  // --shrink). The run takes exactly these steps.
  std::optional<std::vector<std::string>> schedule;
};

// Parses and checks a scenario. `file` is used only in messages. Parse
// errors of the JSON text name the line and column.
Result<Scenario> ParseScenario(std::string_view text, std::string file);
// Reads the file then ParseScenario.
Result<Scenario> LoadScenario(const std::string& path);

// The scenario in its expanded form (actors one by one, ops listed), its
// members in the order of the format's description.
nlohmann::ordered_json ScenarioToJson(const Scenario& scenario);

// Checks an actor's params and ops for its pattern (actors.cc).
Status CheckActorSpec(const ActorSpec& spec);

}  // namespace ddblab::harness::scenario
