// harness/scenario/command_actors.cc: command actors and command checks.
#include "harness/scenario/command_actors.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <utility>

#include "harness/consumer/config.h"
#include "harness/consumer/function.h"

namespace ddblab::harness::scenario {
namespace {

// Every "{n}" in `text` replaced by `n`.
std::string WithCopy(std::string text, const std::string& n) {
  size_t at = 0;
  while ((at = text.find("{n}", at)) != std::string::npos) {
    text.replace(at, 3, n);
    at += n.size();
  }
  return text;
}

bool Executable(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

// A program and its arguments at `path`: a non-empty list of strings whose
// first names a program that can be found.
Result<std::vector<std::string>> Argv(const json& value,
                                      const std::string& path,
                                      const std::string& folder) {
  if (!value.is_array() || value.empty()) {
    return At(path,
              "expected a non-empty list: the program and its arguments, got " +
                  Shown(value));
  }
  std::vector<std::string> argv;
  for (size_t i = 0; i < value.size(); ++i) {
    DDBLAB_ASSIGN_OR_RETURN(std::string arg,
                            StringValue(value[i], Index(path, i)));
    argv.push_back(std::move(arg));
  }
  if (argv[0].empty()) return At(Index(path, 0), "expected a program name");
  if (auto found = FindProgram(argv[0], folder); !found.ok()) {
    return At(Index(path, 0), found.error().message);
  }
  return argv;
}

// Actor names become access keys and URL path segments.
bool NameCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

// The fields a consumer actor's mapping may have: CreateEventSourceMapping's
// for a DynamoDB stream, and the hosted mapping's Function.
constexpr const char* kMappingFields[] = {"BatchSize",
                                          "BisectBatchOnFunctionError",
                                          "DestinationConfig",
                                          "Enabled",
                                          "FilterCriteria",
                                          "Function",
                                          "FunctionName",
                                          "FunctionResponseTypes",
                                          "MaximumBatchingWindowInSeconds",
                                          "MaximumRecordAgeInSeconds",
                                          "MaximumRetryAttempts",
                                          "ParallelizationFactor",
                                          "StartingPosition",
                                          "TableName",
                                          "TumblingWindowInSeconds"};

// Default TimeoutSeconds of a consumer actor's function (real time).
constexpr int kConsumerTimeoutSeconds = 60;

Status NameIsKey(Fields& f, const std::string& name, const char* what) {
  for (char c : name) {
    if (!NameCharacter(c)) {
      return At(f.PathOf("name"),
                std::string("a ") + what +
                    "'s name is its access key: letters, digits, "
                    "'-', '_' and '.' only, got " +
                    Shown(name));
    }
  }
  return OkStatus();
}

Status ReadEnv(Fields& f, ActorSpec* spec) {
  const json& env = f.Raw("env");
  if (env.is_null()) return OkStatus();
  DDBLAB_ASSIGN_OR_RETURN(Fields e, Fields::Of(env, f.PathOf("env")));
  for (auto it = env.begin(); it != env.end(); ++it) {
    if (it.key().empty() || it.key().find('=') != std::string::npos) {
      return At(e.path(), "invalid variable name " + Shown(it.key()));
    }
    DDBLAB_ASSIGN_OR_RETURN(std::string value, e.String(it.key()));
    spec->env[it.key()] = std::move(value);
  }
  return OkStatus();
}

// The table `name` of the file's tables with a stream; an error at `path`
// otherwise.
Status HasStream(const std::vector<json>& tables, const std::string& name,
                 const std::string& path) {
  for (size_t i = 0; i < tables.size(); ++i) {
    if (tables[i].value("TableName", "") != name) continue;
    const json spec = tables[i].value("StreamSpecification", json::object());
    if (spec.is_object() && spec.value("StreamEnabled", false) == true) {
      return OkStatus();
    }
    return At(path, "table " + name + " (" + Index("tables", i) +
                        ") has no stream: give it \"StreamSpecification\": "
                        "{\"StreamEnabled\": true, \"StreamViewType\": "
                        "\"NEW_AND_OLD_IMAGES\"}");
  }
  return At(path, "no table " + Shown(name) +
                      " in tables (the run creates the tables a consumer "
                      "reads before the actors start)");
}

}  // namespace

Result<std::string> FindProgram(const std::string& program,
                                const std::string& folder,
                                const char* path_env) {
  if (program.find('/') != std::string::npos) {
    const std::string full =
        program.front() == '/' ? program : folder + "/" + program;
    if (Executable(full)) return full;
    struct stat st {};
    if (stat(full.c_str(), &st) == 0) {
      return Error::Validation("program '" + program + "' is not executable");
    }
    return Error::Validation("program '" + program + "' not found (in " +
                             folder + ")");
  }
  const char* path = path_env != nullptr ? path_env : std::getenv("PATH");
  // execvp's default search path when PATH is unset.
  std::string dirs = path != nullptr ? path : "/bin:/usr/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    if (dir.empty()) dir = folder;  // an empty entry: the working directory
    const std::string full = dir + "/" + program;
    if (Executable(full)) return full;
    start = end + 1;
  }
  return Error::Validation("program '" + program + "' not found");
}

Status ParseCommandActor(Fields& f, const std::string& name, int64_t count,
                         const std::string& folder,
                         std::vector<ActorSpec>* actors) {
  DDBLAB_RETURN_IF_ERROR(NameIsKey(f, name, "command actor"));
  ActorSpec spec;
  spec.pattern = kCommand;
  spec.path = f.path();
  const json& command = f.Raw("command");
  DDBLAB_ASSIGN_OR_RETURN(std::vector<std::string> argv,
                          Argv(command, f.PathOf("command"), folder));
  DDBLAB_RETURN_IF_ERROR(ReadEnv(f, &spec));
  DDBLAB_ASSIGN_OR_RETURN(std::string exit, f.StringOr("exit", "zero"));
  if (exit != "zero" && exit != "any") {
    return At(f.PathOf("exit"),
              "expected \"zero\" (a non-zero exit breaks "
              "the run) or \"any\", got " +
                  Shown(f.Raw("exit")));
  }
  spec.exit_any = exit == "any";
  for (const char* other :
       {"pattern", "variant", "params", "ops", "start", "every", "repeat"}) {
    if (f.Has(other)) {
      return At(f.PathOf(other), "a command actor has no " +
                                     std::string(other) +
                                     " (its program makes its calls)");
    }
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  const int64_t copies = count == 0 ? 1 : count;
  for (int64_t n = 1; n <= copies; ++n) {
    ActorSpec copy = spec;
    const std::string number = std::to_string(n);
    copy.name = count == 0 ? name : name + "#" + number;
    for (const std::string& arg : argv) {
      copy.command.push_back(WithCopy(arg, number));
    }
    for (auto& [key, value] : copy.env) value = WithCopy(value, number);
    actors->push_back(std::move(copy));
  }
  return OkStatus();
}

Status ParseConsumerCommandActor(Fields& f, const std::string& name,
                                 const std::string& folder,
                                 const std::vector<json>& tables,
                                 std::vector<ActorSpec>* actors) {
  DDBLAB_RETURN_IF_ERROR(NameIsKey(f, name, "consumer actor"));
  ActorSpec spec;
  spec.pattern = kConsumer;
  spec.path = f.path();
  spec.name = name;
  const std::string path = f.PathOf("consumer");
  const json& mapping = f.Raw("consumer");
  if (!mapping.is_object()) {
    return At(path,
              "expected a mapping: CreateEventSourceMapping's fields with "
              "\"TableName\" and \"Function\", got " +
                  Shown(mapping));
  }
  for (auto it = mapping.begin(); it != mapping.end(); ++it) {
    if (it.key() == "EventSourceArn") {
      return At(Member(path, it.key()),
                "name the table with TableName (the run creates it: its "
                "stream ARN is not known before)");
    }
    if (std::find(std::begin(kMappingFields), std::end(kMappingFields),
                  it.key()) == std::end(kMappingFields)) {
      std::string known;
      for (const char* k : kMappingFields) {
        known += (known.empty() ? "" : ", ") + std::string(k);
      }
      return At(Member(path, it.key()),
                "unknown field (expected " + known + ")");
    }
  }
  if (mapping.contains("Enabled") && mapping["Enabled"] != true) {
    return At(Member(path, "Enabled"),
              "a consumer actor's mapping is enabled (leave the actor out to "
              "run without it), got " +
                  Shown(mapping["Enabled"]));
  }
  // TableName: a table of the file's with a stream.
  if (!mapping.contains("TableName")) {
    return At(Member(path, "TableName"),
              "missing: the table whose stream the consumer reads");
  }
  DDBLAB_ASSIGN_OR_RETURN(
      std::string table,
      StringValue(mapping["TableName"], Member(path, "TableName")));
  DDBLAB_RETURN_IF_ERROR(HasStream(tables, table, Member(path, "TableName")));
  // Function: a program that can be found, or a URL.
  const std::string fpath = Member(path, "Function");
  if (!mapping.contains("Function")) {
    return At(fpath,
              "missing: {\"Command\": [program, args...]} or {\"Url\": "
              "\"http://...\"}, the handler the mapping invokes");
  }
  const json& function = mapping["Function"];
  if (!function.is_object() ||
      (!function.contains("Command") && !function.contains("Url"))) {
    return At(fpath,
              "expected {\"Command\": [program, args...]} or {\"Url\": "
              "\"http://...\"}, got " +
                  Shown(function));
  }
  for (auto it = function.begin(); it != function.end(); ++it) {
    if (it.key() != "Command" && it.key() != "Url" &&
        it.key() != "TimeoutSeconds") {
      return At(Member(fpath, it.key()),
                "unknown field (expected Command, TimeoutSeconds, Url)");
    }
  }
  if (function.contains("Command") && function.contains("Url")) {
    return At(fpath, "a Command or a Url, not both");
  }
  if (function.contains("Command")) {
    DDBLAB_ASSIGN_OR_RETURN(
        spec.command,
        Argv(function["Command"], Member(fpath, "Command"), folder));
  }
  if (auto made = consumer::FunctionFromJson(function); !made.ok()) {
    // "Function.Url must be an http:// URL": the path names the field.
    std::string message = made.error().message;
    const size_t space = message.find(' ');
    const size_t dot = message.find('.');
    if (dot != std::string::npos && space != std::string::npos && dot < space) {
      return At(Member(fpath, message.substr(dot + 1, space - dot - 1)),
                message.substr(space + 1));
    }
    return At(fpath, message);
  }
  spec.params = mapping;
  // The mapping's own rules (Lambda's messages).
  auto config = consumer::ParseEsmConfig(ConsumerMappingOf(spec));
  if (!config.ok()) {
    return At(path, consumer::LambdaErrorName(config.error()) + ": " +
                        config.error().message);
  }
  DDBLAB_RETURN_IF_ERROR(ReadEnv(f, &spec));
  for (const char* other : {"count", "exit", "variant", "params", "ops",
                            "start", "every", "repeat"}) {
    if (f.Has(other)) {
      return At(f.PathOf(other),
                "a consumer actor has no " + std::string(other) +
                    (std::string(other) == "count"
                         ? " (one mapping per actor: write another actor for "
                           "another function)"
                         : " (its mapping polls, its function makes its "
                           "calls)"));
    }
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  actors->push_back(std::move(spec));
  return OkStatus();
}

json ConsumerMappingOf(const ActorSpec& spec) {
  json mapping = spec.params;
  mapping.erase("Function");
  if (!mapping.contains("FunctionName")) mapping["FunctionName"] = spec.name;
  if (!mapping.contains("StartingPosition")) {
    mapping["StartingPosition"] = "TRIM_HORIZON";
  }
  return mapping;
}

json ConsumerFunctionOf(const ActorSpec& spec) {
  json function = spec.params.value("Function", json::object());
  if (!function.contains("TimeoutSeconds")) {
    function["TimeoutSeconds"] = kConsumerTimeoutSeconds;
  }
  return function;
}

Result<std::vector<std::string>> ParseCommandCheck(Fields& f,
                                                   const std::string& folder) {
  return Argv(f.Raw("run"), f.PathOf("run"), folder);
}

std::string ActorKey(std::string name) {
  for (char& c : name) {
    if (c == '#') c = '-';
  }
  return name;
}

bool HasCommandActors(const Scenario& scenario) {
  for (const ActorSpec& actor : scenario.actors) {
    if (actor.pattern == kCommand || actor.pattern == kConsumer) return true;
  }
  return false;
}

Status CheckCommandScenario(const Scenario& s) {
  std::set<std::string> keys;
  bool consumers = false;
  bool programs = false;
  for (const ActorSpec& actor : s.actors) {
    consumers = consumers || actor.pattern == kConsumer;
    programs = programs || actor.pattern == kCommand;
    if (actor.pattern != kCommand && actor.pattern != kConsumer) {
      return At(actor.path,
                "command actors cannot be mixed with pattern actors in one "
                "file (command actors run against a server ddblab run "
                "starts, pattern actors in process): write this one as a "
                "program too, or put it in a file of its own");
    }
    if (!keys.insert(ActorKey(actor.name)).second) {
      return At(Member(actor.path, "name"),
                "two actors would sign with the access key " +
                    ActorKey(actor.name) + ": rename one");
    }
  }
  for (size_t i = 0; i < s.invariants.size(); ++i) {
    const InvariantSpec& inv = s.invariants[i];
    const bool generic = inv.check == "item_equals" || inv.check == "count" ||
                         inv.check == "sum" || inv.check == kCommand;
    if (!generic) {
      return At(Member(inv.id, "check"),
                "a " + inv.check +
                    " check reads what pattern actors did; with command "
                    "actors use item_equals, count, sum or command");
    }
    if (inv.over_writes) {
      return At(Member(inv.id, "over_writes"),
                "over_writes counts what pattern actors wrote; with command "
                "actors use equals or a command check");
    }
    if (inv.every_step) {
      return At(Member(inv.id, "every_step"),
                "not available with command actors yet (checks run after the "
                "programs end)");
    }
  }
  if (!s.timeline.empty()) {
    return At("timeline", "not available with command actors yet");
  }
  if (!s.consumer_faults.empty() && !consumers) {
    return At("faults.consumer",
              "consumer faults apply to consumer actors, not command actors");
  }
  if (!programs) {
    return At("actors",
              "consumer actors read what programs write: add a command actor "
              "(a consumer ends once every program has ended and it caught "
              "up)");
  }
  if (s.schedule) {
    return At("schedule", "a pinned schedule needs pattern actors");
  }
  return OkStatus();
}

}  // namespace ddblab::harness::scenario
