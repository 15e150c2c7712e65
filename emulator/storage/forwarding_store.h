// emulator/storage/forwarding_store.h: decorator bases for the storage
// interfaces. Each forwards every call to the object it wraps, so a store
// that fails, delays or records chosen calls overrides only those:
//
//   class FailIndexWrites : public ForwardingWriteTransaction {
//    public:
//     using ForwardingWriteTransaction::ForwardingWriteTransaction;
//     Status PutIndexEntry(...) override { return Error::Internal("x"); }
//   };
//   class FailingStore : public ForwardingItemStore {
//    public:
//     using ForwardingItemStore::ForwardingItemStore;
//    protected:
//     std::unique_ptr<WriteTransaction> WrapTransaction(
//         std::unique_ptr<WriteTransaction> txn) override {
//       return std::make_unique<FailIndexWrites>(std::move(txn));
//     }
//   };
//
// Sub-stores are decorated the same way: a ForwardingWriteTransaction (or
// ForwardingItemStore) subclass overrides ttl_queue() / streams() to return
// its own ForwardingTtlQueueStore / ForwardingStreamStore subclass built on
// base().ttl_queue() / base().streams().
//
// Ownership: ForwardingItemStore and ForwardingWriteTransaction own what
// they wrap; the sub-store forwarders borrow theirs (owned by the store).
// Thread-safety: that of the wrapped objects (none; the engine lock).
#pragma once

#include <memory>
#include <utility>

#include "emulator/storage/item_store.h"

namespace ddblab::storage {

class ForwardingTtlQueueStore : public TtlQueueStore {
 public:
  explicit ForwardingTtlQueueStore(TtlQueueStore& base) : base_(base) {}

  Status EnsureSchema() override { return base_.EnsureSchema(); }
  Status Put(int64_t table_id, std::string_view pk, std::string_view sk,
             int64_t due) override {
    return base_.Put(table_id, pk, sk, due);
  }
  Status Remove(int64_t table_id, std::string_view pk,
                std::string_view sk) override {
    return base_.Remove(table_id, pk, sk);
  }
  Status ClearTable(int64_t table_id) override {
    return base_.ClearTable(table_id);
  }
  Status RemoveThrough(const TtlQueueRow& last) override {
    return base_.RemoveThrough(last);
  }
  Result<std::vector<TtlQueueRow>> Due(int64_t now_s, int64_t limit) override {
    return base_.Due(now_s, limit);
  }
  Result<std::vector<TtlQueueTableStats>> Stats() override {
    return base_.Stats();
  }
  Result<std::optional<int64_t>> DueOf(int64_t table_id, std::string_view pk,
                                       std::string_view sk) override {
    return base_.DueOf(table_id, pk, sk);
  }
  Result<std::optional<int64_t>> Earliest() override {
    return base_.Earliest();
  }

 protected:
  TtlQueueStore& base() { return base_; }

 private:
  TtlQueueStore& base_;
};

class ForwardingStreamStore : public StreamStore {
 public:
  explicit ForwardingStreamStore(StreamStore& base) : base_(base) {}

  Status EnsureSchema() override { return base_.EnsureSchema(); }
  uint64_t generation() const override { return base_.generation(); }

  Result<std::optional<StreamRow>> FindStream(std::string_view arn) override {
    return base_.FindStream(arn);
  }
  Result<std::vector<StreamRow>> ListStreams() override {
    return base_.ListStreams();
  }
  Result<int64_t> InsertStream(const StreamRow& row) override {
    return base_.InsertStream(row);
  }
  Status SaveCounters(const StreamRow& row) override {
    return base_.SaveCounters(row);
  }
  Status SetDisabled(int64_t stream_id, int64_t disabled_ms) override {
    return base_.SetDisabled(stream_id, disabled_ms);
  }
  Status DeleteStream(int64_t stream_id) override {
    return base_.DeleteStream(stream_id);
  }
  Result<std::vector<ShardRow>> Shards(int64_t stream_id) override {
    return base_.Shards(stream_id);
  }
  Result<std::vector<ShardRow>> OpenShards(int64_t stream_id) override {
    return base_.OpenShards(stream_id);
  }
  Result<std::optional<ShardRow>> FindShard(
      int64_t stream_id, std::string_view shard_id) override {
    return base_.FindShard(stream_id, shard_id);
  }
  Result<std::optional<ShardRow>> ShardByOrdinal(int64_t stream_id,
                                                 int64_t ordinal) override {
    return base_.ShardByOrdinal(stream_id, ordinal);
  }
  Status InsertShard(const ShardRow& row) override {
    return base_.InsertShard(row);
  }
  Status CloseShard(int64_t stream_id, int64_t ordinal, int64_t end_seq,
                    int64_t closed_ms) override {
    return base_.CloseShard(stream_id, ordinal, end_seq, closed_ms);
  }
  Status DeleteShard(int64_t stream_id, int64_t ordinal) override {
    return base_.DeleteShard(stream_id, ordinal);
  }
  Status InsertRecord(int64_t stream_id, int64_t shard,
                      const RecordRow& row) override {
    return base_.InsertRecord(stream_id, shard, row);
  }
  Result<std::optional<int64_t>> LastSeq(int64_t stream_id,
                                         int64_t shard) override {
    return base_.LastSeq(stream_id, shard);
  }
  Status ReadRecords(int64_t stream_id, int64_t shard, int64_t after_seq,
                     const std::function<bool(RecordRow&&)>& visit) override {
    return base_.ReadRecords(stream_id, shard, after_seq, visit);
  }
  Result<bool> Trim(int64_t stream_id, int64_t shard,
                    int64_t cutoff_ms) override {
    return base_.Trim(stream_id, shard, cutoff_ms);
  }

