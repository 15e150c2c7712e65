// harness/bench/bench_report.h: the report envelope every pattern benchmark
// shares, and its summary table.
//
//   {"schema": "ddblab-pattern-bench/1", "benchmark": NAME,
//    "backend": {"spec", "kind", "clock": "virtual"|"real"[, "ttl_delay"]},
//    "started_at": ISO-8601 UTC wall time, "elapsed_seconds": wall seconds,
//    "parameters": {...}, "results": {...}, "not_available": [...],
//    "checks": [...], "ok": every check ok}
//
// bench/pattern_report.schema.json is its JSON Schema.
//
// Thread-safety: pure functions.
#pragma once

#include <ostream>
#include <string>

#include "harness/bench/pattern_bench.h"

namespace ddblab::harness::bench {

inline constexpr const char* kReportSchema = "ddblab-pattern-bench/1";

json MakeReport(const std::string& benchmark, const json& backend,
                const std::string& started_at, double elapsed_seconds,
                const BenchOutcome& outcome);

// The summary table: backend, results (percentile objects on one line),
// what was not available, and each check.
void PrintSummary(const json& report, std::ostream& out);

}  // namespace ddblab::harness::bench
