// harness/scenario/command_run.h: one run of a scenario whose actors are
// the user's programs (command actors, command_actors.h).
//
// RunCommandActors starts a server (through RunOptions::start_server: the
// `ddblab` executable's cli/ gives one that runs `ddblab serve` in this
// process on a free port with a manual clock at backend.clock and the
// run's seed; the harness does not depend on the server), creates the
// tables, sets the fault plan and consistency settings, and puts the server
// under a schedule (POST /_ddblab/schedule with the copies' access keys,
// the seed, backend.tick, backend.idle and the strategy; with
// RunOptions::schedule, the steps' actors as "replay": those are the
// copies' keys, as the trace's step lines name them). It then starts
// every copy's program in the file's folder with the environment an SDK
// needs (CommandEnvironment), tells the server when one ends (POST
// /_ddblab/schedule/actors/NAME/done), and waits until all have ended or the
// schedule stopped (an actor idle for backend.idle, or a replay that
// cannot go on: the server's problem becomes the violation, check "idle"
// or "replay", and the programs are killed). The server sees idle
// actors only while another's request waits: the run itself stops the same
// way when the one program left sends nothing for backend.idle plus half a
// second, or when no request at all comes for six times backend.idle. Then the
// checks run, signed with the access key "ddblab-check" (not scheduled):
// item_equals, count, sum, and command checks (a program: exit 0 holds,
// otherwise the first line of its output is the problem).
//
// Each program's stdout and stderr go to files in RunOptions::logs_dir
// ("<key>.stdout", "<key>.stderr"; the checks' "check-<i>.*"), or in a
// temporary folder removed after the run when it is empty; their first
// 4 KiB go into the trace. A program that exits non-zero (or is killed by
// a signal) is a violation naming the actor, the code and the last line of
// its stderr, unless the actor says "exit": "any".
//
// The trace:
//   {"event":"start","scenario":..,"seed":..,"strategy":..,
//    "backend":"ddblab serve (in process)","actors":[..],"tick":..,
//    "idle":..,"t":..}
//   the server's schedule trace (GET /_ddblab/schedule/trace,
//   emulator/server/schedule_gate.h), line by line, but its start and end
//   lines: {"step":1,"actor":"worker-1","call":"GetItem","request":{..},
//   "response":{..},"clock":..}, {"event":"done","actor":..}, ...
//   {"event":"exit","actor":"worker#1","code":0,"stdout":"..","stderr":".."}
//     one per actor, in the file's order ("signal" instead of "code";
//     "stdout_cut"/"stderr_cut": true past 4 KiB; "killed": true when the
//     run killed it)
//   {"event":"stopped","problem":".."}       when the run stopped the
//                                            programs (the server's own
//                                            line when it stopped them)
//   {"event":"invariant",..} and {"event":"end",..} as runner.h's.
// No line carries wall-clock time or the server's port: the same file,
// seed and programs that are deterministic given their answers give the
// same trace.
//
// Thread-safety: reentrant; each run has its own server and processes.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "emulator/api/result.h"
#include "harness/scenario/runner.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

// The environment a command actor's program gets on top of the parent's:
// AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_DYNAMODB,
// AWS_ENDPOINT_URL_DYNAMODB_STREAMS, DDBLAB_ENDPOINT (all `endpoint`),
// AWS_REGION and AWS_DEFAULT_REGION (us-east-1), AWS_ACCESS_KEY_ID (`key`),
// AWS_SECRET_ACCESS_KEY, DDBLAB_CONTROL_TOKEN, DDBLAB_ACTOR (`actor`),
// DDBLAB_SEED, then the actor's own `env`. The run also removes the
// parent's AWS_SESSION_TOKEN, AWS_PROFILE and other credential sources.
std::map<std::string, std::string> CommandEnvironment(
    const std::string& endpoint, const std::string& control_token,
    const std::string& key, const std::string& actor, uint64_t seed,
    const std::map<std::string, std::string>& env);

// One run (see above). Called by RunOnce for a scenario with command
// actors.
RunResult RunCommandActors(const Scenario& scenario, const RunOptions& options);

}  // namespace ddblab::harness::scenario
