// harness/scenario/command_actors.h: the scenario format's command actors
// and command checks (users' own programs), parsed and checked.
//
//   {"name": "worker", "command": ["python3", "worker.py", "{n}"],
//    "count": 2, "env": {"TABLE": "counters"}, "exit": "zero" | "any"}
//   {"check": "command", "run": ["python3", "check.py"]}
//
// "{n}" in the command's arguments and env values is the copy number (1
// without count). A program is looked up as execvp would: a name with a
// '/' relative to the scenario file's folder (the processes' working
// directory), any other name on PATH. One that cannot be found is an error
// naming its path (`actors[0].command[0]: program 'pythn3' not found`).
//
// A consumer actor runs the user's stream handler (command_consumer.h):
//
//   {"name": "rollup", "env": {...},
//    "consumer": {"TableName": "transfers", "BatchSize": 10,
//                 "FunctionResponseTypes": ["ReportBatchItemFailures"],
//                 "Function": {"Command": ["python3", "handler.py"],
//                              "TimeoutSeconds": 60}}}
//
// "consumer" is a hosted mapping's create body (docs/consumer.md): the
// fields of CreateEventSourceMapping, with "TableName" naming a table of
// the file's `tables` that has a stream, and "Function" {"Command": [...]}
// or {"Url": "http://..."}. StartingPosition defaults to TRIM_HORIZON,
// FunctionName to the actor's name, TimeoutSeconds to 60 (real time: under
// the scheduler a handler waits for the others' steps). A consumer actor
// has no count and no exit.
// A file whose actors run programs has only command actors: they run
// against a server that `ddblab run` starts (command_run.h), the built-in
// actors in process; CheckCommandScenario refuses what such a run cannot
// do (a timeline, consumer faults, pattern checks, sum over_writes, every_step
// checks, a pinned schedule) with a message naming the path.
//
// Thread-safety: free functions; FindProgram reads the file system.
#pragma once

#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "harness/scenario/fields.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

// Reads the command actor entry `f` (its name already read, `count` copies
// or 0 for one named `name`) into its copies, appended to `actors`.
Status ParseCommandActor(Fields& f, const std::string& name, int64_t count,
                         const std::string& folder,
                         std::vector<ActorSpec>* actors);

// Reads the consumer actor entry `f` (its name already read) into one
// actor appended to `actors`; `tables`: the file's CreateTable requests.
Status ParseConsumerCommandActor(Fields& f, const std::string& name,
                                 const std::string& folder,
                                 const std::vector<json>& tables,
                                 std::vector<ActorSpec>* actors);

// The mapping of a consumer actor (its params without "Function", with the
// defaults filled in: TableName's, FunctionName, StartingPosition) and its
// Function object, with TimeoutSeconds filled in.
json ConsumerMappingOf(const ActorSpec& spec);
json ConsumerFunctionOf(const ActorSpec& spec);

// Reads a command check's "run" (the program and its arguments).
Result<std::vector<std::string>> ParseCommandCheck(Fields& f,
                                                   const std::string& folder);

// The path execvp would run for `program` with `folder` as the working
// directory; an error "program 'X' not found" (or "... is not executable")
// otherwise. `path_env`: the PATH to search (null: the process's).
Result<std::string> FindProgram(const std::string& program,
                                const std::string& folder,
                                const char* path_env = nullptr);

// The access key a command actor's requests are signed with, which names it
// to the server's schedule: its name with '#' as '-' ("worker-1").
std::string ActorKey(std::string name);

// True when the scenario's actors are command actors (programs, or
// consumers running the user's function).
bool HasCommandActors(const Scenario& scenario);

// For a scenario with command actors: refuses built-in actors among them and
// what a command run cannot do (see the top of the file).
Status CheckCommandScenario(const Scenario& scenario);

}  // namespace ddblab::harness::scenario
