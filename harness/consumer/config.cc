// harness/consumer/config.cc: reading, validating and rendering an event
// source mapping's configuration (see config.h).
//
// Range errors use the ValidationException text Lambda's API front end gives
// for a model constraint ("1 validation error detected: Value '0' at
// 'batchSize' failed to satisfy constraint: ..."); the field names are the
// request's member names with a lower-case first letter, as that front end
// writes them.
#include "harness/consumer/config.h"

#include <string>
#include <utility>

#include "harness/consumer/filter.h"

namespace ddblab::harness::consumer {
namespace {

struct Violations {
  std::vector<std::string> items;

  void Add(const std::string& value, std::string_view member,
           std::string_view constraint) {
    items.push_back(
        "Value '" + value + "' at '" + std::string(member) +
        "' failed to satisfy constraint: " + std::string(constraint));
  }
  void Range(int64_t v, std::string_view member, int64_t lo, int64_t hi) {
    if (v < lo) {
      Add(std::to_string(v), member,
          "Member must have value greater than or equal to " +
              std::to_string(lo));
    } else if (v > hi) {
      Add(std::to_string(v), member,
          "Member must have value less than or equal to " + std::to_string(hi));
    }
  }
  Status ToStatus() const {
    if (items.empty()) return OkStatus();
    std::string msg = std::to_string(items.size()) +
                      (items.size() == 1 ? " validation error detected: "
                                         : " validation errors detected: ");
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) msg += "; ";
      msg += items[i];
    }
    return Error::Validation(msg);
  }
};

Error WrongType(std::string_view field, std::string_view expected) {
  // ddblab's text: Lambda's JSON front end answers a mistyped member with a
  // SerializationException whose exact text we do not know.
  return Error::Serialization("EventSourceMapping field " + std::string(field) +
                              " must be " + std::string(expected));
}

Status ReadInt(const json& req, std::string_view field, int64_t& out) {
  auto it = req.find(field);
  if (it == req.end() || it->is_null()) return OkStatus();
  if (!it->is_number_integer()) return WrongType(field, "an integer");
  out = it->get<int64_t>();
  return OkStatus();
}

Status ReadBool(const json& req, std::string_view field, bool& out) {
  auto it = req.find(field);
  if (it == req.end() || it->is_null()) return OkStatus();
  if (!it->is_boolean()) return WrongType(field, "a boolean");
  out = it->get<bool>();
  return OkStatus();
}

Status ReadString(const json& req, std::string_view field, std::string& out) {
  auto it = req.find(field);
  if (it == req.end() || it->is_null()) return OkStatus();
  if (!it->is_string()) return WrongType(field, "a string");
  out = it->get<std::string>();
  return OkStatus();
}

