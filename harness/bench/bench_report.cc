// harness/bench/bench_report.cc: the report envelope and its summary table.
#include "harness/bench/bench_report.h"

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace ddblab::harness::bench {
namespace {

// Numbers as a person reads them: integers whole, others to 4 significant
// digits (6 for small money amounts).
std::string Number(const json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (!v.is_number()) return v.is_string() ? v.get<std::string>() : v.dump();
  const double d = v.get<double>();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", d);
  if (d != 0 && d < 0.01 && d > -0.01) {
    std::snprintf(buf, sizeof buf, "%.3g", d);
  }
  return buf;
}

std::string Cell(const json& v) {
  if (v.is_object() && v.contains("p50")) {
    return "p50 " + Number(v["p50"]) + "  p99 " + Number(v.value("p99", 0.0)) +
           "  max " + Number(v.value("max", 0.0));
  }
  if (v.is_array() && v.size() > 8) {
    return std::to_string(v.size()) + " values from " + Number(v.front()) +
           " to " + Number(v.back()) + " (all in the JSON report)";
  }
  if (v.is_array()) {
    std::string out;
    for (const json& x : v) out += (out.empty() ? "" : " ") + Number(x);
    return out;
  }
  if (v.is_object()) return v.dump();
  return Number(v);
}

}  // namespace

json MakeReport(const std::string& benchmark, const json& backend,
                const std::string& started_at, double elapsed_seconds,
                const BenchOutcome& outcome) {
  bool ok = true;
  for (const json& check : outcome.checks) {
    ok = ok && check.value("ok", false);
  }
  return {{"schema", kReportSchema},
          {"benchmark", benchmark},
          {"backend", backend},
          {"started_at", started_at},
          {"elapsed_seconds", elapsed_seconds},
          {"parameters", outcome.parameters},
          {"results", outcome.results},
          {"not_available", outcome.not_available},
          {"checks", outcome.checks},
          {"ok", ok}};
}

void PrintSummary(const json& report, std::ostream& out) {
  const json& backend = report["backend"];
  out << report["benchmark"].get<std::string>() << " on "
      << backend.value("spec", "") << " (" << backend.value("kind", "") << ", "
      << backend.value("clock", "") << " clock";
  if (backend.contains("ttl_delay")) {
    out << ", TTL delay " << backend["ttl_delay"].get<std::string>();
  }
  if (backend.value("capacity", "off") == "enforce") {
    out << ", capacity enforced";
  }
  out << "), " << Number(report["elapsed_seconds"]) << " s\n";
  size_t width = 0;
  for (const auto& [key, value] : report["results"].items()) {
    width = std::max(width, key.size());
  }
  for (const auto& [key, value] : report["results"].items()) {
    out << "  " << std::left << std::setw(static_cast<int>(width)) << key
        << "  " << Cell(value) << "\n";
  }
  for (const json& na : report["not_available"]) {
    out << "  not available: " << na.value("what", "") << ": "
        << na.value("why", "") << "\n";
  }
  for (const json& check : report["checks"]) {
    out << "  check " << check.value("name", "") << ": "
        << (check.value("ok", false) ? "ok" : "FAILED") << " ("
        << check.value("detail", "") << ")\n";
  }
  out << (report["ok"].get<bool>() ? "all checks ok" : "a check FAILED")
      << "\n";
}

}  // namespace ddblab::harness::bench
