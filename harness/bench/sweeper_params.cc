// harness/bench/sweeper_params.cc: the sweeper benchmark's flags.
#include "harness/bench/sweeper_params.h"

#include "harness/bench/bench_flags.h"
#include "harness/bench/sweeper_bench.h"

namespace ddblab::harness::bench {

using namespace std::chrono_literals;

const std::string_view kSweeperUsage =
    "  --items N            items written, expiring over the span (default "
    "100000;\n"
    "                       5000 on a real clock)\n"
    "  --span D             time the expiries spread over (default 1h; 10s on "
    "a real clock)\n"
    "  --window D           expiration window, whole seconds (default 1m; 2s "
    "real)\n"
    "  --frequency D        trigger period, whole seconds (default: the "
    "window)\n"
    "  --chunk N            deletes per BatchWriteItem, 1-25 (default 25;\n"
    "                       the correct variant: per worker's share, one\n"
    "                       conditional DeleteItem per key)\n"
    "  --retries N          retries of UnprocessedItems (of a throttled\n"
    "                       DeleteItem), 0-10 (default 3)\n"
    "  --workers C          concurrent sweep workers sharing a trigger's "
    "deletes (default 1)\n"
    "  --variant V          correct | window_not_multiple_of_frequency |\n"
    "                       no_pagination | no_unprocessed_retry |\n"
    "                       unconditional_delete (default correct)\n"
    "  --native-sample N    items also written to a native-TTL table to time "
    "TTL deletion\n"
    "                       (default 10000; 0: off)\n"
    "  --item-bytes N       payload bytes per item (default 64)\n"
    "  --lead D             real clock: time allowed for writing before the "
    "first expiry\n"
    "                       (default 5s + 1s per 1000 items)\n"
    "  --wru-price USD      on-demand $ per million write request units "
    "(default 0.625)\n"
    "  --rru-price USD      on-demand $ per million read request units "
    "(default 0.125)\n"
    "  --price-region R     the prices' region, for the report (default "
    "us-east-1)\n"
    "  --price-date D       when the prices were read (default 2024-11)\n";

Result<SweeperParams> ParseSweeperParams(const BenchTarget& target,
                                         std::span<const std::string> args) {
  BenchFlags flags;
  DDBLAB_RETURN_IF_ERROR(flags.Parse(
      args, {"items", "span", "window", "frequency", "chunk", "retries",
             "workers", "variant", "native-sample", "item-bytes", "lead",
             "wru-price", "rru-price", "price-region", "price-date"}));
  SweeperParams p;
  p.virtual_clock = target.virtual_clock;
  const bool real = !target.virtual_clock;
  p.real_clock_defaults =
      real && !(flags.Given("items") && flags.Given("span") &&
                flags.Given("window") && flags.Given("lead"));
  DDBLAB_ASSIGN_OR_RETURN(
      p.items, flags.Int("items", real ? 5000 : 100000, 1, 10000000));
  DDBLAB_ASSIGN_OR_RETURN(
      p.span,
      flags.Time("span", real ? Duration(10s) : Duration(1h), 1s, true));
  DDBLAB_ASSIGN_OR_RETURN(
      p.window,
      flags.Time("window", real ? Duration(2s) : Duration(1min), 1s, true));
  DDBLAB_ASSIGN_OR_RETURN(p.frequency,
                          flags.Time("frequency", p.window, 1s, true));
  DDBLAB_ASSIGN_OR_RETURN(int64_t chunk, flags.Int("chunk", 25, 1, 25));
  DDBLAB_ASSIGN_OR_RETURN(int64_t retries, flags.Int("retries", 3, 0, 10));
  DDBLAB_ASSIGN_OR_RETURN(int64_t workers, flags.Int("workers", 1, 1, 64));
  p.chunk = static_cast<int>(chunk);
  p.retries = static_cast<int>(retries);
  p.workers = static_cast<int>(workers);
  auto variant =
      patterns::ParseSweeperVariant(flags.String("variant", "correct"));
  if (!variant.ok()) {
    return Error::Validation(
        "--variant expects one of correct, "
        "window_not_multiple_of_frequency, "
        "no_pagination, no_unprocessed_retry, unconditional_delete, got \"" +
        flags.String("variant", "") + "\"");
  }
  p.variant = *variant;
  if (p.variant != patterns::SweeperVariant::kWindowNotMultipleOfFrequency &&
      p.window % p.frequency != Duration::zero()) {
    return Error::Validation(
        "--window (" + DurationText(p.window) +
        ") must be a multiple of --frequency (" + DurationText(p.frequency) +
        ") for this variant; --variant window_not_multiple_of_frequency "
        "benchmarks the published mistake");
  }
  DDBLAB_ASSIGN_OR_RETURN(
      p.native_sample,
      flags.Int("native-sample", std::min<int64_t>(10000, p.items), 0,
                p.items));
  DDBLAB_ASSIGN_OR_RETURN(p.item_bytes, flags.Int("item-bytes", 64, 0, 300000));
  const Duration auto_lead = 5s + std::chrono::seconds(p.items / 1000);
  DDBLAB_ASSIGN_OR_RETURN(p.lead, flags.Time("lead", auto_lead, 0s, true));
  DDBLAB_ASSIGN_OR_RETURN(p.wru_price_per_million,
                          flags.Double("wru-price", 0.625, 0, 1000));
  DDBLAB_ASSIGN_OR_RETURN(p.rru_price_per_million,
                          flags.Double("rru-price", 0.125, 0, 1000));
  p.price_region = flags.String("price-region", p.price_region);
  p.price_date = flags.String("price-date", p.price_date);
  return p;
}

json SweeperParamsJson(const SweeperParams& p) {
  json out = {
      {"items", p.items},
      {"span", DurationText(p.span)},
      {"window", DurationText(p.window)},
      {"frequency", DurationText(p.frequency)},
      {"chunk", p.chunk},
      {"retries", p.retries},
      {"workers", p.workers},
      {"worker_model",
       "threads: each trigger's expired keys are cut into chunks that the "
       "workers take from one queue"},
      {"variant", patterns::SweeperVariantName(p.variant)},
      {"native_sample", p.native_sample},
      {"item_bytes", p.item_bytes},
      {"wru_price_usd_per_million", p.wru_price_per_million},
      {"rru_price_usd_per_million", p.rru_price_per_million},
      {"price_region", p.price_region},
      {"price_date", p.price_date}};
  if (!p.virtual_clock) {
    out["lead"] = DurationText(p.lead);
    out["real_clock_defaults"] = p.real_clock_defaults;
    if (p.real_clock_defaults) {
      out["note"] =
          "real clock: the defaults are scaled down (items 5000, span 10s, "
          "window and frequency 2s, lead 5s + 1s per 1000 items) so that a "
          "run ends in well under a minute";
    }
  }
  return out;
}

}  // namespace ddblab::harness::bench
