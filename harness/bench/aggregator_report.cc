// harness/bench/aggregator_report.cc: the aggregator benchmark's producer
// (PutItem or BatchWriteItem of 25, retried as an SDK retries), its results
// and checks, and RunAggregatorBench, which always deletes the tables.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "harness/bench/aggregator_run.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::bench {
namespace {

constexpr int kMaxAttempts = 20;
constexpr size_t kBatch = 25;

// backoff 25 ms * 2^(attempt-1), at most 2 s.
Duration Backoff(int attempt) {
  return std::chrono::milliseconds(25) * (1 << std::min(attempt - 1, 6));
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

json Rate(int64_t count, double seconds) {
  return seconds > 0 ? json(static_cast<double>(count) / seconds) : json();
}

// Nearest-rank percentiles of `values` (sorted here); null when empty.
json Percentiles(std::vector<double> values) {
  if (values.empty()) return nullptr;
  std::sort(values.begin(), values.end());
  auto rank = [&](double q) {
    size_t i =
        static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
    return values[std::min(values.size() - 1, i == 0 ? 0 : i - 1)];
  };
  return {{"p50", rank(0.50)}, {"p99", rank(0.99)}, {"max", values.back()}};
}

}  // namespace

json AggregatorRun::NextItem() {
  const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         backend_.clock().Now().time_since_epoch())
                         .count();
  const uint64_t customer = rng_.Uniform(static_cast<uint64_t>(p_.customers));
  const int64_t bytes = 1 + static_cast<int64_t>(rng_.Uniform(1000000));
  // Member by member: an initializer list builds each pair twice.
  json item = json::object();
  item["TransferId"]["S"] = "t" + std::to_string(produced_.load());
  item["CustomerId"]["S"] = "c" + std::to_string(customer);
  item["TransferTime"]["N"] = std::to_string(ms);
  item["Bytes"]["N"] = std::to_string(bytes);
  return item;
}

// The producer's requests ask for their consumed capacity themselves, so
// that the metered backend passes them on without copying them.
Status AggregatorRun::PutOne(json item) {
  json request = json::object();
  request["TableName"] = config_.source_table;
  request["Item"] = std::move(item);
  request["ConditionExpression"] = "attribute_not_exists(TransferId)";
  request["ReturnConsumedCapacity"] = "TOTAL";
  for (int attempt = 1;; ++attempt) {
    auto out = backend_.Call("PutItem", request);
    if (out.ok()) return OkStatus();
    // Written by an attempt whose answer was lost.
    if (attempt > 1 && out.error().type == ErrorType::kConditionalCheckFailed) {
      return OkStatus();
    }
    if (!patterns::SdkRetries(out.error()) || attempt >= kMaxAttempts) {
      return Error::Of(out.error().type,
                       "producer: PutItem: " + out.error().message);
    }
    ++producer_retries_;
    patterns::WaitFor(backend_, Backoff(attempt));
  }
}

Status AggregatorRun::PutBatch(std::vector<json> items) {
  json request = json::object();
  json& writes = request["RequestItems"][config_.source_table];
  writes = json::array();
  writes.get_ref<json::array_t&>().reserve(items.size());
  for (json& item : items) {
    json put = json::object();
    put["PutRequest"]["Item"] = std::move(item);
    writes.push_back(std::move(put));
  }
  request["ReturnConsumedCapacity"] = "TOTAL";
  for (int attempt = 1;; ++attempt) {
    auto out = backend_.Call("BatchWriteItem", request);
    if (out.ok()) {
      auto unprocessed = out->find("UnprocessedItems");
      if (unprocessed == out->end() || !unprocessed->is_object() ||
          unprocessed->empty()) {
        return OkStatus();
      }
      request["RequestItems"] = std::move(*unprocessed);
    } else if (!patterns::SdkRetries(out.error())) {
      return Error::Of(out.error().type,
                       "producer: BatchWriteItem: " + out.error().message);
    }
    if (attempt >= kMaxAttempts) {
      return Error::Internal(
          "producer: BatchWriteItem still had unprocessed items "
          "or failed after " +
          std::to_string(kMaxAttempts) + " attempts");
    }
    ++producer_retries_;
    patterns::WaitFor(backend_, Backoff(attempt));
  }
}

Status AggregatorRun::Produce(int64_t upto) {
  while (produced_ < upto) {
    if (!p_.batch_writes) {
      DDBLAB_RETURN_IF_ERROR(PutOne(NextItem()));
      ++produced_;
      continue;
    }
    std::vector<json> items;
    while (produced_ < upto && items.size() < kBatch) {
      items.push_back(NextItem());
      ++produced_;
    }
    DDBLAB_RETURN_IF_ERROR(PutBatch(std::move(items)));
  }
  return OkStatus();
}

