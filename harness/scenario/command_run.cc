// harness/scenario/command_run.cc: a run of command actors against a
// server under a schedule.
#include "harness/scenario/command_run.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <utility>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/backend/http_transport.h"
#include "harness/patterns/common.h"
#include "harness/scenario/actors.h"
#include "harness/scenario/command_actors.h"
#include "harness/scenario/command_consumer.h"
#include "harness/scenario/consumer_faults.h"
#include "harness/scenario/fields.h"
#include "harness/scenario/invariants.h"
#include "harness/scenario/process.h"

namespace ddblab::harness::scenario {
namespace {

using ojson = nlohmann::ordered_json;

constexpr size_t kTraceOutputBytes = 4096;
// Credentials of the parent's that would override or mix with the run's.
const std::vector<std::string> kUnsetVariables = {
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AWS_PROFILE",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE"};
constexpr const char* kCheckKey = "ddblab-check";
constexpr const char* kSecret = "ddblab";
// How often the run looks at its programs and the schedule (real time).
constexpr auto kPollEvery = std::chrono::milliseconds(5);
// How long a command check may take (real time).
constexpr auto kCheckLimit = std::chrono::seconds(60);

// A folder for the programs' output: the given one (kept), or a temporary
// one removed with this object.
class LogsDir {
 public:
  static Result<LogsDir> Make(const std::string& given) {
    LogsDir dir;
    std::error_code ec;
    if (!given.empty()) {
      std::filesystem::create_directories(given, ec);
      if (ec) {
        return Error::Internal("cannot create " + given + ": " + ec.message());
      }
      dir.path_ = given;
      return dir;
    }
    std::string pattern =
        (std::filesystem::temp_directory_path(ec) / "ddblab-run-XXXXXX")
            .string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return Error::Internal("cannot create a temporary folder " + pattern);
    }
    dir.path_ = pattern;
    dir.remove_ = true;
    return dir;
  }
  LogsDir() = default;
  LogsDir(LogsDir&& other) noexcept
      : path_(std::move(other.path_)), remove_(other.remove_) {
    other.remove_ = false;
  }
  LogsDir& operator=(LogsDir&&) = delete;
  ~LogsDir() {
    if (!remove_) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
  bool remove_ = false;
};

// The control endpoints of the run's server.
class Control {
 public:
  static Result<Control> Open(const RunServer& server) {
    TransportOptions options;
    options.read_timeout = std::chrono::seconds(30);
    DDBLAB_ASSIGN_OR_RETURN(auto transport,
                            BeastTransport::Open(server.endpoint(), options));
    return Control(std::move(transport), server.control_token());
  }

  // The answer's body; a status other than 200 is an error with the
  // server's message.
  Result<std::string> Send(std::string method, std::string path,
                           const json& body = nullptr) {
    HttpRequest request;
    request.method = std::move(method);
    request.path = path;
    request.headers = {{"X-Ddblab-Token", token_},
                       {"Content-Type", "application/json"}};
    if (!body.is_null()) request.body = body.dump();
    DDBLAB_ASSIGN_OR_RETURN(HttpResponse response, transport_->Send(request));
    if (response.status != 200) {
      json parsed = json::parse(response.body, nullptr, false);
      std::string message = response.body;
      if (parsed.is_object() && parsed.contains("message") &&
          parsed["message"].is_string()) {
        message = parsed["message"].get<std::string>();
      }
      return Error::Internal(request.method + " " + path + ": " +
                             std::to_string(response.status) + " " + message);
    }
    return response.body;
  }
  Result<json> Json(std::string method, std::string path,
                    const json& body = nullptr) {
    DDBLAB_ASSIGN_OR_RETURN(std::string text,
                            Send(std::move(method), path, body));
    json parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded()) {
      return Error::Internal(path + ": the answer is not JSON: " + text);
    }
    return parsed;
  }

