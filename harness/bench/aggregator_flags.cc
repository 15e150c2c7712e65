// harness/bench/aggregator_flags.cc: the aggregator benchmark's flags: their
// usage lines, parsing with messages that name the flag, and the parameters
// as the report lists them.
#include <charconv>
#include <cmath>
#include <string>

#include "emulator/api/duration.h"
#include "harness/bench/aggregator_bench.h"

namespace ddblab::harness::bench {

const std::string_view kAggregatorUsage =
    "  --rate R              records/s the producer writes (default 5000 on "
    "a virtual\n"
    "                        clock, 100 on a real one; 0: as fast as it can)\n"
    "  --seconds T           how long the producer writes (default 10)\n"
    "  --records N           records in all (default R x T; 10000 with "
    "--rate 0)\n"
    "  --customers K         distinct CustomerIds (default 100)\n"
    "  --write single|batch  PutItem per record, or BatchWriteItem of 25 "
    "(default batch)\n"
    "  --shards S            stream shards (default 1; needs stream shard "
    "control)\n"
    "  --batch-size B        the mapping's BatchSize, 1..10000 (default "
    "100)\n"
    "  --parallelization P   the mapping's ParallelizationFactor, 1..10 "
    "(default 1)\n"
    "  --variant V           correct (idempotent) or published (naive) "
    "(default correct)\n"
    "  --handler-cost D      function time per invocation, e.g. 20ms "
    "(default 0)\n"
    "  --record-cost D       function time per record, e.g. 200us (default "
    "0)\n"
    "  --poll-interval D     an idle consumer's wait before it polls again "
    "(default 250ms)\n"
    "  --fail-every N        every Nth invocation fails after half its "
    "records\n"
    "                        (default 0: never)\n"
    "  --drain-timeout D     how long the consumer may take after the last "
    "write\n"
    "                        (default 5m on a virtual clock, 30s on a real "
    "one)\n"
    "  --seed N              seeds the records and the mapping (default 1)\n"
    "  --keep-tables         leave the tables in place at the end\n";

namespace {

Error Bad(std::string_view flag, std::string_view expected,
          std::string_view got) {
  return Error::Validation("--" + std::string(flag) + ": expected " +
                           std::string(expected) + ", got \"" +
                           std::string(got) + "\"");
}

Result<int64_t> Whole(std::string_view flag, std::string_view text, int64_t min,
                      int64_t max) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const std::string range =
      "a whole number " + std::to_string(min) + ".." + std::to_string(max);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      v < min || v > max) {
    return Bad(flag, range, text);
  }
  return v;
}

// A duration (emulator/api/duration.h: "200us", "20ms", "1.5s", "2m"; a
// bare number is seconds).
Result<Duration> Time(std::string_view flag, std::string_view text) {
  Result<Duration> d = ParseDuration(text);
  if (!d.ok()) {
    return Error::Validation("--" + std::string(flag) + ": " +
                             d.error().message);
  }
  return d;
}

double Millis(Duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

}  // namespace

json AggregatorParams::ToJson() const {
  return {
      {"rate", rate},
      {"seconds", std::chrono::duration<double>(duration).count()},
      {"records", records},
      {"customers", customers},
      {"write", batch_writes ? "batch" : "single"},
      {"shards", shards},
      {"batch_size", batch_size},
      {"parallelization_factor", parallelization},
      {"variant", patterns::RollupVariantName(variant)},
      {"handler_cost_ms", Millis(handler_cost)},
      {"record_cost_ms", Millis(record_cost)},
      {"poll_interval_ms", Millis(poll_interval)},
      {"fail_every", fail_every},
      {"drain_timeout_s", std::chrono::duration<double>(drain_timeout).count()},
      {"seed", seed},
      {"keep_tables", keep_tables}};
}

