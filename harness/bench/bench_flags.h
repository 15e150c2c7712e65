// harness/bench/bench_flags.h: reading a benchmark's own flags.
//
//   BenchFlags flags;
//   DDBLAB_RETURN_IF_ERROR(flags.Parse(args, {"items", "span", "variant"}));
//   DDBLAB_ASSIGN_OR_RETURN(int64_t items, flags.Int("items", 100000, 1, 1e7));
//
// Flags are "--name value" or "--name=value"; each may appear once. Every
// error is a ValidationException whose message names the flag and what was
// expected ("--items expects a whole number from 1 to 10000000, got \"x\"").
// Durations follow emulator/api/duration.h ("90s", "1.5m", "250ms"; a bare
// number is seconds).
//
// Thread-safety: a value type; use from one thread.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/duration.h"
#include "emulator/api/result.h"

namespace ddblab::harness::bench {

class BenchFlags {
 public:
  // Reads `args`; a flag not in `known` (names without "--") is an error.
  Status Parse(std::span<const std::string> args,
               const std::vector<std::string_view>& known);

  bool Given(std::string_view name) const;
  Result<int64_t> Int(std::string_view name, int64_t fallback, int64_t min,
                      int64_t max) const;
  Result<double> Double(std::string_view name, double fallback, double min,
                        double max) const;
  // A duration of at least `min`; with `whole_seconds`, a whole number of
  // seconds. Malformed: "--NAME: invalid duration ..." (duration.h); out of
  // range: "--NAME expects a duration of at least ...".
  Result<Duration> Time(std::string_view name, Duration fallback, Duration min,
                        bool whole_seconds) const;
  std::string String(std::string_view name, std::string fallback) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

}  // namespace ddblab::harness::bench
