// harness/bench/sweeper_bench.h: `ddblab bench sweeper`, the TTL-window
// sweeper (harness/patterns/ttl_window_sweeper.h) benchmarked on a Backend.
//
// N items expire over a span, in windows of a granularity; a trigger every
// `frequency` sweeps the windows the variant queries (one Query per window,
// all pages) and C workers share the trigger's deletes: the expired keys
// are cut into chunks (BatchWriteItem of `chunk` deletes, retries of
// UnprocessedItems) that C threads take from one queue. On a virtual clock
// the clock stands still during a trigger, so every figure but the
// throughput is the same from run to run; on a real clock triggers wait
// for their time.
//
// Native TTL alongside: on ddblab (in process or `ddblab serve`) a sample of
// the same items goes to a second table with TTL on and a stream; its TTL
// deletions' stream records give the delay from expiry to deletion under
// the server's delay model. Elsewhere (DynamoDB Local does not support
// TTL; Amazon DynamoDB takes minutes to days) it is reported as
// not available.
//
// Thread-safety: RunSweeperBench runs its own worker threads; call it from
// one thread.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "harness/bench/pattern_bench.h"

namespace ddblab::harness::bench {

extern const std::string_view kSweeperUsage;

Result<BenchOutcome> RunSweeperBench(const BenchTarget& target,
                                     std::span<const std::string> flags,
                                     const ProgressFn& progress);

}  // namespace ddblab::harness::bench
