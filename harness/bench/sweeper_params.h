// harness/bench/sweeper_params.h: the sweeper benchmark's flags, their
// defaults (scaled down on a real clock) and how the report lists them.
//
// Thread-safety: pure functions on values.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "harness/bench/pattern_bench.h"
#include "harness/patterns/ttl_window_sweeper.h"

namespace ddblab::harness::bench {

struct SweeperParams {
  int64_t items = 100000;
  Duration span = std::chrono::hours(1);
  Duration window = std::chrono::minutes(1);
  Duration frequency = std::chrono::minutes(1);
  int chunk = 25;
  int retries = 3;
  int workers = 1;
  patterns::SweeperVariant variant = patterns::SweeperVariant::kCorrect;
  int64_t native_sample = 10000;
  int64_t item_bytes = 64;
  Duration lead = std::chrono::seconds(5);  // real clock: time to write
                                            // (5 s + 1 s a 1000 items)
  // On-demand prices, US dollars per million request units.
  double wru_price_per_million = 0.625;
  double rru_price_per_million = 0.125;
  std::string price_region = "us-east-1";
  std::string price_date = "2024-11";
  bool real_clock_defaults = false;  // some real-clock defaults used
  bool virtual_clock = true;
};

// Reads `flags` (see kSweeperUsage); a bad flag is a ValidationException
// naming it.
Result<SweeperParams> ParseSweeperParams(const BenchTarget& target,
                                         std::span<const std::string> flags);

// Every parameter, defaults included, for the report.
json SweeperParamsJson(const SweeperParams& p);

}  // namespace ddblab::harness::bench