// The fields both Create and Update accept.
Status ReadMutable(const json& req, EsmConfig& c) {
  DDBLAB_RETURN_IF_ERROR(ReadString(req, "FunctionName", c.function_name));
  DDBLAB_RETURN_IF_ERROR(ReadBool(req, "Enabled", c.enabled));
  DDBLAB_RETURN_IF_ERROR(ReadInt(req, "BatchSize", c.batch_size));
  DDBLAB_RETURN_IF_ERROR(ReadInt(req, "MaximumBatchingWindowInSeconds",
                                 c.maximum_batching_window_in_seconds));
  DDBLAB_RETURN_IF_ERROR(
      ReadInt(req, "ParallelizationFactor", c.parallelization_factor));
  DDBLAB_RETURN_IF_ERROR(
      ReadInt(req, "MaximumRetryAttempts", c.maximum_retry_attempts));
  DDBLAB_RETURN_IF_ERROR(ReadInt(req, "MaximumRecordAgeInSeconds",
                                 c.maximum_record_age_in_seconds));
  DDBLAB_RETURN_IF_ERROR(ReadBool(req, "BisectBatchOnFunctionError",
                                  c.bisect_batch_on_function_error));
  DDBLAB_RETURN_IF_ERROR(
      ReadInt(req, "TumblingWindowInSeconds", c.tumbling_window_in_seconds));
  if (auto it = req.find("FunctionResponseTypes");
      it != req.end() && !it->is_null()) {
    if (!it->is_array()) return WrongType("FunctionResponseTypes", "a list");
    Violations v;
    if (it->size() > 1) {
      v.Add(it->dump(), "functionResponseTypes",
            "Member must have length less than or equal to 1");
    }
    c.report_batch_item_failures = false;
    for (const json& t : *it) {
      if (!t.is_string() || t.get<std::string>() != "ReportBatchItemFailures") {
        v.Add(it->dump(), "functionResponseTypes",
              "Member must satisfy constraint: [Member must satisfy enum "
              "value set: [ReportBatchItemFailures]]");
        break;
      }
      c.report_batch_item_failures = true;
    }
    DDBLAB_RETURN_IF_ERROR(v.ToStatus());
  }
  if (auto it = req.find("DestinationConfig");
      it != req.end() && !it->is_null()) {
    if (!it->is_object()) return WrongType("DestinationConfig", "an object");
    c.on_failure_destination.clear();
    auto of = it->find("OnFailure");
    if (of != it->end() && of->is_object()) {
      DDBLAB_RETURN_IF_ERROR(
          ReadString(*of, "Destination", c.on_failure_destination));
    }
  }
  if (auto it = req.find("FilterCriteria"); it != req.end() && !it->is_null()) {
    if (!it->is_object()) return WrongType("FilterCriteria", "an object");
    c.filter_patterns.clear();
    auto filters = it->find("Filters");
    if (filters != it->end() && !filters->is_null()) {
      if (!filters->is_array()) {
        return WrongType("FilterCriteria.Filters", "a list");
      }
      for (const json& f : *filters) {
        if (!f.is_object()) {
          return WrongType("FilterCriteria.Filters[]", "an object");
        }
        std::string pattern;
        DDBLAB_RETURN_IF_ERROR(ReadString(f, "Pattern", pattern));
        c.filter_patterns.push_back(std::move(pattern));
      }
    }
  }
  return OkStatus();
}

}  // namespace

Error InvalidParameter(std::string message) {
  Error e = Error::Validation(std::move(message));
  e.extra = json{{"__type", "InvalidParameterValueException"}};
  return e;
}

std::string LambdaErrorName(const Error& error) {
  if (error.extra.is_object() && error.extra.contains("__type")) {
    return error.extra["__type"].get<std::string>();
  }
  return std::string(error.Name());
}

