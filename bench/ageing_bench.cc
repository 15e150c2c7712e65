// bench/ageing_bench.cc: does the emulator slow down or grow as its database
// ages? One in-process Emulator goes through:
//
//   fresh   PutItem CPU per op on a new database;
//   churn   N puts and N deletes on one table (a sliding window of at most
//           100 k live items), then PutItem CPU per op again;
//   rounds  R rounds of CreateTable / fill with 100 k items / DeleteTable,
//           printing the process RSS after each DeleteTable, then PutItem
//           CPU per op a last time.
//
// PutItem CPU per op is this thread's CPU time (the emulator runs the call on
// the caller's thread) over 10,000 puts of new keys into a probe table,
// built beforehand and then deleted; the figure is the median of 5 such
// samples. CPU time, unlike wall time, barely depends on what else runs on the
// machine.
//
//   build/bench/ageing_bench [--db :memory:|FILE|file::memory:]
//                            [--items N] [--rounds R]
//
// `--db file::memory:` opens SQLite's classic in-memory pager (what
// ":memory:" used before it moved to the memdb VFS) for comparison. Exits 1
// when the aims are missed: PutItem CPU after churn and after the rounds
// within 10 % of fresh, RSS after the last round within 20 % of round 1.
// Figures and commands: bench/README.md.
//
// Thread-safety: a single-threaded program.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/bench_items.h"
#include "emulator/api/emulator.h"

namespace {

using Json = nlohmann::json;
using ddblab::Emulator;
using ddblab::bench::Key;
using ddblab::bench::MakeItem;

constexpr int kProbePuts = 10000;
constexpr int kProbeSamples = 5;
constexpr int64_t kWindow = 100000;
constexpr int kRoundItems = 100000;

void Must(const ddblab::Result<Json>& r, const char* what) {
  if (!r.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, ToString(r.error()).c_str());
    std::exit(2);
  }
}

double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

double RssMiB() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long size = 0;
  long resident = 0;
  if (std::fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
  std::fclose(f);
  return static_cast<double>(resident) * 4096.0 / (1024.0 * 1024.0);
}

void CreateTable(Emulator& emu, const std::string& name) {
  Json create{{"TableName", name},
              {"BillingMode", "PAY_PER_REQUEST"},
              {"AttributeDefinitions",
               {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
              {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
  Must(emu.Call("CreateTable", create), "CreateTable");
}

void Put(Emulator& emu, const std::string& table, int64_t i) {
  Json request{{"TableName", table}, {"Item", MakeItem(Key(i))}};
  Must(emu.Call("PutItem", request), "PutItem");
}

void Delete(Emulator& emu, const std::string& table, int64_t i) {
  Json request{{"TableName", table}, {"Key", {{"pk", {{"S", Key(i)}}}}}};
  Must(emu.Call("DeleteItem", request), "DeleteItem");
}

// Median over samples of this thread's CPU µs per PutItem into "probe"
// (requests built beforehand: only the calls are timed).
double PutCpuMicros(Emulator& emu) {
  std::vector<Json> requests;
  for (int i = 0; i < kProbePuts; ++i) {
    requests.push_back(
        Json{{"TableName", "probe"}, {"Item", MakeItem(Key(i))}});
  }
  std::vector<double> samples;
  for (int s = 0; s < kProbeSamples; ++s) {
    double start = ThreadCpuSeconds();
    for (const Json& request : requests) {
      Must(emu.Call("PutItem", request), "PutItem");
    }
    samples.push_back((ThreadCpuSeconds() - start) * 1e6 / kProbePuts);
    for (int i = 0; i < kProbePuts; ++i) Delete(emu, "probe", i);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string db = ":memory:";
  int64_t items = 1000000;
  int rounds = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--db") == 0) {
      db = argv[i + 1];
    } else if (std::strcmp(argv[i], "--items") == 0) {
      items = std::atoll(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--rounds") == 0) {
      rounds = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  if (db != ":memory:" && db.rfind("file:", 0) != 0) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::remove((db + suffix).c_str());
    }
  }
  ddblab::Options options;
  options.db_path = db;
  auto opened = Emulator::Open(options);
  if (!opened.ok()) {
    std::fprintf(stderr, "%s\n", ToString(opened.error()).c_str());
    return 2;
  }
  Emulator& emu = **opened;
  CreateTable(emu, "probe");

  double fresh = PutCpuMicros(emu);
  std::printf("db %s: fresh PutItem %.2f us CPU/op, RSS %.0f MiB\n", db.c_str(),
              fresh, RssMiB());
  std::fflush(stdout);

  CreateTable(emu, "churn");
  for (int64_t i = 0; i < items; ++i) {
    Put(emu, "churn", i);
    if (i >= kWindow) Delete(emu, "churn", i - kWindow);
  }
  for (int64_t i = std::max<int64_t>(0, items - kWindow); i < items; ++i) {
    Delete(emu, "churn", i);
  }
  double churned = PutCpuMicros(emu);
  std::printf(
      "after %lld puts + %lld deletes: PutItem %.2f us CPU/op (%+.1f%%)"
      ", RSS %.0f MiB\n",
      static_cast<long long>(items), static_cast<long long>(items), churned,
      (churned / fresh - 1) * 100, RssMiB());
  std::fflush(stdout);

  double first_rss = 0;
  double last_rss = 0;
  for (int r = 1; r <= rounds; ++r) {
    CreateTable(emu, "round");
    for (int i = 0; i < kRoundItems; ++i) Put(emu, "round", i);
    double full = RssMiB();
    Must(emu.Call("DeleteTable", Json{{"TableName", "round"}}), "DeleteTable");
    last_rss = RssMiB();
    if (r == 1) first_rss = last_rss;
    std::printf("round %d: RSS %.0f MiB full, %.0f MiB after DeleteTable\n", r,
                full, last_rss);
    std::fflush(stdout);
  }
  double aged = PutCpuMicros(emu);
  std::printf(
      "after %d rounds: PutItem %.2f us CPU/op (%+.1f%%), RSS %.0f MiB "
      "(%+.1f%% of round 1)\n",
      rounds, aged, (aged / fresh - 1) * 100, last_rss,
      first_rss > 0 ? (last_rss / first_rss - 1) * 100 : 0.0);
  bool ok = churned <= fresh * 1.10 && aged <= fresh * 1.10 &&
            last_rss <= first_rss * 1.20;
  std::printf("%s\n", ok ? "aims met" : "aims MISSED");
  return ok ? 0 : 1;
}
