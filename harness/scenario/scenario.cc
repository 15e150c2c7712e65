// harness/scenario/scenario.cc: parsing and checking scenario files.
#include "harness/scenario/scenario.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <set>
#include <sstream>
#include <utility>

#include "harness/scenario/command_actors.h"
#include "harness/scenario/consumer_faults.h"
#include "harness/scenario/fields.h"

namespace ddblab::harness::scenario {
namespace {

constexpr const char* kPatterns[] = {kOrderedWrites,
                                     kIdempotentCounter,
                                     kTtlWindowSweeper,
                                     kRollupAggregator,
                                     kTtlExpiryListener,
                                     kUniqueClaims,
                                     kScript};

// Replaces every "{i}" and "{n}" in the strings of `value`.
json Substitute(const json& value, const std::string& i, const std::string& n) {
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    for (const auto& [from, to] :
         {std::pair<std::string, const std::string&>{"{i}", i}, {"{n}", n}}) {
      size_t at = 0;
      while ((at = text.find(from, at)) != std::string::npos) {
        text.replace(at, from.size(), to);
        at += to.size();
      }
    }
    return text;
  }
  if (value.is_array() || value.is_object()) {
    json out = value;
    for (auto it = out.begin(); it != out.end(); ++it) {
      *it = Substitute(*it, i, n);
    }
    return out;
  }
  return value;
}

// "2024-01-01T00:00:00Z" or epoch seconds.
Result<int64_t> ClockStart(const json& value, const std::string& path) {
  if (value.is_number_integer()) {
    return IntValue(value, path, 0, 253402300799);
  }
  if (value.is_string()) {
    std::tm tm{};
    std::istringstream in(value.get<std::string>());
    in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%S");
    char z = 0;
    if (!in.fail() && (in >> z) && z == 'Z' && in.peek() == EOF) {
      return static_cast<int64_t>(timegm(&tm));
    }
  }
  return At(path,
            "expected a UTC time such as \"2024-01-01T00:00:00Z\" or epoch "
            "seconds, got " +
                Shown(value));
}

Status ParseBackend(Fields& top, Scenario* s) {
  if (!top.Has("backend")) {
    (void)top.Raw("backend");
    return OkStatus();
  }
  DDBLAB_ASSIGN_OR_RETURN(Fields f, top.Object("backend"));
  if (f.Has("clock")) {
    DDBLAB_ASSIGN_OR_RETURN(s->clock_start,
                            ClockStart(f.Raw("clock"), f.PathOf("clock")));
  } else {
    (void)f.Raw("clock");
  }
  DDBLAB_ASSIGN_OR_RETURN(s->ttl_delay, f.StringOr("ttl_delay", ""));
  DDBLAB_ASSIGN_OR_RETURN(int64_t shards, f.IntOr("stream_shards", 0, 0, 1024));
  s->stream_shards = static_cast<int>(shards);
  DDBLAB_ASSIGN_OR_RETURN(int64_t seed,
                          f.IntOr("seed", 1, 0, int64_t{1} << 53));
  s->seed = static_cast<uint64_t>(seed);
  DDBLAB_ASSIGN_OR_RETURN(s->tick, f.DurationOr("tick", Duration::zero()));
  DDBLAB_ASSIGN_OR_RETURN(s->idle,
                          f.DurationOr("idle", std::chrono::seconds(10)));
  if (s->idle <= Duration::zero() || s->idle > std::chrono::hours(1)) {
    return At(f.PathOf("idle"),
              "expected a duration from 1ms to 1h (real time), got " +
                  Shown(f.Raw("idle")));
  }
  // Checked member by member by the backend when the run sets it.
  s->consistency = f.Raw("consistency");
  if (!s->consistency.is_null() && !s->consistency.is_object()) {
    return At(f.PathOf("consistency"),
              "expected the consistency settings (an object such as "
              "{\"index_lag\": \"2s\"}), got " +
                  Shown(s->consistency));
  }
  DDBLAB_ASSIGN_OR_RETURN(int64_t max_steps,
                          f.IntOr("max_steps", 10000, 1, 1000000));
  s->max_steps = static_cast<int>(max_steps);
  const int64_t tick_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(s->tick).count();
  if (tick_ms > 0 &&
      int64_t{100} * 366 * 86400 * 1000 / tick_ms < s->max_steps) {
    return At(f.PathOf("tick"),
              "max_steps ticks would move the clock more than 100 years");
  }
  return f.NoOthers();
}

Status ParseTables(Fields& top, Scenario* s) {
  const json& tables = top.Raw("tables");
  if (tables.is_null()) return OkStatus();
  if (!tables.is_array()) {
    return At("tables",
              "expected a list of CreateTable requests, got " + Shown(tables));
  }
  for (size_t i = 0; i < tables.size(); ++i) {
    DDBLAB_ASSIGN_OR_RETURN(Fields f,
                            Fields::Of(tables[i], Index("tables", i)));
    DDBLAB_RETURN_IF_ERROR(f.String("TableName"));
    s->tables.push_back(tables[i]);
  }
  return OkStatus();
}

Status ParseActor(const json& entry, const std::string& path,
                  std::set<std::string>* names, Scenario* s) {
  DDBLAB_ASSIGN_OR_RETURN(Fields f, Fields::Of(entry, path));
  DDBLAB_ASSIGN_OR_RETURN(std::string name, f.String("name"));
  if (name.empty()) return At(f.PathOf("name"), "expected a non-empty name");
  if (f.Has("consumer")) {
    for (const char* other : {"command", "pattern"}) {
      if (f.Has(other)) {
        return At(path, std::string("an actor has a consumer or a ") + other +
                            ", not both");
      }
    }
    DDBLAB_RETURN_IF_ERROR(
        ParseConsumerCommandActor(f, name, s->folder, s->tables, &s->actors));
    if (!names->insert(s->actors.back().name).second) {
      return At(f.PathOf("name"), "another actor is named " + name);
    }
    return OkStatus();
  }
  if (f.Has("command")) {
    if (f.Has("pattern")) {
      return At(path, "an actor has a pattern or a command, not both");
    }
    DDBLAB_ASSIGN_OR_RETURN(int64_t count, f.IntOr("count", 0, 1, 64));
    const size_t first = s->actors.size();
    DDBLAB_RETURN_IF_ERROR(
        ParseCommandActor(f, name, count, s->folder, &s->actors));
    for (size_t i = first; i < s->actors.size(); ++i) {
      if (!names->insert(s->actors[i].name).second) {
        return At(f.PathOf("name"),
                  "another actor is named " + s->actors[i].name);
      }
    }
    return OkStatus();
  }
  DDBLAB_ASSIGN_OR_RETURN(std::string pattern, f.String("pattern"));
  bool known = false;
  for (const char* p : kPatterns) known = known || pattern == p;
  if (!known) {
    return At(f.PathOf("pattern"),
              "unknown pattern " + Shown(f.Raw("pattern")) +
                  " (ordered_writes, idempotent_counter, ttl_window_sweeper, "
                  "rollup_aggregator, ttl_expiry_listener, unique_claims, "
                  "script; or \"command\": a program)");
  }
  ActorSpec spec;
  spec.pattern = pattern;
  spec.path = path;
  if (pattern == kScript) {
    (void)f.Raw("variant");
    if (f.Has("variant")) {
      return At(f.PathOf("variant"), "a script actor has no variant");
    }
  } else {
    DDBLAB_ASSIGN_OR_RETURN(spec.variant, f.StringOr("variant", "correct"));
  }
  const json& params = f.Raw("params");
  if (!params.is_null()) {
    DDBLAB_RETURN_IF_ERROR(Fields::Of(params, f.PathOf("params")));
    spec.params = params;
  }
  DDBLAB_ASSIGN_OR_RETURN(spec.start, f.DurationOr("start", Duration::zero()));
  DDBLAB_ASSIGN_OR_RETURN(spec.every, f.DurationOr("every", Duration::zero()));
  DDBLAB_ASSIGN_OR_RETURN(int64_t count, f.IntOr("count", 0, 1, 100));
  DDBLAB_ASSIGN_OR_RETURN(int64_t repeat, f.IntOr("repeat", 1, 1, 100000));
  const json& ops = f.Raw("ops");
  if (!ops.is_array() || ops.empty()) {
    return At(f.PathOf("ops"),
              "expected a non-empty list of operations, got " + Shown(ops));
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  // The last op's time must stay far inside the clock's range.
  const auto total_ops = static_cast<int64_t>(ops.size()) * repeat;
  constexpr int64_t kMaxSeconds = int64_t{100} * 366 * 86400;
  const int64_t every_s =
      std::chrono::duration_cast<std::chrono::seconds>(spec.every).count();
  const int64_t start_s =
      std::chrono::duration_cast<std::chrono::seconds>(spec.start).count();
  if (every_s > 0 && (kMaxSeconds - start_s) / every_s < total_ops) {
    return At(f.PathOf("every"),
              "the actor's last op would come more than 100 years after the "
              "start");
  }
  const int64_t copies = count == 0 ? 1 : count;
  for (int64_t n = 1; n <= copies; ++n) {
    ActorSpec copy = spec;
    copy.name = count == 0 ? name : name + "#" + std::to_string(n);
    if (!names->insert(copy.name).second) {
      return At(f.PathOf("name"), "another actor is named " + copy.name);
    }
    copy.params = Substitute(spec.params, "", std::to_string(n));
    for (int64_t i = 1; i <= repeat; ++i) {
      for (const json& op : ops) {
        copy.ops.push_back(
            Substitute(op, std::to_string(i), std::to_string(n)));
      }
    }
    if (n == 1) DDBLAB_RETURN_IF_ERROR(CheckActorSpec(copy));
    s->actors.push_back(std::move(copy));
  }
  return OkStatus();
}

Status ParseTimeline(Fields& top, Scenario* s) {
  const json& timeline = top.Raw("timeline");
  if (timeline.is_null()) return OkStatus();
  if (!timeline.is_array()) {
    return At("timeline", "expected a list of events, got " + Shown(timeline));
  }
  Duration advanced{};
  for (size_t i = 0; i < timeline.size(); ++i) {
    const std::string path = Index("timeline", i);
    DDBLAB_ASSIGN_OR_RETURN(Fields f, Fields::Of(timeline[i], path));
    TimelineEvent event;
    event.path = path;
    DDBLAB_ASSIGN_OR_RETURN(event.at, f.DurationOf("at"));
    int kinds = 0;
    if (f.Has("advance")) {
      ++kinds;
      event.kind = "advance";
      DDBLAB_ASSIGN_OR_RETURN(event.by, f.DurationOf("advance"));
    }
    if (f.Has("faults")) {
      ++kinds;
      event.kind = "faults";
      event.value = f.Raw("faults");
      if (!event.value.is_null() && !event.value.is_object()) {
        return At(f.PathOf("faults"),
                  "expected a fault plan {\"rules\": [...]} or null, got " +
                      Shown(event.value));
      }
    }
    if (f.Has("split_shards")) {
      ++kinds;
      event.kind = "split_shards";
      DDBLAB_ASSIGN_OR_RETURN(std::string table, f.String("split_shards"));
      event.value = table;
    }
    if (f.Has("sweep_ttl")) {
      ++kinds;
      event.kind = "sweep_ttl";
      const json& v = f.Raw("sweep_ttl");
      if (!v.is_boolean() || !v.get<bool>()) {
        return At(f.PathOf("sweep_ttl"), "expected true, got " + Shown(v));
      }
    }
    if (kinds != 1) {
      return At(path,
                "expected exactly one of advance, faults, split_shards, "
                "sweep_ttl");
    }
    (void)f.Raw("advance");
    (void)f.Raw("faults");
    (void)f.Raw("split_shards");
    (void)f.Raw("sweep_ttl");
    DDBLAB_RETURN_IF_ERROR(f.NoOthers());
    if (!s->timeline.empty() && event.at < s->timeline.back().at) {
      return At(f.PathOf("at"), "events must be in time order (" +
                                    DurationText(event.at) + " comes after " +
                                    DurationText(s->timeline.back().at) + ")");
    }
    advanced += event.by;
    if (advanced > std::chrono::hours(24 * 366 * 100)) {
      return At(f.PathOf("advance"),
                "the timeline moves the clock more than 100 years");
    }
    s->timeline.push_back(std::move(event));
  }
  return OkStatus();
}

Status ParseInvariant(const json& entry, const std::string& path, Scenario* s) {
  DDBLAB_ASSIGN_OR_RETURN(Fields f, Fields::Of(entry, path));
  InvariantSpec inv;
  inv.id = path;
  DDBLAB_ASSIGN_OR_RETURN(inv.check, f.String("check"));
  DDBLAB_ASSIGN_OR_RETURN(inv.every_step, f.BoolOr("every_step", false));
  if (inv.check == kOrderedWrites || inv.check == kIdempotentCounter ||
      inv.check == kTtlWindowSweeper || inv.check == kRollupAggregator ||
      inv.check == kTtlExpiryListener || inv.check == kUniqueClaims) {
    DDBLAB_ASSIGN_OR_RETURN(inv.table, f.StringOr("table", ""));
  } else if (inv.check == "item_equals") {
    DDBLAB_ASSIGN_OR_RETURN(inv.table, f.String("table"));
    DDBLAB_RETURN_IF_ERROR(f.Object("key"));
    inv.key = f.Raw("key");
    if (!f.Has("item")) return At(f.PathOf("item"), "required (null: absent)");
    inv.item = f.Raw("item");
    if (!inv.item.is_null() && !inv.item.is_object()) {
      return At(f.PathOf("item"),
                "expected an item (attribute name to AttributeValue) or "
                "null, got " +
                    Shown(inv.item));
    }
  } else if (inv.check == kCommand) {
    DDBLAB_ASSIGN_OR_RETURN(inv.run, ParseCommandCheck(f, s->folder));
  } else if (inv.check == "count") {
    DDBLAB_ASSIGN_OR_RETURN(inv.table, f.String("table"));
    DDBLAB_ASSIGN_OR_RETURN(inv.equals, f.Int("equals", 0, int64_t{1} << 53));
  } else if (inv.check == "sum") {
    DDBLAB_ASSIGN_OR_RETURN(inv.table, f.String("table"));
    DDBLAB_ASSIGN_OR_RETURN(inv.attribute, f.String("attribute"));
    if (f.Has("over_writes") == f.Has("equals")) {
      (void)f.Raw("over_writes");
      (void)f.Raw("equals");
      return At(path, "a sum needs exactly one of equals, over_writes");
    }
    if (f.Has("over_writes")) {
      DDBLAB_ASSIGN_OR_RETURN(Fields w, f.Object("over_writes"));
      inv.over_writes = true;
      DDBLAB_ASSIGN_OR_RETURN(inv.writes_table, w.String("table"));
      DDBLAB_ASSIGN_OR_RETURN(inv.writes_attribute,
                              w.StringOr("attribute", ""));
      DDBLAB_RETURN_IF_ERROR(w.NoOthers());
    } else {
      DDBLAB_ASSIGN_OR_RETURN(
          inv.equals, f.Int("equals", -(int64_t{1} << 53), int64_t{1} << 53));
    }
  } else {
    return At(f.PathOf("check"),
              "unknown check " + Shown(f.Raw("check")) +
                  " (ordered_writes, idempotent_counter, ttl_window_sweeper, "
                  "rollup_aggregator, ttl_expiry_listener, unique_claims, "
                  "item_equals, count, sum, command)");
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  s->invariants.push_back(std::move(inv));
  return OkStatus();
}

}  // namespace

Result<Scenario> ParseScenario(std::string_view text, std::string file) {
  json doc;
  try {
    doc = json::parse(text, nullptr, true, /*ignore_comments=*/true);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    const std::string marker = "parse error at ";
    size_t at = what.find(marker);
    what = at == std::string::npos ? what : what.substr(at + marker.size());
    return Error::Validation("not JSON: " + what);
  }
  Scenario s;
  s.file = std::move(file);
  s.folder = std::filesystem::path(s.file).parent_path().string();
  if (s.folder.empty()) s.folder = ".";
  DDBLAB_ASSIGN_OR_RETURN(Fields top, Fields::Of(doc, ""));
  DDBLAB_ASSIGN_OR_RETURN(s.name, top.String("name"));
  DDBLAB_ASSIGN_OR_RETURN(s.description, top.StringOr("description", ""));
  DDBLAB_RETURN_IF_ERROR(ParseBackend(top, &s));
  DDBLAB_RETURN_IF_ERROR(ParseTables(top, &s));
  const json& actors = top.Raw("actors");
  if (!actors.is_array() || actors.empty()) {
    return At("actors",
              "expected a non-empty list of actors, got " + Shown(actors));
  }
  std::set<std::string> names;
  for (size_t i = 0; i < actors.size(); ++i) {
    DDBLAB_RETURN_IF_ERROR(
        ParseActor(actors[i], Index("actors", i), &names, &s));
  }
  s.faults = top.Raw("faults");
  if (!s.faults.is_null() &&
      (!s.faults.is_object() ||
       (!s.faults.contains("rules") && !s.faults.contains("consumer")))) {
    return At("faults",
              "expected a fault plan {\"rules\": [...]} and/or consumer "
              "faults {\"consumer\": [...]}, got " +
                  Shown(s.faults));
  }
  if (s.faults.is_object() && s.faults.contains("consumer")) {
    DDBLAB_ASSIGN_OR_RETURN(
        s.consumer_faults,
        ParseConsumerFaults(s.faults["consumer"], "faults.consumer"));
    s.faults.erase("consumer");
    if (s.faults.empty()) s.faults = nullptr;
    DDBLAB_RETURN_IF_ERROR(CheckConsumerFaultActors(s));
  }
  DDBLAB_RETURN_IF_ERROR(ParseTimeline(top, &s));
  const json& invariants = top.Raw("invariants");
  if (!invariants.is_array() || invariants.empty()) {
    return At("invariants",
              "expected a non-empty list of checks, got " + Shown(invariants));
  }
  for (size_t i = 0; i < invariants.size(); ++i) {
    DDBLAB_RETURN_IF_ERROR(
        ParseInvariant(invariants[i], Index("invariants", i), &s));
  }
  DDBLAB_ASSIGN_OR_RETURN(std::string expect, top.String("expect"));
  if (expect != "holds" && expect != "violated") {
    return At("expect", "expected \"holds\" or \"violated\", got " +
                            Shown(top.Raw("expect")));
  }
  s.expect_violated = expect == "violated";
  const json& schedule = top.Raw("schedule");
  if (!schedule.is_null()) {
    if (!schedule.is_array()) {
      return At("schedule",
                "expected a list of actor names, got " + Shown(schedule));
    }
    std::vector<std::string> steps;
    for (size_t i = 0; i < schedule.size(); ++i) {
      DDBLAB_ASSIGN_OR_RETURN(std::string name,
                              StringValue(schedule[i], Index("schedule", i)));
      if (names.count(name) == 0) {
        return At(Index("schedule", i), "no actor is named " + name);
      }
      steps.push_back(std::move(name));
    }
    s.schedule = std::move(steps);
  }
  DDBLAB_RETURN_IF_ERROR(top.NoOthers());
  if (HasCommandActors(s)) DDBLAB_RETURN_IF_ERROR(CheckCommandScenario(s));
  return s;
}

Result<Scenario> LoadScenario(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::Validation("cannot read the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseScenario(buffer.str(), path);
}

nlohmann::ordered_json ScenarioToJson(const Scenario& s) {
  using ojson = nlohmann::ordered_json;
  const auto o = [](const json& value) { return ojson::parse(value.dump()); };
  ojson out = ojson::object();
  out["name"] = s.name;
  if (!s.description.empty()) out["description"] = s.description;
  ojson backend = {{"clock", s.clock_start}, {"seed", s.seed}};
  if (!s.ttl_delay.empty()) backend["ttl_delay"] = s.ttl_delay;
  if (s.stream_shards > 0) backend["stream_shards"] = s.stream_shards;
  if (s.tick > Duration::zero()) backend["tick"] = DurationText(s.tick);
  if (s.max_steps != 10000) backend["max_steps"] = s.max_steps;
  if (s.idle != std::chrono::seconds(10)) {
    backend["idle"] = DurationText(s.idle);
  }
  if (!s.consistency.is_null()) backend["consistency"] = o(s.consistency);
  out["backend"] = backend;
  if (!s.tables.empty()) out["tables"] = o(s.tables);
  ojson actors = ojson::array();
  for (const ActorSpec& a : s.actors) {
    if (a.pattern == kConsumer) {
      ojson actor = {{"name", a.name}, {"consumer", o(a.params)}};
      if (!a.env.empty()) actor["env"] = a.env;
      actors.push_back(std::move(actor));
      continue;
    }
    if (a.pattern == kCommand) {
      ojson actor = {{"name", a.name}, {"command", a.command}};
      if (!a.env.empty()) actor["env"] = a.env;
      if (a.exit_any) actor["exit"] = "any";
      actors.push_back(std::move(actor));
      continue;
    }
    ojson actor = {{"name", a.name}, {"pattern", a.pattern}};
    if (a.pattern != kScript) actor["variant"] = a.variant;
    if (!a.params.empty()) actor["params"] = o(a.params);
    if (a.start > Duration::zero()) actor["start"] = DurationText(a.start);
    if (a.every > Duration::zero()) actor["every"] = DurationText(a.every);
    actor["ops"] = o(a.ops);
    actors.push_back(std::move(actor));
  }
  out["actors"] = actors;
  if (!s.faults.is_null() || !s.consumer_faults.empty()) {
    ojson faults = s.faults.is_null() ? ojson::object() : o(s.faults);
    if (!s.consumer_faults.empty()) {
      ojson consumer = ojson::array();
      for (const ConsumerFault& f : s.consumer_faults) {
        consumer.push_back(ConsumerFaultToJson(f));
      }
      faults["consumer"] = consumer;
    }
    out["faults"] = faults;
  }
  if (!s.timeline.empty()) {
    ojson timeline = ojson::array();
    for (const TimelineEvent& e : s.timeline) {
      ojson event = {{"at", DurationText(e.at)}};
      if (e.kind == "advance") event["advance"] = DurationText(e.by);
      if (e.kind == "faults") event["faults"] = o(e.value);
      if (e.kind == "split_shards") event["split_shards"] = o(e.value);
      if (e.kind == "sweep_ttl") event["sweep_ttl"] = true;
      timeline.push_back(std::move(event));
    }
    out["timeline"] = timeline;
  }
  ojson invariants = ojson::array();
  for (const InvariantSpec& inv : s.invariants) {
    ojson entry = {{"check", inv.check}};
    if (!inv.table.empty()) entry["table"] = inv.table;
    if (inv.check == "item_equals") {
      entry["key"] = o(inv.key);
      entry["item"] = o(inv.item);
    }
    if (inv.check == "sum") entry["attribute"] = inv.attribute;
    if (inv.check == kCommand) entry["run"] = inv.run;
    if (inv.over_writes) {
      ojson writes = {{"table", inv.writes_table}};
      if (!inv.writes_attribute.empty()) {
        writes["attribute"] = inv.writes_attribute;
      }
      entry["over_writes"] = writes;
    } else if (inv.check == "count" || inv.check == "sum") {
      entry["equals"] = inv.equals;
    }
    if (inv.every_step) entry["every_step"] = true;
    invariants.push_back(std::move(entry));
  }
  out["invariants"] = invariants;
  out["expect"] = s.expect_violated ? "violated" : "holds";
  if (s.schedule) out["schedule"] = *s.schedule;
  return out;
}

}  // namespace ddblab::harness::scenario