 private:
  Control(std::unique_ptr<BeastTransport> transport, std::string token)
      : transport_(std::move(transport)), token_(std::move(token)) {}
  std::unique_ptr<BeastTransport> transport_;
  std::string token_;
};

// One running copy of a command actor, or a consumer actor (`status` is
// set once it ended and the server was told).
struct Running {
  const ActorSpec* spec = nullptr;
  std::string key;
  std::unique_ptr<Process> process;
  std::unique_ptr<CommandConsumer> consumer;
  std::optional<ExitStatus> status;
  bool killed = false;
};

std::string Seconds(Duration d) { return DurationText(d); }

class CommandRun {
 public:
  CommandRun(const Scenario& s, const RunOptions& options)
      : s_(s), options_(options) {}

  RunResult Go();

 private:
  RunResult Fail(int code, std::string message) {
    result_.code = code;
    result_.failure = s_.file + ": " + std::move(message);
    return std::move(result_);
  }
  void Emit(const ojson& event) {
    if (options_.trace) result_.trace.push_back(event.dump());
  }
  Status SetUp(Backend& backend);
  Status StartActors(const LogsDir& logs);
  // Waits for the programs; the schedule's problem when it stopped.
  Result<std::optional<std::string>> Wait(Control& control);
  // Kills the programs and stops the consumers (the server is told they are
  // done, which releases a request of theirs it holds).
  void KillAll(Control& control);
  size_t LiveCount() const {
    size_t n = 0;
    for (const Running& r : running_) n += r.status ? 0 : 1;
    return n;
  }
  void TraceExits(const LogsDir& logs);
  Status Checks(Backend& backend, const LogsDir& logs);
  Result<std::vector<std::string>> CommandCheck(const InvariantSpec& inv,
                                                size_t index,
                                                const LogsDir& logs);
  void SetViolation(Violation v) {
    if (!result_.violation) result_.violation = std::move(v);
  }

