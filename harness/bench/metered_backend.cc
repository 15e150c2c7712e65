// harness/bench/metered_backend.cc: consumed capacity and throttles per
// table, read from the answers of the inner backend (see metered_backend.h).
#include "harness/bench/metered_backend.h"

#include <set>
#include <string_view>

namespace ddblab::harness::bench {
namespace {

bool IsWrite(std::string_view op) {
  return op == "PutItem" || op == "UpdateItem" || op == "DeleteItem" ||
         op == "BatchWriteItem" || op == "TransactWriteItems";
}

bool IsRead(std::string_view op) {
  return op == "GetItem" || op == "BatchGetItem" || op == "TransactGetItems" ||
         op == "Query" || op == "Scan";
}

bool IsThrottle(const Error& error) {
  switch (error.type) {
    case ErrorType::kThrottling:
    case ErrorType::kProvisionedThroughputExceeded:
    case ErrorType::kRequestLimitExceeded:
    case ErrorType::kLimitExceeded:
      return true;
    case ErrorType::kTransactionCanceled: {
      if (!error.extra.is_object()) return false;
      const json reasons =
          error.extra.value("CancellationReasons", json::array());
      if (!reasons.is_array()) return false;
      for (const json& r : reasons) {
        if (r.is_object() && r.value("Code", "") == "ThrottlingError") {
          return true;
        }
      }
      return false;
    }
    default:
      return false;
  }
}

// The tables a data-plane request names.
std::set<std::string> TablesOf(const json& request) {
  std::set<std::string> out;
  if (!request.is_object()) return out;
  if (auto it = request.find("TableName");
      it != request.end() && it->is_string()) {
    out.insert(it->get<std::string>());
  }
  if (auto it = request.find("RequestItems");
      it != request.end() && it->is_object()) {
    for (const auto& [table, _] : it->items()) out.insert(table);
  }
  if (auto it = request.find("TransactItems");
      it != request.end() && it->is_array()) {
    for (const json& action : *it) {
      if (!action.is_object()) continue;
      for (const auto& [_, body] : action.items()) {
        if (body.is_object() && body.contains("TableName") &&
            body["TableName"].is_string()) {
          out.insert(body["TableName"].get<std::string>());
        }
      }
    }
  }
  return out;
}

}  // namespace

Result<json> MeteredBackend::Call(std::string_view operation,
                                  const json& request) {
  const bool write = IsWrite(operation);
  if ((write || IsRead(operation)) && request.is_object() &&
      !request.contains("ReturnConsumedCapacity")) {
    json metered = request;
    metered["ReturnConsumedCapacity"] = "TOTAL";
    Result<json> out = inner().Call(operation, metered);
    Record(operation, request, out);
    return out;
  }
  Result<json> out = inner().Call(operation, request);
  Record(operation, request, out);
  return out;
}

Result<json> MeteredBackend::CallStreams(std::string_view operation,
                                         const json& request) {
  Result<json> out = inner().CallStreams(operation, request);
  MutexLock lock(mu_);
  Count(operation);
  if (!out.ok() && IsThrottle(out.error())) ++stream_throttles_;
  return out;
}

void MeteredBackend::Count(std::string_view operation) {
  auto it = calls_.find(operation);
  if (it == calls_.end()) {
    calls_.emplace(std::string(operation), 1);
  } else {
    ++it->second;
  }
}

TableMeter& MeteredBackend::Table(const std::string& name) {
  auto it = tables_.find(name);
  return it != tables_.end() ? it->second : tables_[name];
}

void MeteredBackend::AddConsumed(const json& consumed, bool write) {
  if (!consumed.is_object()) return;
  auto name = consumed.find("TableName");
  if (name == consumed.end() || !name->is_string()) return;
  TableMeter& m = Table(name->get_ref<const std::string&>());
  double units = consumed.value("CapacityUnits", 0.0);
  (write ? m.write_units : m.read_units) += units;
  ++m.metered;
}

void MeteredBackend::Record(std::string_view operation, const json& request,
                            const Result<json>& out) {
  const bool write = IsWrite(operation);
  const bool read = IsRead(operation);
  MutexLock lock(mu_);
  Count(operation);
  if (!write && !read) return;
  if (!out.ok()) {
    if (IsThrottle(out.error())) {
      for (const std::string& t : TablesOf(request)) ++tables_[t].throttles;
    }
    return;
  }
  const json& body = *out;
  auto consumed = body.find("ConsumedCapacity");
  if (consumed == body.end() || consumed->is_null()) {
    for (const std::string& t : TablesOf(request)) ++tables_[t].unmetered;
  } else {
    if (consumed->is_array()) {
      for (const json& c : *consumed) AddConsumed(c, write);
    } else {
      AddConsumed(*consumed, write);
    }
  }
  if (operation == "BatchWriteItem") {
    auto unprocessed = body.find("UnprocessedItems");
    if (unprocessed != body.end() && unprocessed->is_object()) {
      for (const auto& [table, writes] : unprocessed->items()) {
        if (writes.is_array()) {
          tables_[table].unprocessed += static_cast<int64_t>(writes.size());
        }
      }
    }
  }
}

Status MeteredBackend::AdvanceClock(Duration d) {
  const TimePoint before = inner().clock().Now();
  DDBLAB_RETURN_IF_ERROR(inner().AdvanceClock(d));
  auto* local = dynamic_cast<ManualClock*>(&inner().clock());
  if (local != nullptr && local->Now() == before) local->Advance(d);
  return OkStatus();
}

Status MeteredBackend::SetClock(TimePoint t) {
  DDBLAB_RETURN_IF_ERROR(inner().SetClock(t));
  if (auto* local = dynamic_cast<ManualClock*>(&inner().clock())) {
    local->Set(t);
  }
  return OkStatus();
}

TableMeter MeteredBackend::Meter(const std::string& table) const {
  MutexLock lock(mu_);
  auto it = tables_.find(table);
  return it == tables_.end() ? TableMeter{} : it->second;
}

std::map<std::string, int64_t> MeteredBackend::Calls() const {
  MutexLock lock(mu_);
  return {calls_.begin(), calls_.end()};
}

int64_t MeteredBackend::stream_throttles() const {
  MutexLock lock(mu_);
  return stream_throttles_;
}

}  // namespace ddblab::harness::bench
