// harness/scenario/command_consumer.cc: a consumer actor of a command run,
// its function process and the board the consumers share (see
// command_consumer.h).
//
// ProcessFunction's timeout and its wait for the process are real time
// (std::chrono::steady_clock): they bound a real child process.
#include "harness/scenario/command_consumer.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "harness/backend/backend.h"
#include "harness/backend/http_transport.h"
#include "harness/consumer/config.h"
#include "harness/consumer/esm.h"
#include "harness/scenario/actors.h"
#include "harness/scenario/command_actors.h"
#include "harness/scenario/consumer_faults.h"
#include "harness/scenario/process.h"
#include "harness/scenario/runner.h"

namespace ddblab::harness::scenario {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kSecret = "ddblab";
constexpr size_t kTraceOutputBytes = 4096;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}

void Append(const std::string& path, const std::string& text) {
  if (text.empty()) return;
  std::ofstream(path, std::ios::binary | std::ios::app) << text;
}

// GETs and POSTs to the run's server's control endpoints.
class Control {
 public:
  static Result<std::unique_ptr<Control>> Open(const std::string& endpoint,
                                               const std::string& token,
                                               Duration read_timeout) {
    TransportOptions options;
    options.read_timeout = read_timeout;
    DDBLAB_ASSIGN_OR_RETURN(auto transport,
                            BeastTransport::Open(endpoint, options));
    return std::unique_ptr<Control>(new Control(std::move(transport), token));
  }

  Result<json> Get(const std::string& path) {
    MutexLock lock(mu_);
    HttpRequest request;
    request.method = "GET";
    request.path = path;
    request.headers = {{"X-Ddblab-Token", token_}};
    DDBLAB_ASSIGN_OR_RETURN(HttpResponse response, transport_->Send(request));
    json parsed = json::parse(response.body, nullptr, false);
    if (response.status != 200 || !parsed.is_object()) {
      return Error::Internal("GET " + path + ": " +
                             std::to_string(response.status) + " " +
                             response.body);
    }
    return parsed;
  }

 private:
  Control(std::unique_ptr<BeastTransport> transport, std::string token)
      : transport_(std::move(transport)), token_(std::move(token)) {}
  Mutex mu_;
  std::unique_ptr<BeastTransport> transport_ DDBLAB_GUARDED_BY(mu_);
  std::string token_;
};

// The run's server's clock (GET /_ddblab/clock), for the mapping's batching
// windows and record ages. It moves only with the schedule's steps.
class ServerClock final : public Clock {
 public:
  explicit ServerClock(Control& control) : control_(control) {}
  TimePoint Now() const override {
    auto now = control_.Get("/_ddblab/clock");
    if (!now.ok() || !now->contains("now") || !(*now)["now"].is_number()) {
      return last_;  // the server is going away: keep the last time
    }
    last_ = TimePoint(std::chrono::milliseconds(
        std::llround((*now)["now"].get<double>() * 1000.0)));
    return last_;
  }
  // Nothing waits on it (the mapping's calls do not retry): true once the
  // server's clock is there.
  bool SleepUntil(TimePoint t, std::stop_token) override { return Now() >= t; }

 private:
  Control& control_;
  mutable TimePoint last_{};
};

// Calls `before` (stamps the events so far), then the function.
class Hooked final : public consumer::Function {
 public:
  Hooked(std::unique_ptr<consumer::Function> inner,
         std::function<void()> before)
      : inner_(std::move(inner)), before_(std::move(before)) {}
  consumer::Invocation Invoke(const json& event) override {
    before_();
    return inner_->Invoke(event);
  }
  std::string Describe() const override { return inner_->Describe(); }

 private:
  std::unique_ptr<consumer::Function> inner_;
  std::function<void()> before_;
};

// Tells the board around every invocation.
class OnBoard final : public consumer::Function {
 public:
  OnBoard(std::unique_ptr<consumer::Function> inner, ConsumerBoard& board)
      : inner_(std::move(inner)), board_(board) {}
  consumer::Invocation Invoke(const json& event) override {
    board_.InvocationStarts();
    consumer::Invocation out = inner_->Invoke(event);
    board_.InvocationEnds();
    return out;
  }
  std::string Describe() const override { return inner_->Describe(); }

 private:
  std::unique_ptr<consumer::Function> inner_;
  ConsumerBoard& board_;
};

}  // namespace

// ---- ConsumerBoard --------------------------------------------------------

void ConsumerBoard::ProgramEnded() {
  MutexLock lock(mu_);
  ++ended_;
}

bool ConsumerBoard::ProgramsEnded() const {
  MutexLock lock(mu_);
  return ended_ >= programs_;
}

void ConsumerBoard::InvocationStarts() {
  MutexLock lock(mu_);
  ++generation_;
  ++running_;
}

void ConsumerBoard::InvocationEnds() {
  MutexLock lock(mu_);
  ++generation_;
  --running_;
}

int64_t ConsumerBoard::Generation() const {
  MutexLock lock(mu_);
  return generation_;
}

