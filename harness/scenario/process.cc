// harness/scenario/process.cc: posix_spawn, waitpid and output files.
#include "harness/scenario/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

extern char** environ;

namespace ddblab::harness::scenario {
namespace {

ExitStatus StatusOf(int raw) {
  ExitStatus status;
  if (WIFSIGNALED(raw)) {
    status.signal = WTERMSIG(raw);
  } else if (WIFEXITED(raw)) {
    status.code = WEXITSTATUS(raw);
  }
  return status;
}

std::vector<char*> Pointers(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const std::string& s : strings)
    out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// Whether `path` can be opened for writing (posix_spawn's file actions
// report no reason).
std::string Writable(const std::string& path) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot write " + path + ": " + std::strerror(errno);
  close(fd);
  return "";
}

}  // namespace

std::string ExitStatus::Text() const {
  if (signal != 0) return "killed by signal " + std::to_string(signal);
  return "exit code " + std::to_string(code);
}

Result<std::unique_ptr<Process>> Process::Start(const ProcessSpec& spec) {
  if (spec.argv.empty()) return Error::Validation("no program to run");
  for (const std::string* path : {&spec.stdout_path, &spec.stderr_path}) {
    if (std::string problem = Writable(*path); !problem.empty()) {
      return Error::Internal(spec.argv[0] + ": " + problem);
    }
  }
  if (!spec.stdin_path.empty() && access(spec.stdin_path.c_str(), R_OK) != 0) {
    return Error::Internal(spec.argv[0] + ": cannot read " + spec.stdin_path +
                           ": " + std::strerror(errno));
  }
  if (access(spec.cwd.c_str(), X_OK) != 0) {
    return Error::Internal(spec.argv[0] + ": cannot enter " + spec.cwd + ": " +
                           std::strerror(errno));
  }
  // The files are opened and the program found after the chdir: make
  // relative paths absolute first.
  const auto absolute = [](const std::string& path) {
    std::error_code ec;
    auto full = std::filesystem::absolute(path, ec);
    return ec ? path : full.string();
  };
  const std::string out_path = absolute(spec.stdout_path);
  const std::string err_path = absolute(spec.stderr_path);
  const std::string program = absolute(spec.program);
  const std::string in_path =
      spec.stdin_path.empty() ? "/dev/null" : absolute(spec.stdin_path);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, in_path.c_str(),
                                   O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A group of its own (Kill ends its children too) and default signal
  // handling: the parent blocks SIGINT/SIGTERM and ignores SIGPIPE.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP |
                                      POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv = Pointers(spec.argv);
  std::vector<char*> env = Pointers(spec.env);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, &attr,
                             argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    return Error::Internal(spec.argv[0] + ": cannot start " + spec.program +
                           ": " + std::strerror(rc));
  }
  return std::unique_ptr<Process>(new Process(pid));
}

Process::~Process() {
  if (!status_) {
    Kill();
    Wait();
  }
}

std::optional<ExitStatus> Process::Poll() {
  if (status_) return status_;
  int raw = 0;
  pid_t got = waitpid(pid_, &raw, WNOHANG);
  if (got == pid_) status_ = StatusOf(raw);
  return status_;
}

ExitStatus Process::Wait() {
  if (status_) return *status_;
  int raw = 0;
  while (waitpid(pid_, &raw, 0) < 0) {
    if (errno != EINTR) {
      status_ = ExitStatus{.code = -1};
      return *status_;
    }
  }
  status_ = StatusOf(raw);
  return *status_;
}

void Process::Kill() {
  if (status_) return;
  kill(-pid_, SIGKILL);
}

std::vector<std::string> EnvironmentWith(
    const std::map<std::string, std::string>& overrides,
    const std::vector<std::string>& unset) {
  std::map<std::string, std::string> all;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry = *e;
    const size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    all[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const std::string& name : unset) all.erase(name);
  for (const auto& [name, value] : overrides) all[name] = value;
  std::vector<std::string> out;
  out.reserve(all.size());
  for (const auto& [name, value] : all) out.push_back(name + "=" + value);
  return out;
}

FileHead ReadHead(const std::string& path, size_t max_bytes) {
  FileHead head;
  std::ifstream in(path, std::ios::binary);
  if (!in) return head;
  head.text.resize(max_bytes + 1);
  in.read(head.text.data(), static_cast<std::streamsize>(max_bytes + 1));
  head.text.resize(static_cast<size_t>(in.gcount()));
  if (head.text.size() > max_bytes) {
    head.text.resize(max_bytes);
    head.cut = true;
  }
  return head;
}

namespace {

// The file's last 4 KiB, trailing blanks and line ends cut.
std::string Tail(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  const std::streamoff from = std::max<std::streamoff>(0, size - 4096);
  in.seekg(from);
  std::string tail((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  while (!tail.empty() &&
         (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' ')) {
    tail.pop_back();
  }
  return tail;
}

}  // namespace

std::string LastLine(const std::string& path) {
  const std::string tail = Tail(path);
  const size_t nl = tail.rfind('\n');
  return nl == std::string::npos ? tail : tail.substr(nl + 1);
}

std::string ProblemLine(const std::string& path) {
  const std::string tail = Tail(path);
  size_t end = tail.size();
  while (end > 0) {
    const size_t nl = tail.rfind('\n', end - 1);
    const size_t begin = nl == std::string::npos ? 0 : nl + 1;
    std::string_view line(tail.data() + begin, end - begin);
    if (!line.empty() && line.front() != ' ' && line.front() != '\t' &&
        (line.find("Error") != std::string_view::npos ||
         line.find("Exception") != std::string_view::npos)) {
      if (line.back() == '\r') line.remove_suffix(1);
      return std::string(line);
    }
    if (nl == std::string::npos) break;
    end = nl;
  }
  return LastLine(path);
}

}  // namespace ddblab::harness::scenario
