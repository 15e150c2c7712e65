// emulator/storage/sqlite_stream_store.h: the SQLite StreamStore.
//
// Runs on the Database of its SqliteItemStore (the connection every
// WriteTransaction uses), so its writes join the open transaction. Every
// change to streams or shards bumps the Database's generation, and so does
// every rollback (sqlite.h): that is StreamStore::generation().
//
// Ownership: owned by SqliteItemStore; borrows its Database.
// Thread-safety: none (see stream_store.h).
#pragma once

#include "emulator/storage/sqlite.h"
#include "emulator/storage/stream_store.h"

namespace ddblab::storage {

class SqliteStreamStore final : public StreamStore {
 public:
  explicit SqliteStreamStore(Database& db) : db_(db) {}

  Status EnsureSchema() override;
  uint64_t generation() const override { return db_.generation(); }

  Result<std::optional<StreamRow>> FindStream(std::string_view arn) override;
  Result<std::vector<StreamRow>> ListStreams() override;
  Result<int64_t> InsertStream(const StreamRow& row) override;
  Status SaveCounters(const StreamRow& row) override;
  Status SetDisabled(int64_t stream_id, int64_t disabled_ms) override;
  Status DeleteStream(int64_t stream_id) override;

  Result<std::vector<ShardRow>> Shards(int64_t stream_id) override;
  Result<std::vector<ShardRow>> OpenShards(int64_t stream_id) override;
  Result<std::optional<ShardRow>> FindShard(int64_t stream_id,
                                            std::string_view shard_id) override;
  Result<std::optional<ShardRow>> ShardByOrdinal(int64_t stream_id,
                                                 int64_t ordinal) override;
  Status InsertShard(const ShardRow& row) override;
  Status CloseShard(int64_t stream_id, int64_t ordinal, int64_t end_seq,
                    int64_t closed_ms) override;
  Status DeleteShard(int64_t stream_id, int64_t ordinal) override;

  Status InsertRecord(int64_t stream_id, int64_t shard,
                      const RecordRow& row) override;
  Result<std::optional<int64_t>> LastSeq(int64_t stream_id,
                                         int64_t shard) override;
  Status ReadRecords(int64_t stream_id, int64_t shard, int64_t after_seq,
                     const std::function<bool(RecordRow&&)>& visit) override;
  Result<bool> Trim(int64_t stream_id, int64_t shard,
                    int64_t cutoff_ms) override;

 private:
  Database& db_;
};

}  // namespace ddblab::storage
