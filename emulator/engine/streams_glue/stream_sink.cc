#include "emulator/engine/streams_glue/stream_sink.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "emulator/engine/emulator_impl.h"
#include "emulator/value/key_codec.h"

namespace ddblab::engine {
namespace {

// "2024-01-01T00:00:00.123" -> its time (UTC); nullopt if malformed.
std::optional<TimePoint> ParseStreamLabel(const std::string& label) {
  int y = 0;
  unsigned mo = 0, d = 0;
  int h = 0, mi = 0, s = 0, ms = 0;
  if (std::sscanf(label.c_str(), "%d-%u-%uT%d:%d:%d.%d", &y, &mo, &d, &h, &mi,
                  &s, &ms) != 7) {
    return std::nullopt;
  }
  std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(mo),
                                  std::chrono::day(d)};
  if (!ymd.ok()) return std::nullopt;
  return TimePoint(std::chrono::sys_days(ymd)) + std::chrono::hours(h) +
         std::chrono::minutes(mi) + std::chrono::seconds(s) +
         std::chrono::milliseconds(ms);
}

}  // namespace

streams::StreamsConfig StreamsConfigFor(const Options& options) {
  streams::StreamsConfig config;
  config.shards.initial_shards = options.stream_shards;
  config.shards.rollover = options.shard_rollover;
  config.shards.seed = options.seed;
  config.region = options.region;
  return config;
}

streams::StreamSpec StreamSpecOf(const Table& table, TimePoint fallback) {
  streams::StreamSpec spec;
  spec.arn = table.stream.arn;
  spec.table_name = table.name;
  spec.label = table.stream.label;
  spec.view_type = streams::ParseViewType(table.stream.view_type)
                       .value_or(streams::ViewType::kKeysOnly);
  nlohmann::json keys = nlohmann::json::array();
  keys.push_back({{"AttributeName", table.key.hash.name}, {"KeyType", "HASH"}});
  if (table.key.range) {
    keys.push_back(
        {{"AttributeName", table.key.range->name}, {"KeyType", "RANGE"}});
  }
  spec.key_schema = keys.dump();
  spec.created = ParseStreamLabel(table.stream.label).value_or(fallback);
  return spec;
}

StreamSink::StreamSink(EmulatorImpl& impl)
    : impl_(impl), service_(StreamsConfigFor(impl.options())) {}

Status StreamSink::OnChange(const ChangeEvent& event,
                            storage::WriteTransaction& txn) {
  DDBLAB_ASSIGN_OR_RETURN(bool nothing, event.ChangesNothing());
  if (nothing) return OkStatus();
  const streams::StoredImage old_image{event.old_bytes(), event.old_size()};
  const streams::StoredImage new_image{event.new_bytes, event.new_size};
  streams::Change change{&event.keys, event.existed() ? &old_image : nullptr,
                         event.new_image != nullptr ? &new_image : nullptr,
                         event.origin == ChangeEvent::Origin::kTtl};
  storage::StreamStore& log = txn.streams();
  auto hash = event.keys.find(event.table.key.hash.name);
  if (hash == event.keys.end()) {
    return Error::Internal("stream change without its partition key");
  }
  const std::string partition_key = value::EncodeKey(hash->second);
  const std::string& arn = event.table.stream.arn;
  DDBLAB_ASSIGN_OR_RETURN(
      bool appended,
      service_.Append(log, arn, partition_key, change, event.now));
  if (appended) return OkStatus();
  // The table has a stream the log does not know yet: create it.
  DDBLAB_RETURN_IF_ERROR(
      service_.Enable(log, StreamSpecOf(event.table, event.now)));
  DDBLAB_ASSIGN_OR_RETURN(
      appended, service_.Append(log, arn, partition_key, change, event.now,
                                /*may_cache=*/false));
  if (!appended) return Error::Internal("stream " + arn + " is not enabled");
  return OkStatus();
}

Status StreamSink::OnTableCreated(const Table& table,
                                  storage::WriteTransaction& txn) {
  if (!table.stream.enabled) return OkStatus();
  storage::StreamStore& log = txn.streams();
  return service_.Enable(log, StreamSpecOf(table, impl_.Now()));
}

Status StreamSink::OnTableUpdated(const Table& before, const Table& after,
                                  storage::WriteTransaction& txn) {
  const StreamSettings& b = before.stream;
  const StreamSettings& a = after.stream;
  const bool same = b.enabled && a.enabled && b.arn == a.arn;
  if (same || (!b.enabled && !a.enabled)) return OkStatus();
  storage::StreamStore& log = txn.streams();
  if (b.enabled) {
    DDBLAB_RETURN_IF_ERROR(service_.Disable(log, b.arn, impl_.Now()));
  }
  if (a.enabled) {
    DDBLAB_RETURN_IF_ERROR(
        service_.Enable(log, StreamSpecOf(after, impl_.Now())));
  }
  return OkStatus();
}

Status StreamSink::OnTableDeleted(const Table& table,
                                  storage::WriteTransaction& txn) {
  if (!table.stream.enabled) return OkStatus();
  storage::StreamStore& log = txn.streams();
  return service_.Disable(log, table.stream.arn, impl_.Now());
}

Status InstallStreams(EmulatorImpl& impl) {
  auto lock = impl.Lock();
  DDBLAB_RETURN_IF_ERROR(
      streams::StreamService::EnsureSchema(impl.store().streams()));
  auto sink = std::make_shared<StreamSink>(impl);
  // Tables whose stream predates the stream log get theirs now.
  bool any = false;
  for (const auto& [name, entry] : impl.catalog().entries()) {
    any = any || entry.table->stream.enabled;
  }
  if (any) {
    DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
    streams::StreamService service(StreamsConfigFor(impl.options()));
    for (const auto& [name, entry] : impl.catalog().entries()) {
      if (!entry.table->stream.enabled) continue;
      DDBLAB_RETURN_IF_ERROR(service.Enable(
          txn->streams(), StreamSpecOf(*entry.table, impl.Now())));
    }
    DDBLAB_RETURN_IF_ERROR(txn->Commit());
  }
  impl.AddChangeSink(std::move(sink));
  return OkStatus();
}

Result<streams::SplitResult> SplitStreamShards(
    EmulatorImpl& impl, std::string_view table_name_or_arn,
    const std::optional<std::string>& shard_id) {
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(
      Catalog::Entry * entry,
      impl.FindTable(table_name_or_arn, TableLookup::kControl));
  const Table& table = *entry->table;
  if (!table.stream.enabled) {
    return Error::Validation("Table has no enabled stream: TableName: " +
                             table.name);
  }
  DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
  streams::StreamService service(StreamsConfigFor(impl.options()));
  DDBLAB_ASSIGN_OR_RETURN(
      streams::SplitResult result,
      service.Split(txn->streams(), table.stream.arn, shard_id, impl.Now()));
  DDBLAB_RETURN_IF_ERROR(txn->Commit());
  return result;
}

}  // namespace ddblab::engine
