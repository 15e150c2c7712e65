// harness/bench/bench_command.cc: `ddblab bench`: arguments, opening the
// backend, the table of benchmarks, the report envelope, progress, summary
// and plot.
#include "harness/bench/bench_command.h"

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "harness/bench/aggregator_bench.h"
#include "harness/bench/bench_report.h"
#include "harness/bench/interruptible_backend.h"
#include "harness/bench/pattern_bench.h"
#include "harness/bench/stepped_backend.h"
#include "harness/bench/sweeper_bench.h"

#ifndef DDBLAB_PLOT_SCRIPT
#define DDBLAB_PLOT_SCRIPT "bench/plot_patterns.py"
#endif
#ifndef DDBLAB_AGGREGATOR_PLOT_SCRIPT
#define DDBLAB_AGGREGATOR_PLOT_SCRIPT "bench/plot_aggregator.py"
#endif

namespace ddblab::harness::bench {
namespace {

// The benchmarks `ddblab bench NAME` runs.
const PatternBench kBenches[] = {
    {"sweeper", kSweeperUsage, &RunSweeperBench},
    {"aggregator", kAggregatorUsage, &RunAggregatorBench},
};

constexpr const char* kUsage =
    "usage: ddblab bench sweeper|aggregator [--backend "
    "emulator|http://HOST:PORT|aws[:REGION]]\n"
    "                    [--clock virtual|real] [--ttl-delay SPEC] "
    "[--capacity off|enforce]\n"
    "                    [--json OUT] [--plot OUT.png]\n"
    "                    [benchmark flags]\n"
    "  --backend B      emulator (in process, default), http://HOST:PORT "
    "(ddblab serve or\n"
    "                   another DynamoDB endpoint such as DynamoDB Local), "
    "aws or aws:REGION\n"
    "  --clock C        virtual (default where the clock can be moved: the "
    "emulator,\n"
    "                   ddblab serve --clock manual) or real\n"
    "  --ttl-delay S    the emulator's TTL delay model: 0, 90s, 1m..48h or aws "
    "(default aws)\n"
    "  --capacity C     the emulator's capacity model: off (default) or "
    "enforce (on-demand\n"
    "                   and provisioned limits on its clock; throttles are "
    "retried as an SDK\n"
    "                   retries them and counted in the report)\n"
    "  --json OUT       write the report (schema ddblab-pattern-bench/1)\n"
    "  --plot OUT.png   draw the report with bench/plot_patterns.py "
    "(python3-matplotlib);\n"
    "                   without --json the report is kept as OUT.png.json\n";

struct Args {
  std::string bench;
  std::string backend = "emulator";
  std::optional<std::string> clock;
  std::optional<std::string> ttl_delay;
  std::optional<std::string> capacity;
  std::string json_out;
  std::string plot_out;
  bool help = false;
  std::vector<std::string> rest;  // the benchmark's flags
};

// An error message (without "ddblab bench: ") when the arguments are bad.
std::string ParseArgs(std::span<const std::string> args, Args* out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      out->help = true;
      continue;
    }
    if (i == 0 && !arg.starts_with("-")) {  // the name comes first
      out->bench = arg;
      continue;
    }
    std::string name = arg;
    std::optional<std::string> value;
    if (size_t eq = arg.find('='); arg.starts_with("--") && eq != arg.npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    const bool ours = name == "--backend" || name == "--clock" ||
                      name == "--json" || name == "--plot" ||
                      name == "--ttl-delay" || name == "--capacity";
    if (!ours) {
      out->rest.push_back(arg);
      continue;
    }
    if (!value) {
      if (i + 1 >= args.size()) return name + " needs a value";
      value = args[++i];
    }
    if (name == "--backend") {
      out->backend = *value;
    } else if (name == "--clock") {
      if (*value != "virtual" && *value != "real") {
        return "--clock expects virtual or real, got \"" + *value + "\"";
      }
      out->clock = *value;
    } else if (name == "--json") {
      out->json_out = *value;
    } else if (name == "--plot") {
      out->plot_out = *value;
    } else if (name == "--capacity") {
      if (*value != "off" && *value != "enforce") {
        return "--capacity expects off or enforce, got \"" + *value + "\"";
      }
      out->capacity = *value;
    } else {
      out->ttl_delay = *value;
    }
  }
  if (out->help) return "";
  if (out->bench.empty()) return "no benchmark named (sweeper, aggregator)";
  if (out->backend != "emulator" && out->ttl_delay) {
    return "--ttl-delay applies to --backend emulator (start ddblab serve "
           "with --ttl-delay instead)";
  }
  if (out->backend != "emulator" && out->capacity) {
    return "--capacity applies to --backend emulator (start ddblab serve "
           "with --capacity enforce instead)";
  }
  return "";
}

const PatternBench* FindBench(std::string_view name) {
  for (const PatternBench& b : kBenches) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

struct Opened {
  std::unique_ptr<Backend> backend;
  std::string kind;
  bool virtual_clock = false;
};

// Opens the backend for `args`; a ValidationException for a bad choice.
Result<Opened> Open(const Args& args) {
  Opened out;
  const std::string& spec = args.backend;
  if (spec == "emulator") {
    out.kind = "emulator";
    out.virtual_clock = args.clock.value_or("virtual") == "virtual";
    std::string full =
        out.virtual_clock ? "emulator?clock=manual&" : "emulator?clock=system&";
    full += "ttl_delay=" + args.ttl_delay.value_or("aws");
    full += "&capacity=" + args.capacity.value_or("off");
    DDBLAB_ASSIGN_OR_RETURN(out.backend, OpenBackend(full));
    return out;
  }
  if (spec.starts_with("emulator")) {
    return Error::Validation(
        "--backend emulator takes no options (use --clock, --ttl-delay and "
        "--capacity), got " +
        spec);
  }
  if (spec == "aws" || spec.starts_with("aws:")) {
    if (args.clock.value_or("real") == "virtual") {
      return Error::Validation(
          "--clock virtual: Amazon DynamoDB's clock cannot be moved (use "
          "--clock real)");
    }
    out.kind = "aws";
    DDBLAB_ASSIGN_OR_RETURN(out.backend, OpenBackend(spec));
    return out;
  }
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<Backend> probe, OpenBackend(spec));
  const bool ddblab = probe->Has(Capability::kTtlSweep);
  const bool movable = probe->Has(Capability::kClock);
  out.kind = ddblab ? "ddblab" : "dynamodb";
  out.virtual_clock =
      args.clock.value_or(movable ? "virtual" : "real") == "virtual";
  if (out.virtual_clock && !movable) {
    return Error::Validation(
        "--clock virtual needs a backend whose clock the benchmark can move: " +
        spec +
        (ddblab ? " is ddblab serve on the system clock (start it with "
                  "--clock manual, or use --clock real)"
                : " is not ddblab (use --clock real)"));
  }
  if (!out.virtual_clock && movable) {
    return Error::Validation(
        "--clock real: " + spec +
        " is ddblab serve --clock manual, whose clock moves only when told "
        "(use --clock virtual, or start it on the system clock)");
  }
  if (!out.virtual_clock) {
    out.backend = std::move(probe);
    return out;
  }
  DDBLAB_ASSIGN_OR_RETURN(out.backend, OpenStepped(spec));
  return out;
}

// "2026-11-25T01:20:00Z".
std::string IsoNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A progress bar redrawn on `err` (a terminal) when the percentage moves.
class ProgressBar {
 public:
  ProgressBar(std::ostream& err, bool tty) : err_(err), tty_(tty) {}
  void Draw(double fraction, std::string_view label) {
    if (!tty_) return;
    const int percent = static_cast<int>(fraction * 100);
    if (percent == percent_ && label == label_) return;
    percent_ = percent;
    label_ = label;
    const int filled = percent * 30 / 100;
    err_ << "\r\033[K[" << std::string(static_cast<size_t>(filled), '#')
         << std::string(static_cast<size_t>(30 - filled), '.') << "] "
         << percent << "% " << label << std::flush;
  }
  void Clear() {
    if (tty_ && percent_ >= 0) err_ << "\r\033[K" << std::flush;
  }

