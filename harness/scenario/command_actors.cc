// harness/scenario/command_actors.cc: command actors and command checks.
#include "harness/scenario/command_actors.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <set>
#include <utility>

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
  for (char c : name) {
    if (!NameCharacter(c)) {
      return At(f.PathOf("name"),
                "a command actor's name is its access key: letters, digits, "
                "'-', '_' and '.' only, got " +
                    Shown(name));
    }
  }
  ActorSpec spec;
  spec.pattern = kCommand;
  spec.path = f.path();
  const json& command = f.Raw("command");
  DDBLAB_ASSIGN_OR_RETURN(std::vector<std::string> argv,
                          Argv(command, f.PathOf("command"), folder));
  const json& env = f.Raw("env");
  if (!env.is_null()) {
    DDBLAB_ASSIGN_OR_RETURN(Fields e, Fields::Of(env, f.PathOf("env")));
    for (auto it = env.begin(); it != env.end(); ++it) {
      if (it.key().empty() || it.key().find('=') != std::string::npos) {
        return At(e.path(), "invalid variable name " + Shown(it.key()));
      }
      DDBLAB_ASSIGN_OR_RETURN(std::string value, e.String(it.key()));
      spec.env[it.key()] = std::move(value);
    }
  }
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
    if (actor.pattern == kCommand) return true;
  }
  return false;
}

Status CheckCommandScenario(const Scenario& s) {
  std::set<std::string> keys;
  for (const ActorSpec& actor : s.actors) {
    if (actor.pattern != kCommand) {
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
  if (!s.consumer_faults.empty()) {
    return At("faults.consumer",
              "consumer faults apply to consumer actors, not command actors");
  }
  if (s.schedule) {
    return At("schedule", "a pinned schedule needs pattern actors");
  }
  return OkStatus();
}

}  // namespace ddblab::harness::scenario
