#include "emulator/engine/emulator_impl.h"

#include <cstdio>
#include <exception>
#include <utility>

#include "emulator/engine/call_context.h"
#include "emulator/engine/capacity/capacity_model.h"
#include "emulator/engine/fault_seam.h"
#include "emulator/engine/operations.h"
#include "emulator/engine/ops/transact_tokens.h"
#include "emulator/engine/streams_glue/stream_sink.h"
#include "emulator/engine/table_arn.h"
#include "emulator/engine/ttl/ttl_sweeper.h"
#include "emulator/storage/sqlite_item_store.h"

namespace ddblab::engine {

EmulatorImpl::EmulatorImpl(Options options, std::shared_ptr<Clock> clock,
                           std::unique_ptr<storage::ItemStore> store)
    : options_(std::move(options)),
      clock_(std::move(clock)),
      rng_(options_.seed),
      consistency_(options_.consistency, options_.seed),
      store_(std::move(store)),
      faults_(options_.seed),
      transact_tokens_(std::make_unique<TransactTokens>()) {}

EmulatorImpl::~EmulatorImpl() {
  ttl_.reset();  // stops the TTL sweeper thread before anything it uses
}

Result<std::unique_ptr<EmulatorImpl>> EmulatorImpl::Open(
    Options options, const StoreDecorator& decorate) {
  std::shared_ptr<Clock> clock = options.clock;
  if (!clock) clock = std::make_shared<SystemClock>();
  auto store = storage::SqliteItemStore::Open(options.db_path);
  // Keeps the type: ResourceInUseException for a database in use.
  if (!store.ok()) return store.error();
  std::unique_ptr<storage::ItemStore> base = std::move(store).value();
  if (decorate) base = decorate(std::move(base));
  std::unique_ptr<EmulatorImpl> impl(
      new EmulatorImpl(std::move(options), std::move(clock), std::move(base)));
  {
    auto lock = impl->Lock();
    DDBLAB_RETURN_IF_ERROR(impl->store_->backups().EnsureSchema());
    DDBLAB_RETURN_IF_ERROR(impl->catalog_.Load(*impl->store_));
  }
  if (impl->options_.capacity == Capacity::kEnforce) {
    impl->capacity_ = std::make_unique<CapacityModel>();
  }
  if (!impl->options_.fault_plan.is_null()) {
    DDBLAB_ASSIGN_OR_RETURN(fault::Plan plan,
                            fault::ParsePlan(impl->options_.fault_plan));
    impl->faults_.SetPlan(std::move(plan));
  }
  DDBLAB_RETURN_IF_ERROR(InstallStreams(*impl));
  {  // TTL: the deletion queue, its sink, and the sweeper thread if the
     // clock is real (else RunDueWork drives it).
    DDBLAB_ASSIGN_OR_RETURN(TtlDelay delay,
                            TtlDelay::Parse(impl->options_.ttl_delay));
    auto lock = impl->Lock();
    DDBLAB_ASSIGN_OR_RETURN(impl->ttl_, TtlSweeper::Create(*impl, delay));
  }
  if (dynamic_cast<SystemClock*>(impl->clock_.get()) != nullptr) {
    impl->ttl_->StartThread(impl->options_.ttl_sweep_interval);
  }
  return impl;
}

namespace {

Result<nlohmann::json> Guarded(const Dispatcher& d, EmulatorImpl& impl,
                               CallContext& call,
                               const nlohmann::json& request) {
  try {
    return d.Dispatch(impl, call, request);
  } catch (const std::exception& e) {
    // A bug, not bad input: never let it escape the facade.
    return Error::Internal("internal error in " +
                           std::string(call.info().name) + ": " + e.what());
  }
}

}  // namespace

DeferredAnswer EmulatorImpl::Run(const Dispatcher& dispatcher, Api api,
                                 std::string_view name,
                                 const nlohmann::json& request) {
  RunDueWork();
  // The one lookup by name of the call; from here on, the enum and its
  // traits.
  const std::optional<Operation> operation = OperationByName(name);
  if (!operation || InfoOf(*operation).api != api) {
    return {Error::Of(ErrorType::kUnknownOperation, ""), std::nullopt};
  }
  // A table ARN of another account or Region (table_arn.h) is refused
  // before the handler, which then only ever sees ARNs of this one.
  if (api == Api::kDynamoDb) {
    Status scope = CheckRequestTableArns(*operation, request, options_.region,
                                         options_.account_id);
    if (!scope.ok()) return {scope.error(), std::nullopt};
  }
  CallContext call(*operation, Now());
  auto run = [&]() -> Result<nlohmann::json> {
    if (!capacity_) return Guarded(dispatcher, *this, call, request);
    // The one capacity seam (capacity/capacity_ledger.h): a failed call
    // consumes nothing.
    call.capacity =
        CapacityLedger(capacity_.get(), call.now, call.info().capacity_factor);
    Result<nlohmann::json> answer = Guarded(dispatcher, *this, call, request);
    if (!answer.ok()) call.capacity.RefundAll();
    return answer;
  };
  if (faults_.active()) {  // the one fault seam (fault_seam.h)
    return CallWithFaults(*this, call, request, run);
  }
  return {run(), std::nullopt};
}

DeferredAnswer EmulatorImpl::CallDeferred(std::string_view operation,
                                          const nlohmann::json& request) {
  return Run(dispatcher_, Api::kDynamoDb, operation, request);
}

DeferredAnswer EmulatorImpl::CallStreamsDeferred(
    std::string_view operation, const nlohmann::json& request) {
  return Run(streams_dispatcher_, Api::kStreams, operation, request);
}

Result<nlohmann::json> EmulatorImpl::Call(std::string_view operation,
                                          const nlohmann::json& request) {
  DeferredAnswer answer = CallDeferred(operation, request);
  if (answer.due)
    answer.due->clock->SleepUntil(answer.due->at, stop_waiting_.get_token());
  return std::move(answer.result);
}

Result<nlohmann::json> EmulatorImpl::CallStreams(
    std::string_view operation, const nlohmann::json& request) {
  DeferredAnswer answer = CallStreamsDeferred(operation, request);
  if (answer.due)
    answer.due->clock->SleepUntil(answer.due->at, stop_waiting_.get_token());
  return std::move(answer.result);
}

void EmulatorImpl::AddChangeSink(std::shared_ptr<ChangeSink> sink) {
  sinks_.push_back(std::move(sink));
}

void EmulatorImpl::RunDueWork() {
  if (ttl_ && !ttl_->has_thread()) (void)ttl_->CatchUp();
}

std::optional<std::string> EmulatorImpl::TableNameOf(
    std::string_view name_or_arn) const {
  if (name_or_arn.rfind("arn:", 0) == 0) {
    return TableNameFromArn(name_or_arn, options_.region, options_.account_id);
  }
  return std::string(name_or_arn);
}

std::string EmulatorImpl::TableArn(std::string_view name) const {
  return MakeTableArn(options_.region, options_.account_id, name);
}

std::string EmulatorImpl::NewUuid(std::string_view salt) const {
  std::string text(salt);
  uint64_t hi = Rng::Hash(options_.seed, text + "/hi");
  uint64_t lo = Rng::Hash(options_.seed, text + "/lo");
  hi = (hi & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;  // version 4
  lo = (lo & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // variant 10
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xFFFF),
                static_cast<unsigned>(hi & 0xFFFF),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFULL));
  return buf;
}

