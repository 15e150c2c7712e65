// Parsing and printing fault plans (plan.h).
#include "emulator/fault/plan.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "emulator/api/duration.h"

namespace ddblab::fault {
namespace {

using Json = nlohmann::json;

struct EffectInfo {
  Effect effect;
  std::string_view name;
  // The operations the effect applies to; empty: every operation.
  std::vector<Operation> operations;
};

const std::vector<EffectInfo>& Effects() {
  static const std::vector<EffectInfo> effects = {
      {Effect::kThrottle, "throttle", {}},
      {Effect::kInternalError, "internal_error", {}},
      {Effect::kUnavailable, "unavailable", {}},
      {Effect::kRequestLimit, "request_limit", {}},
      {Effect::kUnprocessed,
       "unprocessed",
       {Operation::kBatchWriteItem, Operation::kBatchGetItem}},
      {Effect::kConflict,
       "conflict",
       {Operation::kTransactWriteItems, Operation::kTransactGetItems,
        Operation::kPutItem, Operation::kUpdateItem, Operation::kDeleteItem}},
      {Effect::kLostResponse, "lost_response", {}},
      {Effect::kLatency, "latency", {}},
      {Effect::kExpiredIterator, "expired_iterator", {Operation::kGetRecords}},
      {Effect::kTrimmed,
       "trimmed",
       {Operation::kGetRecords, Operation::kGetShardIterator}},
      {Effect::kEmpty, "empty", {Operation::kGetRecords}},
      {Effect::kVisibilityDelay, "visibility_delay", {Operation::kGetRecords}},
      {Effect::kStaleRead,
       "stale_read",
       {Operation::kGetItem, Operation::kBatchGetItem, Operation::kQuery,
        Operation::kScan, Operation::kExecuteStatement,
        Operation::kBatchExecuteStatement}},
      {Effect::kIndexLag,
       "index_lag",
       {Operation::kPutItem, Operation::kUpdateItem, Operation::kDeleteItem,
        Operation::kBatchWriteItem, Operation::kTransactWriteItems,
        Operation::kExecuteStatement, Operation::kBatchExecuteStatement,
        Operation::kExecuteTransaction}},
  };
  return effects;
}

const EffectInfo& InfoOf(Effect effect) {
  for (const EffectInfo& info : Effects()) {
    if (info.effect == effect) return info;
  }
  return Effects().front();
}

std::string Quote(std::string_view s) { return Json(std::string(s)).dump(); }

// The effects that take a `duration` (and require one).
bool Timed(Effect effect) {
  return effect == Effect::kLatency || effect == Effect::kVisibilityDelay ||
         effect == Effect::kStaleRead || effect == Effect::kIndexLag;
}

Error At(const std::string& path, const std::string& what) {
  return Error::Validation(path + ": " + what);
}

// A duration (emulator/api/duration.h) of at most 366 days.
Result<Duration> ParseDurationValue(const Json& value,
                                    const std::string& path) {
  Result<Duration> d = DurationFromJson(value);
  if (!d.ok()) return At(path, d.error().message);
  if (*d > std::chrono::hours(24 * 366)) {
    return At(path, "must be between 0 and 366 days");
  }
  return d;
}

Result<std::vector<std::string>> StringOrList(const Json& value,
                                              const std::string& path) {
  std::vector<std::string> out;
  if (value.is_string()) {
    out.push_back(value.get<std::string>());
    return out;
  }
  if (!value.is_array() || value.empty()) {
    return At(path, "must be a string or a non-empty list of strings");
  }
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) {
      return At(path + "[" + std::to_string(i) + "]", "must be a string");
    }
    out.push_back(value[i].get<std::string>());
  }
  return out;
}

Result<int64_t> Count(const Json& value, const std::string& path, int64_t min) {
  if (!value.is_number_integer() ||
      (value.is_number_unsigned() &&
       value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))) {
    return At(path, "must be an integer");
  }
  int64_t n = value.get<int64_t>();
  if (n < min) return At(path, "must be at least " + std::to_string(min));
  return n;
}

// A table name from a name or a table ARN ("arn:...:table/<name>[/...]").
std::string TableName(const std::string& name_or_arn) {
  if (name_or_arn.rfind("arn:", 0) != 0) return name_or_arn;
  size_t pos = name_or_arn.find(":table/");
  if (pos == std::string::npos) return name_or_arn;
  std::string rest = name_or_arn.substr(pos + 7);
  return rest.substr(0, rest.find('/'));
}

