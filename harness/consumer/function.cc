// harness/consumer/function.cc: the three kinds of Function (see function.h).
//
// CommandFunction measures its timeout with std::chrono::steady_clock: it
// bounds a real child process, so it is real time by nature and does not read
// the mapping's (possibly manual) Clock.
#include "harness/consumer/function.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "harness/backend/http_transport.h"
#include "harness/backend/retry_policy.h"

namespace ddblab::harness::consumer {

Invocation CallableFunction::Invoke(const json& event) {
  Result<json> out = fn_(event);
  if (!out.ok()) {
    return Invocation::FunctionError(std::string(out.error().Name()),
                                     out.error().message);
  }
  return Invocation::Ok(std::move(*out));
}

CommandFunction::CommandFunction(std::vector<std::string> argv,
                                 std::chrono::milliseconds timeout)
    : argv_(std::move(argv)), timeout_(timeout) {}

std::string CommandFunction::Describe() const {
  std::string out = "command";
  for (const auto& a : argv_) out += " " + a;
  return out;
}

namespace {

// The tail of a handler's stderr, for the error message.
std::string Tail(const std::string& s, size_t n) {
  return s.size() <= n ? s : s.substr(s.size() - n);
}

// Parses a handler's stdout: empty is null; otherwise it must be JSON.
Invocation ParseResponse(const std::string& body) {
  size_t first = body.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return Invocation::Ok(nullptr);
  json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return Invocation::FunctionError(
        "Runtime.InvalidResponse",
        "the function's response is not JSON: " + Tail(body, 200));
  }
  return Invocation::Ok(std::move(parsed));
}

}  // namespace

Invocation CommandFunction::Invoke(const json& event) {
  if (argv_.empty()) return Invocation::NotDelivered("empty command");
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
      pipe2(err, O_CLOEXEC) != 0) {
    return Invocation::NotDelivered(std::string("pipe: ") +
                                    std::strerror(errno));
  }
  std::vector<char*> args;
  for (auto& a : argv_) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    return Invocation::NotDelivered(std::string("fork: ") +
                                    std::strerror(errno));
  }
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    execvp(args[0], args.data());
    const char msg[] = "exec failed\n";
    (void)!write(2, msg, sizeof(msg) - 1);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  // A handler that exits without reading all of stdin makes our write fail:
  // block SIGPIPE in this thread while writing (EPIPE is handled), and drop
  // a SIGPIPE left pending before restoring the mask.
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  std::string input = event.dump();
  size_t written = 0;
  std::string stdout_text, stderr_text;
  int fds[3] = {in[1], out[0], err[0]};
  fcntl(in[1], F_SETFL, O_NONBLOCK);
  auto deadline = std::chrono::steady_clock::now() + timeout_;
  bool timed_out = false;
  if (input.empty()) {
    close(fds[0]);
    fds[0] = -1;
  }
  while (fds[1] >= 0 || fds[2] >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p[3];
    int n = 0;
    int which[3];
    if (fds[0] >= 0) {
      p[n] = {fds[0], POLLOUT, 0};
      which[n++] = 0;
    }
    for (int i = 1; i < 3; ++i) {
      if (fds[i] >= 0) {
        p[n] = {fds[i], POLLIN, 0};
        which[n++] = i;
      }
    }
    int r = poll(p, static_cast<nfds_t>(n), static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;
    for (int k = 0; k < n; ++k) {
      if (p[k].revents == 0) continue;
      int i = which[k];
      if (i == 0) {
        ssize_t w =
            write(fds[0], input.data() + written, input.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 && errno != EAGAIN) written = input.size();
        if (written >= input.size()) {
          close(fds[0]);
          fds[0] = -1;
        }
      } else {
        char buf[65536];
        ssize_t got = read(fds[i], buf, sizeof(buf));
        if (got > 0) {
          (i == 1 ? stdout_text : stderr_text)
              .append(buf, static_cast<size_t>(got));
        } else if (got == 0 || errno != EAGAIN) {
          close(fds[i]);
          fds[i] = -1;
        }
      }
    }
  }
  for (int fd : fds) {
    if (fd >= 0) close(fd);
  }
  if (timed_out) kill(pid, SIGKILL);
  timespec zero{0, 0};
  while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    // Lambda's text for a timed-out invocation.
    char msg[64];
    std::snprintf(msg, sizeof(msg), "Task timed out after %.2f seconds",
                  static_cast<double>(timeout_.count()) / 1000.0);
    return Invocation::FunctionError("Timeout", msg);
  }
  if (WIFSIGNALED(status)) {
    return Invocation::FunctionError(
        "Runtime.ExitError", "the function was killed by signal " +
                                 std::to_string(WTERMSIG(status)) + ": " +
                                 Tail(stderr_text, 500));
  }
  if (WEXITSTATUS(status) != 0) {
    return Invocation::FunctionError(
        "Runtime.ExitError", "the function exited with status " +
                                 std::to_string(WEXITSTATUS(status)) + ": " +
                                 Tail(stderr_text, 500));
  }
  return ParseResponse(stdout_text);
}