Status EmulatorImpl::SaveTable(const Table& table,
                               storage::WriteTransaction& txn) {
  return txn.UpdateTable(table.id, table.ToMeta().dump());
}

Result<bool> EmulatorImpl::Settle(const std::string& name) {
  Catalog::Entry* entry = catalog_.Find(name);
  if (entry == nullptr) return false;
  const Table& table = *entry->table;
  bool pending = table.status != TableStatus::kActive;
  for (const IndexDef& idx : table.indexes) {
    pending = pending || idx.status != TableStatus::kActive;
  }
  for (const VectorIndexDef& v : table.vector_indexes) {
    pending = pending || v.status != TableStatus::kActive;
  }
  // Transitions are written in their own transaction; inside a caller's
  // open one they wait for the next lookup (look tables up before Begin).
  if (!pending || store_->in_transaction()) return true;
  const TimePoint now = Now();

  if (table.status == TableStatus::kDeleting) {
    if (now < table.status_until) return true;
    DDBLAB_ASSIGN_OR_RETURN(auto txn, store_->Begin());
    for (const auto& sink : sinks_) {
      DDBLAB_RETURN_IF_ERROR(sink->OnTableDeleted(table, *txn));
    }
    DDBLAB_RETURN_IF_ERROR(txn->DropTable(table.id));
    DDBLAB_RETURN_IF_ERROR(txn->Commit());
    consistency_.ForgetTable(table.id);
    catalog_.Erase(name);
    return false;
  }

  Table next = table;
  bool changed = false;
  std::vector<int64_t> dropped;
  if ((next.status == TableStatus::kCreating ||
       next.status == TableStatus::kUpdating) &&
      now >= next.status_until) {
    next.status = TableStatus::kActive;
    changed = true;
  }
  for (auto it = next.indexes.begin(); it != next.indexes.end();) {
    if (it->status == TableStatus::kDeleting && now >= it->status_until) {
      dropped.push_back(it->id);
      it = next.indexes.erase(it);
      changed = true;
      continue;
    }
    if ((it->status == TableStatus::kCreating ||
         it->status == TableStatus::kUpdating) &&
        now >= it->status_until) {
      it->status = TableStatus::kActive;
      it->backfilling = false;
      changed = true;
    }
    ++it;
  }
  // Vector indexes: allocation -> backfilling -> ACTIVE (an index added by
  // UpdateTable), CREATING -> ACTIVE (with its table), DELETING -> gone.
  std::vector<std::string> dropped_vectors;
  for (auto it = next.vector_indexes.begin();
       it != next.vector_indexes.end();) {
    if (it->status == TableStatus::kDeleting && now >= it->status_until) {
      dropped_vectors.push_back(it->name);
      it = next.vector_indexes.erase(it);
      changed = true;
      continue;
    }
    if (it->status == TableStatus::kCreating && now >= it->status_until) {
      if (it->added_by_update && !it->backfilling) {
        it->backfilling = true;
        it->status_until += options_.table_status_delay;
      }
      if (now >= it->status_until) {
        it->status = TableStatus::kActive;
        it->backfilling = false;
      }
      changed = true;
    }
    ++it;
  }
  if (!changed) return true;
  if (!dropped.empty() || !dropped_vectors.empty()) {
    next.PruneAttributeDefinitions();
  }
  DDBLAB_ASSIGN_OR_RETURN(auto txn, store_->Begin());
  for (int64_t id : dropped)
    DDBLAB_RETURN_IF_ERROR(txn->DropIndex(next.id, id));
  DDBLAB_RETURN_IF_ERROR(SaveTable(next, *txn));
  for (const auto& sink : sinks_) {
    DDBLAB_RETURN_IF_ERROR(sink->OnTableUpdated(table, next, *txn));
  }
  DDBLAB_RETURN_IF_ERROR(txn->Commit());
  for (int64_t id : dropped) {
    entry->stats.indexes.erase(id);
    consistency_.ForgetIndex(next.id, id);
  }
  for (const std::string& gone : dropped_vectors) {
    entry->stats.vector_indexes.erase(gone);
    entry->vectors.erase(gone);
  }
  entry->table = std::make_shared<const Table>(std::move(next));
  return true;
}