Result<Rule> ParseRule(const Json& json, size_t index) {
  const std::string path = "rules[" + std::to_string(index) + "]";
  if (!json.is_object()) return At(path, "must be an object");
  Rule rule;
  rule.id = std::to_string(index);
  bool has_effect = false;
  std::optional<std::vector<Operation>> operations;
  for (const auto& [name, value] : json.items()) {
    const std::string p = path + "." + name;
    if (name == "id") {
      if (value.is_string() && !value.get<std::string>().empty()) {
        rule.id = value.get<std::string>();
      } else if (value.is_number_integer()) {
        rule.id = value.dump();
      } else {
        return At(p, "must be a non-empty string");
      }
    } else if (name == "operation") {
      DDBLAB_ASSIGN_OR_RETURN(std::vector<std::string> names,
                              StringOrList(value, p));
      operations.emplace();
      for (size_t i = 0; i < names.size(); ++i) {
        std::optional<Operation> op = OperationByName(names[i]);
        if (!op) {
          return At(value.is_array() ? p + "[" + std::to_string(i) + "]" : p,
                    "unknown operation " + Quote(names[i]));
        }
        operations->push_back(*op);
      }
    } else if (name == "table") {
      DDBLAB_ASSIGN_OR_RETURN(std::vector<std::string> tables,
                              StringOrList(value, p));
      for (std::string& t : tables) rule.tables.push_back(TableName(t));
    } else if (name == "key") {
      if (!value.is_object() || value.empty()) {
        return At(p,
                  "must be a non-empty object of attribute values, e.g. "
                  "{\"pk\": {\"S\": \"cart#1\"}}");
      }
      for (const auto& [attr, av] : value.items()) {
        if (!av.is_object() || av.size() != 1) {
          return At(p + "." + attr,
                    "must be an attribute value such as {\"S\": \"x\"}");
        }
      }
      rule.key = value;
    } else if (name == "nth") {
      const Json list = value.is_array() ? value : Json::array({value});
      if (list.empty()) return At(p, "must list at least one call number");
      for (size_t i = 0; i < list.size(); ++i) {
        DDBLAB_ASSIGN_OR_RETURN(
            int64_t n,
            Count(list[i],
                  value.is_array() ? p + "[" + std::to_string(i) + "]" : p, 1));
        rule.nth.push_back(n);
      }
      std::sort(rule.nth.begin(), rule.nth.end());
      rule.nth.erase(std::unique(rule.nth.begin(), rule.nth.end()),
                     rule.nth.end());
    } else if (name == "after") {
      DDBLAB_ASSIGN_OR_RETURN(rule.after, Count(value, p, 0));
    } else if (name == "times") {
      DDBLAB_ASSIGN_OR_RETURN(rule.times, Count(value, p, 1));
    } else if (name == "count") {
      DDBLAB_ASSIGN_OR_RETURN(rule.count, Count(value, p, 1));
    } else if (name == "probability") {
      if (!value.is_number() || value.get<double>() < 0 ||
          value.get<double>() > 1) {
        return At(p, "must be a number from 0 to 1");
      }
      rule.probability = value.get<double>();
    } else if (name == "from" || name == "until") {
      if (!value.is_number() || !std::isfinite(value.get<double>())) {
        return At(p, "must be a time in epoch seconds");
      }
      TimePoint t{std::chrono::duration_cast<Duration>(
          std::chrono::duration<double>(value.get<double>()))};
      (name == "from" ? rule.from : rule.until) = t;
    } else if (name == "duration") {
      DDBLAB_ASSIGN_OR_RETURN(rule.duration, ParseDurationValue(value, p));
    } else if (name == "index") {
      if (!value.is_string() || value.get<std::string>().empty()) {
        return At(p, "must be a non-empty string");
      }
      rule.index = value.get<std::string>();
    } else if (name == "effect") {
      if (!value.is_string()) return At(p, "must be a string");
      const std::string effect = value.get<std::string>();
      auto it = std::find_if(
          Effects().begin(), Effects().end(),
          [&](const EffectInfo& info) { return info.name == effect; });
      if (it == Effects().end()) {
        return At(p, "unknown effect " + Quote(effect));
      }
      rule.effect = it->effect;
      has_effect = true;
    } else {
      return At(p,
                "unknown field (expected id, operation, table, key, nth, "
                "after, times, probability, from, until, effect, count, "
                "duration, index)");
    }
  }
  if (!has_effect) return At(path + ".effect", "is required");
  const EffectInfo& info = InfoOf(rule.effect);
  if (operations) {
    for (size_t i = 0; i < operations->size(); ++i) {
      const Operation op = (*operations)[i];
      bool fits = info.operations.empty() ||
                  std::find(info.operations.begin(), info.operations.end(),
                            op) != info.operations.end();
      if (rule.effect == Effect::kRequestLimit &&
          InfoOf(op).api == OperationApi::kStreams) {
        fits = false;
      }
      if (!fits) {
        std::string list;
        for (Operation allowed : info.operations) {
          list += list.empty() ? "" : ", ";
          list += NameOf(allowed);
        }
        if (list.empty()) list = "DynamoDB (not Streams) operations";
        return At(path + ".operation", "effect " + Quote(info.name) +
                                           " applies to " + list + ", not " +
                                           Quote(NameOf(op)));
      }
    }
    rule.operations = std::move(*operations);
  } else {
    rule.operations = info.operations;
  }
  const bool timed = Timed(rule.effect);
  if (timed && !json.contains("duration")) {
    return At(path + ".duration", "is required for effect " + Quote(info.name));
  }
  if (!timed && json.contains("duration")) {
    return At(path + ".duration",
              "applies only to effects \"latency\", \"visibility_delay\", "
              "\"stale_read\" and \"index_lag\"");
  }
  if (rule.effect == Effect::kLatency && rule.duration > kMaxLatency) {
    return At(path + ".duration",
              "a latency of at most 60s (the SDKs' read timeout: botocore "
              "gives up after 60s with a ReadTimeoutError), got " +
                  json.at("duration").dump());
  }
  if (rule.effect == Effect::kIndexLag) {
    if (rule.index.empty()) {
      return At(path, "an index_lag rule needs \"index\"");
    }
    if (rule.tables.size() != 1) {
      return At(path, "an index_lag rule names exactly one table");
    }
  } else if (!rule.index.empty()) {
    return At(path + ".index", "only an index_lag rule names an index");
  }
  if (rule.count && rule.effect != Effect::kUnprocessed) {
    return At(path + ".count", "applies only to effect \"unprocessed\"");
  }
  if (rule.from && rule.until && *rule.until <= *rule.from) {
    return At(path + ".until", "must be later than \"from\"");
  }
  return rule;
}

}  // namespace

