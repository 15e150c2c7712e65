// Dispatcher: one API's view of the operation table (see dispatcher.h).
#include "emulator/engine/dispatcher.h"

#include <algorithm>

namespace ddblab::engine {

Dispatcher::Dispatcher(Api api) {
  for (const OpEntry& entry : OperationTable()) {
    if (entry.api == api) ops_.push_back(&entry);
  }
  std::sort(ops_.begin(), ops_.end(), [](const OpEntry* a, const OpEntry* b) {
    return a->name < b->name;
  });
  for (const OpEntry* entry : ops_) {
    if (entry->name.size() >= by_length_.size()) {
      by_length_.resize(entry->name.size() + 1);
    }
    by_length_[entry->name.size()].push_back(entry);
  }
}

OpHandler Dispatcher::Find(std::string_view operation) const {
  if (operation.size() >= by_length_.size()) return nullptr;
  for (const OpEntry* entry : by_length_[operation.size()]) {
    if (entry->name == operation) return entry->handler;
  }
  return nullptr;
}

Result<nlohmann::json> Dispatcher::Dispatch(
    EmulatorImpl& impl, std::string_view operation,
    const nlohmann::json& request) const {
  OpHandler handler = Find(operation);
  if (handler == nullptr) return Error::Of(ErrorType::kUnknownOperation, "");
  // Every request of both APIs passes here once (PartiQL's statements do
  // not: they run the typed operations directly). The fault seam wraps this
  // call in EmulatorImpl::Call / CallStreams (fault_seam.h).
  return handler(impl, request);
}

std::vector<std::string> Dispatcher::Operations() const {
  std::vector<std::string> out;
  for (const OpEntry* entry : ops_) out.emplace_back(entry->name);
  return out;
}

}  // namespace ddblab::engine