  const Scenario& s_;
  const RunOptions& options_;
  RunResult result_;
  std::unique_ptr<RunServer> server_;
  std::unique_ptr<ConsumerBoard> board_;
  std::vector<Running> running_;
};

Status CommandRun::SetUp(Backend& backend) {
  for (const json& table : s_.tables) {
    auto created = backend.Call("CreateTable", table);
    if (!created.ok()) {
      return Error::Internal("CreateTable " +
                             table["TableName"].get<std::string>() + ": " +
                             ErrorText(created.error()));
    }
  }
  if (!s_.consistency.is_null()) {
    if (Status set = backend.SetConsistency(s_.consistency); !set.ok()) {
      if (set.error().type == ErrorType::kValidation) {
        return Error::Validation("backend.consistency." + set.error().message);
      }
      return Error::Internal("consistency settings: " + ErrorText(set.error()));
    }
  }
  if (!s_.faults.is_null()) {
    if (Status set = backend.SetFaultPlan(s_.faults); !set.ok()) {
      if (set.error().type == ErrorType::kValidation) {
        return At("faults", set.error().message);
      }
      return Error::Internal("fault plan: " + ErrorText(set.error()));
    }
  }
  return OkStatus();
}

Status CommandRun::StartActors(const LogsDir& logs) {
  size_t programs = 0;
  for (const ActorSpec& actor : s_.actors) {
    programs += actor.pattern == kCommand ? 1 : 0;
  }
  board_ = std::make_unique<ConsumerBoard>(programs);
  for (const ActorSpec& actor : s_.actors) {
    Running r;
    r.spec = &actor;
    r.key = ActorKey(actor.name);
    if (actor.pattern == kConsumer) {
      ConsumerSetup setup;
      setup.actor = &actor;
      setup.key = r.key;
      setup.endpoint = server_->endpoint();
      setup.control_token = server_->control_token();
      setup.folder = s_.folder;
      setup.env = EnvironmentWith(
          CommandEnvironment(server_->endpoint(), server_->control_token(),
                             r.key, actor.name, options_.seed, actor.env),
          kUnsetVariables);
      setup.files = logs.File(r.key);
      setup.seed = options_.seed;
      for (const ConsumerFault& f : s_.consumer_faults) {
        if (AppliesTo(f, actor.name)) setup.faults.push_back(f);
      }
      setup.idle = s_.idle;
      auto started = CommandConsumer::Start(std::move(setup), *board_);
      if (!started.ok()) {
        return Error::Internal(actor.path + ": " + started.error().message);
      }
      r.consumer = std::move(*started);
      running_.push_back(std::move(r));
      continue;
    }
    ProcessSpec spec;
    spec.argv = actor.command;
    DDBLAB_ASSIGN_OR_RETURN(spec.program,
                            FindProgram(actor.command[0], s_.folder));
    spec.cwd = s_.folder;
    spec.env = EnvironmentWith(
        CommandEnvironment(server_->endpoint(), server_->control_token(), r.key,
                           actor.name, options_.seed, actor.env),
        kUnsetVariables);
    spec.stdout_path = logs.File(r.key + ".stdout");
    spec.stderr_path = logs.File(r.key + ".stderr");
    auto started = Process::Start(spec);
    if (!started.ok()) {
      return Error::Internal(actor.path + ": " + started.error().message);
    }
    r.process = std::move(*started);
    running_.push_back(std::move(r));
  }
  return OkStatus();
}

void CommandRun::KillAll(Control& control) {
  for (Running& r : running_) {
    if (!r.status && r.consumer) r.consumer->RequestStop();
  }
  for (Running& r : running_) {
    if (r.status) continue;
    r.killed = true;
    if (r.consumer) {
      (void)control.Send("POST", "/_ddblab/schedule/actors/" + r.key + "/done",
                         json::object());
      r.consumer->Stop();
      r.status = ExitStatus{};
      continue;
    }
    r.process->Kill();
    r.status = r.process->Wait();
  }
}

Result<std::optional<std::string>> CommandRun::Wait(Control& control) {
  SystemClock real;
  TimePoint last_progress = real.Now();
  int64_t last_step = -1;
  const Duration own_idle = s_.idle + std::chrono::milliseconds(500);
  while (true) {
    bool live = false;
    for (Running& r : running_) {
      if (r.status) continue;
      if (r.consumer) {
        if (!r.consumer->Finished()) {
          live = true;
          continue;
        }
        if (r.consumer->error()) return *r.consumer->error();
        r.status = ExitStatus{};
      } else {
        r.status = r.process->Poll();
        if (!r.status) {
          live = true;
          continue;
        }
        // Before the server hears of it: a consumer that then steps sees
        // it ended.
        board_->ProgramEnded();
      }
      last_progress = real.Now();
      auto done =
          control.Send("POST", "/_ddblab/schedule/actors/" + r.key + "/done",
                       json::object());
      if (!done.ok()) return done.error();
    }
    if (!live) return std::optional<std::string>();
    DDBLAB_ASSIGN_OR_RETURN(json state,
                            control.Json("GET", "/_ddblab/schedule"));
    if (state.value("state", "") == "stopped") {
      KillAll(control);
      return std::optional<std::string>(
          state.value("problem", std::string("the schedule stopped")));
    }
    const int64_t step = state.value("step", int64_t{0});
    if (step != last_step) {
      last_step = step;
      last_progress = real.Now();
    } else if (real.Now() - last_progress >
               (LiveCount() <= 1 ? own_idle : 6 * s_.idle)) {
      // The server stops a schedule only while some actor's request
      // waits: a last program busy outside DynamoDB for idle, or several
      // for six times idle (none sending anything, not even a first
      // request), are stopped here.
      std::string names;
      for (const Running& r : running_) {
        if (r.status) continue;
        names += (names.empty() ? "" : ", ") + r.key;
      }
      KillAll(control);
      return std::optional<std::string>(
          "actor " + names + " made no request for " + Seconds(s_.idle) +
          " and did not end: does it wait on something outside DynamoDB?");
    }
    real.SleepUntil(real.Now() + kPollEvery, std::stop_token());
  }
}

void CommandRun::TraceExits(const LogsDir& logs) {
  for (size_t i = 0; i < running_.size(); ++i) {
    const Running& r = running_[i];
    if (r.consumer) {
      ojson line = r.consumer->Summary();
      if (r.killed) line["killed"] = true;
      if (options_.trace) {
        result_.trace.push_back(
            line.dump(-1, ' ', false, ojson::error_handler_t::replace));
      }
      if (r.consumer->problem() && !r.killed) {
        SetViolation(
            Violation{r.spec->path, "consumer", {*r.consumer->problem()}, 0});
      }
      continue;
    }
    ojson line = {{"event", "exit"}, {"actor", r.spec->name}};
    if (r.status->signal != 0) {
      line["signal"] = r.status->signal;
    } else {
      line["code"] = r.status->code;
    }
    if (r.killed) line["killed"] = true;
    for (const char* stream : {"stdout", "stderr"}) {
      FileHead head =
          ReadHead(logs.File(r.key + "." + stream), kTraceOutputBytes);
      if (head.text.empty()) continue;
      // Invalid UTF-8 would make dump() throw: keep the bytes as they come
      // where possible, replace the rest.
      line[stream] = head.text;
      if (head.cut) line[std::string(stream) + "_cut"] = true;
    }
    if (options_.trace) {
      result_.trace.push_back(
          line.dump(-1, ' ', false, ojson::error_handler_t::replace));
    }
    if (!r.status->ok() && !r.killed && !r.spec->exit_any) {
      std::string problem = r.spec->name + " ended with " + r.status->Text();
      const std::string last = ProblemLine(logs.File(r.key + ".stderr"));
      if (!last.empty()) problem += ": " + last;
      SetViolation(Violation{r.spec->path, "exit", {problem}, 0});
    }
  }
}

Result<std::vector<std::string>> CommandRun::CommandCheck(
    const InvariantSpec& inv, size_t index, const LogsDir& logs) {
  const std::string name = "check-" + std::to_string(index);
  ProcessSpec spec;
  spec.argv = inv.run;
  DDBLAB_ASSIGN_OR_RETURN(spec.program, FindProgram(inv.run[0], s_.folder));
  spec.cwd = s_.folder;
  spec.env = EnvironmentWith(
      CommandEnvironment(server_->endpoint(), server_->control_token(),
                         kCheckKey, "check", options_.seed, {}),
      kUnsetVariables);
  spec.stdout_path = logs.File(name + ".stdout");
  spec.stderr_path = logs.File(name + ".stderr");
  DDBLAB_ASSIGN_OR_RETURN(auto process, Process::Start(spec));
  SystemClock real;
  const TimePoint deadline = real.Now() + kCheckLimit;
  std::optional<ExitStatus> status;
  while (!(status = process->Poll())) {
    if (real.Now() > deadline) {
      process->Kill();
      process->Wait();
      return std::vector<std::string>{inv.run[0] + " did not end within " +
                                      Seconds(kCheckLimit)};
    }
    real.SleepUntil(real.Now() + kPollEvery, std::stop_token());
  }
  if (status->ok()) return std::vector<std::string>();
  // The first line of its output (stdout, else stderr).
  for (const char* stream : {".stdout", ".stderr"}) {
    FileHead head = ReadHead(logs.File(name + stream), kTraceOutputBytes);
    size_t start = head.text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) continue;
    const size_t end = head.text.find('\n', start);
    std::string line = head.text.substr(
        start, end == std::string::npos ? std::string::npos : end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
      line.pop_back();
    }
    return std::vector<std::string>{line};
  }
  return std::vector<std::string>{inv.run[0] + " ended with " + status->Text()};
}

