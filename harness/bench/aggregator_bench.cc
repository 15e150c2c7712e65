// harness/bench/aggregator_bench.cc: the rollup-aggregator benchmark's run:
// tables, stream shards, the producer, the mapping with its timed function,
// the polling loop on either clock, and the report (see aggregator_bench.h).
#include "harness/bench/aggregator_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "emulator/api/random.h"
#include "harness/bench/aggregator_run.h"
#include "harness/bench/metered_backend.h"
#include "harness/consumer/config.h"
#include "harness/consumer/esm.h"
#include "harness/consumer/function.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::bench {
namespace {

using SteadyClock = std::chrono::steady_clock;

double Seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

// CPU time of this process, every thread (a measurement, not a clock
// anything waits on): in process it includes the emulator's work.
double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

int64_t EpochMillis(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             t.time_since_epoch())
      .count();
}

// The record index in a TransferId "t<index>"; -1 for anything else.
int64_t IndexOf(const json& image) {
  auto id = image.find("TransferId");
  if (id == image.end() || !id->contains("S")) return -1;
  const std::string& s = (*id)["S"].get_ref<const std::string&>();
  if (s.size() < 2 || s[0] != 't') return -1;
  int64_t v = 0;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace

AggregatorRun::AggregatorRun(const BenchTarget& target, AggregatorParams params,
                             const ProgressFn& progress)
    : target_(target),
      p_(std::move(params)),
      progress_(progress),
      backend_(*target.backend),
      rng_(p_.seed),
      delivered_(static_cast<size_t>(p_.records), 0) {
  uint64_t unique = p_.seed;
  if (!target.virtual_clock) {
    // A shared endpoint or an AWS account: names differ between runs.
    unique ^=
        static_cast<uint64_t>(SteadyClock::now().time_since_epoch().count());
    unique ^= static_cast<uint64_t>(EpochMillis(SystemClock().Now())) << 20;
  }
  char suffix[16];
  std::snprintf(suffix, sizeof(suffix), "%08x",
                static_cast<unsigned>(Rng(unique).Next() & 0xffffffffu));
  const std::string prefix = std::string("ddblab_bench_agg_") + suffix + "_";
  config_.source_table = prefix + "transfers";
  config_.rollup_table = prefix + "rollup";
  config_.dedupe_table = prefix + "dedupe";
  config_.variant = p_.variant;
  config_.seed = p_.seed;
  // Metered (metered_backend.h) without a copy of every request.
  config_.return_consumed_capacity = "TOTAL";
  config_.function_name = "ddblab-bench-aggregator";
}

void AggregatorRun::Unavailable(std::string what, std::string why) {
  outcome_.not_available.push_back({{"what", what}, {"why", why}});
}

Status AggregatorRun::Setup() {
  DDBLAB_ASSIGN_OR_RETURN(patterns::RollupAggregator aggregator,
                          patterns::RollupAggregator::Open(backend_, config_));
  aggregator_ =
      std::make_unique<patterns::RollupAggregator>(std::move(aggregator));
  tables_created_ = true;
  DDBLAB_RETURN_IF_ERROR(aggregator_->Setup());
  if (target_.virtual_clock) DDBLAB_RETURN_IF_ERROR(SyncClocks());
  DDBLAB_RETURN_IF_ERROR(SetShards());

  json request = {{"TableName", config_.source_table},
                  {"FunctionName", config_.function_name},
                  {"StartingPosition", "TRIM_HORIZON"},
                  {"BatchSize", p_.batch_size},
                  {"ParallelizationFactor", p_.parallelization}};
  if (p_.variant == patterns::RollupVariant::kCorrect) {
    request["FunctionResponseTypes"] = {"ReportBatchItemFailures"};
  }
  DDBLAB_ASSIGN_OR_RETURN(consumer::EsmConfig esm_config,
                          consumer::ParseEsmConfig(request));
  esm_ = std::make_unique<consumer::EventSourceMapping>(
      backend_, esm_config,
      std::make_unique<consumer::CallableFunction>(
          [this](const json& event) { return Invoke(event); }),
      p_.seed);
  return OkStatus();
}

// A local ManualClock that is not the server's (ddblab serve over HTTP) is
// set to the server's time, read from the new table's CreationDateTime, or
// the server is set forward to it: record ages and the dedupe items' TTL
// must agree on both sides.
Status AggregatorRun::SyncClocks() {
  auto* local = dynamic_cast<ManualClock*>(&backend_.clock());
  if (local == nullptr) return OkStatus();
  DDBLAB_ASSIGN_OR_RETURN(
      json table,
      backend_.Call("DescribeTable", {{"TableName", config_.source_table}}));
  const double created = table["Table"].value("CreationDateTime", 0.0);
  const TimePoint server{std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(std::ceil(created)))};
  if (local->Now() < server) {
    local->Set(server);
  } else if (local->Now() - server > std::chrono::seconds(1)) {
    DDBLAB_RETURN_IF_ERROR(backend_.SetClock(local->Now()));
  }
  return OkStatus();
}