Status EmulatorImpl::SettleAll() {
  std::vector<std::string> names;
  for (const auto& [name, entry] : catalog_.entries()) names.push_back(name);
  for (const std::string& name : names) {
    Result<bool> settled = Settle(name);
    if (!settled.ok()) return std::move(settled).error();
  }
  return OkStatus();
}

Status EmulatorImpl::DropEverything() {
  auto lock = Lock();
  DDBLAB_ASSIGN_OR_RETURN(auto txn, store_->Begin());
  for (const auto& [name, entry] : catalog_.entries()) {
    for (const auto& sink : sinks_) {
      DDBLAB_RETURN_IF_ERROR(sink->OnTableDeleted(*entry.table, *txn));
    }
    DDBLAB_RETURN_IF_ERROR(txn->DropTable(entry.table->id));
  }
  DDBLAB_ASSIGN_OR_RETURN(std::vector<storage::StreamRow> streams,
                          txn->streams().ListStreams());
  for (const storage::StreamRow& stream : streams) {
    DDBLAB_RETURN_IF_ERROR(txn->streams().DeleteStream(stream.id));
  }
  DDBLAB_RETURN_IF_ERROR(txn->backups().DeleteAll());
  DDBLAB_RETURN_IF_ERROR(txn->Commit());
  std::vector<std::string> names;
  for (const auto& [name, entry] : catalog_.entries()) names.push_back(name);
  for (const std::string& name : names) catalog_.Erase(name);
  consistency_.ForgetAll();
  return OkStatus();
}

Result<Catalog::Entry*> EmulatorImpl::FindTable(std::string_view name_or_arn,
                                                TableLookup lookup) {
  std::optional<std::string> name = TableNameOf(name_or_arn);
  auto not_found = [&]() -> Error {
    if (lookup == TableLookup::kData) {
      return Error::ResourceNotFound("Requested resource not found");
    }
    return Error::ResourceNotFound("Requested resource not found: Table: " +
                                   (name ? *name : std::string(name_or_arn)) +
                                   " not found");
  };
  if (!name) return not_found();
  Catalog::Entry* entry = catalog_.Find(*name);
  if (entry == nullptr) return not_found();
  if (entry->table->status != TableStatus::kActive ||
      !entry->table->indexes.empty() || !entry->table->vector_indexes.empty()) {
    DDBLAB_ASSIGN_OR_RETURN(bool exists, Settle(*name));
    if (!exists) return not_found();
    entry = catalog_.Find(*name);
  }
  if (lookup == TableLookup::kData &&
      (entry->table->status == TableStatus::kCreating ||
       entry->table->status == TableStatus::kDeleting)) {
    return not_found();
  }
  return entry;
}

ExpressionCache* ExpressionCacheOf(EmulatorImpl& impl) {
  return &impl.expression_cache();
}

}  // namespace ddblab::engine