Status ValidateEsmConfig(const EsmConfig& c) {
  Violations v;
  if (c.function_name.empty()) {
    v.items.push_back(
        "Value null at 'functionName' failed to satisfy constraint: Member "
        "must not be null");
  }
  v.Range(c.batch_size, "batchSize", 1, 10000);
  v.Range(c.maximum_batching_window_in_seconds,
          "maximumBatchingWindowInSeconds", 0, 300);
  v.Range(c.parallelization_factor, "parallelizationFactor", 1, 10);
  v.Range(c.maximum_retry_attempts, "maximumRetryAttempts", -1, 10000);
  v.Range(c.maximum_record_age_in_seconds, "maximumRecordAgeInSeconds", -1,
          604800);
  v.Range(c.tumbling_window_in_seconds, "tumblingWindowInSeconds", 0, 900);
  if (!c.starting_position.empty() && c.starting_position != "TRIM_HORIZON" &&
      c.starting_position != "LATEST" &&
      c.starting_position != "AT_TIMESTAMP") {
    v.Add(c.starting_position, "startingPosition",
          "Member must satisfy enum value set: [TRIM_HORIZON, LATEST, "
          "AT_TIMESTAMP]");
  }
  DDBLAB_RETURN_IF_ERROR(v.ToStatus());
  if (c.event_source_arn.empty() && c.table_name.empty()) {
    return Error::Validation(
        "1 validation error detected: Value null at 'eventSourceArn' failed "
        "to satisfy constraint: Member must not be null");
  }
  // The two texts below are ddblab's: Lambda rejects both with an
  // InvalidParameterValueException whose exact message we could not confirm.
  if (c.starting_position.empty()) {
    return InvalidParameter(
        "StartingPosition is required for a DynamoDB stream event source.");
  }
  if (c.starting_position == "AT_TIMESTAMP") {
    return InvalidParameter(
        "Unsupported starting position for DynamoDB stream event source: "
        "AT_TIMESTAMP");
  }
  if (c.filter_patterns.size() > 5) {
    // ddblab's text; the limit is Lambda's default quota of 5 filters.
    return InvalidParameter("FilterCriteria has " +
                            std::to_string(c.filter_patterns.size()) +
                            " filters; at most 5 are allowed.");
  }
  for (size_t i = 0; i < c.filter_patterns.size(); ++i) {
    auto compiled = FilterPattern::Compile(c.filter_patterns[i]);
    if (!compiled.ok()) {
      return InvalidParameter("Invalid filter pattern definition. Filters[" +
                              std::to_string(i) +
                              "]: " + compiled.error().message);
    }
  }
  return OkStatus();
}

Result<EsmConfig> ParseEsmConfig(const json& request) {
  if (!request.is_object()) {
    return Error::Serialization("EventSourceMapping must be a JSON object");
  }
  EsmConfig c;
  DDBLAB_RETURN_IF_ERROR(
      ReadString(request, "EventSourceArn", c.event_source_arn));
  DDBLAB_RETURN_IF_ERROR(ReadString(request, "TableName", c.table_name));
  DDBLAB_RETURN_IF_ERROR(
      ReadString(request, "StartingPosition", c.starting_position));
  DDBLAB_RETURN_IF_ERROR(ReadMutable(request, c));
  DDBLAB_RETURN_IF_ERROR(ValidateEsmConfig(c));
  return c;
}

Result<EsmConfig> UpdateEsmConfig(const EsmConfig& config,
                                  const json& request) {
  if (!request.is_object()) {
    return Error::Serialization("EventSourceMapping must be a JSON object");
  }
  EsmConfig c = config;
  DDBLAB_RETURN_IF_ERROR(ReadMutable(request, c));
  DDBLAB_RETURN_IF_ERROR(ValidateEsmConfig(c));
  return c;
}

json ConfigToJson(const EsmConfig& c) {
  json out = {
      {"BatchSize", c.batch_size},
      {"MaximumBatchingWindowInSeconds", c.maximum_batching_window_in_seconds},
      {"ParallelizationFactor", c.parallelization_factor},
      {"EventSourceArn", c.event_source_arn},
      {"StartingPosition", c.starting_position},
      {"MaximumRecordAgeInSeconds", c.maximum_record_age_in_seconds},
      {"BisectBatchOnFunctionError", c.bisect_batch_on_function_error},
      {"MaximumRetryAttempts", c.maximum_retry_attempts},
      {"TumblingWindowInSeconds", c.tumbling_window_in_seconds},
      {"FunctionResponseTypes", json::array()},
      {"DestinationConfig", json::object()},
  };
  if (c.report_batch_item_failures) {
    out["FunctionResponseTypes"].push_back("ReportBatchItemFailures");
  }
  if (!c.on_failure_destination.empty()) {
    out["DestinationConfig"] = {
        {"OnFailure", {{"Destination", c.on_failure_destination}}}};
  }
  if (!c.filter_patterns.empty()) {
    json filters = json::array();
    for (const auto& p : c.filter_patterns) {
      filters.push_back({{"Pattern", p}});
    }
    out["FilterCriteria"] = {{"Filters", filters}};
  }
  return out;
}

}  // namespace ddblab::harness::consumer
