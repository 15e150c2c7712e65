// harness/scenario/consumer_faults.cc: parsing faults.consumer and applying
// it to a consumer's function (see consumer_faults.h).
#include "harness/scenario/consumer_faults.h"

#include <algorithm>
#include <set>
#include <utility>

#include "harness/scenario/fields.h"

namespace ddblab::harness::scenario {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kEffects[] = {"error", "batch_item_failure", "timeout"};

Result<ConsumerFault> ParseOne(const json& entry, const std::string& path,
                               size_t i) {
  DDBLAB_ASSIGN_OR_RETURN(Fields f, Fields::Of(entry, path));
  ConsumerFault fault;
  fault.path = path;
  DDBLAB_ASSIGN_OR_RETURN(
      fault.id, f.StringOr("id", "consumer[" + std::to_string(i) + "]"));
  DDBLAB_ASSIGN_OR_RETURN(fault.actor, f.StringOr("actor", ""));
  DDBLAB_ASSIGN_OR_RETURN(fault.effect, f.String("effect"));
  if (std::find(std::begin(kEffects), std::end(kEffects), fault.effect) ==
      std::end(kEffects)) {
    return At(f.PathOf("effect"),
              "expected \"error\", \"batch_item_failure\" or \"timeout\", "
              "got " +
                  Shown(f.Raw("effect")));
  }
  const json& records = f.Raw("records");
  if (!records.is_null()) {
    if (!records.is_array() || records.empty()) {
      return At(f.PathOf("records"),
                "expected a non-empty list of record positions (1, 2, ...), "
                "got " +
                    Shown(records));
    }
    for (size_t k = 0; k < records.size(); ++k) {
      DDBLAB_ASSIGN_OR_RETURN(
          int64_t n, IntValue(records[k], Index(f.PathOf("records"), k), 1,
                              int64_t{1} << 40));
      fault.records.push_back(n);
    }
  }
  const json& key = f.Raw("key");
  if (key.is_string()) {
    fault.keys.push_back(key.get<std::string>());
  } else if (key.is_array() && !key.empty()) {
    for (size_t k = 0; k < key.size(); ++k) {
      DDBLAB_ASSIGN_OR_RETURN(std::string one,
                              StringValue(key[k], Index(f.PathOf("key"), k)));
      fault.keys.push_back(std::move(one));
    }
  } else if (!key.is_null()) {
    return At(
        f.PathOf("key"),
        "expected a key value or a non-empty list of them, got " + Shown(key));
  }
  DDBLAB_ASSIGN_OR_RETURN(fault.event_name, f.StringOr("event_name", ""));
  if (!fault.event_name.empty() && fault.event_name != "INSERT" &&
      fault.event_name != "MODIFY" && fault.event_name != "REMOVE") {
    return At(f.PathOf("event_name"),
              "expected \"INSERT\", \"MODIFY\" or \"REMOVE\", got " +
                  Shown(f.Raw("event_name")));
  }
  const json& p = f.Raw("probability");
  if (!p.is_null()) {
    if (!p.is_number() || p.get<double>() <= 0 || p.get<double>() > 1) {
      return At(f.PathOf("probability"),
                "expected a probability in (0, 1], got " + Shown(p));
    }
    fault.probability = p.get<double>();
  }
  DDBLAB_ASSIGN_OR_RETURN(fault.times, f.IntOr("times", 0, 1, 1000000));
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return fault;
}

bool Chooses(const ConsumerFault& fault, const json& record, int64_t position) {
  if (!fault.records.empty() &&
      std::find(fault.records.begin(), fault.records.end(), position) ==
          fault.records.end()) {
    return false;
  }
  if (!fault.event_name.empty() &&
      record.value("eventName", "") != fault.event_name) {
    return false;
  }
  if (!fault.keys.empty()) {
    const json keys =
        record.value("dynamodb", json::object()).value("Keys", json::object());
    bool found = false;
    for (const auto& [name, value] : keys.items()) {
      if (!value.is_object() || value.empty()) continue;
      const json& scalar = value.begin().value();
      if (!scalar.is_string()) continue;
      found = found || std::find(fault.keys.begin(), fault.keys.end(),
                                 scalar.get<std::string>()) != fault.keys.end();
    }
    if (!found) return false;
  }
  return true;
}

std::string SequenceOf(const json& record) {
  return record.value("dynamodb", json::object()).value("SequenceNumber", "");
}

}  // namespace