Status CommandRun::Checks(Backend& backend, const LogsDir& logs) {
  const World none;
  for (size_t i = 0; i < s_.invariants.size(); ++i) {
    const InvariantSpec& inv = s_.invariants[i];
    Result<std::vector<std::string>> problems =
        inv.check == kCommand ? CommandCheck(inv, i, logs)
                              : Evaluate(inv, s_, backend, none);
    if (!problems.ok()) {
      return Error::Internal(
          inv.id + " could not be checked: " + ErrorText(problems.error()));
    }
    const bool holds = problems->empty();
    ojson line = {{"event", "invariant"},
                  {"id", inv.id},
                  {"check", inv.check},
                  {"holds", holds}};
    if (!holds) line["problems"] = *problems;
    if (options_.trace) {
      result_.trace.push_back(
          line.dump(-1, ' ', false, ojson::error_handler_t::replace));
    }
    if (!holds) SetViolation(Violation{inv.id, inv.check, *problems, 0});
  }
  return OkStatus();
}

RunResult CommandRun::Go() {
  if (options_.start_server == nullptr || !*options_.start_server) {
    return Fail(2,
                "command actors run against a server that the ddblab "
                "executable starts: use `ddblab run`");
  }
  RunServerSpec spec;
  spec.clock_start = s_.clock_start;
  spec.seed = options_.seed;
  spec.ttl_delay = s_.ttl_delay;
  spec.stream_shards = s_.stream_shards;
  auto started = (*options_.start_server)(spec);
  if (!started.ok()) {
    return Fail(1, "cannot start the server: " + started.error().message);
  }
  server_ = std::move(*started);
  auto logs = LogsDir::Make(options_.logs_dir);
  if (!logs.ok()) return Fail(1, logs.error().message);
  BackendOptions backend_options;
  backend_options.credentials = AwsCredentials{kCheckKey, kSecret, "", ""};
  backend_options.retry = RetryPolicy::Off();
  backend_options.control_token = server_->control_token();
  auto backend = OpenBackend(server_->endpoint(), backend_options);
  if (!backend.ok()) return Fail(1, backend.error().message);
  auto control = Control::Open(*server_);
  if (!control.ok()) return Fail(1, control.error().message);

  if (Status set = SetUp(**backend); !set.ok()) {
    return Fail(set.error().type == ErrorType::kValidation ? 2 : 1,
                set.error().message);
  }
  json actors = json::array();
  for (const ActorSpec& a : s_.actors) actors.push_back(ActorKey(a.name));
  json schedule = {{"actors", actors},
                   {"seed", options_.seed},
                   {"tick", DurationText(s_.tick)},
                   {"idle", DurationText(s_.idle)}};
  if (options_.schedule != nullptr) {
    schedule["replay"] = *options_.schedule;  // the copies' keys
  } else {
    schedule["strategy"] = options_.strategy.Text();
  }
  if (auto posted = control->Send("POST", "/_ddblab/schedule", schedule);
      !posted.ok()) {
    return Fail(1, "starting the schedule: " + posted.error().message);
  }
  ojson start = {{"event", "start"},
                 {"scenario", s_.name},
                 {"seed", options_.seed},
                 {"strategy", options_.strategy.Text()},
                 {"backend", "ddblab serve (in process)"},
                 {"actors", actors},
                 {"tick", DurationText(s_.tick)},
                 {"idle", DurationText(s_.idle)},
                 {"t", patterns::IsoSeconds(s_.clock_start)}};
  Emit(start);

  if (Status ok = StartActors(*logs); !ok.ok()) {
    KillAll(*control);
    return Fail(1, ok.error().message);
  }
  auto waited = Wait(*control);
  if (!waited.ok()) {
    KillAll(*control);
    return Fail(1, waited.error().message);
  }
  const std::optional<std::string>& problem = *waited;
  result_.stopped = problem.has_value();

  // The consumers' lines, by the step after which each happened.
  std::vector<std::pair<int64_t, ojson>> consumed;
  for (Running& r : running_) {
    if (!r.consumer) continue;
    for (auto& event : r.consumer->TakeEvents()) {
      consumed.push_back(std::move(event));
    }
  }
  std::stable_sort(
      consumed.begin(), consumed.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t next_consumed = 0;
  const auto consumed_until = [&](std::optional<int64_t> step) {
    for (; next_consumed < consumed.size() &&
           (!step || consumed[next_consumed].first < *step);
         ++next_consumed) {
      Emit(consumed[next_consumed].second);
    }
  };

  // The schedule's steps, as the server recorded them.
  auto trace = control->Send("GET", "/_ddblab/schedule/trace");
  if (!trace.ok()) return Fail(1, trace.error().message);
  size_t from = 0;
  bool gate_stopped = false;
  while (from < trace->size()) {
    size_t end = trace->find('\n', from);
    if (end == std::string::npos) end = trace->size();
    const std::string line = trace->substr(from, end - from);
    from = end + 1;
    if (line.empty()) continue;
    json event = json::parse(line, nullptr, false);
    const std::string kind =
        event.is_object() ? event.value("event", std::string()) : "";
    // The run's own start and end lines stand for the schedule's.
    if (kind == "start" || kind == "end") continue;
    if (kind == "stopped") gate_stopped = true;
    if (kind.empty() && event.contains("step") && event.contains("actor") &&
        event["actor"].is_string() && !event.value("after_done", false)) {
      if (event["step"].is_number_integer()) {
        consumed_until(event["step"].get<int64_t>());
      }
      const std::string key = event["actor"].get<std::string>();
      for (size_t i = 0; i < running_.size(); ++i) {
        if (running_[i].key != key) continue;
        result_.schedule.push_back(running_[i].spec->name);
        result_.steps.push_back(StepRef{i, result_.steps.size()});
      }
    }
    if (options_.trace) result_.trace.push_back(line);
  }
  consumed_until(std::nullopt);
  (void)control->Send("DELETE", "/_ddblab/schedule");

  TraceExits(*logs);
  if (problem) {
    if (!gate_stopped) Emit(ojson{{"event", "stopped"}, {"problem", *problem}});
    // The stop comes first: the exits it caused are not the programs' own.
    result_.violation.reset();
    SetViolation(Violation{"schedule",
                           problem->starts_with("replay:") ? "replay" : "idle",
                           {*problem},
                           0});
  }
  if (Status checked = Checks(**backend, *logs); !checked.ok()) {
    return Fail(1, checked.error().message);
  }
  Emit(ojson{{"event", "end"},
             {"steps", result_.steps.size()},
             {"verdict", result_.violation ? "violated" : "holds"}});
  return std::move(result_);
}

}  // namespace

std::map<std::string, std::string> CommandEnvironment(
    const std::string& endpoint, const std::string& control_token,
    const std::string& key, const std::string& actor, uint64_t seed,
    const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> out = {
      {"AWS_ENDPOINT_URL", endpoint},
      {"AWS_ENDPOINT_URL_DYNAMODB", endpoint},
      {"AWS_ENDPOINT_URL_DYNAMODB_STREAMS", endpoint},
      {"DDBLAB_ENDPOINT", endpoint},
      {"AWS_REGION", "us-east-1"},
      {"AWS_DEFAULT_REGION", "us-east-1"},
      {"AWS_ACCESS_KEY_ID", key},
      {"AWS_SECRET_ACCESS_KEY", kSecret},
      {"DDBLAB_CONTROL_TOKEN", control_token},
      {"DDBLAB_ACTOR", actor},
      {"DDBLAB_SEED", std::to_string(seed)},
  };
  for (const auto& [name, value] : env) out[name] = value;
  return out;
}

RunResult RunCommandActors(const Scenario& scenario,
                           const RunOptions& options) {
  return CommandRun(scenario, options).Go();
}

}  // namespace ddblab::harness::scenario