 protected:
  StreamStore& base() { return base_; }

 private:
  StreamStore& base_;
};

class ForwardingWriteTransaction : public WriteTransaction {
 public:
  explicit ForwardingWriteTransaction(std::unique_ptr<WriteTransaction> base)
      : base_(std::move(base)) {}

  Status PutItem(int64_t table_id, std::string_view pk, std::string_view sk,
                 std::string_view item, int64_t size) override {
    return base_->PutItem(table_id, pk, sk, item, size);
  }
  Result<bool> InsertItemIfAbsent(int64_t table_id, std::string_view pk,
                                  std::string_view sk, std::string_view item,
                                  int64_t size) override {
    return base_->InsertItemIfAbsent(table_id, pk, sk, item, size);
  }
  Status DeleteItem(int64_t table_id, std::string_view pk,
                    std::string_view sk) override {
    return base_->DeleteItem(table_id, pk, sk);
  }
  Status PutIndexEntry(int64_t table_id, int64_t index_id, std::string_view ipk,
                       std::string_view isk, std::string_view pk,
                       std::string_view sk, std::string_view item,
                       int64_t size) override {
    return base_->PutIndexEntry(table_id, index_id, ipk, isk, pk, sk, item,
                                size);
  }
  Status DeleteIndexEntry(int64_t table_id, int64_t index_id,
                          std::string_view ipk, std::string_view isk,
                          std::string_view pk, std::string_view sk) override {
    return base_->DeleteIndexEntry(table_id, index_id, ipk, isk, pk, sk);
  }
  Result<int64_t> CreateTable(std::string_view name,
                              std::string_view meta) override {
    return base_->CreateTable(name, meta);
  }
  Status UpdateTable(int64_t table_id, std::string_view meta) override {
    return base_->UpdateTable(table_id, meta);
  }
  Status DropTable(int64_t table_id) override {
    return base_->DropTable(table_id);
  }
  Status DropIndex(int64_t table_id, int64_t index_id) override {
    return base_->DropIndex(table_id, index_id);
  }
  Status Commit() override { return base_->Commit(); }
  void Rollback() override { base_->Rollback(); }
  TtlQueueStore& ttl_queue() override { return base_->ttl_queue(); }
  StreamStore& streams() override { return base_->streams(); }
  BackupStore& backups() override { return base_->backups(); }

 protected:
  WriteTransaction& base() { return *base_; }

 private:
  std::unique_ptr<WriteTransaction> base_;
};

class ForwardingItemStore : public ItemStore {
 public:
  explicit ForwardingItemStore(std::unique_ptr<ItemStore> base)
      : base_(std::move(base)) {}

  Result<std::optional<StoredItem>> Get(int64_t table_id, std::string_view pk,
                                        std::string_view sk) override {
    return base_->Get(table_id, pk, sk);
  }
  Status Scan(const ScanSpec& spec, const RowVisitor& visit) override {
    return base_->Scan(spec, visit);
  }
  Result<std::unique_ptr<WriteTransaction>> Begin() override {
    DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<WriteTransaction> txn,
                            base_->Begin());
    return WrapTransaction(std::move(txn));
  }
  bool in_transaction() const override { return base_->in_transaction(); }
  Result<std::vector<CatalogRow>> LoadCatalog() override {
    return base_->LoadCatalog();
  }
  Result<Stats> ComputeStats(int64_t table_id, int64_t index_id) override {
    return base_->ComputeStats(table_id, index_id);
  }
  TtlQueueStore& ttl_queue() override { return base_->ttl_queue(); }
  StreamStore& streams() override { return base_->streams(); }
  BackupStore& backups() override { return base_->backups(); }

 protected:
  // Called by Begin with each new transaction: return it wrapped (in a
  // ForwardingWriteTransaction subclass) or as it is (the default).
  virtual std::unique_ptr<WriteTransaction> WrapTransaction(
      std::unique_ptr<WriteTransaction> txn) {
    return txn;
  }
  ItemStore& base() { return *base_; }

 private:
  std::unique_ptr<ItemStore> base_;
};

}  // namespace ddblab::storage