UrlFunction::UrlFunction(std::string url, std::chrono::milliseconds timeout)
    : url_(std::move(url)), timeout_(timeout) {}

Invocation UrlFunction::Invoke(const json& event) {
  size_t scheme_end = url_.find("://");
  if (scheme_end == std::string::npos) {
    return Invocation::NotDelivered("bad invoke URL: " + url_);
  }
  size_t path_start = url_.find('/', scheme_end + 3);
  std::string origin =
      path_start == std::string::npos ? url_ : url_.substr(0, path_start);
  std::string path =
      path_start == std::string::npos ? "/" : url_.substr(path_start);
  TransportOptions options;
  options.connect_timeout = timeout_;
  options.read_timeout = timeout_;
  Result<std::unique_ptr<BeastTransport>> transport =
      BeastTransport::Open(origin, options);
  if (!transport.ok()) {
    return Invocation::NotDelivered("bad invoke URL: " + url_ + " (" +
                                    transport.error().message + ")");
  }
  Result<HttpResponse> res = (*transport)
                                 ->Send({"POST",
                                         path,
                                         {{"Content-Type", "application/json"}},
                                         event.dump()});
  if (!res.ok()) {
    // Sent but no answer (none in time, or the connection closed): the
    // function may have run.
    const std::string kind =
        res.error().extra.is_object()
            ? res.error().extra.value(kTransportMember, std::string())
            : std::string();
    if (kind != "connect") {
      return Invocation::FunctionError("Timeout",
                                       "the invoke URL did not answer in time");
    }
    return Invocation::NotDelivered("invoke URL " + url_ + ": " +
                                    res.error().message);
  }
  if (res->status < 200 || res->status > 299) {
    return Invocation::FunctionError("Http" + std::to_string(res->status),
                                     "the invoke URL answered HTTP " +
                                         std::to_string(res->status) + ": " +
                                         Tail(res->body, 500));
  }
  // Lambda's Invoke API flags a function error with X-Amz-Function-Error;
  // the Runtime Interface Emulator answers 200 without it, the error as
  // {"errorType", "errorMessage", ...}, a timeout as the plain text "Task
  // timed out after N seconds", and a dead runtime with an empty body.
  json body = json::parse(res->body, nullptr, /*allow_exceptions=*/false);
  bool error_shape = body.is_object() && body.contains("errorType") &&
                     body["errorType"].is_string() &&
                     body.contains("errorMessage") &&
                     body["errorMessage"].is_string();
  const std::string* flagged = res->Header("X-Amz-Function-Error");
  if (flagged != nullptr || error_shape) {
    std::string type = flagged != nullptr ? *flagged : std::string();
    std::string message = res->body;
    if (error_shape) {
      type = body["errorType"].get<std::string>();
      message = body["errorMessage"].get<std::string>();
    }
    return Invocation::FunctionError(type, message);
  }
  if (res->body.starts_with("Task timed out after")) {
    return Invocation::FunctionError("Timeout", res->body);
  }
  if (res->body.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Invocation::FunctionError(
        "Runtime.ExitError",
        "the invoke URL answered with an empty body (the runtime ended)");
  }
  return ParseResponse(res->body);
}

Result<std::unique_ptr<Function>> FunctionFromJson(const json& spec) {
  if (!spec.is_object()) {
    return Error::Validation(
        "Function must be {\"Command\": [...]} or {\"Url\": \"...\"}");
  }
  std::chrono::milliseconds timeout = std::chrono::seconds(3);
  if (auto t = spec.find("TimeoutSeconds"); t != spec.end()) {
    if (!t->is_number() || t->get<double>() <= 0 || t->get<double>() > 900) {
      return Error::Validation("Function.TimeoutSeconds must be 1..900");
    }
    timeout = std::chrono::milliseconds(
        static_cast<int64_t>(t->get<double>() * 1000));
  }
  if (auto c = spec.find("Command"); c != spec.end()) {
    if (!c->is_array() || c->empty()) {
      return Error::Validation(
          "Function.Command must be a non-empty list of strings");
    }
    std::vector<std::string> argv;
    for (const json& a : *c) {
      if (!a.is_string()) {
        return Error::Validation(
            "Function.Command must be a non-empty list of strings");
      }
      argv.push_back(a.get<std::string>());
    }
    return std::unique_ptr<Function>(
        std::make_unique<CommandFunction>(std::move(argv), timeout));
  }
  if (auto u = spec.find("Url"); u != spec.end()) {
    if (!u->is_string() || !u->get<std::string>().starts_with("http://")) {
      return Error::Validation("Function.Url must be an http:// URL");
    }
    return std::unique_ptr<Function>(
        std::make_unique<UrlFunction>(u->get<std::string>(), timeout));
  }
  return Error::Validation(
      "Function must be {\"Command\": [...]} or {\"Url\": \"...\"}");
}

}  // namespace ddblab::harness::consumer