Result<std::vector<ConsumerFault>> ParseConsumerFaults(
    const json& value, const std::string& path) {
  if (!value.is_array() || value.empty()) {
    return At(path, "expected a non-empty list of consumer faults, got " +
                        Shown(value));
  }
  std::vector<ConsumerFault> out;
  std::set<std::string> ids;
  for (size_t i = 0; i < value.size(); ++i) {
    DDBLAB_ASSIGN_OR_RETURN(ConsumerFault fault,
                            ParseOne(value[i], Index(path, i), i));
    if (!ids.insert(fault.id).second) {
      return At(Member(Index(path, i), "id"),
                "another consumer fault has the id " + fault.id);
    }
    out.push_back(std::move(fault));
  }
  return out;
}

bool AppliesTo(const ConsumerFault& fault, const std::string& actor) {
  if (fault.actor.empty() || fault.actor == actor) return true;
  return actor.starts_with(fault.actor + "#");
}

Status CheckConsumerFaultActors(const Scenario& scenario) {
  for (const ConsumerFault& fault : scenario.consumer_faults) {
    if (fault.actor.empty()) continue;
    bool found = false;
    for (const ActorSpec& a : scenario.actors) {
      bool consumer = a.pattern == kConsumer;
      for (const json& op : a.ops) {
        consumer = consumer || (op.is_object() && op.contains("poll"));
      }
      found = found || (consumer && AppliesTo(fault, a.name));
    }
    if (!found) {
      return At(Member(fault.path, "actor"),
                "no consumer (an actor with poll ops) is named " + fault.actor);
    }
  }
  return OkStatus();
}

ojson ConsumerFaultToJson(const ConsumerFault& fault) {
  ojson out = {{"id", fault.id}};
  if (!fault.actor.empty()) out["actor"] = fault.actor;
  out["effect"] = fault.effect;
  if (!fault.records.empty()) out["records"] = fault.records;
  if (fault.keys.size() == 1) out["key"] = fault.keys[0];
  if (fault.keys.size() > 1) out["key"] = fault.keys;
  if (!fault.event_name.empty()) out["event_name"] = fault.event_name;
  if (fault.probability < 1.0) out["probability"] = fault.probability;
  if (fault.times > 0) out["times"] = fault.times;
  return out;
}

std::string RecordKey(const json& record) {
  const json keys =
      record.value("dynamodb", json::object()).value("Keys", json::object());
  std::string out;
  for (const auto& [name, value] : keys.items()) {
    if (!value.is_object() || value.empty()) continue;
    const json& scalar = value.begin().value();
    if (!out.empty()) out += "/";
    out += scalar.is_string() ? scalar.get<std::string>() : scalar.dump();
  }
  return out;
}

FaultyFunction::FaultyFunction(Handler handler,
                               std::vector<ConsumerFault> faults, Rng rng,
                               std::vector<ojson>* events, std::string actor,
                               std::vector<ConsumerFiring>* firings)
    : FaultyFunction(
          std::make_unique<consumer::CallableFunction>(std::move(handler)),
          std::move(faults), std::move(rng), events, std::move(actor),
          firings) {}

FaultyFunction::FaultyFunction(std::unique_ptr<consumer::Function> inner,
                               std::vector<ConsumerFault> faults, Rng rng,
                               std::vector<ojson>* events, std::string actor,
                               std::vector<ConsumerFiring>* firings)
    : handler_([inner = std::shared_ptr<consumer::Function>(std::move(inner))](
                   const json& event) { return inner->Invoke(event); }),
      faults_(std::move(faults)),
      fired_(faults_.size(), 0),
      rng_(std::move(rng)),
      events_(events),
      actor_(std::move(actor)),
      firings_(firings) {}

