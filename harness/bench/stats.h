// harness/bench/stats.h: percentiles for benchmark reports.
//
//   Percentiles p = Percentiles::Of(delays_seconds);
//   results["delay_seconds"] = p.ToJson();  // {"p50":..,"p99":..,"max":..}
//
// Nearest-rank percentiles (the smallest sample with at least q of the
// samples at or below it); an empty sample gives zeros and count 0.
//
// Thread-safety: pure functions on values.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

namespace ddblab::harness::bench {

struct Percentiles {
  size_t count = 0;
  double p50 = 0;
  double p99 = 0;
  double max = 0;

  static Percentiles Of(std::vector<double> samples) {
    Percentiles out;
    out.count = samples.size();
    if (samples.empty()) return out;
    std::sort(samples.begin(), samples.end());
    const auto rank = [&](double q) {
      const double n = static_cast<double>(samples.size());
      size_t i = static_cast<size_t>(std::ceil(q * n));
      return samples[std::clamp<size_t>(i, 1, samples.size()) - 1];
    };
    out.p50 = rank(0.50);
    out.p99 = rank(0.99);
    out.max = samples.back();
    return out;
  }

  // Durations as seconds.
  template <typename Rep, typename Period>
  static Percentiles Of(
      const std::vector<std::chrono::duration<Rep, Period>>& samples) {
    std::vector<double> seconds;
    seconds.reserve(samples.size());
    for (const auto& d : samples) {
      seconds.push_back(std::chrono::duration<double>(d).count());
    }
    return Of(std::move(seconds));
  }

  nlohmann::json ToJson() const {
    return {{"p50", p50}, {"p99", p99}, {"max", max}};
  }
};

}  // namespace ddblab::harness::bench
