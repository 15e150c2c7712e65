// harness/scenario/explore_results.cc: the --json document of an
// exploration and --merge of several.
#include "harness/scenario/explore_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

namespace ddblab::harness::scenario {
namespace {

using nlohmann::json;

constexpr int kFormat = 1;

json OrNull(const std::optional<uint64_t>& v) {
  return v ? json(*v) : json(nullptr);
}

double PerSecond(int64_t n, double seconds) {
  if (seconds <= 0) return 0;
  return std::round(static_cast<double>(n) / seconds * 10) / 10;
}

bool IsCount(const json& v) {
  return v.is_number_unsigned() ||
         (v.is_number_integer() && v.get<int64_t>() >= 0);
}

// Reads one result; "" or what is wrong with it (after "results[i]").
std::string ResultFromJson(const json& j, ExploreResult* r) {
  if (!j.is_object()) return ": not an object";
  for (const char* key : {"file", "scenario", "expect", "strategy"}) {
    if (!j.contains(key) || !j[key].is_string()) {
      return std::string(".") + key + ": missing or not a string";
    }
  }
  r->file = j["file"];
  r->scenario = j["scenario"];
  r->expect = j["expect"];
  r->strategy = j["strategy"];
  if (r->expect != "holds" && r->expect != "violated") {
    return ".expect: expected holds or violated, got " + r->expect;
  }
  if (!j.contains("seconds") || !j["seconds"].is_number() ||
      j["seconds"].get<double>() < 0) {
    return ".seconds: missing or not a non-negative number";
  }
  r->seconds = j["seconds"];
  auto count = [&](const json& parent, const char* key, const std::string& at,
                   uint64_t* value) -> std::string {
    if (!parent.contains(key) || !IsCount(parent[key])) {
      return at + "." + key + ": missing or not a non-negative integer";
    }
    *value = parent[key].get<uint64_t>();
    return "";
  };
  uint64_t n = 0;
  std::string bad;
  if (r->Exhaustive()) {
    if (!(bad = count(j, "seed", "", &r->seed)).empty()) return bad;
    if (!(bad = count(j, "max_preemptions", "", &n)).empty()) return bad;
    r->max_preemptions = static_cast<int>(n);
    if (!(bad = count(j, "budget", "", &n)).empty()) return bad;
    r->budget = static_cast<int64_t>(n);
    if (!(bad = count(j, "explored", "", &n)).empty()) return bad;
    r->explored = static_cast<int64_t>(n);
    if (!(bad = count(j, "stopped", "", &n)).empty()) return bad;
    r->stopped = static_cast<int64_t>(n);
    if (!j.contains("complete") || !j["complete"].is_boolean()) {
      return ".complete: missing or not a boolean";
    }
    r->complete = j["complete"];
    if (j.contains("estimated_schedules")) {
      if (!(bad = count(j, "estimated_schedules", "", &n)).empty()) return bad;
      r->estimated_schedules = static_cast<int64_t>(n);
    }
    if (!j.contains("failing_schedule") ||
        !(j["failing_schedule"].is_null() || IsCount(j["failing_schedule"]))) {
      return ".failing_schedule: missing or not null or an integer";
    }
    if (!j["failing_schedule"].is_null()) {
      r->failing_schedule = j["failing_schedule"].get<int64_t>();
    }
    return "";
  }
  if (!j.contains("seeds") || !j["seeds"].is_object()) {
    return ".seeds: missing or not an object";
  }
  const json& seeds = j["seeds"];
  if (!(bad = count(seeds, "from", ".seeds", &r->seeds.from)).empty() ||
      !(bad = count(seeds, "to", ".seeds", &r->seeds.to)).empty() ||
      !(bad = count(seeds, "shard", ".seeds", &r->seeds.index)).empty() ||
      !(bad = count(seeds, "shards", ".seeds", &r->seeds.count)).empty()) {
    return bad;
  }
  if (r->seeds.from > r->seeds.to || r->seeds.count < 1 || r->seeds.index < 1 ||
      r->seeds.index > r->seeds.count) {
    return ".seeds: not a range from <= to with 1 <= shard <= shards";
  }
  if (!(bad = count(j, "runs", "", &n)).empty()) return bad;
  r->runs = static_cast<int64_t>(n);
  if (n != r->seeds.Size()) {
    return ".runs: " + std::to_string(n) + ", but the shard has " +
           std::to_string(r->seeds.Size()) + " seeds";
  }
  if (!(bad = count(j, "broke", "", &n)).empty()) return bad;
  r->broke = static_cast<int64_t>(n);
  if (r->broke > r->runs) return ".broke: more than runs";
  if (!(bad = count(j, "distinct_schedules", "", &n)).empty()) return bad;
  r->distinct_schedules = static_cast<int64_t>(n);
  if (!j.contains("first_failing_seed") ||
      !(j["first_failing_seed"].is_null() ||
        IsCount(j["first_failing_seed"]))) {
    return ".first_failing_seed: missing or not null or an integer";
  }
  if (!j["first_failing_seed"].is_null()) {
    r->first_failing_seed = j["first_failing_seed"].get<uint64_t>();
  }
  if (r->first_failing_seed.has_value() != (r->broke > 0)) {
    return ".first_failing_seed: must be set exactly when broke > 0";
  }
  return "";
}

bool InShard(const SeedRange& r, uint64_t seed) {
  return seed >= r.First() && seed <= r.to && (seed - r.First()) % r.count == 0;
}

// A seed both ranges run, if any.
std::optional<uint64_t> Overlap(const SeedRange& a, const SeedRange& b) {
  const SeedRange& small = a.Size() <= b.Size() ? a : b;
  const SeedRange& other = a.Size() <= b.Size() ? b : a;
  for (uint64_t s = small.First(); s <= small.to; s += small.count) {
    if (InShard(other, s)) return s;
    if (s > UINT64_MAX - small.count) break;
  }
  return std::nullopt;
}

// The exhaustive summary line (after "<file>: ").
std::string ExhaustiveLine(const ExploreResult& r) {
  std::string head = "exhaustive seed " + std::to_string(r.seed) +
                     " (K=" + std::to_string(r.max_preemptions) + ", budget " +
                     Thousands(r.budget) + "): ";
  if (r.failing_schedule) {
    return head + "schedule " + Thousands(*r.failing_schedule) +
           " broke an invariant";
  }
  if (r.complete) {
    return head + "explored all " + Thousands(r.explored) +
           " distinct schedules: every invariant held";
  }
  return head + "budget reached after " + Thousands(r.explored) +
         (r.estimated_schedules
              ? " of about " + Thousands(*r.estimated_schedules)
              : std::string()) +
         " distinct schedules: every invariant held in those";
}

}  // namespace

uint64_t SeedRange::Size() const {
  if (First() > to) return 0;
  return (to - First()) / count + 1;
}

std::string SeedRange::Text() const {
  std::string text = std::to_string(from) + "-" + std::to_string(to);
  if (count > 1) {
    text += ", shard " + std::to_string(index) + "/" + std::to_string(count);
  }
  return text;
}

std::string Thousands(int64_t n) {
  std::string digits = std::to_string(n);
  const int first = n < 0 ? 1 : 0;
  for (int i = static_cast<int>(digits.size()) - 3; i > first; i -= 3) {
    digits.insert(static_cast<size_t>(i), ",");
  }
  return digits;
}

std::string Rate(double per_second) {
  if (per_second >= 10) return Thousands(std::llround(per_second));
  char text[32];
  std::snprintf(text, sizeof text, per_second >= 1 ? "%.1f" : "%.2f",
                per_second);
  return text;
}

json ResultsToJson(const std::vector<ExploreResult>& results) {
  json list = json::array();
  for (const ExploreResult& r : results) {
    json j = {{"file", r.file},
              {"scenario", r.scenario},
              {"expect", r.expect},
              {"strategy", r.strategy}};
    if (r.Exhaustive()) {
      j["seed"] = r.seed;
      j["max_preemptions"] = r.max_preemptions;
      j["budget"] = r.budget;
      j["explored"] = r.explored;
      j["stopped"] = r.stopped;
      j["complete"] = r.complete;
      j["failing_schedule"] =
          r.failing_schedule ? json(*r.failing_schedule) : json(nullptr);
      if (r.estimated_schedules) {
        j["estimated_schedules"] = *r.estimated_schedules;
      }
      j["schedules_per_second"] = PerSecond(r.explored + r.stopped, r.seconds);
    } else {
      j["seeds"] = {{"from", r.seeds.from},
                    {"to", r.seeds.to},
                    {"shard", r.seeds.index},
                    {"shards", r.seeds.count}};
      j["runs"] = r.runs;
      j["broke"] = r.broke;
      j["held"] = r.runs - r.broke;
      j["first_failing_seed"] = OrNull(r.first_failing_seed);
      j["distinct_schedules"] = r.distinct_schedules;
      j["seeds_per_second"] = PerSecond(r.runs, r.seconds);
    }
    j["seconds"] = std::round(r.seconds * 1000) / 1000;
    list.push_back(std::move(j));
  }
  return {{"ddblab_run_results", kFormat}, {"results", std::move(list)}};
}

std::string ResultsFromJson(const json& doc, std::vector<ExploreResult>* out) {
  if (!doc.is_object() || !doc.contains("ddblab_run_results") ||
      doc["ddblab_run_results"] != kFormat) {
    return "not a `ddblab run --json` document (no \"ddblab_run_results\": " +
           std::to_string(kFormat) + ")";
  }
  if (!doc.contains("results") || !doc["results"].is_array()) {
    return "results: missing or not an array";
  }
  for (size_t i = 0; i < doc["results"].size(); ++i) {
    ExploreResult r;
    std::string bad = ResultFromJson(doc["results"][i], &r);
    if (!bad.empty()) return "results[" + std::to_string(i) + "]" + bad;
    out->push_back(std::move(r));
  }
  return "";
}

int MergeResults(const std::vector<std::string>& paths, std::ostream& out,
                 std::ostream& err) {
  struct Source {
    ExploreResult result;
    std::string path;
  };
  // Per (file, strategy), in the order first seen.
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::vector<Source>> groups;
  for (const std::string& path : paths) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      err << "ddblab run: --merge: cannot read " << path << "\n";
      return 2;
    }
    std::stringstream text;
    text << file.rdbuf();
    json doc = json::parse(text.str(), nullptr, false);
    if (doc.is_discarded()) {
      err << "ddblab run: --merge: " << path << ": not JSON\n";
      return 2;
    }
    std::vector<ExploreResult> results;
    if (std::string bad = ResultsFromJson(doc, &results); !bad.empty()) {
      err << "ddblab run: --merge: " << path << ": " << bad << "\n";
      return 2;
    }
    for (ExploreResult& r : results) {
      auto key = std::make_pair(r.file, r.strategy);
      if (!groups.contains(key)) order.push_back(key);
      groups[key].push_back({std::move(r), path});
    }
  }
  // Refuse contradictions before printing anything.
  for (const auto& key : order) {
    const std::vector<Source>& sources = groups[key];
    for (size_t i = 0; i < sources.size(); ++i) {
      for (size_t j = i + 1; j < sources.size(); ++j) {
        const ExploreResult& a = sources[i].result;
        const ExploreResult& b = sources[j].result;
        if (a.expect != b.expect) {
          err << "ddblab run: --merge: " << sources[i].path << " and "
              << sources[j].path << " disagree on the expectation of "
              << key.first << " (" << a.expect << ", " << b.expect << ")\n";
          return 2;
        }
        std::optional<uint64_t> twice;
        if (a.Exhaustive()) {
          if (a.seed == b.seed) twice = a.seed;
        } else {
          twice = Overlap(a.seeds, b.seeds);
        }
        if (twice) {
          err << "ddblab run: --merge: " << sources[i].path << " and "
              << sources[j].path << " both ran seed " << *twice << " of "
              << key.first << " (" << key.second << ")\n";
          return 2;
        }
      }
    }
  }
  int code = 0;
  std::optional<std::pair<uint64_t, std::string>> first_of_all;
  for (const auto& key : order) {
    const std::vector<Source>& sources = groups[key];
    const std::string& file = key.first;
    const std::string& expect = sources.front().result.expect;
    bool violated = false;
    if (key.second == "exhaustive") {
      for (const Source& s : sources) {
        out << file << ": " << ExhaustiveLine(s.result) << "\n";
        violated = violated || s.result.Violated();
      }
    } else {
      int64_t runs = 0;
      int64_t broke = 0;
      int64_t distinct = 0;
      double seconds = 0;
      uint64_t from = UINT64_MAX;
      uint64_t to = 0;
      std::optional<uint64_t> first;
      for (const Source& s : sources) {
        const ExploreResult& r = s.result;
        runs += r.runs;
        broke += r.broke;
        distinct += r.distinct_schedules;
        seconds += r.seconds;
        from = std::min(from, r.seeds.from);
        to = std::max(to, r.seeds.to);
        if (r.first_failing_seed &&
            (!first || *r.first_failing_seed < *first)) {
          first = r.first_failing_seed;
        }
      }
      out << file << ": merged " << sources.size() << " result"
          << (sources.size() == 1 ? "" : "s") << " (" << key.second
          << "): explored " << runs << " seeds of " << from << "-" << to << ": "
          << broke << " broke an invariant, " << runs - broke << " held";
      if (first) out << " (first: seed " << *first << ")";
      out << "\n";
      out << file << ": at most " << Thousands(distinct)
          << " distinct schedules (the results' sum); "
          << Rate(PerSecond(runs, seconds)) << " seeds/s per machine\n";
      violated = broke > 0;
      if (first && (!first_of_all || *first < first_of_all->first)) {
        first_of_all = std::make_pair(*first, file + " (" + key.second + ")");
      }
    }
    const bool met = violated == (expect == "violated");
    out << file << ": expect " << expect << ": " << (met ? "met" : "FAILED")
        << "\n";
    if (!met) code = 1;
  }
  if (first_of_all) {
    out << "first failing seed of all: " << first_of_all->first << " of "
        << first_of_all->second << "\n";
  } else {
    out << "first failing seed of all: none (no seed broke an invariant)\n";
  }
  return code;
}

}  // namespace ddblab::harness::scenario
