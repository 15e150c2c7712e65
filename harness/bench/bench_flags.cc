// harness/bench/bench_flags.cc: flag parsing for the pattern benchmarks.
#include "harness/bench/bench_flags.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace ddblab::harness::bench {
namespace {

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

std::string Shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

Status BenchFlags::Parse(std::span<const std::string> args,
                         const std::vector<std::string_view>& known) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!arg.starts_with("--") || arg.size() == 2) {
      return Error::Validation("unexpected argument " + Quoted(arg) +
                               " (flags are --name VALUE)");
    }
    std::string name = arg.substr(2);
    std::optional<std::string> value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    bool ok = false;
    for (std::string_view k : known) ok = ok || k == name;
    if (!ok) return Error::Validation("unknown flag --" + name);
    if (!value) {
      if (i + 1 >= args.size()) {
        return Error::Validation("--" + name + " needs a value");
      }
      value = args[++i];
    }
    if (!values_.emplace(name, *value).second) {
      return Error::Validation("--" + name + " is given twice");
    }
  }
  return OkStatus();
}

bool BenchFlags::Given(std::string_view name) const {
  return values_.find(name) != values_.end();
}

Result<int64_t> BenchFlags::Int(std::string_view name, int64_t fallback,
                                int64_t min, int64_t max) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& text = it->second;
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < min ||
      n > max) {
    return Error::Validation("--" + std::string(name) +
                             " expects a whole number from " +
                             std::to_string(min) + " to " +
                             std::to_string(max) + ", got " + Quoted(text));
  }
  return n;
}

Result<double> BenchFlags::Double(std::string_view name, double fallback,
                                  double min, double max) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& text = it->second;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) ||
      v < min || v > max) {
    return Error::Validation("--" + std::string(name) +
                             " expects a number from " + Shortest(min) +
                             " to " + Shortest(max) + ", got " + Quoted(text));
  }
  return v;
}

Result<Duration> BenchFlags::Time(std::string_view name, Duration fallback,
                                  Duration min, bool whole_seconds) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  Result<Duration> d = ParseDuration(it->second);
  if (!d.ok()) {
    return Error::Validation("--" + std::string(name) + ": " +
                             d.error().message);
  }
  const bool whole = *d % std::chrono::seconds(1) == Duration::zero();
  if (*d < min || (whole_seconds && !whole)) {
    return Error::Validation(
        "--" + std::string(name) + " expects a duration of at least " +
        DurationText(min) + (whole_seconds ? " in whole seconds" : "") +
        " (e.g. 90s, 15m, 1h), got " + Quoted(it->second));
  }
  return *d;
}

std::string BenchFlags::String(std::string_view name,
                               std::string fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

}  // namespace ddblab::harness::bench
