// harness/consumer/event.cc: Lambda's record and on-failure record shapes
// (see event.h).
#include "harness/consumer/event.h"

#include <chrono>
#include <cstdio>
#include <vector>

namespace ddblab::harness::consumer {

json ToLambdaRecord(json streams_record, std::string_view stream_arn) {
  json out = std::move(streams_record);
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

namespace {

// What dump() adds to a byte beyond itself: 1 for \", \\, \b, \f, \n, \r
// and \t, 5 for the other control characters (\u00XX), 0 otherwise.
struct EscapeExtra {
  unsigned char extra[256] = {};
  constexpr EscapeExtra() {
    for (int c = 0; c < 0x20; ++c) extra[c] = 5;
    for (char c : {'"', '\\', '\b', '\f', '\n', '\r', '\t'}) {
      extra[static_cast<unsigned char>(c)] = 1;
    }
  }
};
constexpr EscapeExtra kEscapeExtra;

// A JSON string's length as dump() writes it: quoted, with \", \\, \b,
// \f, \n, \r, \t and \u00XX for the other control characters. A table
// lookup per byte: this runs over every record the mapping reads.
size_t StringSize(const std::string& s) {
  size_t n = 2 + s.size();
  for (unsigned char c : s) n += kEscapeExtra.extra[c];
  return n;
}

}  // namespace

size_t SerializedSize(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
      return 4;
    case json::value_t::boolean:
      return value.get<bool>() ? 4 : 5;
    case json::value_t::number_integer: {
      int64_t v = value.get<int64_t>();
      size_t n = v < 0 ? 2 : 1;
      uint64_t u =
          v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
      while (u >= 10) {
        u /= 10;
        ++n;
      }
      return n;
    }
    case json::value_t::number_unsigned: {
      uint64_t u = value.get<uint64_t>();
      size_t n = 1;
      while (u >= 10) {
        u /= 10;
        ++n;
      }
      return n;
    }
    case json::value_t::string:
      return StringSize(value.get_ref<const std::string&>());
    case json::value_t::array: {
      size_t n = 2 + (value.empty() ? 0 : value.size() - 1);
      for (const json& v : value) n += SerializedSize(v);
      return n;
    }
    case json::value_t::object: {
      size_t n = 2 + (value.empty() ? 0 : value.size() - 1);
      for (auto it = value.begin(); it != value.end(); ++it) {
        n += StringSize(it.key()) + 1 + SerializedSize(it.value());
      }
      return n;
    }
    default:  // floating point and binary: as dump() writes them
      return value.dump().size();
  }
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
