// harness/bench/sweeper_bench.cc: the sweeper benchmark's run: items
// written, triggers swept by C worker threads, native TTL measured on a
// sample, the checks. Flags and the report's parameters: sweeper_params.cc.
#include "harness/bench/sweeper_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iterator>
#include <map>
#include <stop_token>
#include <thread>

#include "emulator/api/mutex.h"
#include "harness/bench/bench_tables.h"
#include "harness/bench/stats.h"
#include "harness/bench/sweeper_params.h"
#include "harness/patterns/common.h"
#include "harness/patterns/ttl_window_sweeper.h"

namespace ddblab::harness::bench {
namespace {

using namespace std::chrono_literals;
using patterns::SweepReport;
using patterns::TtlWindowSweeper;
using Steady = std::chrono::steady_clock;

int64_t Secs(Duration d) {
  return std::chrono::duration_cast<std::chrono::seconds>(d).count();
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

double SecondsSince(Steady::time_point start) {
  return std::chrono::duration<double>(Steady::now() - start).count();
}

// "i0000042": sorts like the index, parsed back by IndexOf.
std::string Pk(int64_t i) {
  std::string digits = std::to_string(i);
  return "i" + std::string(digits.size() < 7 ? 7 - digits.size() : 0, '0') +
         digits;
}

int64_t IndexOf(const json& key) {
  const std::string pk = key["pk"].value("S", std::string("i0"));
  return std::stoll(pk.substr(1));
}

void Merge(const SweepReport& from, SweepReport* into) {
  into->pages += from.pages;
  into->found += from.found;
  into->deleted += from.deleted;
  into->batches += from.batches;
  into->retries += from.retries;
  into->waited += from.waited;
  into->unprocessed_left += from.unprocessed_left;
  into->kept += from.kept;
  into->delete_item_calls += from.delete_item_calls;
  into->read_units += from.read_units;
  into->write_units += from.write_units;
}

// What the run gathers across triggers.
struct Tally {
  SweepReport report;
  std::vector<double> delays;            // seconds from expiry to deletion
  std::map<std::string, int64_t> swept;  // window -> latest sweep's now
  double busy_seconds = 0;               // wall time spent sweeping
  double query_seconds = 0;              // of which in the Queries
  int triggers = 0;
};

// One trigger at `now` (epoch seconds): the variant's windows queried, the
// expired keys cut into chunks that `workers` threads delete.
Status Trigger(TtlWindowSweeper& sweeper, Backend& backend, int64_t now,
               const SweeperParams& p, const std::vector<int64_t>& ttl,
               Tally* tally) {
  const Steady::time_point start = Steady::now();
  std::vector<json> keys;
  for (const std::string& window : sweeper.WindowsAt(now)) {
    DDBLAB_ASSIGN_OR_RETURN(std::vector<json> found,
                            sweeper.FindExpired(window, now, &tally->report));
    int64_t& at = tally->swept[window];
    at = std::max(at, now);
    for (json& key : found) keys.push_back(std::move(key));
  }
  tally->query_seconds += SecondsSince(start);
  const size_t chunk = static_cast<size_t>(p.chunk);
  const size_t chunks = (keys.size() + chunk - 1) / chunk;
  std::atomic<size_t> next{0};
  Mutex mu;
  Status failed;
  auto work = [&] {
    SweepReport mine;
    std::vector<double> delays;
    for (size_t c = next++; c < chunks; c = next++) {
      auto first = keys.begin() + static_cast<std::ptrdiff_t>(c * chunk);
      auto last = keys.begin() + static_cast<std::ptrdiff_t>(
                                     std::min(keys.size(), (c + 1) * chunk));
      // The keys' items, read before the keys are moved into the request.
      std::vector<int64_t> ids;
      ids.reserve(static_cast<size_t>(last - first));
      for (auto it = first; it != last; ++it) ids.push_back(IndexOf(*it));
      std::vector<json> part(std::make_move_iterator(first),
                             std::make_move_iterator(last));
      const int left_before = mine.unprocessed_left + mine.kept;
      Status s = sweeper.DeleteKeys(std::move(part), now, &mine);
      if (!s.ok()) {
        MutexLock lock(mu);
        if (failed.ok()) failed = s;
        next = chunks;
        break;
      }
      // Which deletes were given up is not reported: count the chunk's last
      // ones as the unprocessed.
      const double at = ToEpochSecondsDouble(backend.clock().Now());
      const size_t done =
          ids.size() -
          static_cast<size_t>(mine.unprocessed_left + mine.kept - left_before);
      for (size_t k = 0; k < done; ++k) {
        delays.push_back(at -
                         static_cast<double>(ttl[static_cast<size_t>(ids[k])]));
      }
    }
    MutexLock lock(mu);
    Merge(mine, &tally->report);
    tally->delays.insert(tally->delays.end(), delays.begin(), delays.end());
  };
  std::vector<std::thread> pool;
  const size_t threads = std::min(static_cast<size_t>(p.workers), chunks);
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  tally->busy_seconds += SecondsSince(start);
  ++tally->triggers;
  return failed;
}

// Runs the TTL deletions due now (the backend has the TTL sweep control).
Status SweepTtlNow(Backend& backend) {
  auto swept = backend.SweepTtl();
  if (!swept.ok()) return swept.error();
  return OkStatus();
}

// Moves a virtual clock to `t`, or waits for it on a real one.
Status ClockTo(const BenchTarget& target, int64_t t) {
  Backend& backend = *target.backend;
  const TimePoint at = FromEpochSeconds(t);
  const TimePoint now = backend.clock().Now();
  if (!target.virtual_clock) {
    backend.clock().SleepUntil(at, std::stop_token());
    return OkStatus();
  }
  if (at > now) DDBLAB_RETURN_IF_ERROR(backend.AdvanceClock(at - now));
  return OkStatus();
}

// Native TTL on a sample: where it can be measured, the reason otherwise.
std::string NativeUnavailable(const BenchTarget& target,
                              const SweeperParams& p) {
  if (p.native_sample == 0) return "turned off with --native-sample 0";
  if (target.kind == "aws") {
    return "Amazon DynamoDB deletes expired items within a few days "
           "(typically minutes to 48 hours) on its own schedule: a benchmark "
           "run cannot wait for it or control its clock";
  }
  if (target.kind == "dynamodb") {
    return "the endpoint is not ddblab: DynamoDB Local does not support TTL "
           "(it accepts the setting and deletes nothing), and another "
           "endpoint's TTL deletion cannot be timed within a short run";
  }
  return "";
}

// The native-TTL table's deletions, timed from its stream: the records
// DynamoDB's service principal wrote (REMOVE), each at its deletion time.
struct NativeTimer {
  NativeTimer(Backend& backend, const std::string& table,
              const std::vector<int64_t>& ttls)
      : tail(backend, table), ttl(&ttls) {}

  // Reads the stream when `now` is 6 hours past the last read (`force`:
  // always), well within the stream's 24-hour retention.
  Status Poll(int64_t now, bool force) {
    if (!force && now - last_poll < 6 * 3600) return OkStatus();
    last_poll = now;
    DDBLAB_ASSIGN_OR_RETURN(std::vector<json> records, tail.Poll());
    for (const json& r : records) {
      // GetRecords spells it PrincipalId (Lambda's events: principalId).
      const json who = r.value("userIdentity", json::object());
      if (r.value("eventName", "") != "REMOVE" ||
          who.value("PrincipalId", who.value("principalId", "")) !=
              "dynamodb.amazonaws.com") {
        continue;
      }
      const json& d = r["dynamodb"];
      const double at = d.value("ApproximateCreationDateTime", 0.0);
      const int64_t i = IndexOf(d["Keys"]);
      delays.push_back(at -
                       static_cast<double>((*ttl)[static_cast<size_t>(i)]));
    }
    return OkStatus();
  }

  StreamTail tail;
  const std::vector<int64_t>* ttl;
  std::vector<double> delays;
  int64_t last_poll = 0;
};

// Drives the clock on until the native sample is gone or the horizon is
// reached (a real clock: a few seconds of grace), then reports its delays.
Status FinishNative(const BenchTarget& target, const std::string& native,
                    const SweeperParams& p, int64_t from, int64_t sampled,
                    NativeTimer& timer, const ProgressFn& progress,
                    BenchOutcome* out) {
  Backend& backend = *target.backend;
  int64_t left = 0;
  int64_t pending_since = from;
  if (target.virtual_clock) {
    // The "aws" model's tail is 48 hours: go 72 hours past the last window,
    // in steps of the trigger period (the sweeper's resolution) unless that
    // takes more than 5,000 steps.
    const int64_t horizon = from + 72 * 3600;
    const int64_t step =
        std::max<int64_t>(Secs(p.frequency), (horizon - from) / 5000);
    out->results["native_ttl_resolution_seconds"] = step;
    int64_t t = from;
    for (int n = 0; t < horizon; ++n) {
      if (n % 25 == 0) {
        DDBLAB_ASSIGN_OR_RETURN(left, CountItems(backend, native));
        if (left == 0) break;
        progress(0.9 + 0.08 * static_cast<double>(t - from) /
                           static_cast<double>(horizon - from),
                 "native TTL");
      }
      t += step;
      DDBLAB_RETURN_IF_ERROR(ClockTo(target, t));
      if (backend.Has(Capability::kTtlSweep)) {
        DDBLAB_RETURN_IF_ERROR(SweepTtlNow(backend));
      }
      DDBLAB_RETURN_IF_ERROR(timer.Poll(t, false));
    }
    DDBLAB_ASSIGN_OR_RETURN(left, CountItems(backend, native));
    pending_since = t;
  } else {
    // Stream timestamps are whole seconds.
    out->results["native_ttl_resolution_seconds"] = 1;
    for (int n = 0; n < 6; ++n) {
      DDBLAB_ASSIGN_OR_RETURN(left, CountItems(backend, native));
      if (left == 0) break;
      progress(0.95, "native TTL");
      backend.clock().SleepUntil(backend.clock().Now() + 1s, std::stop_token());
    }
    pending_since = ToEpochSeconds(backend.clock().Now());
  }
  DDBLAB_RETURN_IF_ERROR(timer.Poll(pending_since, true));
  json& results = out->results;
  results["native_ttl_sampled"] = sampled;
  results["native_ttl_deleted"] = timer.delays.size();
  results["native_ttl_pending"] = left;
  const std::string when = " by epoch second " + std::to_string(pending_since);
  if (timer.delays.empty()) {
    // No figure rather than a delay of 0.
    out->not_available.push_back(
        {{"what", "native_ttl_deletion"},
         {"why", "none of the " + std::to_string(sampled) +
                     " sampled items was deleted by DynamoDB's TTL" + when +
                     " (the delay model takes longer than the run)"}});
    return OkStatus();
  }
  results["native_ttl_delay_seconds"] = Percentiles::Of(timer.delays).ToJson();
  results["native_ttl_delay_seconds_quantiles"] =
      Percentiles::Quantiles(timer.delays, 20);
  if (left > 0) {
    out->not_available.push_back(
        {{"what", "native_ttl_tail"},
         {"why", std::to_string(left) + " of the " + std::to_string(sampled) +
                     " sampled items were not yet deleted by DynamoDB's TTL" +
                     when +
                     ": native_ttl_delay_seconds covers the deleted ones "
                     "only"}});
  }
  return OkStatus();
}

}  // namespace

Result<BenchOutcome> RunSweeperBench(const BenchTarget& target,
                                     std::span<const std::string> flags,
                                     const ProgressFn& progress) {
  DDBLAB_ASSIGN_OR_RETURN(SweeperParams p, ParseSweeperParams(target, flags));
  BenchOutcome out;
  out.parameters = SweeperParamsJson(p);
  Backend& backend = *target.backend;
  TableCleanup cleanup(backend);

  patterns::SweeperConfig config;
  config.table = UniqueTableName("ddblab_bench_sweeper");
  config.variant = p.variant;
  config.window = p.window;
  config.frequency = p.frequency;
  config.chunk = p.chunk;
  config.max_retries = p.retries;
  config.native_ttl = false;  // the sweeper's table: the sweeper alone
  DDBLAB_ASSIGN_OR_RETURN(TtlWindowSweeper sweeper,
                          TtlWindowSweeper::Open(backend, config));
  cleanup.Add(config.table);
  progress(0, "creating tables");
  DDBLAB_RETURN_IF_ERROR(sweeper.Setup());

  const std::string why_not = NativeUnavailable(target, p);
  const bool native = why_not.empty();
  const std::string native_table = config.table + "_native";
  if (native) {
    cleanup.Add(native_table);
    DDBLAB_RETURN_IF_ERROR(patterns::EnsureTable(
        backend,
        {{"TableName", native_table},
         {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
         {"AttributeDefinitions",
          {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
         {"StreamSpecification",
          {{"StreamEnabled", true}, {"StreamViewType", "KEYS_ONLY"}}},
         {"BillingMode", "PAY_PER_REQUEST"}}));
    DDBLAB_RETURN_IF_ERROR(patterns::EnsureTtl(backend, native_table, "ttl"));
  } else {
    out.not_available.push_back(
        {{"what", "native_ttl_deletion"}, {"why", why_not}});
  }

  // Items: ttl spread evenly over [base, base + span), base the start of
  // the window after now (+ the lead on a real clock, for the writes).
  const int64_t w = Secs(p.window);
  const int64_t f = Secs(p.frequency);
  const int64_t now0 = ToEpochSeconds(backend.clock().Now());
  const int64_t start = now0 + (target.virtual_clock ? 0 : Secs(p.lead));
  const int64_t base = (FloorDiv(start, w) + 1) * w;
  std::vector<int64_t> ttl(static_cast<size_t>(p.items));
  std::vector<json> items;
  items.reserve(ttl.size());
  const std::string payload(static_cast<size_t>(p.item_bytes), 'x');
  for (int64_t i = 0; i < p.items; ++i) {
    const int64_t t = base + i * Secs(p.span) / p.items;
    ttl[static_cast<size_t>(i)] = t;
    json item = {{"pk", patterns::S(Pk(i))},
                 {"ttl", patterns::N(t)},
                 {"expirationWindow", patterns::S(sweeper.WindowOf(t))}};
    if (!payload.empty()) item["payload"] = patterns::S(payload);
    items.push_back(std::move(item));
  }
  const Steady::time_point write_start = Steady::now();
  const int writers = std::max(p.workers, 4);
  DDBLAB_RETURN_IF_ERROR(
      BatchPut(backend, config.table, items, writers, [&](size_t written) {
        if (written % 2500 == 0) {
          progress(0.25 * static_cast<double>(written) /
                       static_cast<double>(items.size()),
                   "writing items");
        }
      }));
  const double write_seconds = SecondsSince(write_start);
  int64_t sampled = 0;
  if (native) {
    std::vector<json> sample;
    const int64_t stride = std::max<int64_t>(1, p.items / p.native_sample);
    for (int64_t i = 0; i < p.items && sampled < p.native_sample;
         i += stride, ++sampled) {
      sample.push_back(items[static_cast<size_t>(i)]);
    }
    DDBLAB_RETURN_IF_ERROR(
        BatchPut(backend, native_table, sample, writers, nullptr));
  }
  std::vector<std::string> item_windows;
  item_windows.reserve(items.size());
  for (json& item : items) {
    item_windows.push_back(item["expirationWindow"]["S"].get<std::string>());
  }
  items.clear();
  items.shrink_to_fit();

  // Triggers every f seconds from base + f until the last window is closed.
  const int64_t last_end = (FloorDiv(ttl.back(), w) + 1) * w;
  const int64_t triggers = (last_end - base + f - 1) / f;
  Tally tally;
  NativeTimer timer(backend, native_table, ttl);
  int64_t final_now = base;
  for (int64_t k = 1; k <= triggers; ++k) {
    DDBLAB_RETURN_IF_ERROR(ClockTo(target, base + k * f));
    if (native && target.virtual_clock && backend.Has(Capability::kTtlSweep)) {
      DDBLAB_RETURN_IF_ERROR(SweepTtlNow(backend));
    }
    final_now = target.virtual_clock ? base + k * f
                                     : ToEpochSeconds(backend.clock().Now());
    DDBLAB_RETURN_IF_ERROR(
        Trigger(sweeper, backend, final_now, p, ttl, &tally));
    if (native && target.virtual_clock) {
      DDBLAB_RETURN_IF_ERROR(timer.Poll(final_now, false));
    }
    progress(
        0.25 + 0.65 * static_cast<double>(k) / static_cast<double>(triggers),
        "sweeping");
  }

  progress(0.9, "checking");
  DDBLAB_ASSIGN_OR_RETURN(std::vector<json> remaining,
                          ScanProjected(backend, config.table, {"pk", "ttl"}));
  int64_t left_behind = 0;
  for (const json& item : remaining) {
    auto t = patterns::AsInt(item.value("ttl", json()));
    if (t && *t < final_now) ++left_behind;
  }
  int64_t expired = 0;
  int64_t expected = 0;
  for (size_t i = 0; i < ttl.size(); ++i) {
    if (ttl[i] < final_now) ++expired;
    auto it = tally.swept.find(item_windows[i]);
    if (it != tally.swept.end() && ttl[i] < it->second) ++expected;
  }
  if (native) {
    DDBLAB_RETURN_IF_ERROR(FinishNative(target, native_table, p, final_now,
                                        sampled, timer, progress, &out));
  }

  const SweepReport& r = tally.report;
  json& res = out.results;
  res["items_written"] = p.items;
  res["write_seconds"] = write_seconds;
  res["written_per_second"] =
      write_seconds > 0 ? static_cast<double>(p.items) / write_seconds : 0.0;
  res["triggers"] = tally.triggers;
  res["windows_swept"] = tally.swept.size();
  res["query_pages"] = r.pages;
  res["batch_write_calls"] = r.batches;
  res["delete_item_calls"] = r.delete_item_calls;
  res["delete_retries"] = r.retries;
  res["items_kept"] = r.kept;
  res["items_expired"] = expired;
  res["items_expired_in_swept_windows"] = expected;
  res["items_found"] = r.found;
  res["items_deleted"] = r.deleted;
  res["items_left_behind"] = left_behind;
  res["items_in_table_at_end"] = remaining.size();
  res["unprocessed_given_up"] = r.unprocessed_left;
  res["sweep_seconds"] = tally.busy_seconds;
  res["query_seconds"] = tally.query_seconds;
  res["deleted_per_second"] =
      tally.busy_seconds > 0 ? r.deleted / tally.busy_seconds : 0.0;
  res["delay_seconds"] = Percentiles::Of(tally.delays).ToJson();
  // Every 5 %, minimum to maximum: the distribution bench/plot_patterns.py
  // draws.
  res["delay_seconds_quantiles"] = Percentiles::Quantiles(tally.delays, 20);
  res["read_units"] = r.read_units;
  res["write_units"] = r.write_units;
  const double cost = (r.read_units * p.rru_price_per_million +
                       r.write_units * p.wru_price_per_million) /
                      1e6;
  res["cost_usd"] = cost;
  res["cost_per_million_items_usd"] =
      r.deleted > 0 ? cost / r.deleted * 1e6 : 0.0;

  const auto check = [&](const std::string& name, bool ok,
                         const std::string& detail) {
    out.checks.push_back({{"name", name}, {"ok", ok}, {"detail", detail}});
  };
  check("deleted_equals_expired_in_swept_windows", r.deleted == expected,
        std::to_string(r.deleted) + " deleted, " + std::to_string(expected) +
            " expired in the windows swept (at the time each was swept)");
  check("nothing_left_behind", left_behind == 0,
        std::to_string(left_behind) + " of " + std::to_string(expired) +
            " expired items still in the table after the last trigger");
  const int64_t in_table = static_cast<int64_t>(remaining.size());
  check("table_count_consistent", in_table == p.items - r.deleted,
        std::to_string(in_table) +
            " items in the table = " + std::to_string(p.items) + " written - " +
            std::to_string(r.deleted) + " deleted");
  progress(1, "done");
  return out;
}

}  // namespace ddblab::harness::bench