bool ConsumerBoard::QuietSince(int64_t since) const {
  MutexLock lock(mu_);
  return running_ == 0 && generation_ == since;
}

// ---- ProcessFunction -------------------------------------------------------

ProcessFunction::ProcessFunction(std::vector<std::string> argv,
                                 std::string program, std::string cwd,
                                 std::vector<std::string> env,
                                 std::string files,
                                 std::chrono::milliseconds timeout,
                                 const std::atomic<bool>* stop)
    : argv_(std::move(argv)),
      program_(std::move(program)),
      cwd_(std::move(cwd)),
      env_(std::move(env)),
      files_(std::move(files)),
      timeout_(timeout),
      stop_(stop) {}

std::string ProcessFunction::Describe() const {
  std::string out = "command";
  for (const std::string& a : argv_) out += " " + a;
  return out;
}

consumer::Invocation ProcessFunction::Invoke(const json& event) {
  const std::string event_path = files_ + ".event";
  {
    std::ofstream out(event_path, std::ios::binary | std::ios::trunc);
    out << event.dump();
    out.close();
    if (!out) {
      return consumer::Invocation::NotDelivered("cannot write " + event_path);
    }
  }
  ProcessSpec spec;
  spec.argv = argv_;
  spec.program = program_;
  spec.cwd = cwd_;
  spec.env = env_;
  spec.stdin_path = event_path;
  spec.stdout_path = files_ + ".response";
  spec.stderr_path = files_ + ".invocation.stderr";
  auto started = Process::Start(spec);
  if (!started.ok()) {
    return consumer::Invocation::NotDelivered(started.error().message);
  }
  Process& process = **started;
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  std::optional<ExitStatus> status;
  bool timed_out = false;
  bool stopped = false;
  while (!(status = process.Poll())) {
    if (stop_ != nullptr && stop_->load()) {
      stopped = true;
    } else if (std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
    }
    if (stopped || timed_out) {
      process.Kill();
      status = process.Wait();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const std::string response = ReadAll(spec.stdout_path);
  const std::string problem = ProblemLine(spec.stderr_path);
  Append(files_ + ".stdout", response);
  Append(files_ + ".stderr", ReadAll(spec.stderr_path));
  if (stopped) {
    return consumer::Invocation::FunctionError(
        "Runtime.ExitError", "the function was stopped with the run");
  }
  if (timed_out) {
    // Lambda's text for a function that ran past its timeout.
    char message[64];
    std::snprintf(message, sizeof(message), "Task timed out after %.2f seconds",
                  static_cast<double>(timeout_.count()) / 1000.0);
    return consumer::Invocation::FunctionError("Timeout", message);
  }
  if (!status->ok()) {
    const std::string how =
        status->signal != 0
            ? "the function was killed by signal " +
                  std::to_string(status->signal)
            : "the function exited with status " + std::to_string(status->code);
    return consumer::Invocation::FunctionError(
        "Runtime.ExitError", problem.empty() ? how : how + ": " + problem);
  }
  if (response.find_first_not_of(" \t\r\n") == std::string::npos) {
    return consumer::Invocation::Ok(nullptr);
  }
  json parsed = json::parse(response, nullptr, false);
  if (parsed.is_discarded()) {
    return consumer::Invocation::FunctionError(
        "Runtime.InvalidResponse",
        "the function's response is not JSON: " +
            (response.size() > 200 ? response.substr(response.size() - 200)
                                   : response));
  }
  return consumer::Invocation::Ok(std::move(parsed));
}

// ---- CommandConsumer -------------------------------------------------------

struct CommandConsumer::State {
  std::unique_ptr<Control> control;
  std::shared_ptr<ServerClock> clock;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<consumer::EventSourceMapping> esm;
  std::vector<ojson> raw;  // events not stamped yet
  std::vector<std::pair<int64_t, ojson>> events;
};

Result<std::unique_ptr<CommandConsumer>> CommandConsumer::Start(
    ConsumerSetup setup, ConsumerBoard& board) {
  const ActorSpec& actor = *setup.actor;
  auto consumer =
      std::unique_ptr<CommandConsumer>(new CommandConsumer(setup, board));
  CommandConsumer* self = consumer.get();
  auto state = std::make_unique<State>();
  // A request of the actor may wait for the others' steps: longer than
  // the schedule's idle rule, which ends a run whose actors hang.
  const Duration wait = 3 * setup.idle + std::chrono::seconds(60);
  DDBLAB_ASSIGN_OR_RETURN(
      state->control, Control::Open(setup.endpoint, setup.control_token, wait));
  state->clock = std::make_shared<ServerClock>(*state->control);
  BackendOptions options;
  options.credentials = AwsCredentials{setup.key, kSecret, "", ""};
  options.retry = RetryPolicy::Off();
  options.control_token = setup.control_token;
  options.clock = state->clock;
  options.read_timeout = wait;
  DDBLAB_ASSIGN_OR_RETURN(state->backend, OpenBackend(setup.endpoint, options));
  DDBLAB_ASSIGN_OR_RETURN(consumer::EsmConfig config,
                          consumer::ParseEsmConfig(ConsumerMappingOf(actor)));
  const json function = ConsumerFunctionOf(actor);
  std::unique_ptr<consumer::Function> inner;
  if (function.contains("Command")) {
    DDBLAB_ASSIGN_OR_RETURN(std::string program,
                            FindProgram(actor.command[0], setup.folder));
    inner = std::make_unique<ProcessFunction>(
        actor.command, std::move(program), setup.folder, setup.env, setup.files,
        std::chrono::milliseconds(
            std::llround(function["TimeoutSeconds"].get<double>() * 1000.0)),
        &self->stop_);
  } else {
    DDBLAB_ASSIGN_OR_RETURN(inner, consumer::FunctionFromJson(function));
  }
  State* raw_state = state.get();
  auto hooked = std::make_unique<Hooked>(std::move(inner), [self] {
    // The faults fired on this batch come before the function's steps.
    if (!self->error_) {
      self->Stamp();
    }
  });
  auto faulty = std::make_unique<FaultyFunction>(
      std::move(hooked), setup.faults,
      Rng(setup.seed).Fork("consumer/" + actor.name), &raw_state->raw,
      actor.name);
  state->esm = std::make_unique<consumer::EventSourceMapping>(
      *state->backend, std::move(config),
      std::make_unique<OnBoard>(std::move(faulty), board), setup.seed);
  self->state_ = std::move(state);
  self->thread_ = std::thread([self] { self->Loop(); });
  return consumer;
}

CommandConsumer::CommandConsumer(ConsumerSetup setup, ConsumerBoard& board)
    : setup_(std::move(setup)), board_(board) {}

CommandConsumer::~CommandConsumer() { Stop(); }

void CommandConsumer::Stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

bool CommandConsumer::Stamp() {
  State& st = *state_;
  if (st.raw.empty()) return true;
  auto schedule = st.control->Get("/_ddblab/schedule");
  if (!schedule.ok()) {
    error_ = schedule.error();
    return false;
  }
  const int64_t step = schedule->value("step", int64_t{0});
  for (ojson& event : st.raw) {
    ojson line = {{"step", step}, {"consumer", setup_.actor->name}};
    for (auto& [key, value] : event.items()) line[key] = std::move(value);
    st.events.emplace_back(step, std::move(line));
  }
  st.raw.clear();
  return true;
}

void CommandConsumer::Loop() {
  State& st = *state_;
  bool in_round = false;
  bool after_programs = false;  // the round began after they all ended
  bool failed = false;
  int64_t invocations = 0;
  int64_t generation = 0;
  int64_t drain_rounds = 0;
  while (!stop_.load()) {
    if (!in_round) {
      in_round = true;
      after_programs = board_.ProgramsEnded();
      generation = board_.Generation();
      failed = false;
      invocations = 0;
    }
    auto unit = st.esm->StepRound();
    if (stop_.load()) break;
    bool over = false;
    if (!unit.ok()) {
      // A stopped schedule refuses every request: the run kills the actors.
      auto schedule = st.control->Get("/_ddblab/schedule");
      if (!schedule.ok() || schedule->value("state", "") != "active") break;
      st.raw.push_back(ojson{{"poll_error", ErrorText(unit.error())}});
      failed = true;
      over = true;
    } else {
      invocations += unit->invocations;
      over = unit->round_over;
    }
    if (!Stamp()) break;
    if (!over) continue;
    ++rounds_;
    in_round = false;
    if (!after_programs) continue;
    if (!failed && invocations == 0 && !st.esm->HasOutstanding() &&
        board_.QuietSince(generation)) {
      break;  // caught up
    }
    if (++drain_rounds >= kMaxDrainRounds) {
      problem_ = "actor " + setup_.actor->name +
                 ": its event source mapping had not caught up after " +
                 std::to_string(kMaxDrainRounds) +
                 " polling rounds past the programs' end (each round still "
                 "invoked the function, failed or left records pending)";
      break;
    }
  }
  finished_.store(true);
}

std::vector<std::pair<int64_t, ojson>> CommandConsumer::TakeEvents() {
  return std::move(state_->events);
}

ojson CommandConsumer::Summary() const {
  const consumer::EventSourceMapping& esm = *state_->esm;
  ojson line = {{"event", "consumer"},
                {"actor", setup_.actor->name},
                {"rounds", rounds_},
                {"metrics", ojson::parse(esm.metrics().ToJson().dump())},
                {"last_processing_result", esm.LastProcessingResult()}};
  if (!esm.failures().empty()) line["failures"] = esm.failures().size();
  for (const char* stream : {"stdout", "stderr"}) {
    FileHead head = ReadHead(setup_.files + "." + stream, kTraceOutputBytes);
    if (head.text.empty()) continue;
    line[stream] = head.text;
    if (head.cut) line[std::string(stream) + "_cut"] = true;
  }
  return line;
}

}  // namespace ddblab::harness::scenario