Result<json> AggregatorRun::StreamShards() {
  DDBLAB_ASSIGN_OR_RETURN(
      json table,
      backend_.Call("DescribeTable", {{"TableName", config_.source_table}}));
  const std::string arn = table["Table"].value("LatestStreamArn", "");
  json open = json::array();
  std::optional<std::string> start;
  while (true) {
    json request = {{"StreamArn", arn}};
    if (start) request["ExclusiveStartShardId"] = *start;
    DDBLAB_ASSIGN_OR_RETURN(json out,
                            backend_.CallStreams("DescribeStream", request));
    const json& desc = out["StreamDescription"];
    for (const json& shard : desc.value("Shards", json::array())) {
      if (!shard["SequenceNumberRange"].contains("EndingSequenceNumber")) {
        open.push_back(shard.value("ShardId", ""));
      }
    }
    if (!desc.contains("LastEvaluatedShardId")) break;
    start = desc["LastEvaluatedShardId"].get<std::string>();
  }
  return open;
}

Status AggregatorRun::SetShards() {
  DDBLAB_ASSIGN_OR_RETURN(json open, StreamShards());
  if (static_cast<int64_t>(open.size()) < p_.shards) {
    if (!backend_.Has(Capability::kStreamShards)) {
      Unavailable("stream_shards",
                  "backend " + backend_.name() +
                      " has no stream shard control; its stream has " +
                      std::to_string(open.size()) + " open shard(s), not " +
                      std::to_string(p_.shards));
    } else {
      while (static_cast<int64_t>(open.size()) < p_.shards) {
        // Every open shard splits in two while that stays within S; then
        // one at a time.
        std::optional<std::string> one;
        if (static_cast<int64_t>(open.size()) * 2 > p_.shards) {
          one = open[0].get<std::string>();
        }
        auto split = backend_.SplitStreamShards(config_.source_table, one);
        if (!split.ok()) return split.error();
        DDBLAB_ASSIGN_OR_RETURN(open, StreamShards());
      }
    }
  } else if (static_cast<int64_t>(open.size()) > p_.shards) {
    Unavailable("stream_shards",
                "the stream already has " + std::to_string(open.size()) +
                    " open shards (shards cannot be merged); the run used "
                    "them all");
  }
  open_shards_ = static_cast<int64_t>(open.size());
  return OkStatus();
}

Result<json> AggregatorRun::Invoke(const json& event) {
  const json& records = event["Records"];
  const size_t n = records.size();
  ++invocations_;
  if (n > 0) {
    const json& newest = records[n - 1]["dynamodb"]["NewImage"];
    if (auto t = patterns::AsInt(newest.value("TransferTime", json()))) {
      ages_ms_.push_back(
          static_cast<double>(EpochMillis(backend_.clock().Now()) - *t));
    }
  }
  for (const json& r : records) {
    int64_t i = IndexOf(r["dynamodb"]["NewImage"]);
    if (i >= 0 && i < p_.records && !delivered_[static_cast<size_t>(i)]) {
      delivered_[static_cast<size_t>(i)] = 1;
      ++delivered_unique_;
    }
  }
  const Duration cost = p_.handler_cost + p_.record_cost * static_cast<int>(n);
  round_cost_ = std::max(round_cost_, cost);
  Result<json> out = json(nullptr);
  if (p_.fail_every > 0 && invocations_ % p_.fail_every == 0) {
    // The function crashes half way: what it wrote stays written.
    ++injected_failures_;
    json half = {{"Records",
                  json(records.begin(),
                       records.begin() + static_cast<std::ptrdiff_t>(n / 2))}};
    (void)aggregator_->Handle(half);
    out = Error::Internal("injected function error (--fail-every " +
                          std::to_string(p_.fail_every) + ")");
  } else {
    out = aggregator_->Handle(event);
  }
  if (!target_.virtual_clock && cost > Duration::zero()) {
    backend_.clock().SleepUntil(backend_.clock().Now() + cost,
                                std::stop_token());
  }
  return out;
}

void AggregatorRun::Report() {
  const double fraction = static_cast<double>(produced_ + delivered_unique_) /
                          static_cast<double>(2 * p_.records);
  if (!progress_ || fraction < last_progress_ + 0.01) return;
  last_progress_ = fraction;
  progress_(fraction, "produced " + std::to_string(produced_) + ", delivered " +
                          std::to_string(delivered_unique_) + " of " +
                          std::to_string(p_.records));
}

Status AggregatorRun::Advance(Duration d) {
  if (d <= Duration::zero()) return OkStatus();
  return backend_.AdvanceClock(d);
}

int64_t AggregatorRun::DueBy(TimePoint start, TimePoint now) const {
  const int64_t produced = produced_.load();
  int64_t due = p_.records;
  if (p_.rate > 0) {
    due = std::min<int64_t>(
        p_.records,
        static_cast<int64_t>(std::floor(Seconds(now - start) * p_.rate)) + 1);
  }
  if (p_.batch_writes && due < p_.records && due > produced) {
    // A batching producer sends full batches of 25 (the last may be short).
    due = produced + (due - produced) / 25 * 25;
  }
  return due;
}

