// emulator/engine/streams_glue/stream_sink.h: DynamoDB Streams wired into the
// engine.
//
// StreamSink is the ChangeSink that appends one stream record per item
// change (inside the write's SQLite transaction, so a record exists iff its
// write committed), creates a stream when a table gets one (CreateTable,
// UpdateTable) and disables it when the table drops it or is deleted. It
// skips no-op writes (old image == new image). TTL deletions
// (Origin::kTtl) get userIdentity.
//
// InstallStreams (called by EmulatorImpl::Open) creates the stream tables,
// creates missing streams of tables that have one (databases written before
// streams existed), and registers the sink. SplitStreamShards is the
// in-process "split on demand" control (the server exposes it as POST
// /_ddblab/streams/split).
//
// Ownership: EmulatorImpl owns the sink. Thread-safety: the sink is called
// with the engine lock held; SplitStreamShards takes the lock itself.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/options.h"
#include "emulator/api/result.h"
#include "emulator/engine/change_event.h"
#include "emulator/engine/table.h"
#include "emulator/streams/stream_service.h"

namespace ddblab::engine {

class EmulatorImpl;

// The streams configuration for an emulator's Options.
streams::StreamsConfig StreamsConfigFor(const Options& options);
// The stream of `table` (enabled or the latest one) as the streams layer
// records it; its creation time is read from the label (`fallback` if the
// label is malformed).
streams::StreamSpec StreamSpecOf(const Table& table, TimePoint fallback);

class StreamSink final : public ChangeSink {
 public:
  explicit StreamSink(EmulatorImpl& impl);

  bool Wants(const Table& table) const override { return table.stream.enabled; }
  Status OnChange(const ChangeEvent& event,
                  storage::WriteTransaction& txn) override;
  Status OnTableCreated(const Table& table,
                        storage::WriteTransaction& txn) override;
  Status OnTableUpdated(const Table& before, const Table& after,
                        storage::WriteTransaction& txn) override;
  Status OnTableDeleted(const Table& table,
                        storage::WriteTransaction& txn) override;

 private:
  EmulatorImpl& impl_;
  streams::StreamService service_;
};

// See the header comment. Call once, before concurrent use.
Status InstallStreams(EmulatorImpl& impl);

// Splits the open shard `shard_id` (or every open shard) of the enabled
// stream of table `table_name_or_arn` into two children each; returns the
// closed and the created shard ids. Errors: unknown table
// (ResourceNotFoundException), no enabled stream or a closed shard
// (ValidationException), unknown shard (ResourceNotFoundException).
Result<streams::SplitResult> SplitStreamShards(
    EmulatorImpl& impl, std::string_view table_name_or_arn,
    const std::optional<std::string>& shard_id);

}  // namespace ddblab::engine
