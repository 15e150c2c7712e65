// harness/scenario/process.h: a child process of `ddblab run` (a command
// actor or a command check), with its output in files.
//
//   ProcessSpec spec{.argv = {"python3", "worker.py"}, .program = path,
//                    .cwd = folder, .env = EnvironmentWith({{"K", "v"}}),
//                    .stdout_path = dir + "/w.stdout",
//                    .stderr_path = dir + "/w.stderr"};
//   auto p = Process::Start(spec);       // posix_spawn, a process group
//   ... (*p)->Poll() ...                 // nullopt while it runs
//   ExitStatus status = (*p)->Wait();
//
// The child runs in `cwd` with exactly `env` (EnvironmentWith builds the
// parent's with overrides), stdin from /dev/null (or `stdin_path`), stdout
// and stderr to the two files (created or truncated), in a process group
// of its own so that
// Kill() ends what it started too. posix_spawn, not fork: the parent has
// server threads running.
//
// Ownership: a Process owns its child; the destructor kills the group
// (SIGKILL) if the child is still running and reaps it: no zombie, no
// orphan is left behind.
// Thread-safety: a Process is used by one thread at a time.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::harness::scenario {

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] as the program sees it
  std::string program;            // the file run (FindProgram's path)
  std::string cwd = ".";
  std::vector<std::string> env;  // "NAME=value" entries, the whole set
  std::string stdout_path;
  std::string stderr_path;
  std::string stdin_path;  // "": /dev/null
};

struct ExitStatus {
  int code = 0;    // the exit code (when signal is 0)
  int signal = 0;  // the signal that ended it, or 0
  bool ok() const { return code == 0 && signal == 0; }
  // "exit code 3", "killed by signal 9".
  std::string Text() const;
};

class Process {
 public:
  // Starts the child; an error names the program and the reason (a missing
  // working directory, an output file that cannot be created, ...).
  static Result<std::unique_ptr<Process>> Start(const ProcessSpec& spec);
  ~Process();

  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }
  // The exit status once the child has ended (reaped here), else nullopt.
  std::optional<ExitStatus> Poll();
  // Blocks until the child ends.
  ExitStatus Wait();
  // SIGKILL to the child's process group (nothing once it was reaped).
  void Kill();

 private:
  explicit Process(pid_t pid) : pid_(pid) {}
  pid_t pid_;
  std::optional<ExitStatus> status_;
};

// The parent's environment without the variables named in `unset`, with
// `overrides` set (replacing variables of the same name), sorted by name.
std::vector<std::string> EnvironmentWith(
    const std::map<std::string, std::string>& overrides,
    const std::vector<std::string>& unset = {});

// The first `max_bytes` of a file ("" when it cannot be read), and whether
// there was more.
struct FileHead {
  std::string text;
  bool cut = false;
};
FileHead ReadHead(const std::string& path, size_t max_bytes);

// The last non-empty line of a file (at most its last 4 KiB), or "".
std::string LastLine(const std::string& path);
// What a crashed program's stderr says went wrong: in its last 4 KiB, the
// last line that starts with no blank and names an Error or Exception
// (Python's "botocore.exceptions.ClientError: ...", Node's
// "ConditionalCheckFailedException: ..." above its stack and "Node.js
// v20" banner); else LastLine.
std::string ProblemLine(const std::string& path);

}  // namespace ddblab::harness::scenario
