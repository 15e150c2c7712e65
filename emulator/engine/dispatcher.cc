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
}

OpHandler Dispatcher::Find(std::string_view operation) const {
  auto it = std::lower_bound(
      ops_.begin(), ops_.end(), operation,
      [](const OpEntry* e, std::string_view name) { return e->name < name; });
  if (it == ops_.end() || (*it)->name != operation) return nullptr;
  return (*it)->handler;
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
