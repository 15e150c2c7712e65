// harness/consumer/event.cc: Lambda's record and on-failure record shapes
// (see event.h).
#include "harness/consumer/event.h"

#include <chrono>
#include <cstdio>
#include <vector>

namespace ddblab::harness::consumer {

json ToLambdaRecord(const json& streams_record, std::string_view stream_arn) {
  json out = streams_record;
  if (auto it = out.find("userIdentity"); it != out.end() && it->is_object()) {
    json identity = json::object();
    if (it->contains("Type")) identity["type"] = (*it)["Type"];
    if (it->contains("PrincipalId")) {
      identity["principalId"] = (*it)["PrincipalId"];
    }
    *it = identity;
  }
  out["eventSourceARN"] = std::string(stream_arn);
  return out;
}

std::string IsoTime(TimePoint t, bool with_millis) {
  auto ms = std::chrono::floor<std::chrono::milliseconds>(t);
  auto days = std::chrono::floor<std::chrono::days>(ms);
  std::chrono::year_month_day ymd{days};
  std::chrono::hh_mm_ss hms{ms - days};
  char buf[40];
  if (with_millis) {
    std::snprintf(
        buf, sizeof(buf), "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
        static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
        static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
        static_cast<int>(hms.minutes().count()),
        static_cast<int>(hms.seconds().count()),
        static_cast<int>(hms.subseconds().count()));
  } else {
    std::snprintf(
        buf, sizeof(buf), "%04d-%02u-%02uT%02d:%02d:%02dZ",
        static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
        static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
        static_cast<int>(hms.minutes().count()),
        static_cast<int>(hms.seconds().count()));
  }
  return buf;
}

std::string FunctionArn(std::string_view function_name,
                        std::string_view stream_arn) {
  if (function_name.starts_with("arn:")) return std::string(function_name);
  // arn:aws:dynamodb:REGION:ACCOUNT:table/...
  std::vector<std::string> parts;
  size_t start = 0;
  for (int i = 0; i < 5; ++i) {
    size_t colon = stream_arn.find(':', start);
    if (colon == std::string_view::npos) break;
    parts.emplace_back(stream_arn.substr(start, colon - start));
    start = colon + 1;
  }
  std::string region = parts.size() > 3 ? parts[3] : "us-east-1";
  std::string account = parts.size() > 4 ? parts[4] : "000000000000";
  return "arn:aws:lambda:" + region + ":" + account +
         ":function:" + std::string(function_name);
}

json OnFailureRecord(const DiscardedBatch& b, TimePoint now) {
  json response = {{"statusCode", 200}, {"executedVersion", "$LATEST"}};
  // A batch discarded before it was ever invoked has no function error
  // (ddblab's reading; Lambda's documented example is a failed invocation).
  if (b.invoke_count > 0) response["functionError"] = "Unhandled";
  return {
      {"requestContext",
       {{"requestId", b.request_id},
        {"functionArn", b.function_arn},
        {"condition", b.condition},
        {"approximateInvokeCount", b.invoke_count}}},
      {"responseContext", response},
      {"version", "1.0"},
      {"timestamp", IsoTime(now, true)},
      {"DDBStreamBatchInfo",
       {{"shardId", b.shard_id},
        {"startSequenceNumber", b.first_sequence_number},
        {"endSequenceNumber", b.last_sequence_number},
        {"approximateArrivalOfFirstRecord",
         IsoTime(FromEpochSeconds(b.first_created), false)},
        {"approximateArrivalOfLastRecord",
         IsoTime(FromEpochSeconds(b.last_created), false)},
        {"batchSize", b.batch_size},
        {"streamArn", b.stream_arn}}},
  };
}

}  // namespace ddblab::harness::consumer