 private:
  std::ostream& err_;
  bool tty_;
  int percent_ = -1;
  std::string label_;
};

// SIGINT and SIGTERM, blocked in every thread of the run (the mask is set
// before the backend and the benchmark start theirs) and waited for by one
// thread: the first calls `on_signal`, a second ends the process at once.
// The destructor stops the thread and restores the mask.
class SignalWatcher {
 public:
  SignalWatcher() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
  }
  ~SignalWatcher() {
    if (thread_.joinable()) {
      done_ = true;
      pthread_kill(thread_.native_handle(), SIGTERM);
      thread_.join();
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  void Start(std::function<void()> on_signal) {
    thread_ = std::thread([this, on_signal = std::move(on_signal)] {
      for (int count = 0;; ++count) {
        int signal = 0;
        if (sigwait(&set_, &signal) != 0 || done_) return;
        if (count > 0) std::_Exit(128 + signal);
        on_signal();
      }
    });
  }

 private:
  sigset_t set_;
  sigset_t old_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int RunBenchCommand(std::span<const std::string> args, std::ostream& out,
                    std::ostream& err, bool tty) {
  Args a;
  if (std::string bad = ParseArgs(args, &a); !bad.empty()) {
    err << "ddblab bench: " << bad << "\n" << kUsage;
    return 2;
  }
  if (a.help) {
    out << kUsage;
    for (const PatternBench& b : kBenches) {
      out << "\n" << b.name << " flags:\n" << b.usage;
    }
    return 0;
  }
  const PatternBench* bench = FindBench(a.bench);
  if (bench == nullptr) {
    std::string names;
    for (const PatternBench& b : kBenches) {
      names += (names.empty() ? "" : ", ") + std::string(b.name);
    }
    err << "ddblab bench: unknown benchmark \"" << a.bench << "\" (" << names
        << ")\n";
    return 2;
  }
  const std::string who = "ddblab bench " + a.bench + ": ";
  const auto started = std::chrono::steady_clock::now();
  const std::string started_at = IsoNow();
  SignalWatcher signals;  // before any thread is started
  auto opened = Open(a);
  if (!opened.ok()) {
    err << who << opened.error().message << "\n";
    return opened.error().type == ErrorType::kValidation ? 2 : 1;
  }
  InterruptibleBackend guarded(*opened->backend);
  signals.Start([&guarded] { guarded.Interrupt(); });
  BenchTarget target{&guarded, a.backend, opened->kind, opened->virtual_clock};
  ProgressBar bar(err, tty);
  Result<BenchOutcome> outcome =
      bench->run(target, a.rest,
                 [&](double f, std::string_view label) { bar.Draw(f, label); });
  bar.Clear();
  if (guarded.interrupted()) {
    err << who
        << "interrupted by a signal; the tables the run created were deleted\n";
    return 130;
  }
  if (!outcome.ok()) {
    err << who << outcome.error().message << "\n";
    // A bad flag is refused before the benchmark calls the backend; an
    // error during the run (the backend's included) is a failed run.
    const bool bad_flag =
        outcome.error().type == ErrorType::kValidation && guarded.calls() == 0;
    return bad_flag ? 2 : 1;
  }
  json backend = {{"spec", a.backend},
                  {"kind", target.kind},
                  {"clock", target.virtual_clock ? "virtual" : "real"}};
  if (target.kind == "emulator") {
    backend["ttl_delay"] = a.ttl_delay.value_or("aws");
    backend["capacity"] = a.capacity.value_or("off");
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  json report = MakeReport(a.bench, backend, started_at, elapsed, *outcome);
  std::string json_path = a.json_out;
  if (json_path.empty() && !a.plot_out.empty())
    json_path = a.plot_out + ".json";
  if (!json_path.empty()) {
    std::ofstream file(json_path, std::ios::binary | std::ios::trunc);
    file << report.dump(2) << "\n";
    file.close();
    if (!file) {
      err << who << "cannot write " << json_path << "\n";
      return 2;
    }
  }
  PrintSummary(report, out);
  int code = report["ok"].get<bool>() ? 0 : 1;
  if (!a.plot_out.empty()) {
    const char* env = std::getenv("DDBLAB_PLOT_SCRIPT");
    // The aggregator's reports have their own plots.
    const std::string script = env != nullptr ? env
                               : a.bench == "aggregator"
                                   ? DDBLAB_AGGREGATOR_PLOT_SCRIPT
                                   : DDBLAB_PLOT_SCRIPT;
    // Debian's python3 (where python3-matplotlib is) before the PATH's.
    const std::string python = std::filesystem::exists("/usr/bin/python3")
                                   ? "/usr/bin/python3"
                                   : "python3";
    const std::string command = python + " " + Quote(script) + " --out " +
                                Quote(a.plot_out) + " " + Quote(json_path);
    if (std::system(command.c_str()) != 0) {
      err << who << "plotting failed: " << command << "\n";
      code = 1;
    } else {
      out << "plot: " << a.plot_out << "\n";
    }
  }
  return code;
}

}  // namespace ddblab::harness::bench