TimePoint AggregatorRun::NextDue(TimePoint start) const {
  // Record i is due at i / rate; the next write needs the next record, or
  // the last of the next full batch.
  const int64_t produced = produced_.load();
  const int64_t last =
      p_.batch_writes ? std::min(p_.records, produced + 25) - 1 : produced;
  return start +
         std::chrono::duration_cast<Duration>(std::chrono::duration<double>(
             static_cast<double>(last) / p_.rate));
}

Status AggregatorRun::Loop() {
  Clock& clock = backend_.clock();
  const TimePoint start = clock.Now();
  const auto wall_start = SteadyClock::now();
  const double cpu_start = ProcessCpuSeconds();
  Status status = target_.virtual_clock ? LoopVirtual(start, wall_start)
                                        : LoopReal(start, wall_start);
  loop_wall_ = SteadyClock::now() - wall_start;
  loop_cpu_seconds_ = ProcessCpuSeconds() - cpu_start;
  loop_clock_ = clock.Now() - start;
  if (status.ok() && progress_) progress_(1.0, "done");
  return status;
}

// One thread, time standing still while it works: write what is due, run
// one polling round, then move the clock by the round's cost (its slowest
// invocation) or, when idle, by the poll interval.
Status AggregatorRun::LoopVirtual(TimePoint start,
                                  SteadyClock::time_point wall_start) {
  Clock& clock = backend_.clock();
  std::optional<TimePoint> produced_at;
  while (true) {
    const int64_t due = DueBy(start, clock.Now());
    if (produced_ < due) DDBLAB_RETURN_IF_ERROR(Produce(due));
    if (produced_ == p_.records && !produced_at) {
      produced_at = clock.Now();
      producer_wall_ = SteadyClock::now() - wall_start;
    }
    round_cost_ = Duration::zero();
    const int64_t before = delivered_unique_;
    DDBLAB_ASSIGN_OR_RETURN(int64_t invoked, esm_->RunOnce());
    Report();
    if (invoked == 0 && produced_ == p_.records &&
        delivered_unique_ == p_.records) {
      return OkStatus();
    }
    if (produced_at && clock.Now() - *produced_at > p_.drain_timeout) {
      timed_out_ = true;
      return OkStatus();
    }
    if (round_cost_ > Duration::zero()) {
      DDBLAB_RETURN_IF_ERROR(Advance(round_cost_));
    } else if (invoked == 0 || delivered_unique_ == before) {
      // Idle, or retrying without new records: Lambda polls again later.
      DDBLAB_RETURN_IF_ERROR(Advance(p_.poll_interval));
    }
  }
}

// Two threads on the real clock: the producer writes on its schedule while
// the consumer polls, as they would in production (the backend takes calls
// from several threads). An idle consumer sleeps the poll interval.
Status AggregatorRun::LoopReal(TimePoint start,
                               SteadyClock::time_point wall_start) {
  Clock& clock = backend_.clock();
  Status produced_status;
  std::atomic<bool> producing{true};
  std::jthread producer([&](std::stop_token stop) {
    while (!stop.stop_requested()) {
      const int64_t due = DueBy(start, clock.Now());
      if (produced_ < due) {
        Status s = Produce(due);
        if (!s.ok()) {
          produced_status = s;
          break;
        }
      }
      if (produced_ == p_.records) {
        producer_wall_ = SteadyClock::now() - wall_start;
        break;
      }
      if (p_.rate > 0) clock.SleepUntil(NextDue(start), stop);
    }
    producing = false;
  });
  std::optional<TimePoint> drain_from;
  while (true) {
    const bool done_producing = !producing.load();
    DDBLAB_ASSIGN_OR_RETURN(int64_t invoked, esm_->RunOnce());
    Report();
    if (done_producing && !produced_status.ok()) break;
    if (invoked == 0 && done_producing && delivered_unique_ == p_.records) {
      break;
    }
    const TimePoint now = clock.Now();
    if (done_producing) {
      if (!drain_from) drain_from = now;
      if (now - *drain_from > p_.drain_timeout) {
        timed_out_ = true;
        break;
      }
    }
    if (invoked == 0) clock.SleepUntil(now + p_.poll_interval, {});
  }
  producer.join();
  return produced_status;
}

Status AggregatorRun::DeleteTables() {
  if (!tables_created_ || p_.keep_tables) return OkStatus();
  std::string failed;
  for (const std::string& table :
       {config_.source_table, config_.rollup_table, config_.dedupe_table}) {
    for (int attempt = 0;; ++attempt) {
      auto out = backend_.Call("DeleteTable", {{"TableName", table}});
      if (out.ok() || out.error().type == ErrorType::kResourceNotFound) {
        break;
      }
      // Still being created or updated: wait and try again (AWS).
      if (out.error().type != ErrorType::kResourceInUse || attempt >= 60) {
        failed += (failed.empty() ? "" : ", ") + table + " (" +
                  ToString(out.error()) + ")";
        break;
      }
      patterns::WaitFor(backend_, std::chrono::seconds(1));
    }
  }
  if (!failed.empty()) {
    return Error::Internal("could not delete " + failed);
  }
  return OkStatus();
}

}  // namespace ddblab::harness::bench