Result<AggregatorParams> ParseAggregatorFlags(
    std::span<const std::string> flags, bool virtual_clock) {
  AggregatorParams p;
  p.rate = virtual_clock ? 5000 : 100;
  p.duration = std::chrono::seconds(10);
  p.drain_timeout = virtual_clock ? Duration(std::chrono::minutes(5))
                                  : Duration(std::chrono::seconds(30));
  bool records_given = false;
  for (size_t i = 0; i < flags.size(); ++i) {
    std::string_view arg = flags[i];
    if (!arg.starts_with("--") || arg.size() == 2) {
      return Error::Validation("unexpected argument \"" + std::string(arg) +
                               "\" (flags start with --; see the usage)");
    }
    std::string_view name = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string_view::npos) {
      value = std::string(name.substr(eq + 1));
      name = name.substr(0, eq);
      has_value = true;
    }
    if (name == "keep-tables") {
      if (has_value) return Bad(name, "no value", value);
      p.keep_tables = true;
      continue;
    }
    if (!has_value) {
      if (i + 1 >= flags.size()) {
        return Error::Validation("--" + std::string(name) +
                                 ": expected a value after it");
      }
      value = flags[++i];
    }
    if (name == "rate") {
      double r = 0;
      auto [end, ec] =
          std::from_chars(value.data(), value.data() + value.size(), r);
      if (value.empty() || ec != std::errc() ||
          end != value.data() + value.size() || !std::isfinite(r) || r < 0 ||
          r > 1e7) {
        return Bad(name, "records per second, 0..10000000", value);
      }
      p.rate = r;
    } else if (name == "seconds") {
      DDBLAB_ASSIGN_OR_RETURN(int64_t s, Whole(name, value, 1, 86400));
      p.duration = std::chrono::seconds(s);
    } else if (name == "records") {
      DDBLAB_ASSIGN_OR_RETURN(p.records, Whole(name, value, 1, 100000000));
      records_given = true;
    } else if (name == "customers") {
      DDBLAB_ASSIGN_OR_RETURN(p.customers, Whole(name, value, 1, 1000000));
    } else if (name == "write") {
      if (value != "single" && value != "batch") {
        return Bad(name, "single or batch", value);
      }
      p.batch_writes = value == "batch";
    } else if (name == "shards") {
      DDBLAB_ASSIGN_OR_RETURN(p.shards, Whole(name, value, 1, 64));
    } else if (name == "batch-size") {
      DDBLAB_ASSIGN_OR_RETURN(p.batch_size, Whole(name, value, 1, 10000));
    } else if (name == "parallelization") {
      DDBLAB_ASSIGN_OR_RETURN(p.parallelization, Whole(name, value, 1, 10));
    } else if (name == "variant") {
      auto v = patterns::ParseRollupVariant(value);
      if (!v.ok()) return Bad(name, "correct or published", value);
      p.variant = *v;
    } else if (name == "handler-cost") {
      DDBLAB_ASSIGN_OR_RETURN(p.handler_cost, Time(name, value));
    } else if (name == "record-cost") {
      DDBLAB_ASSIGN_OR_RETURN(p.record_cost, Time(name, value));
    } else if (name == "poll-interval") {
      DDBLAB_ASSIGN_OR_RETURN(p.poll_interval, Time(name, value));
      if (p.poll_interval <= Duration::zero()) {
        return Bad(name, "a duration above 0", value);
      }
    } else if (name == "fail-every") {
      DDBLAB_ASSIGN_OR_RETURN(p.fail_every, Whole(name, value, 0, 1000000));
      if (p.fail_every == 1) {
        return Bad(name,
                   "0 (never) or 2 or more (every invocation failing would "
                   "never deliver a batch)",
                   value);
      }
    } else if (name == "drain-timeout") {
      DDBLAB_ASSIGN_OR_RETURN(p.drain_timeout, Time(name, value));
    } else if (name == "seed") {
      DDBLAB_ASSIGN_OR_RETURN(int64_t s, Whole(name, value, 0, INT64_MAX));
      p.seed = static_cast<uint64_t>(s);
    } else {
      return Error::Validation(
          "unknown flag --" + std::string(name) +
          " (rate, seconds, records, customers, write, shards, batch-size, "
          "parallelization, variant, handler-cost, record-cost, "
          "poll-interval, fail-every, drain-timeout, seed, keep-tables)");
    }
  }
  if (records_given && p.rate > 0) {
    p.duration = std::chrono::duration_cast<Duration>(
        std::chrono::duration<double>(static_cast<double>(p.records) / p.rate));
  }
  if (!records_given) {
    p.records =
        p.rate == 0
            ? 10000
            : std::max<int64_t>(
                  1, static_cast<int64_t>(std::llround(
                         p.rate *
                         std::chrono::duration<double>(p.duration).count())));
  }
  return p;
}

}  // namespace ddblab::harness::bench