std::string_view EffectName(Effect effect) { return InfoOf(effect).name; }

Result<Plan> ParsePlan(const nlohmann::json& document) {
  if (!document.is_object()) {
    return Error::Validation(
        "the plan must be a JSON object {\"rules\": [...]}");
  }
  for (const auto& [name, value] : document.items()) {
    if (name != "rules") return At(name, "unknown field (expected \"rules\")");
  }
  auto rules = document.find("rules");
  if (rules == document.end()) return At("rules", "is required");
  if (!rules->is_array()) return At("rules", "must be a list");
  Plan plan;
  for (size_t i = 0; i < rules->size(); ++i) {
    DDBLAB_ASSIGN_OR_RETURN(Rule rule, ParseRule((*rules)[i], i));
    for (const Rule& earlier : plan.rules) {
      if (earlier.id == rule.id) {
        return At("rules[" + std::to_string(i) + "].id",
                  "duplicate rule id " + Quote(rule.id));
      }
    }
    plan.rules.push_back(std::move(rule));
  }
  return plan;
}

Result<Plan> ParsePlanText(std::string_view text) {
  Json document = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    return Error::Validation("the plan is not valid JSON");
  }
  return ParsePlan(document);
}

nlohmann::json PlanToJson(const Plan& plan) {
  Json rules = Json::array();
  for (const Rule& rule : plan.rules) {
    Json r = {{"id", rule.id},
              {"effect", std::string(EffectName(rule.effect))}};
    if (!rule.operations.empty()) {
      Json names = Json::array();
      for (Operation op : rule.operations) names.push_back(NameOf(op));
      r["operation"] = std::move(names);
    }
    if (!rule.tables.empty()) r["table"] = rule.tables;
    if (!rule.key.is_null()) r["key"] = rule.key;
    if (!rule.nth.empty()) r["nth"] = rule.nth;
    if (rule.after > 0) r["after"] = rule.after;
    if (rule.times) r["times"] = *rule.times;
    if (rule.probability) r["probability"] = *rule.probability;
    if (rule.from) r["from"] = ToEpochSecondsDouble(*rule.from);
    if (rule.until) r["until"] = ToEpochSecondsDouble(*rule.until);
    if (rule.count) r["count"] = *rule.count;
    if (!rule.index.empty()) r["index"] = rule.index;
    if (Timed(rule.effect)) {
      r["duration"] =
          std::chrono::duration<double>(rule.duration).count();  // seconds
    }
    rules.push_back(std::move(r));
  }
  return Json{{"rules", std::move(rules)}};
}

}  // namespace ddblab::fault