Result<BenchOutcome> AggregatorRun::Finish() {
  DDBLAB_ASSIGN_OR_RETURN(patterns::Problems problems, aggregator_->Check());
  json& r = outcome_.results;
  const double wall = Seconds(loop_wall_);
  const double clock = std::chrono::duration<double>(loop_clock_).count();
  r["records_produced"] = produced_.load();
  r["records_delivered"] = delivered_unique_;
  r["records_per_second"] = Rate(delivered_unique_, wall);
  r["wall_seconds"] = wall;
  // The bench thread's CPU time: in process it includes the emulator's
  // work, over HTTP only the client's. Steadier than wall time on a shared
  // machine.
  r["cpu_seconds"] = loop_cpu_seconds_;
  r["records_per_cpu_second"] = Rate(delivered_unique_, loop_cpu_seconds_);
  r["producer_records_per_second"] = Rate(produced_, Seconds(producer_wall_));
  r["clock_seconds"] = clock;
  r["records_per_clock_second"] = Rate(delivered_unique_, clock);
  r["invocations"] = invocations_;
  r["injected_function_errors"] = injected_failures_;
  r["iterator_age_ms"] = Percentiles(ages_ms_);
  r["totals_exact"] = problems.empty();
  r["stream_shards"] = open_shards_;
  r["producer_retries"] = producer_retries_;

  const TableMeter source = backend_.Meter(config_.source_table);
  const TableMeter rollup = backend_.Meter(config_.rollup_table);
  const TableMeter dedupe = backend_.Meter(config_.dedupe_table);
  const bool correct = p_.variant == patterns::RollupVariant::kCorrect;
  auto units = [](const TableMeter& m) {
    return m.metered > 0 ? json(m.write_units) : json();
  };
  // The report's results are flat: one name per number.
  r["wcu_source"] = units(source);
  r["wcu_rollup"] = units(rollup);
  if (correct) r["wcu_dedupe"] = units(dedupe);
  if (source.metered > 0 && rollup.metered > 0 && source.write_units > 0) {
    r["rollup_wcu_per_source_wcu"] = rollup.write_units / source.write_units;
    const double aggregate =
        rollup.write_units + (correct ? dedupe.write_units : 0.0);
    r["aggregate_wcu_per_source_wcu"] = aggregate / source.write_units;
  }
  for (const auto& [name, m] :
       {std::pair{"source", source}, std::pair{"rollup", rollup},
        std::pair{"dedupe", dedupe}}) {
    if (m.metered == 0 && m.unmetered > 0) {
      Unavailable(std::string("consumed_capacity_") + name,
                  "backend " + backend_.name() + " answered " +
                      std::to_string(m.unmetered) +
                      " calls without ConsumedCapacity");
    }
  }
  r["throttles_source"] = source.throttles;
  r["throttles_rollup"] = rollup.throttles;
  r["throttles_dedupe"] = dedupe.throttles;
  r["throttles_streams"] = backend_.stream_throttles();
  r["unprocessed_items"] = source.unprocessed;
  const patterns::RollupStats& s = aggregator_->stats();
  r["aggregator_applied"] = s.applied;
  r["aggregator_duplicates"] = s.duplicates;
  r["aggregator_swallowed_errors"] = s.swallowed_errors;
  r["aggregator_failed_records"] = s.failed_records;
  r["aggregator_sdk_retries"] = s.sdk_retries;
  const consumer::EsmMetrics& m = esm_->metrics();
  r["mapping_function_errors"] = m.function_errors;
  r["mapping_partial_failures"] = m.partial_failures;
  r["mapping_retries"] = m.retries;
  r["mapping_records_discarded"] = m.records_discarded;
  for (const auto& [operation, count] : backend_.Calls()) {
    r["calls_" + operation] = count;
  }

  std::string delivered_detail = std::to_string(delivered_unique_) + " of " +
                                 std::to_string(produced_.load()) +
                                 " produced records delivered";
  if (timed_out_) delivered_detail += " (drain timeout reached)";
  outcome_.checks.push_back(
      {{"name", "all_records_delivered"},
       {"ok", !timed_out_ && delivered_unique_ == produced_ &&
                  produced_ == p_.records},
       {"detail", delivered_detail}});
  std::string totals_detail =
      problems.empty()
          ? "every customer-day total equals the sum over the source table"
          : std::to_string(problems.size()) + " customer-day total(s) wrong";
  for (size_t i = 0; i < problems.size() && i < 3; ++i) {
    totals_detail += (i == 0 ? ": " : "; ") + problems[i];
  }
  outcome_.checks.push_back({{"name", "totals_exact"},
                             {"ok", problems.empty()},
                             {"detail", totals_detail}});
  return outcome_;
}

Result<BenchOutcome> RunAggregatorBench(const BenchTarget& target,
                                        std::span<const std::string> flags,
                                        const ProgressFn& progress) {
  DDBLAB_ASSIGN_OR_RETURN(AggregatorParams params,
                          ParseAggregatorFlags(flags, target.virtual_clock));
  if (target.backend == nullptr) {
    return Error::Validation("no backend");
  }
  if (target.virtual_clock && !target.backend->Has(Capability::kClock)) {
    return Error::Validation("backend " + target.backend->name() +
                             " has no clock control, so the run cannot use a "
                             "virtual clock");
  }
  AggregatorRun run(target, params, progress);
  run.outcome().parameters = params.ToJson();
  Result<BenchOutcome> out = [&]() -> Result<BenchOutcome> {
    DDBLAB_RETURN_IF_ERROR(run.Setup());
    DDBLAB_RETURN_IF_ERROR(run.Loop());
    return run.Finish();
  }();
  Status deleted = run.DeleteTables();
  if (!out.ok()) {
    Error error = out.error();
    if (!deleted.ok()) error.message += "; " + deleted.error().message;
    return error;
  }
  if (!params.keep_tables) {
    out->checks.push_back(
        {{"name", "tables_deleted"},
         {"ok", deleted.ok()},
         {"detail", deleted.ok() ? "the run's three tables were deleted"
                                 : deleted.error().message}});
  }
  return out;
}

}  // namespace ddblab::harness::bench
