// Matching, counting, drawing and logging faults (injector.h).
#include "emulator/fault/injector.h"

#include <algorithm>
#include <map>
#include <utility>

#include "emulator/api/random.h"

namespace ddblab::fault {
namespace {

using Json = nlohmann::json;

template <typename T, typename U>
bool Contains(const std::vector<T>& list, const U& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

bool KeyMatches(const Json& rule_key, const Json* item) {
  if (item == nullptr) return false;
  for (const auto& [attr, value] : rule_key.items()) {
    auto it = item->find(attr);
    if (it == item->end() || *it != value) return false;
  }
  return true;
}

bool IsTerminal(Effect effect) {
  return effect != Effect::kLatency && effect != Effect::kVisibilityDelay &&
         effect != Effect::kStaleRead && effect != Effect::kIndexLag;
}

// Adds a fired index_lag rule: one entry per table and index, the longest
// duration, the union of the matched items.
void AddIndexLag(std::vector<IndexLag>& lags, const Rule& rule,
                 const std::vector<size_t>& items) {
  const std::string& table = rule.tables.front();  // ParsePlan: exactly one
  for (IndexLag& lag : lags) {
    if (lag.table != table || lag.index != rule.index) continue;
    lag.duration = std::max(lag.duration, rule.duration);
    lag.items.insert(lag.items.end(), items.begin(), items.end());
    std::sort(lag.items.begin(), lag.items.end());
    lag.items.erase(std::unique(lag.items.begin(), lag.items.end()),
                    lag.items.end());
    return;
  }
  lags.push_back(IndexLag{table, rule.index, rule.duration, items});
}

// The items of `call` a rule selects, or nullopt if it does not match.
std::optional<std::vector<size_t>> Match(const Rule& rule,
                                         const CallView& call) {
  if (!rule.operations.empty() && !Contains(rule.operations, call.operation)) {
    return std::nullopt;
  }
  if (rule.operations.empty() && rule.effect == Effect::kRequestLimit &&
      call.api == Api::kStreams) {
    return std::nullopt;
  }
  if (!rule.tables.empty()) {
    bool any = false;
    for (const std::string& t : call.tables)
      any = any || Contains(rule.tables, t);
    if (!any) return std::nullopt;
  }
  std::vector<size_t> items;
  for (size_t i = 0; i < call.items.size(); ++i) {
    const CallItem& item = call.items[i];
    if (!rule.tables.empty() && !Contains(rule.tables, item.table)) continue;
    if (!rule.key.is_null() && !KeyMatches(rule.key, item.item)) continue;
    items.push_back(i);
  }
  if (!rule.key.is_null() && items.empty()) return std::nullopt;
  if (rule.count && items.size() > static_cast<size_t>(*rule.count)) {
    items.resize(static_cast<size_t>(*rule.count));
  }
  return items;
}

Json KeyOf(const CallItem& item, const std::map<std::string, TableFacts>& facts,
           const Rule& rule) {
  if (item.item == nullptr) return nullptr;
  std::vector<std::string> names;
  auto it = facts.find(item.table);
  if (it != facts.end() && it->second.found) {
    names = it->second.key_attributes;
  } else if (rule.key.is_object()) {
    for (const auto& [attr, value] : rule.key.items()) names.push_back(attr);
  }
  if (names.empty()) return *item.item;
  Json key = Json::object();
  for (const std::string& name : names) {
    auto v = item.item->find(name);
    if (v != item.item->end()) key[name] = *v;
  }
  return key;
}

}  // namespace

Json LogEntryToJson(const LogEntry& entry) {
  return Json{{"seq", entry.seq},
              {"time", ToEpochSecondsDouble(entry.time)},
              {"operation", entry.operation},
              {"table", entry.table},
              {"keys", entry.keys},
              {"rule", entry.rule_id},
              {"effect", std::string(EffectName(entry.effect))}};
}

void Injector::SetPlan(Plan plan) {
  std::lock_guard<std::mutex> lock(mu_);
  counters_.assign(plan.rules.size(), Counters{});
  plan_ = std::move(plan);
  Duration horizon{};
  for (const Rule& rule : plan_.rules) {
    if (rule.effect == Effect::kStaleRead) {
      horizon = std::max(horizon, rule.duration);
    }
  }
  stale_read_horizon_ns_.store(horizon.count(), std::memory_order_release);
  active_.store(!plan_.rules.empty(), std::memory_order_release);
}

void Injector::SetDrawHook(FaultDrawHook hook) {
  std::lock_guard<std::mutex> lock(mu_);
  draw_hook_ = std::move(hook);
}

Plan Injector::plan() const {
  std::lock_guard<std::mutex> lock(mu_);
  return plan_;
}

Json Injector::StatusJson() const {
  std::lock_guard<std::mutex> lock(mu_);
  Json out = PlanToJson(plan_);
  for (size_t i = 0; i < counters_.size(); ++i) {
    out["rules"][i]["matched"] = counters_[i].matched;
    out["rules"][i]["fired"] = counters_[i].fired;
  }
  return out;
}

std::vector<LogEntry> Injector::Log() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {log_.begin(), log_.end()};
}

Json Injector::LogJson() const {
  Json out = Json::array();
  for (const LogEntry& entry : Log()) out.push_back(LogEntryToJson(entry));
  return Json{{"faults", std::move(out)}};
}

std::optional<Decision> Injector::Decide(const CallView& call, TimePoint now,
                                         const TableResolver& resolve) {
  std::map<std::string, TableFacts> facts;
  if (resolve) {
    for (const std::string& t : call.tables) facts[t] = resolve(t);
  }
  std::lock_guard<std::mutex> lock(mu_);
  Decision decision;
  bool any = false;
  for (size_t r = 0; r < plan_.rules.size(); ++r) {
    const Rule& rule = plan_.rules[r];
    std::optional<std::vector<size_t>> items = Match(rule, call);
    if (!items) continue;
    Counters& c = counters_[r];
    const int64_t n = ++c.matched;
    if (IsTerminal(rule.effect) && decision.effect) continue;
    if (!rule.nth.empty() &&
        !std::binary_search(rule.nth.begin(), rule.nth.end(), n)) {
      continue;
    }
    if (n <= rule.after) continue;
    if (rule.times && c.fired >= *rule.times) continue;
    if (rule.from && now < *rule.from) continue;
    if (rule.until && now >= *rule.until) continue;
    if (rule.probability) {
      Rng draw(Rng::Hash(seed_, rule.id + "#" + std::to_string(n)));
      bool fires = draw.UniformDouble() < *rule.probability;
      if (draw_hook_ && *rule.probability > 0 && *rule.probability < 1) {
        fires = draw_hook_(FaultDraw{rule.id, n, *rule.probability, fires});
      }
      if (!fires) continue;
    }
    ++c.fired;
    any = true;
    LogEntry entry;
    entry.seq = next_seq_++;
    entry.time = now;
    entry.operation = std::string(NameOf(call.operation));
    entry.rule_id = rule.id;
    entry.effect = rule.effect;
    for (size_t i : *items) {
      entry.keys.push_back(KeyOf(call.items[i], facts, rule));
    }
    if (!items->empty()) {
      entry.table = call.items[items->front()].table;
    } else {
      for (const std::string& t : call.tables) {
        if (rule.tables.empty() || Contains(rule.tables, t)) {
          entry.table = t;
          break;
        }
      }
    }
    if (rule.effect == Effect::kLatency) {
      // Each rule is at most kMaxLatency, and so is their sum.
      decision.latency =
          std::min(decision.latency + rule.duration, kMaxLatency);
    } else if (rule.effect == Effect::kVisibilityDelay) {
      decision.visibility_delay =
          std::max(decision.visibility_delay, rule.duration);
    } else if (rule.effect == Effect::kStaleRead) {
      decision.stale_read = std::max(decision.stale_read, rule.duration);
    } else if (rule.effect == Effect::kIndexLag) {
      AddIndexLag(decision.index_lags, rule, *items);
    } else {
      decision.effect = rule.effect;
      decision.rule_id = rule.id;
      decision.table = entry.table;
      decision.items = std::move(*items);
    }
    log_.push_back(std::move(entry));
    if (log_.size() > kMaxLog) log_.pop_front();
  }
  if (!any) return std::nullopt;
  return decision;
}

}  // namespace ddblab::fault