std::vector<FaultyFunction::Decision> FaultyFunction::Decide(
    const json& records) {
  std::vector<Decision> out;
  const int64_t first = received_ + 1;
  received_ += static_cast<int64_t>(records.size());
  for (size_t r = 0; r < records.size(); ++r) {
    bool stop = false;
    for (size_t f = 0; f < faults_.size(); ++f) {
      const ConsumerFault& fault = faults_[f];
      if (fault.times > 0 && fired_[f] >= fault.times) continue;
      if (!Chooses(fault, records[r], first + static_cast<int64_t>(r))) {
        continue;
      }
      if (fault.probability < 1.0 && !rng_.Bernoulli(fault.probability)) {
        continue;
      }
      ++fired_[f];
      out.push_back({f, r});
      stop = stop || fault.effect == "error";
    }
    // The function throws at this record: it never sees the later ones.
    if (stop) break;
  }
  return out;
}

consumer::Invocation FaultyFunction::Run(const json& event) {
  const json records = event.value("Records", json::array());
  std::vector<Decision> decisions = Decide(records);
  for (const Decision& d : decisions) {
    const json& record = records[d.record];
    events_->push_back(ojson{{"fault", faults_[d.fault].id},
                             {"effect", faults_[d.fault].effect},
                             {"key", RecordKey(record)},
                             {"sequence", SequenceOf(record)}});
    if (firings_) {
      firings_->push_back({faults_[d.fault].id, actor_, RecordKey(record)});
    }
  }
  std::optional<size_t> error_at;
  bool timeout = false;
  std::vector<std::string> reported;
  for (const Decision& d : decisions) {
    const std::string& effect = faults_[d.fault].effect;
    if (effect == "error") {
      error_at = d.record;
    } else if (effect == "timeout") {
      timeout = true;
    } else {
      reported.push_back(SequenceOf(records[d.record]));
    }
  }
  if (error_at) {
    // The records before the failing one are handled first.
    if (*error_at > 0) {
      json prefix = event;
      prefix["Records"] =
          json(records.begin(),
               records.begin() + static_cast<std::ptrdiff_t>(*error_at));
      consumer::Invocation out = handler_(prefix);
      if (out.kind != consumer::Invocation::Kind::kOk) return out;
      // The handler stopped by itself and reported a failure.
      if (out.response.is_object() &&
          out.response.contains("batchItemFailures") &&
          !out.response["batchItemFailures"].empty()) {
        return out;
      }
    }
    return consumer::Invocation::FunctionError(
        "Error", "ddblab consumer fault: the function failed on record " +
                     SequenceOf(records[*error_at]));
  }
  consumer::Invocation out = handler_(event);
  if (out.kind != consumer::Invocation::Kind::kOk) return out;
  if (timeout) {
    // Lambda's text for a function that ran past its timeout (3 s default).
    return consumer::Invocation::FunctionError(
        "Sandbox.Timedout", "Task timed out after 3.00 seconds");
  }
  json response = std::move(out.response);
  if (!reported.empty()) {
    if (!response.is_object()) response = json::object();
    if (!response.contains("batchItemFailures") ||
        !response["batchItemFailures"].is_array()) {
      response["batchItemFailures"] = json::array();
    }
    for (const std::string& seq : reported) {
      response["batchItemFailures"].push_back({{"itemIdentifier", seq}});
    }
  }
  return consumer::Invocation::Ok(std::move(response));
}

consumer::Invocation FaultyFunction::Invoke(const json& event) {
  const json records = event.value("Records", json::array());
  consumer::Invocation result = Run(event);
  ojson delivery = ojson::object();
  json keys = json::array();
  for (const json& r : records) keys.push_back(RecordKey(r));
  delivery["keys"] = keys;
  if (!records.empty()) {
    delivery["first"] = SequenceOf(records.front());
    delivery["last"] = SequenceOf(records.back());
  }
  if (result.kind == consumer::Invocation::Kind::kFunctionError) {
    delivery["result"] =
        "error " + result.error_type + ": " + result.error_message;
  } else if (result.response.is_object() &&
             result.response.contains("batchItemFailures") &&
             !result.response["batchItemFailures"].empty()) {
    delivery["result"] =
        "batchItemFailures " + result.response["batchItemFailures"].dump();
  } else {
    delivery["result"] = "ok";
  }
  events_->push_back(ojson{{"delivery", delivery}});
  return result;
}

}  // namespace ddblab::harness::scenario
