// The DynamoDB Streams API (DynamoDB's TTL and Streams documentation):
// ListStreams, DescribeStream, GetShardIterator, GetRecords. Requests are
// validated here (Coral constraint messages); the semantics live in
// streams::StreamService. Each operation runs under the engine lock in one
// storage transaction, because reads apply due rollovers, trims and expiries
// (see stream_service.h); on an error that transaction rolls back.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "emulator/engine/call_context.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/operations.h"
#include "emulator/engine/request.h"
#include "emulator/engine/streams_glue/stream_sink.h"
#include "emulator/streams/sequence_number.h"
#include "emulator/streams/stream_service.h"

namespace ddblab::engine {
namespace {

using streams::StreamService;

constexpr std::string_view kInvalidArn = "Invalid StreamArn";

// A stream ARN member: 37..1024 characters.
std::optional<std::string> ReadArn(RequestParser& p, const Json& request,
                                   std::string_view member,
                                   std::string_view path, bool required) {
  std::optional<std::string> arn = p.String(request, member);
  if (required) p.NotNull(arn.has_value(), path);
  if (arn) p.Length(*arn, path, 37, 1024);
  return arn;
}

std::optional<std::string> ReadShardId(RequestParser& p, const Json& obj,
                                       std::string_view member,
                                       std::string_view path, bool required) {
  std::optional<std::string> id = p.String(obj, member);
  if (required) p.NotNull(id.has_value(), path);
  if (id) p.Length(*id, path, 28, 65);
  return id;
}

// Runs `body(service, log, now)` under the lock in one transaction, which
// commits only if the body succeeds.
template <class T, class F>
Result<T> InStreamsTransaction(EmulatorImpl& impl, F&& body) {
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
  StreamService service(StreamsConfigFor(impl.options()));
  Result<T> result = body(service, txn->streams(), impl.Now());
  if (!result.ok()) return result;
  DDBLAB_RETURN_IF_ERROR(txn->Commit());
  return result;
}

Result<Json> ListStreams(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> table = p.String(request, "TableName");
  if (table) {
    p.NamePattern(*table, "tableName");
    p.Length(*table, "tableName", 3, 255);
  }
  std::optional<int64_t> limit = p.Integer(request, "Limit");
  if (limit) p.Range(*limit, "limit", 1, 100);
  std::optional<std::string> start = ReadArn(
      p, request, "ExclusiveStartStreamArn", "exclusiveStartStreamArn", false);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (start && !streams::IsStreamArn(*start)) {
    return Error::Validation(std::string(kInvalidArn));
  }
  DDBLAB_ASSIGN_OR_RETURN(
      streams::ListStreamsResult r,
      InStreamsTransaction<streams::ListStreamsResult>(
          impl,
          [&](StreamService& s, storage::StreamStore& log, TimePoint now) {
            return s.ListStreams(
                log, table, static_cast<int>(limit.value_or(100)), start, now);
          }));
  Json out{{"Streams", Json::array()}};
  for (const streams::StreamSummary& s : r.streams) {
    out["Streams"].push_back({{"StreamArn", s.arn},
                              {"TableName", s.table_name},
                              {"StreamLabel", s.label}});
  }
  if (r.last_evaluated_arn)
    out["LastEvaluatedStreamArn"] = *r.last_evaluated_arn;
  return out;
}

Json ShardJson(const streams::ShardRow& shard) {
  Json range{{"StartingSequenceNumber",
              streams::FormatSequenceNumber(shard.start_seq)}};
  if (shard.end_seq) {
    range["EndingSequenceNumber"] =
        streams::FormatSequenceNumber(*shard.end_seq);
  }
  Json out{{"ShardId", shard.shard_id}, {"SequenceNumberRange", range}};
  if (!shard.parent_shard_id.empty()) {
    out["ParentShardId"] = shard.parent_shard_id;
  }
  return out;
}

Result<Json> DescribeStream(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> arn =
      ReadArn(p, request, "StreamArn", "streamArn", true);
  std::optional<int64_t> limit = p.Integer(request, "Limit");
  if (limit) p.Range(*limit, "limit", 1, 100);
  std::optional<std::string> start = ReadShardId(
      p, request, "ExclusiveStartShardId", "exclusiveStartShardId", false);
  std::optional<std::string> child_of;
  if (const Json* filter = p.Struct(request, "ShardFilter", "ShardFilter")) {
    std::optional<std::string> type = p.String(*filter, "Type");
    p.NotNull(type.has_value(), "shardFilter.type");
    if (type) p.Enum(*type, "shardFilter.type", {"CHILD_SHARDS"});
    child_of = ReadShardId(p, *filter, "ShardId", "shardFilter.shardId", true);
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (!streams::IsStreamArn(*arn)) {
    return Error::Validation(std::string(kInvalidArn));
  }
  DDBLAB_ASSIGN_OR_RETURN(
      streams::DescribeStreamResult r,
      InStreamsTransaction<streams::DescribeStreamResult>(
          impl,
          [&](StreamService& s, storage::StreamStore& log, TimePoint now) {
            return s.DescribeStream(log, *arn,
                                    static_cast<int>(limit.value_or(100)),
                                    start, child_of, now);
          }));
  Json shards = Json::array();
  for (const streams::ShardRow& shard : r.shards) {
    shards.push_back(ShardJson(shard));
  }
  Json key_schema = Json::parse(r.stream.key_schema, nullptr, false);
  if (key_schema.is_discarded()) {
    return Error::Internal("corrupt stream key schema");
  }
  Json desc{
      {"StreamArn", r.stream.arn},
      {"StreamLabel", r.stream.label},
      {"StreamStatus", r.stream.enabled() ? "ENABLED" : "DISABLED"},
      {"StreamViewType",
       std::string(streams::ViewTypeName(r.stream.view_type))},
      {"CreationRequestDateTime",
       static_cast<double>(r.stream.created_ms) / 1000.0},
      {"TableName", r.stream.table_name},
      {"KeySchema", std::move(key_schema)},
      {"Shards", std::move(shards)},
  };
  if (r.last_evaluated_shard_id) {
    desc["LastEvaluatedShardId"] = *r.last_evaluated_shard_id;
  }
  return Json{{"StreamDescription", std::move(desc)}};
}

Result<Json> GetShardIterator(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> arn =
      ReadArn(p, request, "StreamArn", "streamArn", true);
  std::optional<std::string> shard_id =
      ReadShardId(p, request, "ShardId", "shardId", true);
  std::optional<std::string> type_name = p.String(request, "ShardIteratorType");
  p.NotNull(type_name.has_value(), "shardIteratorType");
  if (type_name) {
    p.Enum(*type_name, "shardIteratorType",
           {"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
            "AFTER_SEQUENCE_NUMBER"});
  }
  std::optional<std::string> seq = p.String(request, "SequenceNumber");
  if (seq) p.Length(*seq, "sequenceNumber", 21, 40);
  DDBLAB_RETURN_IF_ERROR(p.Finish());

  if (!streams::IsStreamArn(*arn)) {
    return Error::Validation(std::string(kInvalidArn));
  }
  streams::IteratorType type = *streams::ParseIteratorType(*type_name);
  const bool needs_seq = type == streams::IteratorType::kAtSequenceNumber ||
                         type == streams::IteratorType::kAfterSequenceNumber;
  if (needs_seq != seq.has_value()) {
    return Error::Validation(
        "Must either specify (1) AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER "
        "and SequenceNumber or (2) TRIM_HORIZON or LATEST and no "
        "SequenceNumber. Request specified " +
        *type_name +
        (seq ? " and SequenceNumber." : " and no SequenceNumber."));
  }
  if (seq && !streams::ParseSequenceNumber(*seq)) {
    return Error::Validation("Invalid SequenceNumber: " + *seq);
  }
  DDBLAB_ASSIGN_OR_RETURN(
      std::string iterator,
      InStreamsTransaction<std::string>(
          impl,
          [&](StreamService& s, storage::StreamStore& log, TimePoint now) {
            return s.GetShardIterator(log, *arn, *shard_id, type, seq, now);
          }));
  return Json{{"ShardIterator", std::move(iterator)}};
}

Result<Json> GetRecords(EmulatorImpl& impl, const CallFaults& faults,
                        const Json& request) {
  RequestParser p(request);
  std::optional<std::string> iterator = p.String(request, "ShardIterator");
  p.NotNull(iterator.has_value(), "shardIterator");
  if (iterator) p.Length(*iterator, "shardIterator", 1, 2048);
  std::optional<int64_t> limit = p.Integer(request, "Limit");
  if (limit) p.Range(*limit, "limit", 1, 1000);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  DDBLAB_ASSIGN_OR_RETURN(
      streams::GetRecordsResult r,
      InStreamsTransaction<streams::GetRecordsResult>(
          impl,
          [&](StreamService& s, storage::StreamStore& log, TimePoint now) {
            return s.GetRecords(log, *iterator,
                                static_cast<int>(limit.value_or(1000)), now,
                                faults.visibility_delay);
          }));
  Json out = Json::object();
  out["Records"] = std::move(r.records);  // (an initializer list would copy)
  if (r.next_iterator) out["NextShardIterator"] = *r.next_iterator;
  return out;
}

}  // namespace

Result<Json> HandleListStreams(EmulatorImpl& impl, CallContext& /*call*/,
                               const Json& request) {
  return ListStreams(impl, request);
}

Result<Json> HandleDescribeStream(EmulatorImpl& impl, CallContext& /*call*/,
                                  const Json& request) {
  return DescribeStream(impl, request);
}

Result<Json> HandleGetShardIterator(EmulatorImpl& impl, CallContext& /*call*/,
                                    const Json& request) {
  return GetShardIterator(impl, request);
}

Result<Json> HandleGetRecords(EmulatorImpl& impl, CallContext& call,
                              const Json& request) {
  return GetRecords(impl, call.faults, request);
}

}  // namespace ddblab::engine
